"""Start-up (issue 24): the command line imports only the module of the command being run, and
the commands a player wants at once load nothing heavy. Checked through ``sys.modules`` in a
fresh interpreter (times are measured by benchmarks/startup.py, never asserted)."""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

from assistant import commands
from assistant.commands import COMMANDS
from engine import catalogue
from engine.protocols import find_controller, find_ruleset

ROOT = Path(__file__).resolve().parents[2]

#: Modules no quick answer needs: OpenCV, numpy, geometry, the web page, PDF, images, the rule
#: systems, the engine's game model (pydantic), the replay, the campaign store, speech.
HEAVY = (
    "cv2",
    "numpy",
    "shapely",
    "flask",
    "fpdf",
    "PIL",
    "pydantic",
    "rich",
    "engine.rulesets",
    "engine.controllers",
    "engine.model",
    "engine.protocols",
    "assistant.replay",
    "assistant.campaign",
    "assistant.tables",
    "pyttsx3",
)


def _loaded_after(argv: list[str]) -> tuple[int, list[str], str]:
    """Run ``soloscope ARGV`` in a fresh interpreter; its exit code, the modules it had
    loaded by the end, and its standard output."""
    code = (
        "import io, json, sys, contextlib\n"
        "from assistant.cli import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        "    try:\n"
        f"        rc = main({argv!r})\n"
        "    except SystemExit as stop:\n"
        "        rc = stop.code\n"
        "print(json.dumps([rc, sorted(sys.modules), out.getvalue()]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    rc, modules, out = json.loads(done.stdout)
    return rc, modules, out


def _heavy(modules: list[str]) -> list[str]:
    return sorted({h for h in HEAVY for m in modules if m == h or m.startswith(h + ".")})


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        [],
        ["rules"],
        ["rules", "--json"],
        ["oracle", "Does the bridge hold?", "--seed", "3"],
        ["oracle", "--yes-no", "--roll", "12", "--json"],
        ["secret", "--last-place", "--seed", "1"],
        ["track", "--help"],
    ],
)
def test_quick_commands_load_nothing_heavy(argv):
    rc, modules, out = _loaded_after(argv)
    assert rc in (0, 2) and out
    assert _heavy(modules) == []
    # no other command's module was imported (secret borrows the oracle's dice)
    expected = {c.module for c in COMMANDS if argv and c.name == argv[0]}
    if argv and argv[0] == "secret":
        expected.add("oracle")
    loaded = {m.split(".")[2] for m in modules if m.startswith("assistant.commands.")}
    assert loaded == expected


def test_odds_loads_the_one_ruleset_it_is_asked_about():
    rc, modules, out = _loaded_after(["odds", "narrative", "--attack", "4", "--defence", "4"])
    assert rc == 0 and "1/2 = 50.0%" in out
    systems = {
        m.split(".")[2].split("_")[0]
        for m in modules
        if m.startswith(("engine.rulesets.", "assistant.tables.")) and m.count(".") == 2
    }
    # The narrative rules host the card AI with firefight-lite's deck, events and reactions
    # (engine/rulesets/narrative/cards.py), so those modules come too; no other system does.
    assert systems == {"narrative", "firefight", "base", "builtin"}  # not d20, dungeon, ...
    assert not [m for m in modules if m.startswith("engine.controllers.")]
    assert not {"cv2", "flask", "fpdf", "assistant.replay"} & set(modules)


def test_detect_loads_no_rule_system(tmp_path):
    rc, modules, _ = _loaded_after(["detect", "--help"])
    assert rc == 0 and "engine.protocols" not in modules and "shapely" not in modules


def test_the_command_table_lists_every_command_module_as_it_is():
    modules = sorted(
        i.name for i in pkgutil.iter_modules(commands.__path__) if not i.name.startswith("_")
    )
    assert sorted(c.module for c in COMMANDS) == modules
    for command in COMMANDS:
        module = importlib.import_module(f"assistant.commands.{command.module}")
        assert (command.name, command.help) == (module.NAME, module.HELP)
        assert callable(module.run)
    assert len({c.name for c in COMMANDS}) == len(COMMANDS)


def test_the_catalogue_holds_each_builtin_to_its_class():
    for entry in catalogue.BUILTIN_RULESETS:
        ruleset = find_ruleset(entry.name)
        assert (ruleset.name, ruleset.title, ruleset.source) == (
            entry.name,
            entry.title,
            entry.source,
        )
        assert type(ruleset).__module__ == entry.module
    for entry in catalogue.BUILTIN_CONTROLLERS:
        controller = find_controller(entry.name)
        assert (controller.name, controller.rulesets) == (entry.name, entry.rulesets)
        assert type(controller).__module__ == entry.module


def test_every_registering_module_is_in_the_catalogue():
    """A system whose module registers itself but is missing from the catalogue would never
    be imported, so never found."""
    listed = {e.module for e in catalogue.BUILTIN_RULESETS + catalogue.BUILTIN_CONTROLLERS}
    registering = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for folder in ("rulesets", "controllers")
        for path in (ROOT / "engine" / folder).rglob("*.py")
        if re.search(r"^\s*register_(ruleset|controller)\(", path.read_text(), re.M)
    }
    assert registering == listed


def test_the_rules_listing_is_the_registry_s():
    """What `soloscope rules` prints without loading anything is what the loaded classes say."""
    loaded = [(n, find_ruleset(n).title, find_ruleset(n).source) for n in catalogue.ruleset_names()]
    assert catalogue.ruleset_titles() == loaded

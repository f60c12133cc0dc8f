"""The engine's command-line contract: the golden playthrough of ``simulate`` (byte for byte),
scenario files with mistakes (one line naming the file, the field and what is allowed; exit 2;
no traceback), and ``odds``.

The golden file ``tests/golden/ford-at-dawn-seed7.jsonl`` is the output of
``soloscope simulate ford-at-dawn --seed 7 --json``. When a deliberate change of the rules, the
AI or the autopilot changes that battle, regenerate it with::

    SOLOSCOPE_REGEN_GOLDEN=1 .venv/bin/pytest tests/engine/test_cli_engine.py -k golden

and say in the commit message why the battle changed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.cli import main

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden" / "ford-at-dawn-seed7.jsonl"
FORD = REPO / "assistant" / "data" / "scenarios" / "ford-at-dawn.toml"
SIMULATE = ["simulate", "ford-at-dawn", "--seed", "7", "--json"]


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_golden_playthrough(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, SIMULATE)
    assert code == 0 and err == ""
    if os.environ.get("SOLOSCOPE_REGEN_GOLDEN") == "1":
        GOLDEN.write_text(out, encoding="utf-8")
    expected = GOLDEN.read_text(encoding="utf-8")
    if out != expected:
        got, want = out.splitlines(), expected.splitlines()
        first = next(
            (i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b),
            min(len(got), len(want)),
        )
        pytest.fail(
            f"simulate output differs from {GOLDEN.name} at line {first + 1}:\n"
            f"  got:  {got[first] if first < len(got) else '<end>'}\n"
            f"  want: {want[first] if first < len(want) else '<end>'}\n"
            "regenerate with SOLOSCOPE_REGEN_GOLDEN=1 if the change is deliberate"
        )


RANDOM_LINES = ("roll", "draw", "shuffle")


def test_golden_lines_follow_the_json_contract() -> None:
    lines = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines()]
    setup, events = lines[0], [d for d in lines[1:] if d["type"] not in RANDOM_LINES]
    assert setup["type"] == "setup" and set(setup) == {"type", "units", "table"}
    assert setup["table"] == {"width_in": 24.0, "depth_in": 24.0}
    for u in setup["units"]:
        assert set(u) == {"id", "name", "side", "x", "y", "heading"}, u
    assert all("type" in d and "round" in d for d in events)
    assert events[-1]["type"] == "end" and events[-1]["winner"] in ("Wardens", "Raiders", "draw")
    for d in events:
        if d["type"] in ("activation", "order", "move", "attack", "wound", "fall"):
            assert "unit" in d, d
    rolls = [d for d in lines if d["type"] == "roll"]
    assert rolls and all(set(d) == {"type", "purpose", "sides", "result"} for d in rolls)
    assert all(d["purpose"] and 1 <= d["result"] <= d["sides"] for d in rolls)


def test_every_roll_is_a_line_before_the_events_it_decided() -> None:
    """Each attack's and initiative's die is a roll line written before that event (the rolls
    of one step come just before its events), in the same order."""
    lines = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines()]
    waiting: dict[str, list[dict[str, object]]] = {"attack": [], "initiative": []}
    checked = 0
    for d in lines:
        kind = str(d.get("purpose", "")).split(":")[0]
        if d["type"] == "roll" and kind in waiting:
            waiting[kind].append(d)
        elif d["type"] in waiting and "roll" in d:
            assert waiting[d["type"]], f"no roll line before {d}"
            assert waiting[d["type"]].pop(0)["result"] == d["roll"], d
            checked += 1
    assert checked >= 10 and not any(waiting.values())


def test_two_runs_are_byte_identical(capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = _run(capsys, SIMULATE)
    _, second, _ = _run(capsys, SIMULATE)
    assert first == second
    # A fresh process with another string-hash seed gives the same bytes too.
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    proc = subprocess.run(
        [sys.executable, "-m", "assistant.cli", *SIMULATE],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        check=True,
    )
    assert proc.stdout == first


def _bad(tmp_path: Path, old: str, new: str, name: str = "bad.toml") -> Path:
    text = FORD.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            '[scenario]\nname = "ford-at-dawn"',
            '[scenario\nname = "ford-at-dawn"',
            "not valid TOML: Expected ']' at the end of a table declaration (at line ",
        ),
        (
            'human_controller = "autopilot"',
            'human_controller = "autopilot"\ncolour = "red"',
            "scenario.colour: unknown field (allowed: name, title, description, ruleset,",
        ),
        (
            'role = "human"',
            'role = "robot"',
            "sides[0].role: 'robot' is not allowed (allowed: 'ai', 'human' or 'neutral')",
        ),
        (
            "x = 12.0\ny = 2.5",
            "x = 24.2\ny = 2.5",
            "units[0].x, y: the base of 'warden-captain' at (24.2, 2.5) is not wholly on the "
            "24 x 24 in table (allowed for a 1 in base: x 0.5 to 23.5, y 0.5 to 23.5)",
        ),
        (
            "tags = [{ id = 17 }]",
            "tags = [{ id = 16 }]",
            "units[1].tags[0].id: tag 16 of 'warden-archer-1' is already on 'warden-captain'",
        ),
        (
            "card = { move_in = 6, attack = 2",
            "card = { move_in = -1, attack = 2",
            "units[0].card.move_in: -1 is out of range (allowed: more than 0 and at most 48)",
        ),
        (
            "card = { move_in = 6, attack = 2",
            "card = { mvoe_in = 6, attack = 2",
            "units[0].card.mvoe_in: unknown field (allowed: move_in, attack, defence,",
        ),
        (
            'ruleset = "narrative"',
            'ruleset = "chess"',
            "scenario.ruleset: no ruleset named 'chess' (known: ",
        ),
        (
            'ai_controller = "narrative-ai"',
            'ai_controller = "skynet"',
            "scenario.ai_controller: no controller named 'skynet' (known: ",
        ),
    ],
    ids=[
        "toml",
        "unknown-field",
        "literal",
        "off-table",
        "dup-tag",
        "card",
        "card-typo",
        "ruleset",
        "controller",
    ],
)
def test_bad_scenarios_get_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, expected: str
) -> None:
    path = _bad(tmp_path, old, new)
    code, out, err = _run(capsys, ["simulate", str(path), "--seed", "1", "--json"])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"soloscope simulate: {path}: "), err
    assert expected in err, err


def test_a_side_without_units_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "empty-side.toml"
    text = FORD.read_text(encoding="utf-8").replace('side = "Raiders"', 'side = "Wardens"')
    path.write_text(text, encoding="utf-8")
    code, out, err = _run(capsys, ["simulate", str(path)])
    assert code == 2 and out == ""
    assert err == f"soloscope simulate: {path}: sides[1]: side 'Raiders' has no units\n"


def test_bad_scenario_through_the_installed_command(tmp_path: Path) -> None:
    path = _bad(tmp_path, 'role = "human"', 'role = "robot"')
    exe = REPO / ".venv" / "bin" / "soloscope"
    if not exe.exists():
        pytest.skip(f"no installed soloscope command at {exe}")
    proc = subprocess.run([str(exe), "simulate", str(path)], capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "sides[0].role" in proc.stderr


@pytest.mark.parametrize(
    ("argv", "fraction"),
    [
        (["--attack", "1", "--defence", "0"], "2/3"),
        (["--attack", "1", "--defence", "0", "--moved"], "1/2"),
        (["--attack", "0", "--defence", "5"], "1/6"),
        (["--attack", "4", "--defence", "0"], "5/6"),
    ],
)
def test_odds(capsys: pytest.CaptureFixture[str], argv: list[str], fraction: str) -> None:
    code, out, _ = _run(capsys, ["odds", "narrative", *argv])
    assert code == 0
    assert f": {fraction} = " in out

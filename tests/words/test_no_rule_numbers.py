"""What a player sees or hears says a rule in words, never by the rules document's numbering
(issue 22: "D000-13", "D003-20", "D004-01", "§5.k step 5" in logs, pages and tags.txt).

Docstrings and comments may cite the numbers; a string a program prints, speaks, serves or
writes may not. Scanned: every string literal of ``engine/`` and ``assistant/`` (docstrings
aside), the simulate log and the live session's announcements and page of every bundled
scenario, the pages' templates and scripts, the rendered campaign page, every scenario's tag
list (``tags.txt``), the generators' output and files, and every command's help.
"""

from __future__ import annotations

import argparse
import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant.cli import build_parser, main
from assistant.commands.markers import scenario_roster
from assistant.live_hub import LiveHub
from assistant.scenarios import bundled_scenarios, load_scenario
from assistant.session.dice import AutoDice
from assistant.session.game import LiveGame, Stage
from assistant.session.view import build_view
from assistant.web import create_app
from tests.campaign.helpers import campaign_copy, cli
from tests.session.virtual_table import VirtualTable, planned_game

ROOT = Path(__file__).resolve().parents[2]
RULE_NUMBER = re.compile(
    r"\b(?:[DGT]\d{3}[A-Z]?-\d{2}[a-z]?|[GT]-\d{2})\b"  # decided rulings: D000-13, T001A-01, G-05
    r"|§\s?\d"  # sections: §5.k
    r"|\bRULES\b"  # "RULES 5.m", "RULES.md"
)
SCENARIOS = [s.name for s in bundled_scenarios()]


def _numbers(text: str) -> list[str]:
    """Each rules number in ``text`` with a little of its context."""
    return [text[max(0, m.start() - 40) : m.end() + 10] for m in RULE_NUMBER.finditer(text)]


def test_the_pattern_finds_the_numbers_the_newcomer_met() -> None:
    for said in (
        "Wounds: option A (RULES D000-13)",
        "the fortress defends on 11+, D003-20",
        "placeholder rock wall C3 (not from the seed, D004-01)",
        "move (§5.k step 5: positioning)",
        "(a given face at least once, T001A-01)",
        "a roll must choose (G-05)",
        "random terrain pieces (RULES 5.n).",
    ):
        assert _numbers(said), said
    for fine in ("Round 5: Goblin Boss activates", "d20 = 14", "tag 16", "Defence 2", "G4"):
        assert not _numbers(fine), fine


def _literals(path: Path) -> Iterator[tuple[int, str]]:
    """The string literals of a module that are not docstrings nor names (``__all__``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    documentation = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in documentation
            and not node.value.isidentifier()
        ):
            yield node.lineno, node.value


def test_no_string_a_program_shows_carries_a_rules_number() -> None:
    """Every branch, however rare: order reasons, refusals, option descriptions, roll
    purposes, generated files."""
    found = [
        f"{path.relative_to(ROOT)}:{line}: {hit!r}"
        for package in ("engine", "assistant")
        for path in sorted((ROOT / package).rglob("*.py"))
        for line, text in _literals(path)
        for hit in _numbers(text)
    ]
    assert found == [], "\n".join(found)


def _play_on(game: LiveGame, most: int = 3000) -> None:
    """A perfect player carries out every order and the simulated battle's own actions, and
    passes when those run out, until the battle is over or the game stops moving on."""
    table = VirtualTable(game)
    idle = 0
    for _ in range(most):
        if game.stage is Stage.OVER or idle > 20:
            return
        before = len(game.steps)
        if game.stage is Stage.HUMAN and game.plan_index >= len(game.human_plan):
            game.declare("pass", None)
            table.sync()
        else:
            table.step()
        idle = idle + 1 if len(game.steps) == before else 0


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_log_announcements_and_page_of_every_bundled_scenario(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The simulate log (seed 1), and the same battle played at a virtual table: everything
    said aloud and the page's view at the end."""
    assert main(["simulate", name, "--seed", "1"]) == 0
    log = capsys.readouterr().out
    assert not _numbers(log), _numbers(log)

    said: list[str] = []
    game = planned_game(name, 1, AutoDice(1), said)
    _play_on(game)
    spoken = "\n".join(said)
    assert not _numbers(spoken), _numbers(spoken)
    page = build_view(game).to_json()
    assert not _numbers(page), _numbers(page)


def test_the_tag_list_of_every_bundled_scenario() -> None:
    """What ``markers --scenario`` writes to tags.txt (and prints in the kit)."""
    for name in SCENARIOS:
        roster = scenario_roster(load_scenario(name))
        text = "\n".join([roster.title, *roster.lines])
        assert not _numbers(text), (name, _numbers(text))


def test_the_pages_templates_and_scripts() -> None:
    files = [
        *sorted((ROOT / "assistant" / "web" / "templates").glob("*.html")),
        *sorted((ROOT / "assistant" / "web" / "static").glob("*")),
        ROOT / "assistant" / "replay" / "viewer.html",
    ]
    found = {f.name: _numbers(f.read_text(encoding="utf-8")) for f in files}
    assert {k: v for k, v in found.items() if v} == {}


def test_the_campaign_page_and_its_commands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: "Wounds: option A (RULES D000-13)" on the page, and in ``campaign --help``."""
    db = tmp_path / "c.sqlite"
    said = cli(capsys, "campaign", "new", str(campaign_copy(tmp_path)), "--db", str(db))
    said += cli(capsys, "campaign", "next", "--simulate", "--seed", "9", "--db", str(db))
    said += cli(capsys, "campaign", "resolve", "--speech", "off", "--db", str(db))
    said += cli(capsys, "campaign", "show", "--db", str(db))
    assert not _numbers(said), _numbers(said)
    client = create_app(LiveHub(), {"TESTING": True, "CAMPAIGN_DB": str(db)}).test_client()
    for address in ("/campaign", "/campaign/battle/1"):
        html = client.get(address).get_data(as_text=True)
        assert not _numbers(html), (address, _numbers(html))


@pytest.mark.parametrize(
    "argv",
    [
        ["generate", "scenario", "--seed", "42"],
        ["generate", "scenario", "--seed", "7", "--scenario", "spawning", "--errata"],
        ["generate", "scenario", "--seed", "3", "--scenario", "infiltrate"],
        ["generate", "terrain", "--seed", "5"],
        ["generate", "grid", "--seed", "4"],
    ],
    ids=lambda argv: " ".join(argv[1:]),
)
def test_the_generators_output_and_files(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: "(the fortress takes 5 wounds and defends on 11+, D003-20)", "13 random
    terrain pieces (RULES 5.n)." and the same in the scenario file's header."""
    out = tmp_path / "generated.toml"
    assert main([*argv, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    written = out.read_text(encoding="utf-8")
    assert not _numbers(printed), _numbers(printed)
    assert not _numbers(written), _numbers(written)


def _parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _parsers(sub)


def test_every_commands_help() -> None:
    helps = {parser.prog: parser.format_help() for parser in _parsers(build_parser())}
    assert {prog: _numbers(text) for prog, text in helps.items() if _numbers(text)} == {}

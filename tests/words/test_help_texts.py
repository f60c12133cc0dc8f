"""Every command's help reads as a sentence, an unknown option is told with that command's own
usage, and the README's command table names every command (issue 22)."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant.cli import build_parser, main

README = Path(__file__).resolve().parents[2] / "README.md"


def _subcommands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], str, argparse.ArgumentParser]]:
    """(command path, its help in the parent's list, its parser) for every (sub)command."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                yield (*path, name), helps.get(name, ""), sub
                yield from _subcommands(sub, (*path, name))


COMMANDS = list(_subcommands(build_parser()))


def test_there_are_commands_and_subcommands() -> None:
    paths = {" ".join(p) for p, _, _ in COMMANDS}
    assert {"simulate", "campaign", "campaign new", "campaign recover", "generate grid"} <= paths


@pytest.mark.parametrize(
    ("path", "listed", "parser"), COMMANDS, ids=[" ".join(p) for p, _, _ in COMMANDS]
)
def test_help_starts_with_a_capital_and_ends_with_a_full_stop(
    path: tuple[str, ...], listed: str, parser: argparse.ArgumentParser
) -> None:
    """Before: "map the table from ..." (no capital, no full stop); ``campaign new --help``
    had no description at all."""
    description = parser.description or ""
    for what, text in (("help", listed), ("description", description)):
        assert text, f"soloscope {' '.join(path)} has no {what}"
        assert text[0].isupper(), f"soloscope {' '.join(path)} {what}: {text!r}"
        assert text.rstrip().endswith("."), f"soloscope {' '.join(path)} {what}: {text!r}"


@pytest.mark.parametrize(
    ("command", "argv"),
    [
        ("rules", ["rules", "--jsn"]),
        ("campaign show", ["campaign", "show", "--db", "c.sqlite", "--jsn"]),
        ("generate grid", ["generate", "grid", "--jsn"]),
    ],
)
def test_an_unknown_option_shows_the_usage_of_its_command(
    command: str, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: ``rules --jsn`` printed the top-level usage (``soloscope [-h] COMMAND ...``)."""
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    command = f"soloscope {command}"
    assert err.startswith(f"usage: {command} "), err
    assert err.rstrip().endswith(f"{command}: error: unrecognized arguments: --jsn"), err


def _readme_rows() -> list[str]:
    text = README.read_text(encoding="utf-8")
    table = text[text.index("| command | what it does |") :].split("\n\n", 1)[0]
    return [line.split("|")[1].strip() for line in table.splitlines()[2:]]


def test_the_readme_table_names_every_command() -> None:
    """Before: it missed ``campaign``, ``roster``, ``generate grid`` and ``campaign recover``.
    A command chosen by a placeholder (``odds RULESET``) is named by the placeholder's row."""
    rows = _readme_rows()
    placeholders = {
        " ".join(p): str(a.metavar)
        for p, _, parser in COMMANDS
        for a in parser._actions
        if isinstance(a, argparse._SubParsersAction) and str(a.metavar).isupper()
    }
    leaves = [
        p
        for p, _, parser in COMMANDS
        if not any(isinstance(a, argparse._SubParsersAction) for a in parser._actions)
    ]
    for path in leaves:
        names = [" ".join(path)]
        parent = " ".join(path[:-1])
        if parent in placeholders:
            names.append(f"{parent} {placeholders[parent]}")
        assert any(
            re.match(rf"`soloscope {re.escape(n)}( |`)", row) for row in rows for n in names
        ), " ".join(path)


NEEDED_THOUGH_OPTIONAL = {("play", "--scenario"), ("calibrate", "--source")}
"""Options argparse takes as optional that the command refuses to go without (play needs a
scenario unless it resumes a saved game; calibrate needs a source unless it calibrates a
lens): the table shows them without brackets."""


def test_the_readme_table_shows_optional_options_in_brackets() -> None:
    """Before: ``simulate SCENARIO --seed N`` although --seed is optional. Every option taking
    a value that a row shows outside brackets (or a choice in parentheses) is one its command
    requires."""
    commands = {" ".join(p): parser for p, _, parser in COMMANDS}
    for row in _readme_rows():
        words = row.strip("`").split()[1:]
        path: list[str] = []
        while words and " ".join([*path, words[0]]) in commands:
            path.append(words.pop(0))
        command = " ".join(path)
        parser = commands[command]
        shown, depth = set(), 0
        for word in " ".join(words).replace("\\|", "|").split():
            opened = word.count("[") + word.count("(")
            depth += opened
            option = word.strip("[]()`")
            if option.startswith("--") and depth == 0:
                shown.add(option)
            depth -= word.count("]") + word.count(")")
        required = {
            s for a in parser._actions if a.required for s in a.option_strings if s.startswith("--")
        }
        required |= {option for name, option in NEEDED_THOUGH_OPTIONAL if name == command}
        # a flag (it takes no value) shown plainly picks what the row does: `calibrate --lens`
        required |= {s for a in parser._actions if a.nargs == 0 for s in a.option_strings}
        assert shown <= required, (row, shown - required)


@pytest.mark.parametrize(
    ("argv", "named"),
    [(["play", "--source", "0"], "--scenario"), (["calibrate"], "--source")],
)
def test_the_options_needed_though_optional_are_needed(
    argv: list[str],
    named: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    assert named in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []

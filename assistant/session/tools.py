"""Seed 003's narrative tools at the table (RULES §5.b): the page's Oracle, Yes/No and Secret
buttons. Each rolls one d20 of its own (not the battle's dice, so the battle's seeded rolls
and its undo are untouched) and the answer is announced: spoken, shown on the page and
logged with the game like every announcement.
"""

from __future__ import annotations

import secrets

from assistant.live_commands import Command
from engine.dice import RandomSource, SeededDice
from engine.scenario import Scenario
from engine.tools.oracle import (
    ORACLE_WORDS,
    SECRET_WORDS,
    ask_yes_no,
    search_for_secret,
    what_happens_next,
)

TOOL_KINDS = frozenset({"oracle", "yes-no", "secret"})
"""The page commands that roll a narrative tool."""

LAST_PLACE = "last-place"
"""A secret command's ``action`` when every other place has been searched (D003-26)."""


def tool_dice() -> RandomSource:
    """A fresh d20 source for one narrative roll."""
    return SeededDice(secrets.randbelow(2**32))


def tool_text(cmd: Command, scenario: Scenario, dice: RandomSource | None = None) -> str:
    """Roll the tool a page command asks for; the announcement that answers it
    ("Oracle: Does the bridge hold? d20 = 7: it happens, but with a bad twist.")."""
    roll_with = dice if dice is not None else tool_dice()
    text = " ".join((cmd.text or "").split())
    asked = f" {text}" if text else ""
    if cmd.kind == "yes-no":
        answer = ask_yes_no(roll_with, text)
        return f"Yes or no:{asked} d20 = {answer.roll}: {'yes' if answer.yes else 'no'}."
    if cmd.kind == "secret":
        last = cmd.action == LAST_PLACE
        mandatory = bool(scenario.options.get("secret_mandatory", False))
        check = search_for_secret(roll_with, text, last_place=last, mandatory=mandatory)
        where = " (the last place)" if last else ""
        return f"Secret{where}:{asked} d20 = {check.roll}: {SECRET_WORDS[check.outcome]}."
    oracle = what_happens_next(roll_with, text)
    return f"Oracle:{asked} d20 = {oracle.roll}: {ORACLE_WORDS[oracle.outcome]}."

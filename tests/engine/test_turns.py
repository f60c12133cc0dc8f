"""The turn-order kit (engine/turns.py): every system declares its order on it, opens
``validate`` with its one prologue, and says the same thing in the same words."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import replace

import pytest

from assistant.scenarios import load_game
from engine.actions import Action, ActionKind
from engine.dice import SeededDice
from engine.model import GameState
from engine.protocols import PendingKind, Ruleset
from engine.rulesets.d20.ruleset import D20Ruleset
from engine.rulesets.dungeon import legality as dungeon_legality
from engine.rulesets.firefight_lite.ruleset import FirefightLite
from engine.rulesets.narrative import legality as narrative_legality
from engine.rulesets.narrative.ruleset import NarrativeRuleset
from engine.rulesets.narrative.state import with_rules
from engine.rulesets.skirmish2d6.ruleset import SkirmishRuleset
from engine.rulesets.strike.ruleset import StrikeRuleset
from engine.runner import acting_side, controllers_for, next_action, with_order_memory
from engine.turns import Continuing, TurnOrder

BATTLES = {
    "narrative": "crossroads-ambush",
    "narrative card AI": "crossroads-cards",
    "strike": "strike-causeway",
    "skirmish2d6": "skirmish-cairns",
    "firefight-lite": "bosworth-street",
    "d20": "d20-basic-battle",
    "dungeon": "dungeon-crawl",
}

PENDING: list[Callable[..., object]] = [
    D20Ruleset.pending,
    dungeon_legality.pending,
    FirefightLite.pending,
    NarrativeRuleset.pending,
    SkirmishRuleset.pending,
    StrikeRuleset.pending,
]
VALIDATE_OPENINGS: list[Callable[..., object]] = [
    D20Ruleset.validate,
    dungeon_legality.validate,
    FirefightLite.validate,
    narrative_legality.action_problems,
    SkirmishRuleset._validate,
    StrikeRuleset.validate,
]


def _body(function: Callable[..., object]) -> list[str]:
    """The lines of a function after its signature and docstring."""
    lines = inspect.getsource(function).splitlines()
    start = next(i for i, line in enumerate(lines) if line.rstrip().endswith(":")) + 1
    if lines[start].strip().startswith('"""'):
        while not lines[start].rstrip().endswith('"""') or lines[start].strip() == '"""':
            start += 1
        start += 1
    return lines[start:]


@pytest.mark.parametrize("function", PENDING, ids=lambda f: f.__module__)
def test_every_system_declares_its_order_instead_of_writing_pending(
    function: Callable[..., object],
) -> None:
    assert [line.strip() for line in _body(function)] == ["return TURNS.pending(state)"]


@pytest.mark.parametrize("function", VALIDATE_OPENINGS, ids=lambda f: f.__module__)
def test_every_validate_opens_with_the_one_prologue_in_under_ten_lines(
    function: Callable[..., object],
) -> None:
    body = _body(function)
    ends = next(i for i, line in enumerate(body) if line.strip() == "return opening")
    assert ends < 10
    assert any("prologue(state, " in line for line in body[:ends])


def _choosing(name: str) -> tuple[Ruleset, GameState]:
    """The battle at its first CHOOSE_UNIT (controllers and seed 1 play the steps before)."""
    scenario, ruleset, state = load_game(name)
    controllers, dice, planned = controllers_for(scenario), SeededDice(1), list[Action]()
    while ruleset.pending(state).kind is not PendingKind.CHOOSE_UNIT:
        chosen = next_action(state, ruleset, controllers, dice, planned)
        assert chosen is not None
        action, order = chosen
        outcome = ruleset.apply(state, action, dice)
        state = with_order_memory(outcome.state, acting_side(state, action), order)
    return ruleset, state


@pytest.mark.parametrize("system", sorted(BATTLES))
def test_every_system_says_the_opening_checks_in_the_same_words(system: str) -> None:
    _scenario, ruleset, start = load_game(BATTLES[system])
    first = ruleset.pending(start)
    assert first.kind is PendingKind.CHANCE
    assert ruleset.validate(start, Action(ActionKind.PASS, side=start.sides[0].name)) == [
        f"the dice come first ({first.purpose})"
    ]
    ruleset, state = _choosing(BATTLES[system])
    pending = ruleset.pending(state)
    side = pending.side or ""
    other = next(s.name for s in state.sides if s.name != side)
    assert ruleset.validate(state, Action(ActionKind.CHANCE)) == ["no roll is due now"]
    assert ruleset.validate(state, Action(ActionKind.CHOOSE, side=side)) == ["no choice is due now"]
    known = ", ".join(sorted(ruleset.action_kinds))
    assert ruleset.validate(state, Action("bogus", pending.candidates[0])) == [
        f"'bogus' is not an action of these rules (they have: {known})"
    ]
    assert ruleset.validate(state, Action(ActionKind.PASS, side=other)) == [
        f"{other} cannot pass now"
    ]
    assert ruleset.validate(state, Action(ActionKind.MOVE, "ghost")) == [
        "there is no figure 'ghost' in this battle"
    ]
    over = replace(state, winner=side)
    if system.startswith("narrative"):
        over = with_rules(over, waiting=PendingKind.OVER)
    assert ruleset.validate(over, Action(ActionKind.PASS, side=side)) == ["the battle is over"]


@pytest.mark.parametrize("system", ["d20", "dungeon", "firefight-lite", "skirmish2d6"])
def test_a_unit_out_of_turn_is_told_who_may_act(system: str) -> None:
    ruleset, state = _choosing(BATTLES[system])
    pending = ruleset.pending(state)
    waiting = next(u for u in state.units if u.on_table and u.id not in pending.candidates)
    names = ", ".join(state.unit(c).name for c in pending.candidates)
    assert ruleset.validate(state, Action(ActionKind.PASS, waiting.id)) == [
        f"{waiting.name} cannot act now (may act: {names})"
    ]


def test_a_firefight_pass_names_the_side_whose_half_turn_it_is() -> None:
    """A pass naming the other side (or one of its figures) once passed the side to move."""
    ruleset, state = _choosing(BATTLES["firefight-lite"])
    pending = ruleset.pending(state)
    other = next(s.name for s in state.sides if s.name != pending.side)
    theirs = next(u for u in state.units_of(other) if u.id not in pending.candidates)
    assert ruleset.validate(state, Action(ActionKind.PASS, side=other)) == [
        f"{other} cannot pass now"
    ]
    assert ruleset.validate(state, Action(ActionKind.PASS, theirs.id, side=other))
    assert ruleset.validate(state, Action(ActionKind.PASS, side=pending.side)) == []


def test_the_kit_asks_in_one_order_and_falls_back_to_a_new_round() -> None:
    _scenario, _ruleset, state = load_game(BATTLES["d20"])
    sides = [s.name for s in state.sides]
    everyone = tuple(u.id for u in state.units)
    order = TurnOrder(sides=lambda s: sides, ready=lambda s, side: (), new_round="new round")
    assert order.pending(state).kind is PendingKind.CHANCE
    assert order.pending(state).purpose == "new round"
    order = replace(order, ready=lambda s, side: everyone if side == sides[1] else ())
    chosen = order.pending(state)
    assert (chosen.kind, chosen.side, chosen.candidates) == (
        PendingKind.CHOOSE_UNIT,
        sides[1],
        everyone,
    )
    order = replace(order, acting=lambda s: Continuing(everyone[0], may_pass=False))
    going = order.pending(state)
    assert (going.kind, going.unit, going.may_pass) == (PendingKind.CONTINUE, everyone[0], False)
    assert replace(order, chance=lambda s: "start").pending(state).kind is PendingKind.CONTINUE
    assert replace(order, over=lambda s: True).pending(state).kind is PendingKind.OVER

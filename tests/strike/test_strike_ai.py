"""strike-ai's priority list (RULES §3.3.1) on constructed boards: a strike that removes comes
first and takes the most valuable enemy; sprint dice are spent only when a removal needs
them; it never passes while a die matches a waiting soldier."""

from __future__ import annotations

from dataclasses import replace

from engine.actions import Action, ActionKind
from engine.controllers.strike_ai import StrikeAI
from engine.dice import ScriptedDice
from engine.protocols import PendingKind
from tests.strike.builders import RULESET, game, soldier, with_pools


def _order(state, unit_id: str):  # type: ignore[no-untyped-def]
    return StrikeAI().decide(state, RULESET, unit_id, ScriptedDice([]))


def test_a_strike_that_removes_comes_first_and_takes_the_most_valuable_enemy() -> None:
    units = [
        soldier("a1", "A", 10, 12, points=1),
        soldier("a2", "A", 14, 12, points=5),
        soldier("b1", "B", 12, 16, threat="assault", lethal=True),
    ]
    state = with_pools(game(units), active="B", A=[], B=[2])
    order = _order(state, "b1")
    assert order.rule == "(a) a strike that removes"
    assert order.action.kind == "strike" and order.action.target_id == "a2"
    out = RULESET.apply(state, order.action, ScriptedDice([]))
    assert any(e.type == "strike" and e.get("removed") for e in out.events)


def test_sprint_dice_only_when_the_removal_needs_them() -> None:
    sprint = [{"name": "Frenzy", "effect": "sprint", "inches": 3}]
    units = [
        soldier("a1", "A", 12, 2, toughness=1),
        soldier("b1", "B", 12, 14, speed_in=4, threat="melee", initiative=2, skills=sprint),
    ]
    state = with_pools(game(units), active="B", A=[], B=[2, 6, 6])
    order = _order(state, "b1")
    assert order.action.kind == "strike" and order.action.get("sprint_dice") == [6, 6]
    assert RULESET.validate(state, order.action) == []
    near = state.with_unit(replace(state.unit("b1"), y=8.0))
    order = _order(near, "b1")
    assert order.action.kind == "strike" and not order.action.get("sprint_dice")


def test_it_never_passes_while_a_die_matches() -> None:
    units = [soldier("a1", "A", 4, 2), soldier("b1", "B", 4, 22), soldier("b2", "B", 8, 22)]
    state = with_pools(game(units), active="B", A=[], B=[2])
    pending = RULESET.pending(state)
    assert pending.kind is PendingKind.CHOOSE_UNIT and pending.side == "B"
    assert StrikeAI().choose_unit(state, RULESET, pending, ScriptedDice([])) in ("b1", "b2")


def test_after_its_move_it_ends_the_activation_when_nothing_is_left() -> None:
    units = [soldier("a1", "A", 4, 2, toughness=5), soldier("b1", "B", 4, 12)]
    state = with_pools(game(units), active="B", A=[], B=[2])
    move = Action(ActionKind.MOVE, "b1", path=((4, 12), (4, 10)))
    state = RULESET.apply(state, move, ScriptedDice([])).state
    assert RULESET.pending(state).kind is PendingKind.CONTINUE  # it could still strike a1
    order = _order(state, "b1")
    assert order.action.kind == ActionKind.PASS and order.rule == "(e) end of the activation"

"""Unknown dice in a replay: every result the dice could give is tried through the ruleset, and
only distinct outcomes are kept."""

from __future__ import annotations

from dataclasses import replace

import pytest

from assistant.replay.engine_branches import BranchingDice, UnknownResult, branches, outcomes
from assistant.scenarios import load_game
from engine.actions import Action, ActionKind
from engine.dice import ScriptedDice


def test_branching_dice_give_their_branch_then_list_what_could_come() -> None:
    dice = BranchingDice((4, "QC"))
    assert dice.roll(6, "first") == 4
    assert dice.draw("ai", ("AS", "QC", "QC"), "card") == "QC"
    with pytest.raises(UnknownResult) as more:
        dice.roll(8, "third")
    assert more.value.choices == tuple(range(1, 9)) and more.value.purpose == "third"
    with pytest.raises(UnknownResult) as card:
        BranchingDice().draw("ai", ("AS", "QC", "QC"), "card")
    assert card.value.choices == ("AS", "QC")


def test_every_branch_of_two_dice_is_tried_in_order() -> None:
    found = branches(lambda d: (d.roll(2, "a"), d.roll(3, "b")))
    assert [value for value, _ in found] == [(a, b) for a in (1, 2) for b in (1, 2, 3)]
    assert [r.result for r in found[-1][1]] == [2, 3]  # type: ignore[union-attr]
    assert len(branches(lambda d: d.roll(6, "x"), limit=4)) == 3  # the first try only branches


def test_outcomes_are_the_distinct_results_of_the_rules() -> None:
    _, ruleset, state = load_game("crossroads-ambush")
    # Initiative: 1-3 the AI side starts, 4-6 the human side: two outcomes from six faces.
    starts = outcomes(ruleset, state, Action(ActionKind.CHANCE))
    assert [o.state.active_side for o in starts] == ["Goblins", "Road Wardens"]
    # A melee: the defender (no wound slot) falls or does not.
    state = ruleset.apply(state, Action(ActionKind.CHANCE), ScriptedDice([1])).state
    boss = replace(state.unit("goblin-boss"), x=8.0, y=4.25)
    state = state.with_unit(boss)
    fight = Action(ActionKind.CONTINUE_MELEE, "goblin-boss", target_id="crossbow")
    results = outcomes(ruleset, state, fight)
    assert {o.state.unit("crossbow").on_table for o in results} == {True, False}
    assert outcomes(ruleset, state, Action(ActionKind.SHOOT, "goblin-boss", target_id="x")) == []

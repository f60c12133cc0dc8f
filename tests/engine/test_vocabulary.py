"""The open vocabulary (issue 11): action kinds and event types are strings a ruleset may add
to, actions carry JSON details, orders carry several actions and a memory, and an illegal
action's error names the action, the round and the step."""

from __future__ import annotations

import json

import pytest
from builders import AI, HUMANS, build, unit

from engine.actions import Action, ActionKind, Event, EventType, IllegalActionError, Order, event
from engine.dice import ScriptedDice
from engine.errors import EngineError
from engine.protocols import find_ruleset, ruleset_names


def _round_trip_action(action: Action) -> Action:
    return Action.from_json(json.loads(json.dumps(action.to_json())))


def test_the_shared_vocabulary_covers_rules_1_7() -> None:
    words = {str(k) for k in ActionKind}
    assert {
        "move",
        "shoot",
        "move_and_shoot",
        "move_into_melee",
        "continue_melee",
        "hold",
        "overwatch",
        "react_fire",
        "react_evade",
        "interact",
        "flee",
        "pass",
        "chance",
        "choose",
    } <= words


def test_an_action_with_details_round_trips_through_json() -> None:
    action = Action(
        "aim",
        "bot-2",
        path=((1.5, 2.5), (3.5, 2.5)),
        target_id="citizen",
        detail=(("weapon", "laser"), ("dice", 3), ("cells", ((1, 2), (3, 2))), ("free", True)),
    )
    data = action.to_json()
    assert data["kind"] == "aim"
    assert data["detail"] == {
        "weapon": "laser",
        "dice": 3,
        "cells": [[1, 2], [3, 2]],
        "free": True,
    }
    back = _round_trip_action(action)
    assert back == action
    assert back.get("weapon") == "laser" and back.get("missing", 7) == 7


def test_a_shared_kind_equals_its_word() -> None:
    assert Action(ActionKind.SHOOT, "a", target_id="b") == Action("shoot", "a", target_id="b")
    assert _round_trip_action(Action(ActionKind.FLEE, "a")).kind == ActionKind.FLEE


@pytest.mark.parametrize("data", [{}, {"kind": 3}, {"kind": ""}, {"kind": "move", "detail": [1]}])
def test_what_is_not_an_action_is_refused_in_one_sentence(data: dict[str, object]) -> None:
    with pytest.raises(EngineError, match="not an action"):
        Action.from_json(data)


def test_events_of_any_type_round_trip() -> None:
    ev = event("card_drawn", 2, "Bot 2 draws the queen of clubs.", "bot-2", card="QC", left=[3, 4])
    back = Event.from_json(json.loads(json.dumps(ev.to_json())))
    assert back == ev and back.type == "card_drawn" and back.get("left") == (3, 4)
    assert Event.from_json(event(EventType.MOVE, 1, "x").to_json()).type == EventType.MOVE
    with pytest.raises(EngineError, match="not an event"):
        Event.from_json({"type": 5, "round": 1})


def test_an_order_holds_several_actions_and_a_memory() -> None:
    first = Action(ActionKind.MOVE, "a", path=((1, 1), (1, 3)))
    second = Action(ActionKind.SHOOT, "a", target_id="b")
    order = Order(
        (first, second), "card: 7 of spades", "it advances and fires", memory=(("foe", "b"),)
    )
    assert order.action == first and order.actions == (first, second)
    data = order.to_json()
    assert data["action"] == first.to_json()
    assert data["actions"] == [first.to_json(), second.to_json()]
    assert data["memory"] == {"foe": "b"}
    single = Order(second, "r", "why")
    assert single.actions == (second,) and "actions" not in single.to_json()
    assert "memory" not in single.to_json()
    with pytest.raises(EngineError):
        Order((), "r", "why")


def test_the_narrative_ruleset_declares_its_kinds_and_refuses_others() -> None:
    ruleset, state = build([unit("a", HUMANS, 5, 5), unit("b", AI, 15, 15)])
    assert ruleset.action_kinds == {
        "chance",
        "pass",
        "move",
        "shoot",
        "move_and_shoot",
        "move_into_melee",
        "continue_melee",
        "flee",
        # The card AI's, in a battle it commands (engine.rulesets.narrative.cards).
        "overwatch",
        "react_fire",
        "react_evade",
        "reshuffle",
    }
    assert ruleset.validate(state, Action("initiative")) == [
        "'initiative' is not an action of these rules (they have: chance, continue_melee, "
        "flee, move, move_and_shoot, move_into_melee, overwatch, pass, react_evade, "
        "react_fire, reshuffle, shoot)"
    ]
    assert ruleset.validate(state, Action("overwatch", "b")) == [
        "overwatch belongs to the card AI's figures, and it does not play this battle"
    ]
    assert ruleset.action_word(Action(ActionKind.FLEE, "a")) == "rout"
    assert ruleset.action_word(Action(ActionKind.SHOOT, "a")) == "shoot"


def test_an_illegal_action_error_names_the_action_round_and_step() -> None:
    ruleset, state = build([unit("a", HUMANS, 5, 5), unit("b", AI, 15, 15)])
    action = Action("hold", "a", detail=(("ability", "brace"),))
    with pytest.raises(IllegalActionError) as err:
        ruleset.apply(state, action, ScriptedDice([]))
    assert err.value.action == action
    assert (err.value.round, err.value.step) == (state.round, state.step)
    assert str(err.value) == (
        'illegal action {"kind": "hold", "unit": "a", "detail": {"ability": "brace"}} '
        f"in round {state.round}, step {state.step}: {err.value.reason}"
    )


def test_only_the_2d6_skirmishs_charge_leads_into_a_move() -> None:
    """A charge is declared where the fighter stands and then run (the replay reads a seen run
    as the charge it completes); no other system declares an action that leads into a move."""
    leads = {name: find_ruleset(name).move_leads for name in ruleset_names()}
    assert leads.pop("skirmish2d6") == {"charge"} <= find_ruleset("skirmish2d6").action_kinds
    assert not any(leads.values()), leads

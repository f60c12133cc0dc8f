"""The card AI's state stays hashable while a reaction holds an action whose detail is a JSON
list (a card move's cell, ``[7, 15]``): the replay keys every state it reaches, and replaying
bosworth-street from footage used to stop with "unhashable type: 'list'"."""

from __future__ import annotations

from dataclasses import replace

from assistant.scenarios import load_game
from engine.actions import Action
from engine.rulesets.firefight_lite.state import FFState


def test_a_state_holding_an_action_with_a_json_list_is_hashable() -> None:
    _, _, state = load_game("bosworth-street")
    held = Action(
        "move_and_fire",
        "varlet-2",
        target_id="trooper-3",
        detail=(("card", "5D"), ("cell", [7, 15])),
    )
    rules = state.rules
    assert isinstance(rules, FFState)
    holding = replace(state, rules=replace(rules, held=held, reacting="trooper-3"))
    again = replace(state, rules=replace(rules, held=held, reacting="trooper-3"))
    assert hash(holding) == hash(again) and holding == again
    kept = holding.rules
    assert isinstance(kept, FFState) and kept.held is not None
    assert kept.held.get("cell") == (7, 15)

"""A step with more outcomes than the search enumerates (a pool of many dice rolled at once,
6^n results) is not a dead end for the replay: spread results stand for it (engine_branches)."""

from __future__ import annotations

import pytest

import assistant.replay.engine_branches as engine_branches
from assistant.replay.engine_replay import GameReplayer
from tests.replay.engine_rolls_battle import battle_footage, figures

SCENARIO = "strike-causeway"


def test_a_round_opened_by_a_dice_pool_is_read_from_the_moves_without_the_dice() -> None:
    """The strike ruleset's Oracle phase rolls a d6 per point of Initiative for each side;
    the replay once stopped there ("not legal: the dice come first (oracle)")."""
    footage = battle_footage(SCENARIO, 1)
    moves = footage.moves[:8]
    removals = [r for r in footage.removals if r.t < moves[-1].t_end]
    result = GameReplayer(SCENARIO).replay(moves, removals)
    game = figures(result)
    assert game["rounds"] == 1 and game["activations"] == 8
    legality = [e for e in result.events if e["kind"] == "legality"]
    assert len(legality) == 4 and all(e["legal"] for e in legality)
    assert game["orders"] == game["followed"] == 4
    assert [r.piece for r in removals] == ["Stalker Rhi"]
    assert game["fallen"] == ["marauder-stalker"]


def test_without_the_spread_results_the_pool_is_a_dead_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the spread results change: the same footage, none tried."""
    footage = battle_footage(SCENARIO, 1)
    monkeypatch.setattr(engine_branches, "SAMPLES", 0)
    monkeypatch.setattr(engine_branches, "KEPT_OUTCOMES", 0)  # nor the likeliest pools
    result = GameReplayer(SCENARIO).replay(footage.moves[:2])
    legality = [e for e in result.events if e["kind"] == "legality"]
    assert legality and "the dice come first (oracle)" in legality[0]["text"]

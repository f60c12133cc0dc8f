"""The engine reads a battle from its moves and the dice seen in the tray (issue 10): with
every roll seen, the melee rounds in which nothing moves are played out roll by roll, so the
rounds, activations, fallen and winner come out as the log's (``soloscope simulate``)."""

from __future__ import annotations

import pytest

from assistant.replay.engine_replay import DICE_NOTE, SEEN_DICE_NOTE, GameReplayer
from tests.replay.engine_rolls_battle import battle_footage, figures


@pytest.mark.parametrize(
    ("scenario", "seed"),
    [
        # rounds 4 to 6 are a melee with no fall: nothing moves (the footage alone reads 4)
        ("crossroads-ambush", 3),
        ("ford-at-dawn", 3),
    ],
)
def test_the_seen_dice_give_the_log_s_rounds_activations_fallen_and_winner(
    scenario: str, seed: int
) -> None:
    footage = battle_footage(scenario, seed)
    result = GameReplayer(scenario).replay(
        footage.moves, footage.removals, None, rolls=footage.rolls
    )
    game = figures(result)
    assert game["rounds"] == footage.rounds
    assert abs(game["activations"] - footage.activations) <= 1
    assert set(game["fallen"]) == footage.fallen
    assert game["winner"] == footage.winner is not None
    assert game["orders"] == game["followed"] == footage.ai_moves
    # every die the engine rolled was one the camera saw
    dice = [e for e in result.events if e["kind"] in ("attack", "rout_check", "initiative")]
    assert dice and all(e.get("known") == "seen" for e in dice if "known" in e)
    assert sum(1 for e in dice if e.get("known") == "seen") >= len(footage.rolls) // 3
    notes = [e["text"] for e in result.events if e["kind"] == "note"]
    assert SEEN_DICE_NOTE in notes and DICE_NOTE not in notes

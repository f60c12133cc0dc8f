"""Footage of a firefight-lite game read back through the engine: a three-square move of the
player's trooper is a legal activation (reached through the unseen set-up shuffle, event card,
initiative rolls and choice); a six-square move is flagged with the ruleset's own reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.replay import engine_unseen
from assistant.replay.engine_replay import GameReplayer
from assistant.replay.reconstruct import PieceMove

SCENARIO = (
    Path(__file__).resolve().parents[2]
    / "assistant"
    / "data"
    / "scenarios"
    / "bosworth-street.toml"
)


@pytest.fixture(autouse=True)
def short_end_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """After the footage's last move the replay looks for the battle's end in steps it did not
    see; with the card AI every card it could draw is a branch, so these legality tests keep
    that search to two steps (it finds no end either way)."""
    monkeypatch.setattr(engine_unseen, "MAX_UNSEEN_STEPS", 2)


def _replay_up(squares: int) -> tuple[list[dict[str, object]], tuple[dict[str, object], ...]]:
    game = GameReplayer(str(SCENARIO))
    trooper = game.initial.unit("trooper-1")
    grid = game.initial.table.grid
    assert grid is not None and trooper.cell == (7, 20)
    to = grid.centre((7, 20 - squares))
    move = PieceMove(trooper.name, "", (17,), trooper.position, to, 0.0, 0.0, 2.0, 3.2)
    result = game.replay([move])
    return [e for e in result.events if e["kind"] == "legality"], tuple(result.activations)


def test_a_three_square_move_is_a_legal_activation() -> None:
    legality, activations = _replay_up(3)
    assert [e["legal"] for e in legality] == [True]
    assert [a["unit"] for a in activations] == ["trooper-1"]


def test_a_six_square_move_is_flagged_with_the_rulesets_reason() -> None:
    legality, _ = _replay_up(6)
    assert [e["legal"] for e in legality] == [False]
    assert legality[0]["reason"] == "Trooper Vance cannot reach H15 in 4 squares"

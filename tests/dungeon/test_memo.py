"""The Dungeon Crawl's answers kept per state in the game's memo (issue 25: the enemy
decision asks the same state several times; nothing is written into the frozen state)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.protocols import PendingKind
from engine.rulesets.dungeon.board import Board
from tests.dungeon.boards import acting, ruleset, started

FIGURES = (
    ("h1", "fighting_man", (0, 0), 180.0, "hero"),
    ("e1", "goblin", (3, 3), 0.0, "enemy"),
)


def test_a_states_decision_point_is_worked_out_once() -> None:
    """The same state answers ``pending`` with the one object; a state derived from it, even
    an equal one, gets its own answer (the memo is keyed by the state object)."""
    state = acting(started(5, 5, FIGURES), "e1")
    first = ruleset().pending(state)
    assert first.kind is PendingKind.CHOOSE_UNIT and first.candidates == ("e1",)
    assert ruleset().pending(state) is first
    twin = replace(state)
    assert ruleset().pending(twin) == first and ruleset().pending(twin) is not first
    assert "turn-order" not in str(vars(state))  # kept in the memo, not on the state


def test_a_new_board_takes_the_games_squares_from_its_memo(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A board for new positions reuses the squares the game found before (asked at every
    new board): the scenario's terrain store is asked once per game, not per board."""
    from engine.rulesets.dungeon import board as dungeon_board

    asked: list[object] = []
    real = dungeon_board.grid_board

    def counting(*args: Any) -> Any:
        asked.append(args[1])
        return real(*args)

    monkeypatch.setattr(dungeon_board, "grid_board", counting)
    state = acting(started(5, 5, FIGURES), "e1")
    first = Board.of(state)
    before = len(asked)
    goblin = state.unit("e1")
    moved = state.with_unit(replace(goblin, cell=(3, 2), x=3.5, y=2.5))
    second = Board.of(moved)
    assert second is not first and second.at != first.at
    assert second.squares is first.squares
    assert len(asked) == before

"""A game's board memo: searches remembered under a key of everything they read.

Path searches, move areas and flights are pure functions of the board around the mover, and
the same board is searched several times per activation (a controller plans, the ruleset
validates and applies; the autopilot weighs every character before it picks one). Each game
state carries a memo (:attr:`engine.model.GameState.memo`) that the states derived from it share,
so one game's searches are remembered across its steps and never leak into another game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

T = TypeVar("T")

#: Searches remembered before the memo is emptied.
MEMO_SIZE = 1024
#: States whose own answers are remembered before those are emptied.
STATE_SLOTS = 64


class BoardMemo:
    """Remembered searches of one game (keys start with what they read of the board), and the
    answers about its terrain (built once, e.g. ``engine.boards.open.open_terrain``)."""

    def __init__(self) -> None:
        self._results: dict[tuple[object, ...], Any] = {}
        self.terrain: object = None
        """The terrain the remembered results were computed on (kept alive, so identity holds)."""
        self._of_terrain: dict[tuple[object, ...], Any] = {}
        self._states: dict[int, tuple[object, dict[tuple[object, ...], Any]]] = {}
        self._last_state: tuple[object, dict[tuple[object, ...], Any]] = (None, {})

    def __len__(self) -> int:
        return len(self._results)

    def clear(self) -> None:
        """Forget every remembered search and the terrain geometry."""
        self._results.clear()
        self.terrain = None
        self._of_terrain.clear()
        self._states.clear()
        self._last_state = (None, {})

    def for_terrain(self, terrain: object) -> BoardMemo:
        """The memo, emptied first if it was filled on another terrain."""
        if self.terrain is not terrain:
            self.clear()
            self.terrain = terrain
        return self

    def remember(self, key: tuple[object, ...], compute: Callable[[], T]) -> T:
        """The remembered result for ``key``, or ``compute()`` remembered under it."""
        try:
            return cast(T, self._results[key])
        except KeyError:
            pass
        value = compute()
        if len(self._results) >= MEMO_SIZE:
            self._results.clear()
        self._results[key] = value
        return value

    def of_terrain(self, key: tuple[object, ...], compute: Callable[[], T]) -> T:
        """The remembered answer about the memo's terrain for ``key`` (kept until the terrain
        changes, never emptied for size), or ``compute()`` remembered under it."""
        try:
            return cast(T, self._of_terrain[key])
        except KeyError:
            pass
        value = compute()
        self._of_terrain[key] = value
        return value

    def answers_for(self, state: object) -> dict[tuple[object, ...], Any]:
        """The answers remembered for one state object (a state never changes, so they hold).
        The state is kept alive while its answers are, so its identity cannot be reused."""
        last = self._last_state
        if last[0] is state:
            return last[1]
        found = self._states.get(id(state))
        if found is None or found[0] is not state:
            if len(self._states) >= STATE_SLOTS:
                self._states.clear()
            found = (state, {})
            self._states[id(state)] = found
        self._last_state = found
        return found[1]

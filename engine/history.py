"""Undo and redo of whole game states (a new action clears the redo list)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import Action, Event
from engine.model import GameState


@dataclass(frozen=True)
class Snapshot:
    """A state, the dice state that goes with it, and how it was reached."""

    state: GameState
    dice_state: object
    action: Action | None = None
    """The action that led here (None for the starting state)."""
    events: tuple[Event, ...] = ()


class History:
    """The states of one battle, with undo and redo."""

    def __init__(self, initial: GameState, dice_state: object = None) -> None:
        self._done: list[Snapshot] = [Snapshot(initial, dice_state)]
        self._undone: list[Snapshot] = []

    @property
    def current(self) -> Snapshot:
        """The latest snapshot."""
        return self._done[-1]

    @property
    def state(self) -> GameState:
        """The current game state."""
        return self._done[-1].state

    def push(
        self, state: GameState, dice_state: object, action: Action | None, events: tuple[Event, ...]
    ) -> None:
        """Record a new state; forgets anything that was undone."""
        self._done.append(Snapshot(state, dice_state, action, events))
        self._undone.clear()

    @property
    def can_undo(self) -> bool:
        """Whether there is a step to undo."""
        return len(self._done) > 1

    @property
    def can_redo(self) -> bool:
        """Whether there is an undone step to redo."""
        return bool(self._undone)

    def undo(self) -> Snapshot | None:
        """Step back; returns the snapshot now current, or None if there was nothing to undo."""
        if not self.can_undo:
            return None
        self._undone.append(self._done.pop())
        return self._done[-1]

    def redo(self) -> Snapshot | None:
        """Step forward again; returns the snapshot now current, or None."""
        if not self._undone:
            return None
        self._done.append(self._undone.pop())
        return self._done[-1]

    def snapshots(self) -> tuple[Snapshot, ...]:
        """Every snapshot from the start to the current one."""
        return tuple(self._done)

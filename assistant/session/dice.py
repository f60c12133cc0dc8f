"""Dice for the live table: rolled by soloscope, or rolled by the player and typed in.

Physical dice work with the engine's pure ``apply``: :class:`QueuedDice` raises
:class:`NeedRoll` when the engine asks for a result the player has not entered yet; the
session prompts for it and applies the same action again from the same state, now with the
result queued. Results are consumed in order on every attempt.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Roll, SeededDice


class NeedRoll(Exception):
    """The engine needs a die result the player has not entered yet."""

    def __init__(self, sides: int, purpose: str) -> None:
        super().__init__(f"roll a d{sides}: {purpose}")
        self.sides = sides
        self.purpose = purpose


@dataclass
class QueuedDice:
    """Player-entered results, replayed from the start of each attempt at an action."""

    entered: list[int]
    rolls: list[Roll]

    def __init__(self) -> None:
        self.entered = []
        self.rolls = []
        self._pos = 0

    def begin(self) -> None:
        """Start an attempt at an action: results are consumed from the first again."""
        self._pos = 0
        self._attempt: list[Roll] = []

    def commit(self) -> None:
        """The action went through: its results are logged and the queue is cleared."""
        self.rolls.extend(getattr(self, "_attempt", []))
        self.entered.clear()
        self._pos = 0
        self._attempt = []

    def roll(self, sides: int, purpose: str) -> int:
        """The next entered result, or NeedRoll."""
        if self._pos >= len(self.entered):
            raise NeedRoll(sides, purpose)
        result = self.entered[self._pos]
        self._pos += 1
        self._attempt.append(Roll(purpose, sides, result))
        return result

    def get_state(self) -> object:
        return None

    def set_state(self, state: object) -> None:
        return None


class AutoDice(SeededDice):
    """Seeded dice with the same begin/commit interface as :class:`QueuedDice`."""

    def begin(self) -> None:
        """Nothing to do: seeded dice never wait."""

    def commit(self) -> None:
        """Nothing to do: every roll is already logged."""

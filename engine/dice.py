"""Random sources: every die roll and choice goes through one, tagged with its purpose.

Three kinds (RULES §1.6): :class:`SeededDice` (reproducible; its state is a plain integer
saved with the game so a replay is exact), :class:`ScriptedDice` (a queue of results, for
tests) and :class:`PhysicalDice` (asks the player for each result through a callback).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from engine.errors import EngineError

_MASK64 = (1 << 64) - 1


class DiceError(EngineError):
    """A random source could not give a result (script exhausted, bad physical roll)."""


@dataclass(frozen=True)
class Roll:
    """One logged random result."""

    purpose: str
    """What the roll decides, in words ("initiative", "attack: Orc Archer shoots Ranger")."""
    sides: int
    """Number of equally likely outcomes (6 for a d6)."""
    result: int
    """The outcome, 1..sides."""


class RandomSource(Protocol):
    """Where the engine's randomness comes from."""

    rolls: list[Roll]
    """Every result given so far, in order."""

    def roll(self, sides: int, purpose: str) -> int:
        """One die with ``sides`` faces: a result in 1..sides."""
        ...

    def get_state(self) -> object:
        """A JSON-serialisable snapshot from which :meth:`set_state` resumes exactly."""
        ...

    def set_state(self, state: object) -> None:
        """Resume from a snapshot made by :meth:`get_state`."""
        ...


def _splitmix64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


class SeededDice:
    """Reproducible dice (SplitMix64), identical on every platform and Python version."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._state = seed & _MASK64
        self.rolls: list[Roll] = []

    def roll(self, sides: int, purpose: str) -> int:
        """A uniform result in 1..sides, by rejection sampling (no modulo bias)."""
        if sides < 1:
            raise DiceError(f"a die needs at least one side, not {sides} ({purpose})")
        limit = (1 << 64) - ((1 << 64) % sides)
        while True:
            self._state, value = _splitmix64(self._state)
            if value < limit:
                result = value % sides + 1
                self.rolls.append(Roll(purpose, sides, result))
                return result

    def get_state(self) -> object:
        return self._state

    def set_state(self, state: object) -> None:
        if not isinstance(state, int):
            raise DiceError(f"seeded dice state must be an integer, not {state!r}")
        self._state = state & _MASK64


class ScriptedDice:
    """Dice that give a predetermined sequence of results (tests, exact replays)."""

    def __init__(self, results: Iterable[int]) -> None:
        self._results = list(results)
        self._next = 0
        self.rolls: list[Roll] = []

    @property
    def remaining(self) -> int:
        """How many scripted results are left."""
        return len(self._results) - self._next

    def roll(self, sides: int, purpose: str) -> int:
        if self._next >= len(self._results):
            raise DiceError(f"the dice script ran out at roll {self._next + 1} ({purpose})")
        result = self._results[self._next]
        if not 1 <= result <= sides:
            raise DiceError(f"scripted result {result} is not a d{sides} result ({purpose})")
        self._next += 1
        self.rolls.append(Roll(purpose, sides, result))
        return result

    def get_state(self) -> object:
        return self._next

    def set_state(self, state: object) -> None:
        if not isinstance(state, int) or not 0 <= state <= len(self._results):
            raise DiceError(f"scripted dice state must be a position in the script, not {state!r}")
        self._next = state


class PhysicalDice:
    """The player rolls real dice; ``ask(sides, purpose)`` returns what they read."""

    def __init__(self, ask: Callable[[int, str], int]) -> None:
        self._ask = ask
        self.rolls: list[Roll] = []

    def roll(self, sides: int, purpose: str) -> int:
        result = self._ask(sides, purpose)
        if not isinstance(result, int) or not 1 <= result <= sides:
            raise DiceError(f"{result!r} is not a result of a {sides}-sided die ({purpose})")
        self.rolls.append(Roll(purpose, sides, result))
        return result

    def get_state(self) -> object:
        return None

    def set_state(self, state: object) -> None:
        return None

"""Random sources: every die roll, shuffle and card draw goes through one, tagged with its purpose.

Three kinds (RULES §1.6): :class:`SeededDice` (reproducible; its state is a plain integer
saved with the game so a replay is exact), :class:`ScriptedDice` (a queue of results and
cards, for tests) and :class:`PhysicalDice` (asks the player for each result or card through
a callback). A deck's cards live in the game state (:mod:`engine.cards`); a source only
orders a pile when it is shuffled and says which card of a pile is drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

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


@dataclass(frozen=True)
class Draw:
    """One logged card draw."""

    purpose: str
    """What the draw decides ("action card for Bot 2")."""
    deck: str
    """Name of the deck drawn from."""
    card: str
    """The card drawn, as the deck writes it ("AS", "10H", "QC", "joker")."""


@dataclass(frozen=True)
class Shuffle:
    """One logged shuffle of a pile."""

    purpose: str
    deck: str
    cards: int
    """How many cards were shuffled."""


RandomEvent = Roll | Draw | Shuffle
"""Anything a random source logs."""

T = TypeVar("T")


class RandomSource(Protocol):
    """Where the engine's randomness comes from."""

    rolls: list[Roll]
    """Every die result given so far, in order."""
    log: list[RandomEvent]
    """Every roll, shuffle and draw so far, in the order they happened."""

    def roll(self, sides: int, purpose: str) -> int:
        """One die with ``sides`` faces: a result in 1..sides."""
        ...

    def shuffle(self, deck: str, cards: Sequence[str], purpose: str) -> tuple[str, ...]:
        """The ``cards`` of ``deck`` in a new order (top card first)."""
        ...

    def draw(self, deck: str, pile: Sequence[str], purpose: str) -> str:
        """The card drawn from the top of ``pile`` (a card of the pile)."""
        ...

    def get_state(self) -> object:
        """A JSON-serialisable snapshot from which :meth:`set_state` resumes exactly."""
        ...

    def set_state(self, state: object) -> None:
        """Resume from a snapshot made by :meth:`get_state`."""
        ...


def choice(dice: RandomSource, options: Sequence[T], purpose: str) -> T:
    """One of ``options`` chosen by a logged roll of a die with as many sides (RULES §1.6)."""
    if not options:
        raise DiceError(f"nothing to choose from ({purpose})")
    if len(options) == 1:
        return options[0]
    return options[dice.roll(len(options), purpose) - 1]


def _check_pile(deck: str, pile: Sequence[str], purpose: str) -> None:
    if not pile:
        raise DiceError(f"the {deck} pile is empty ({purpose})")


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
        self.log: list[RandomEvent] = []

    def _below(self, n: int) -> int:
        """A uniform integer in 0..n-1, by rejection sampling (no modulo bias)."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            self._state, value = _splitmix64(self._state)
            if value < limit:
                return value % n

    def roll(self, sides: int, purpose: str) -> int:
        """A uniform result in 1..sides."""
        if sides < 1:
            raise DiceError(f"a die needs at least one side, not {sides} ({purpose})")
        entry = Roll(purpose, sides, self._below(sides) + 1)
        self.rolls.append(entry)
        self.log.append(entry)
        return entry.result

    def shuffle(self, deck: str, cards: Sequence[str], purpose: str) -> tuple[str, ...]:
        """A uniform random order (Fisher–Yates on the same stream as the dice)."""
        order = list(cards)
        for i in range(len(order) - 1, 0, -1):
            j = self._below(i + 1)
            order[i], order[j] = order[j], order[i]
        self.log.append(Shuffle(purpose, deck, len(order)))
        return tuple(order)

    def draw(self, deck: str, pile: Sequence[str], purpose: str) -> str:
        """The top card: the order was made by :meth:`shuffle`."""
        _check_pile(deck, pile, purpose)
        self.log.append(Draw(purpose, deck, pile[0]))
        return pile[0]

    def get_state(self) -> object:
        return self._state

    def set_state(self, state: object) -> None:
        if not isinstance(state, int):
            raise DiceError(f"seeded dice state must be an integer, not {state!r}")
        self._state = state & _MASK64


class ScriptedDice:
    """Dice that give a predetermined sequence of results (tests, exact replays).

    Cards: a shuffle keeps the given order, and a draw takes the next scripted card when
    ``cards`` were given (it must be in the pile), otherwise the top card.
    """

    def __init__(self, results: Iterable[int], cards: Iterable[str] = ()) -> None:
        self._results = list(results)
        self._next = 0
        self._cards = list(cards)
        self._next_card = 0
        self.rolls: list[Roll] = []
        self.log: list[RandomEvent] = []

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
        entry = Roll(purpose, sides, result)
        self.rolls.append(entry)
        self.log.append(entry)
        return result

    def shuffle(self, deck: str, cards: Sequence[str], purpose: str) -> tuple[str, ...]:
        self.log.append(Shuffle(purpose, deck, len(cards)))
        return tuple(cards)

    def draw(self, deck: str, pile: Sequence[str], purpose: str) -> str:
        _check_pile(deck, pile, purpose)
        if not self._cards:
            card = pile[0]
        elif self._next_card >= len(self._cards):
            raise DiceError(f"the card script ran out at draw {self._next_card + 1} ({purpose})")
        else:
            card = self._cards[self._next_card]
            if card not in pile:
                raise DiceError(f"scripted card {card} is not in the {deck} pile ({purpose})")
            self._next_card += 1
        self.log.append(Draw(purpose, deck, card))
        return card

    def get_state(self) -> object:
        return self._next if not self._cards else [self._next, self._next_card]

    def set_state(self, state: object) -> None:
        rolls, cards = (state, 0) if isinstance(state, int) else _pair(state)
        if not 0 <= rolls <= len(self._results) or not 0 <= cards <= len(self._cards):
            raise DiceError(f"scripted dice state must be a position in the script, not {state!r}")
        self._next, self._next_card = rolls, cards


def _pair(state: object) -> tuple[int, int]:
    if (
        isinstance(state, list | tuple)
        and len(state) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in state)
    ):
        return int(state[0]), int(state[1])
    raise DiceError(f"scripted dice state must be a position in the script, not {state!r}")


class PhysicalDice:
    """The player rolls real dice and draws real cards.

    ``ask(sides, purpose)`` returns the die they read; ``ask_card(deck, pile, purpose)``
    returns the card they drew (one of the pile). A shuffle is done by the player's hands:
    the pile keeps its order in the state, which then only says which cards are left.
    """

    def __init__(
        self,
        ask: Callable[[int, str], int],
        ask_card: Callable[[str, Sequence[str], str], str] | None = None,
    ) -> None:
        self._ask = ask
        self._ask_card = ask_card
        self.rolls: list[Roll] = []
        self.log: list[RandomEvent] = []

    def roll(self, sides: int, purpose: str) -> int:
        result = self._ask(sides, purpose)
        if not isinstance(result, int) or not 1 <= result <= sides:
            raise DiceError(f"{result!r} is not a result of a {sides}-sided die ({purpose})")
        entry = Roll(purpose, sides, result)
        self.rolls.append(entry)
        self.log.append(entry)
        return result

    def shuffle(self, deck: str, cards: Sequence[str], purpose: str) -> tuple[str, ...]:
        self.log.append(Shuffle(purpose, deck, len(cards)))
        return tuple(cards)

    def draw(self, deck: str, pile: Sequence[str], purpose: str) -> str:
        _check_pile(deck, pile, purpose)
        if self._ask_card is None:
            raise DiceError(f"no way to ask for a card from the {deck} deck ({purpose})")
        card = self._ask_card(deck, tuple(pile), purpose)
        if card not in pile:
            raise DiceError(f"{card!r} is not a card left in the {deck} pile ({purpose})")
        self.log.append(Draw(purpose, deck, card))
        return card

    def get_state(self) -> object:
        return None

    def set_state(self, state: object) -> None:
        return None

"""Dice for the live table: rolled by soloscope, or rolled by the player and typed in.

Physical dice work with the engine's pure ``apply``: :class:`QueuedDice` raises
:class:`NeedRoll` when the engine asks for a result the player has not entered yet; the
session prompts for it and applies the same action again from the same state, now with the
result queued. Results are consumed in order on every attempt.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.cards import JOKER, standard_deck
from engine.dice import Draw, RandomEvent, Roll, SeededDice, Shuffle


class NeedRoll(Exception):
    """The engine needs a die result the player has not entered yet."""

    def __init__(self, sides: int, purpose: str) -> None:
        super().__init__(f"roll a d{sides}: {purpose}")
        self.sides = sides
        self.purpose = purpose


CARD_CODES: tuple[str, ...] = standard_deck(1)
"""A card entered on the page travels as its place in this list, from 1 (the Ace of spades) to
53 (a Joker), through the dice entry."""


def card_code(card: str) -> int:
    """The number the page sends for ``card``."""
    return CARD_CODES.index(card) + 1


class NeedCard(NeedRoll):
    """The engine needs a card from the player's real deck that they have not entered yet;
    ``refused`` says why the card entered last could not be taken (it is not in the pile)."""

    def __init__(self, deck: str, purpose: str, refused: str = "") -> None:
        super().__init__(0, purpose)
        self.deck = deck
        self.refused = refused


@dataclass
class QueuedDice:
    """Player-entered results, replayed from the start of each attempt at an action."""

    entered: list[int]
    rolls: list[Roll]

    def __init__(self) -> None:
        self.entered = []
        self.rolls = []
        self.log: list[RandomEvent] = []
        """Every roll, shuffle and draw that went through (RandomSource's log)."""
        self._attempt_log: list[RandomEvent] = []
        self._pos = 0

    def begin(self) -> None:
        """Start an attempt at an action: results are consumed from the first again."""
        self._pos = 0
        self._attempt: list[Roll] = []
        self._attempt_log = []

    def commit(self) -> None:
        """The action went through: its results are logged and the queue is cleared."""
        self.rolls.extend(getattr(self, "_attempt", []))
        self.log.extend(getattr(self, "_attempt", []))
        self.log.extend(self._attempt_log)
        self._attempt_log = []
        self.entered.clear()
        self._pos = 0
        self._attempt = []

    def roll(self, sides: int, purpose: str) -> int:
        """The next entered result, or NeedRoll."""
        if self._pos >= len(self.entered):
            self.wants_card = ""
            raise NeedRoll(sides, purpose)
        result = self.entered[self._pos]
        self._pos += 1
        self._attempt.append(Roll(purpose, sides, result))
        return result

    def get_state(self) -> object:
        return None

    def set_state(self, state: object) -> None:
        return None

    def shuffle(self, deck: str, cards: Sequence[str], purpose: str) -> tuple[str, ...]:
        """The player shuffles the real deck: the pile keeps its order in the game, which then
        only says which cards are left (``auto_cards``: soloscope shuffles)."""
        if self.auto_cards is not None:
            return self.auto_cards.shuffle(deck, cards, purpose)
        self._attempt_log.append(Shuffle(purpose, deck, len(cards)))
        return tuple(cards)

    def draw(self, deck: str, pile: Sequence[str], purpose: str) -> str:
        """The next card entered (its code), or NeedCard; a card that cannot be in the pile is
        dropped and asked for again, with the reason (``auto_cards``: soloscope draws)."""
        if self.auto_cards is not None:
            return self.auto_cards.draw(deck, pile, purpose)
        if self._pos >= len(self.entered):
            self.wants_card = purpose
            raise NeedCard(deck, purpose)
        code = self.entered[self._pos]
        card = CARD_CODES[code - 1] if 1 <= code <= len(CARD_CODES) else ""
        if card not in pile:
            del self.entered[self._pos]
            why = self.explain(deck, card) if card and self.explain else "it is not in the pile"
            self.wants_card = purpose
            raise NeedCard(deck, purpose, f"{card or code} cannot be drawn: {why}")
        self._pos += 1
        self._attempt_log.append(Draw(purpose, deck, card))
        return card

    explain: Callable[[str, str], str] | None = None
    """Says why a card is not in the draw pile (set by the session: it knows the deck)."""
    auto_cards: SeededDice | None = None
    """Shuffles and draws made by soloscope (dice rolled by the player, cards not); None: the
    player draws from a real deck too."""
    wants_card: str = ""
    """What the card the session waits for is for (empty: a die, or nothing)."""


class PhysicalDeck(QueuedDice):
    """Cards drawn from the player's real deck and entered on the page, dice rolled by
    soloscope from a seed (``seeded``) or by the player (None). A seeded attempt that stops to
    wait for a card is rolled back, so the retry rolls the same."""

    def __init__(self, seeded: SeededDice | None = None) -> None:
        super().__init__()
        self.seeded = seeded
        self._mark: tuple[object, int, int] | None = None

    def begin(self) -> None:
        super().begin()
        if self.seeded is not None:
            self._mark = (self.seeded.get_state(), len(self.seeded.rolls), len(self.seeded.log))

    def roll(self, sides: int, purpose: str) -> int:
        if self.seeded is None:
            return super().roll(sides, purpose)
        result = self.seeded.roll(sides, purpose)
        self._attempt.append(Roll(purpose, sides, result))
        return result

    def draw(self, deck: str, pile: Sequence[str], purpose: str) -> str:
        try:
            return super().draw(deck, pile, purpose)
        except NeedCard:
            if self.seeded is not None and self._mark is not None:
                state, rolls, log = self._mark
                self.seeded.set_state(state)
                del self.seeded.rolls[rolls:], self.seeded.log[log:]
            raise

    def get_state(self) -> object:
        return None if self.seeded is None else self.seeded.get_state()

    def set_state(self, state: object) -> None:
        if self.seeded is not None and state is not None:
            self.seeded.set_state(state)


def card_prompt(need: NeedCard) -> str:
    """What the session says when it waits for a card from the real deck."""
    ask = (
        f"Draw a card: {need.purpose}. Enter it on the page: tap its rank and suit, or type it "
        "(like QS or 10H)."
    )
    return f"{need.refused}. {ask}" if need.refused else ask


def deck_refusal(
    draw_pile: Sequence[str], discard: Sequence[str], removed: Sequence[str], card: str
) -> str:
    """Why ``card`` cannot be the card just drawn, from the deck's piles."""
    if card in removed and card not in draw_pile:
        return "it was set aside for the rest of the game"
    if card == JOKER:
        return "both Jokers are out of the draw pile (shuffle them back in when told)"
    if card in discard:
        return "it is on the discard pile (drawn since the last shuffle)"
    return "it was drawn already in this step"


class AutoDice(SeededDice):
    """Seeded dice with the same begin/commit interface as :class:`QueuedDice`."""

    def begin(self) -> None:
        """Nothing to do: seeded dice never wait."""

    def commit(self) -> None:
        """Nothing to do: every roll is already logged."""


def make_dice(physical_dice: bool, physical_cards: bool, seed: int) -> AutoDice | QueuedDice:
    """The game's random source: dice rolled by soloscope or by the player, cards drawn by
    soloscope or from the player's real deck (``--cards physical``)."""
    if physical_cards:
        return PhysicalDeck(None if physical_dice else AutoDice(seed))
    if physical_dice:
        queued = QueuedDice()
        queued.auto_cards = AutoDice(seed)
        return queued
    return AutoDice(seed)

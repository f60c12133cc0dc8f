"""Decks of cards that live in the game state: draw pile, discard pile and removed cards.

A deck is a value (never mutated): drawing returns the card and the new deck. The order of
the draw pile is made by the random source's ``shuffle`` and the card drawn is chosen by its
``draw`` (the top card for seeded and scripted sources; the card the player names for a
physical deck), so seeded games replay exactly and every shuffle and draw is logged.

Cards are written rank then suit: ``AS``, ``10H``, ``QC``; the jokers are ``joker``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.dice import RandomSource
from engine.errors import EngineError

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
"""Spades, hearts, diamonds, clubs."""
JOKER = "joker"


class DeckError(EngineError):
    """A card operation that the deck cannot do (empty pile, a card that is not there)."""


def standard_deck(jokers: int = 2) -> tuple[str, ...]:
    """The 52 cards in rank-then-suit order, followed by ``jokers`` jokers."""
    return tuple(f"{rank}{suit}" for suit in SUITS for rank in RANKS) + (JOKER,) * jokers


def card_rank(card: str) -> str:
    """ "A", "2" … "10", "J", "Q", "K", or "joker"."""
    return JOKER if card == JOKER else card[:-1]


def card_suit(card: str) -> str | None:
    """ "S", "H", "D" or "C"; None for a joker."""
    return None if card == JOKER else card[-1]


def is_card(card: str) -> bool:
    """Whether ``card`` is written as this module writes cards."""
    return card == JOKER or (card[:-1] in RANKS and card[-1:] in SUITS)


@dataclass(frozen=True)
class Deck:
    """One named deck in the game state."""

    name: str
    draw_pile: tuple[str, ...]
    """Cards still to draw, top first."""
    discard: tuple[str, ...] = ()
    """Cards played this cycle, most recent last."""
    removed: tuple[str, ...] = ()
    """Cards out of the game (for example an event that happens once)."""

    def draw(self, dice: RandomSource, purpose: str) -> tuple[str, Deck]:
        """The drawn card (taken out of the draw pile; the caller discards or keeps it)."""
        if not self.draw_pile:
            raise DeckError(f"the {self.name} draw pile is empty ({purpose})")
        card = dice.draw(self.name, self.draw_pile, purpose)
        pile = list(self.draw_pile)
        pile.remove(card)
        return card, replace(self, draw_pile=tuple(pile))

    def shuffled(self, dice: RandomSource, purpose: str, *, with_discard: bool = True) -> Deck:
        """The draw pile (and, by default, the discard pile) shuffled together."""
        cards = self.draw_pile + (self.discard if with_discard else ())
        order = dice.shuffle(self.name, cards, purpose)
        return replace(self, draw_pile=order, discard=() if with_discard else self.discard)

    def discarded(self, card: str) -> Deck:
        """``card`` put on the discard pile."""
        return replace(self, discard=(*self.discard, card))

    def with_removed(self, card: str) -> Deck:
        """One copy of ``card`` taken out of the game: from the discard pile if it is there,
        else from the draw pile, else (a card in hand) only recorded as removed."""
        discard, pile = list(self.discard), list(self.draw_pile)
        if card in discard:
            del discard[len(discard) - 1 - discard[::-1].index(card)]
        elif card in pile:
            pile.remove(card)
        return replace(
            self, draw_pile=tuple(pile), discard=tuple(discard), removed=(*self.removed, card)
        )


def new_deck(name: str, cards: tuple[str, ...], dice: RandomSource, purpose: str) -> Deck:
    """A freshly shuffled deck."""
    return Deck(name, dice.shuffle(name, cards, purpose))

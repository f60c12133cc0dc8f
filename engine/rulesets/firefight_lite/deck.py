"""The card AI's 54-card deck (RULES §4.b, D002-03/04/14): reading cards, the Joker reshuffle,
an empty draw pile, random selection by dealing (§4.h) and the event table (§4.l).

Pure functions of a :class:`~engine.cards.Deck` value and the random source, so the ruleset
(event draws, selections) and the ``cards`` controller (action and defence draws on a deck of
its own when the ruleset keeps none) share them. Draw purposes contain "event", "action",
"defence" or "selection" (the ``simulate --json`` contract).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.cards import JOKER, RANKS, Deck, card_rank, card_suit, standard_deck
from engine.dice import RandomSource

FULL_DECK = standard_deck(2)
"""52 cards and both Jokers (§4.b)."""
PICTURES = ("J", "Q", "K")
SELECTION_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Low to high for random selection (§4.h: the Ace is highest)."""
SELECTION_SUITS = ("D", "C", "H", "S")
"""Low to high: diamonds < clubs < hearts < spades (§4.h)."""
SUIT_NAMES = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}
RANK_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}

EVENTS: dict[str, str] = {
    "KS": "sniper",
    "QS": "artillery barrage",
    "JS": "booby trap",
    "KH": "religious procession",
    "QH": "addled citizen",
    "JH": "rogue dispenser bot",
    "KC": "citizen frenzy",
    "QC": "fire bomb",
    "JC": "dead fall",
    "KD": "enemy reinforcement",
    "QD": "rogue air mine",
    "JD": "road rupture",
}
"""The twelve events of §4.l, by card."""

DEFENCES = {"S": "return_fire", "H": "return_fire", "C": "armour", "D": "run_for_cover"}
"""§4.g: the suit of a defence card (rank irrelevant)."""


def card_name(card: str) -> str:
    """ "Queen of hearts", "7 of clubs", "Joker"."""
    if card == JOKER:
        return "Joker"
    rank, suit = card_rank(card), card_suit(card) or ""
    return f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[suit]}"


def is_picture(card: str) -> bool:
    """J, Q or K."""
    return card != JOKER and card_rank(card) in PICTURES


def trigger_squares(card: str) -> int | None:
    """A number card's trigger distance in squares (Ace 1 "adjacent", 2-10 face value,
    D002-02); None for a picture card or a Joker (§4.e)."""
    if card == JOKER or is_picture(card):
        return None
    rank = card_rank(card)
    return 1 if rank == "A" else int(rank)


def selection_value(card: str) -> int:
    """A card's place in the strict order of §4.h (0 = 2♦ lowest, 51 = A♠ highest)."""
    return SELECTION_RANKS.index(card_rank(card)) * 4 + SELECTION_SUITS.index(card_suit(card) or "")


def ready(deck: Deck, dice: RandomSource) -> Deck:
    """The deck with cards to draw: an empty draw pile takes the shuffled discard pile
    (D002-04)."""
    if deck.draw_pile:
        return deck
    return deck.shuffled(dice, "empty draw pile: shuffle the discard pile")


def joker_reshuffle(deck: Deck, dice: RandomSource) -> Deck:
    """D002-03: the draw pile, the discard pile and the Jokers (the one just drawn is on the
    discard pile) shuffled together; removed event cards stay out."""
    return deck.shuffled(dice, "joker: reshuffle the deck")


def draw_reading(deck: Deck, dice: RandomSource, purpose: str) -> tuple[str, Deck, int]:
    """A card drawn for ``purpose``, Jokers reshuffled and redrawn (§4.e, §4.g): the card, the
    deck with it discarded, and how many Jokers came first."""
    jokers = 0
    asked = purpose
    while True:
        deck = ready(deck, dice)
        card, deck = deck.draw(dice, asked)
        deck = deck.discarded(card)
        if card != JOKER:
            return card, deck, jokers
        jokers += 1
        deck = joker_reshuffle(deck, dice)
        asked = (
            f"{purpose}, again after the Joker (shuffle the discard pile and both Jokers back "
            "into the deck first)"
        )


def deal_selection(
    deck: Deck,
    dice: RandomSource,
    ids: Sequence[str],
    purpose: str,
    names: Mapping[str, str] | None = None,
) -> tuple[str, Deck, tuple[tuple[str, str], ...]]:
    """§4.h: one card dealt to each of ``ids`` in turn (a Joker is discarded and replaced), the
    highest card selects; then everything but removed cards is reshuffled (D002-14). Returns
    the selected id, the deck and the cards dealt (id, card); ``names`` words the draws."""
    dealt: list[tuple[str, str]] = []
    for uid in ids:
        while True:
            deck = ready(deck, dice)
            who = (names or {}).get(uid, uid)
            card, deck = deck.draw(dice, f"selection: {purpose}, a card dealt to {who}")
            deck = deck.discarded(card)
            if card != JOKER:
                dealt.append((uid, card))
                break
    best = max(dealt, key=lambda pair: selection_value(pair[1]))
    deck = deck.shuffled(dice, "after a random selection: reshuffle")
    return best[0], deck, tuple(dealt)


def deck_problems(deck: Deck) -> list[str]:
    """What is wrong with the deck's piles (every card once, 54 in all, only event cards
    removed)."""
    problems = []
    cards = sorted(deck.draw_pile + deck.discard + deck.removed)
    if cards != sorted(FULL_DECK):
        problems.append(
            f"the deck holds {len(cards)} cards, not the 54 of a full deck with both Jokers"
        )
    for card in deck.removed:
        if card not in EVENTS:
            problems.append(f"{card} is removed but is not an event card")
    return problems


__all__ = ["JOKER", "RANKS"]

"""Random sources shuffle and draw from decks kept in the game state (RULES §1.6)."""

from __future__ import annotations

import json

import pytest

from engine.cards import JOKER, Deck, DeckError, card_rank, card_suit, is_card, standard_deck
from engine.dice import (
    DiceError,
    Draw,
    PhysicalDice,
    Roll,
    ScriptedDice,
    SeededDice,
    Shuffle,
    choice,
)


def test_standard_deck_has_54_cards_written_rank_then_suit() -> None:
    deck = standard_deck()
    assert len(deck) == 54 and len(set(deck)) == 53 and deck.count(JOKER) == 2
    assert {"AS", "10H", "QC", "KD"} <= set(deck)
    assert all(is_card(c) for c in deck) and not is_card("11H") and not is_card("AX")
    assert (card_rank("10H"), card_suit("10H")) == ("10", "H")
    assert (card_rank(JOKER), card_suit(JOKER)) == (JOKER, None)


def test_seeded_shuffle_is_a_reproducible_permutation_and_is_logged() -> None:
    a, b = SeededDice(3), SeededDice(3)
    order = a.shuffle("ai", standard_deck(), "start of game")
    assert order == b.shuffle("ai", standard_deck(), "start of game")
    assert sorted(order) == sorted(standard_deck()) and order != standard_deck()
    assert a.log == [Shuffle("start of game", "ai", 54)] and a.rolls == []


def test_seeded_shuffles_are_uniform_over_a_small_deck() -> None:
    dice = SeededDice(11)
    counts: dict[tuple[str, ...], int] = {}
    for _ in range(6000):
        order = dice.shuffle("d", ("a", "b", "c"), "t")
        counts[order] = counts.get(order, 0) + 1
    assert len(counts) == 6 and all(900 < n < 1100 for n in counts.values())


def test_rolls_shuffles_and_draws_are_logged_in_the_order_they_happen() -> None:
    dice = SeededDice(5)
    deck = Deck("ai", standard_deck()).shuffled(dice, "new deck")
    dice.roll(6, "initiative")
    card, deck = deck.draw(dice, "action card")
    assert [type(e) for e in dice.log] == [Shuffle, Roll, Draw]
    assert dice.log[2] == Draw("action card", "ai", card) and len(deck.draw_pile) == 53
    assert dice.rolls == [dice.log[1]]


def test_a_deck_reshuffles_its_discards_and_removes_one_copy_of_a_card() -> None:
    dice = ScriptedDice([], cards=["joker", "QC"])
    deck = Deck("ai", ("AS", "joker", "QC", "joker"))
    card, deck = deck.draw(dice, "first")
    assert card == JOKER and deck.draw_pile == ("AS", "QC", "joker")
    deck = deck.discarded(card).with_removed("QC")
    assert deck.draw_pile == ("AS", "joker") and deck.removed == ("QC",)
    deck = deck.shuffled(dice, "joker reshuffle")
    assert sorted(deck.draw_pile) == ["AS", "joker", "joker"] and deck.discard == ()
    with pytest.raises(DiceError, match="QC is not in the ai pile"):
        deck.draw(dice, "second")


def test_an_empty_pile_is_an_error_naming_the_deck() -> None:
    with pytest.raises(DeckError, match="the ai draw pile is empty"):
        Deck("ai", ()).draw(SeededDice(1), "x")


def test_scripted_state_covers_rolls_and_cards() -> None:
    dice = ScriptedDice([2, 3], cards=["AS", "KD"])
    dice.roll(6, "a")
    assert dice.draw("d", ("KD", "AS"), "b") == "AS"
    saved = json.loads(json.dumps(dice.get_state()))
    assert dice.draw("d", ("KD",), "c") == "KD"
    dice.set_state(saved)
    assert dice.draw("d", ("KD",), "c") == "KD" and dice.roll(6, "d") == 3
    with pytest.raises(DiceError):
        dice.set_state([1, 9])


def test_physical_draws_ask_the_player_and_check_the_card() -> None:
    asked: list[tuple[str, tuple[str, ...], str]] = []

    def ask_card(deck: str, pile: object, purpose: str) -> str:
        asked.append((deck, tuple(pile), purpose))  # type: ignore[arg-type]
        return "QC"

    dice = PhysicalDice(lambda s, p: 1, ask_card)
    assert dice.shuffle("ai", ("AS", "QC"), "x") == ("AS", "QC")
    assert dice.draw("ai", ("AS", "QC"), "event") == "QC"
    assert asked == [("ai", ("AS", "QC"), "event")]
    with pytest.raises(DiceError, match="'QC' is not a card left in the ai pile"):
        dice.draw("ai", ("AS",), "event")
    with pytest.raises(DiceError, match="no way to ask for a card"):
        PhysicalDice(lambda s, p: 1).draw("ai", ("AS",), "event")


def test_choice_is_a_logged_roll() -> None:
    dice = ScriptedDice([2])
    assert choice(dice, ["left", "right", "up"], "tie") == "right"
    assert dice.rolls == [Roll("tie", 3, 2)]
    assert choice(dice, ["only"], "no roll needed") == "only" and len(dice.rolls) == 1
    with pytest.raises(DiceError, match="nothing to choose from"):
        choice(dice, [], "empty")

"""The physical-deck mode (``--cards physical``): the player draws from a real deck and enters
each card on the page; soloscope keeps the deck's state, refuses a card that cannot be in the
draw pile (and says why), and says when to shuffle and what to set aside. In a live game and
on the page in headless Chromium (two taps for one card, the keyboard for the next)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant.live_commands import Command
from assistant.live_hub import LiveHub
from assistant.scenarios import load_game
from assistant.session.dice import AutoDice, NeedCard, PhysicalDeck, card_code
from assistant.session.game import LiveGame, Stage
from assistant.session.start import deck_explainer, make_dice
from assistant.session.view import build_view
from assistant.web import serve
from engine.protocols import PendingKind, find_controller
from tests.browser import CHROMIUM, CHROMIUM_ARGS, MISSING
from tests.session.virtual_table import VirtualTable


def _game(seed: int = 3) -> tuple[LiveGame, VirtualTable]:
    scenario, ruleset, state = load_game("bosworth-street")
    said: list[str] = []
    dice = make_dice(False, True, seed)
    assert isinstance(dice, PhysicalDeck)
    game = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller("cards"),
        dice=dice,
        say=said.append,
        initial=state,
    )
    dice.explain = deck_explainer(game)
    return game, VirtualTable(game)


def _until_card(game: LiveGame, table: VirtualTable) -> None:
    for _ in range(200):
        if (
            game.stage is Stage.DICE
            and isinstance(game.dice, PhysicalDeck)
            and game.dice.wants_card
        ):
            return
        if game.stage is Stage.HUMAN:
            choosing = game.ruleset.pending(game.state).kind is PendingKind.CHOICE
            game.command(Command("declare", action="first") if choosing else Command("pass"))
            continue
        table.step()
    raise AssertionError(f"no card asked for; stuck in {game.stage}")


def test_cards_are_entered_checked_against_the_deck_and_refused_with_a_reason() -> None:
    game, table = _game()
    _until_card(game, table)
    assert game.dice.wants_card.startswith("event card")  # type: ignore[union-attr]
    assert game.announcements[-1].text.startswith("Draw a card: event card, turn 1.")
    assert any("Shuffle the deck" in a.text for a in game.announcements)
    game.command(Command("dice", value=card_code("7H")))
    deck = game.state.deck("cards")
    assert deck.discard == ("7H",) and "7H" not in deck.draw_pile
    assert any("7 of hearts, no event" in a.text for a in game.announcements)
    _until_card(game, table)
    asked = game.dice.wants_card  # type: ignore[union-attr]
    steps = len(game.steps)
    game.command(Command("dice", value=card_code("7H")))  # it is on the discard pile
    assert len(game.steps) == steps and game.stage is Stage.DICE
    said = game.announcements[-1].text
    assert said.startswith("7H cannot be drawn: it is on the discard pile")
    assert f"Draw a card: {asked}." in said
    prompt = build_view(game).prompt
    assert prompt is not None and prompt.kind == "card" and prompt.purpose == asked
    good = next(c for c in game.state.deck("cards").draw_pile if c[0] in "23456789")
    game.command(Command("dice", value=card_code(good)))
    # The card was read: its order is given (the model to move), or already carried out.
    ordered = game.order is not None and game.order.action.get("card") == good
    assert ordered or good in game.state.deck("cards").discard


def test_a_joker_tells_the_player_to_shuffle_and_draw_again() -> None:
    game, table = _game()
    _until_card(game, table)
    game.command(Command("dice", value=card_code("2C")))  # no event
    _until_card(game, table)
    assert "action" in game.dice.wants_card, "this seed should ask for an action card first"  # type: ignore[union-attr]
    game.command(Command("dice", value=card_code("joker")))
    assert any(
        "Joker for" in a.text and "shuffle the discard pile" in a.text for a in game.announcements
    )
    assert game.stage is Stage.DICE and "action card" in game.dice.wants_card  # type: ignore[union-attr]
    deck = game.state.deck("cards")
    assert len(deck.draw_pile) == 54 and not deck.discard  # everything shuffled back in


def test_seeded_dice_roll_the_same_after_waiting_for_a_card() -> None:
    dice = PhysicalDeck(AutoDice(5))
    dice.begin()
    first = dice.roll(6, "a")
    with pytest.raises(NeedCard):
        dice.draw("cards", ("AS",), "action card")
    dice.entered.append(card_code("AS"))
    dice.begin()
    assert dice.roll(6, "a") == first
    assert dice.draw("cards", ("AS",), "action card") == "AS"


sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


@pytest.fixture
def page() -> Iterator[sync_api.Page]:
    if not CHROMIUM.exists():
        pytest.skip(MISSING)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser.new_page(viewport={"width": 1280, "height": 860})
        browser.close()


def _pump(hub: LiveHub, game: LiveGame) -> None:
    command = hub.next_command(10)
    assert command is not None, "the page's command never arrived"
    game.command(command)
    hub.publish(build_view(game))


@pytest.mark.browser
def test_the_page_takes_a_card_in_two_taps_and_refuses_an_impossible_one(
    page: sync_api.Page,
) -> None:
    game, table = _game()
    _until_card(game, table)
    hub = LiveHub()
    hub.publish(build_view(game))
    handle = serve(hub, port=0, config={"SSE_POLL_S": 0.1})
    try:
        page.goto(handle.url)
        page.wait_for_function("Number(document.body.dataset.viewVersion || 0) > 0", timeout=60_000)
        page.wait_for_selector('#prompt-buttons [data-rank="7"]', timeout=60_000)
        assert (page.locator("#prompt-title").text_content() or "") == "Card"
        page.locator('#prompt-buttons [data-rank="7"]').click()
        page.locator('#prompt-buttons [data-suit="H"]').click()
        _pump(hub, game)
        page.wait_for_function(
            "document.querySelector('#feedback').textContent === 'Sent: card 7\u2665'",
            timeout=60_000,
        )
        assert game.state.deck("cards").discard == ("7H",)
        _until_card(game, table)
        hub.publish(build_view(game))
        page.wait_for_function(
            "document.querySelector('#prompt-text').textContent.includes('Draw a card: "
            + game.dice.wants_card.split(":")[0]  # type: ignore[union-attr]
            + "')",
            timeout=60_000,
        )
        page.locator("body").click()
        page.keyboard.type("7H")  # the same card again: it is on the discard pile
        _pump(hub, game)
        page.wait_for_function(
            "document.querySelector('#prompt-text').textContent.includes('cannot be drawn')",
            timeout=60_000,
        )
        text = page.locator("#prompt-text").text_content() or ""
        assert text.startswith("7H cannot be drawn: it is on the discard pile")
        assert page.locator('#prompt-buttons [data-suit="S"]').count() == 1  # still asking
    finally:
        handle.stop()
        hub.close()


@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_game_is_played_with_the_physical_deck(seed: int) -> None:
    """Every card the game asks for is entered (the draw pile's first card, Jokers included)
    until the battle is over; the deck always holds its 54 cards."""
    game, table = _game(seed)
    game.human_plan = ()
    asked = 0
    for _ in range(6000):
        if game.stage is Stage.OVER:
            break
        dice = game.dice
        assert isinstance(dice, PhysicalDeck)
        if game.stage is Stage.DICE and dice.wants_card:
            asked += 1
            pile = game.state.deck("cards").draw_pile
            game.command(Command("dice", value=card_code(pile[asked % len(pile)])))
        elif game.stage is Stage.HUMAN:
            choosing = game.ruleset.pending(game.state).kind is PendingKind.CHOICE
            game.command(Command("declare", action="first") if choosing else Command("pass"))
        else:
            table.step()
        deck = game.state.deck("cards")
        assert len(deck.draw_pile) + len(deck.discard) + len(deck.removed) == 54
    assert game.stage is Stage.OVER and asked > 10


def test_a_physical_deck_game_resumes_as_one(tmp_path: Path) -> None:
    from assistant.session.store import load_saved, saver

    game, table = _game(6)
    save_file = tmp_path / "game.json"
    game.on_saved = saver(save_file, "bosworth-street", 6)
    for _ in range(3):
        _until_card(game, table)
        pile = game.state.deck("cards").draw_pile
        game.command(Command("dice", value=card_code(pile[-1])))
    resumed, _, _ = load_saved(save_file, lambda text: None)
    assert isinstance(resumed.dice, PhysicalDeck) and resumed.dice.seeded is not None
    assert resumed.state == game.state


def test_the_card_ai_on_the_narrative_rules_takes_cards_from_a_real_deck() -> None:
    """crossroads-cards with --cards physical: the goblins' deck is the game's, as on
    firefight-lite: the round's event card comes first, then the goblins' cards; a Joker
    entered for a goblin reshuffles the deck and its card is asked for again."""
    scenario, ruleset, state = load_game("crossroads-cards")
    dice = make_dice(False, True, 2)
    game = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller("cards"),
        dice=dice,
        say=lambda text: None,
        initial=state,
    )
    table = VirtualTable(game)
    _until_card(game, table)
    assert game.dice.wants_card.startswith("event card")  # type: ignore[union-attr]
    game.command(Command("dice", value=card_code("2C")))
    assert "2C" in game.state.deck("cards").discard
    _until_card(game, table)
    assert "card for Goblin" in game.dice.wants_card  # type: ignore[union-attr]
    game.command(Command("dice", value=card_code("joker")))
    _until_card(game, table)
    assert "card for Goblin" in game.dice.wants_card  # type: ignore[union-attr]
    assert game.state.deck("cards").discard == ()  # the Joker's reshuffle took them all back
    game.command(Command("dice", value=card_code("9S")))
    assert game.order is not None and game.order.rule.startswith("9 of spades")

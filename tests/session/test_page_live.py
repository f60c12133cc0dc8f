"""The table page driven by a real live game, in a real headless Chromium: the live board and
the AI's order are shown, a declaration made on the page is carried out, and undo works."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from assistant.live_hub import LiveHub
from assistant.scenarios import load_game
from assistant.session.dice import AutoDice
from assistant.session.game import LiveGame, Stage
from assistant.session.view import build_view
from assistant.web import serve
from engine.protocols import find_controller
from tests.browser import CHROMIUM, CHROMIUM_ARGS, MISSING
from tests.session.virtual_table import VirtualTable

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=MISSING)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


@pytest.fixture
def page() -> Iterator[sync_api.Page]:
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser.new_page(viewport={"width": 1280, "height": 860})
        browser.close()


def _game(seed: int) -> LiveGame:
    scenario, ruleset, state = load_game("crossroads-ambush")
    return LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller(scenario.scenario.ai_controller),
        dice=AutoDice(seed),
        say=lambda text: None,
        initial=state,
    )


def _pump(hub: LiveHub, game: LiveGame) -> None:
    """What the live loop does with a command from the page."""
    command = hub.next_command(10)
    assert command is not None, "the page's command never arrived"
    game.command(command)
    hub.publish(build_view(game))


def test_page_shows_the_order_takes_a_declaration_and_undoes(page: sync_api.Page) -> None:
    seed = next(s for s in range(1, 60) if _game(s).stage is Stage.SETUP and _starts_with_ai(s))
    game = _game(seed)
    table = VirtualTable(game)
    table.step()
    assert game.stage is Stage.AI_ORDER and game.order is not None
    hub = LiveHub()
    hub.publish(build_view(game))
    handle = serve(hub, port=0, config={"SSE_POLL_S": 0.1})
    try:
        page.goto(handle.url)
        page.wait_for_function("Number(document.body.dataset.viewVersion || 0) > 0", timeout=60_000)
        order_text = page.locator("#order-text").text_content() or ""
        ordered = game.state.unit(game.order.action.unit_id or "")
        assert order_text.startswith(ordered.name)
        assert "Why:" in (page.locator("#order-reason").text_content() or "")
        for unit in game.state.units:
            assert page.locator(f'#overlay [data-unit-id="{unit.id}"]').count() == 1
        assert page.locator(f'#overlay [data-ghost-of="{ordered.id}"]').count() == 1

        # The player carries out the order; then it is their turn: they move the crossbow 3 in.
        while game.stage is not Stage.HUMAN:
            table.step()
        hub.publish(build_view(game))
        crossbow = game.state.unit("crossbow")
        table.poses["crossbow"] = (crossbow.x, crossbow.y + 3.0, crossbow.heading_deg)
        game.observe(table.observation())
        hub.publish(build_view(game))
        steps = len(game.steps)
        page.wait_for_selector('#prompt-buttons [data-action="done"]', timeout=60_000)
        page.locator('#prompt-buttons [data-action="done"]').click()
        _pump(hub, game)
        assert len(game.steps) == steps + 1
        moved = game.state.unit("crossbow")
        assert abs(moved.y - (crossbow.y + 3.0)) < 1e-6

        page.locator('[data-command="undo"]').click()
        _pump(hub, game)
        assert len(game.steps) == steps
        assert game.state.unit("crossbow").y == crossbow.y
        page.wait_for_function(
            "document.querySelector('#log').textContent.includes('Undone')", timeout=60_000
        )
    finally:
        handle.stop()
        hub.close()


def _starts_with_ai(seed: int) -> bool:
    game = _game(seed)
    VirtualTable(game).step()
    return game.stage is Stage.AI_ORDER

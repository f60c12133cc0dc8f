"""The Dungeon Crawl on the live page (issue 12, headless Chromium): the grid with its column
letters and row numbers, each monster's status and facing, the wounds of every figure and
the Priest's heals left, all from the live game's view model."""

from __future__ import annotations

from dataclasses import replace

import pytest

from assistant.live_hub import LiveHub
from assistant.live_view import BoardView
from assistant.scenarios import load_game
from assistant.session.dice import AutoDice
from assistant.session.game import LiveGame, Stage
from assistant.session.view import build_view
from assistant.tables import find_adapter
from assistant.web import ServerHandle
from engine.model import GameState
from engine.protocols import find_controller
from tests.browser import CHROMIUM, MISSING
from tests.session.virtual_table import VirtualTable
from tests.web.conftest import browser, hub, page, server  # noqa: F401  (fixtures)
from tests.web.page_helpers import open_page

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


_STATE: list[GameState] = []


def _view() -> BoardView:
    """The page's view once the heroes' first turn has come (monsters patrolling or alerted)."""
    scenario, ruleset, state = load_game("dungeon-crawl")
    game = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller(scenario.scenario.ai_controller),
        dice=AutoDice(3),
        say=lambda _text: None,
        initial=state,
    )
    VirtualTable(game).run_until(Stage.HUMAN)
    _STATE[:] = [game.state]
    return build_view(game)


def test_the_view_carries_the_grid_through_json() -> None:
    view = _view()
    assert view.grid is not None and (view.grid.cols, view.grid.rows) == (8, 8)
    assert len(view.grid.blocked) == 13 and (2, 0) in view.grid.blocked  # C1, a wall
    assert BoardView.from_dict(view.to_dict()) == view


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason=MISSING)
def test_the_page_shows_the_grid_statuses_facing_wounds_and_heals(
    page: sync_api.Page,  # noqa: F811
    hub: LiveHub,  # noqa: F811
    server: ServerHandle,  # noqa: F811
) -> None:
    view = _view()
    lines = find_adapter("dungeon").sight_lines(_STATE[0], _STATE[0].unit("magic-user"))
    view = replace(view, sight_lines=lines)
    hub.publish(view)
    open_page(page, server.url)
    # Ranges in squares, on the board or behind a line's "i" mark when there is no room.
    labels = page.locator("#overlay .sight-label").all_text_contents() + [
        n or ""
        for n in page.locator("#overlay .sight-icon").evaluate_all(
            "nodes => nodes.map(n => n.dataset.sightNote)"
        )
    ]
    assert labels and all(" square" in t for t in labels), labels
    assert page.locator("#overlay .grid-line").count() == 9 + 9
    assert page.locator("#overlay .grid-blocked").count() == 13
    assert page.locator('#overlay .grid-blocked[data-cell="2,0"]').count() == 1
    letters = page.locator("#overlay .grid-label[data-col]").all_text_contents()
    numbers = page.locator("#overlay .grid-label[data-row]").all_text_contents()
    assert letters == list("ABCDEFGH") and numbers == [str(n) for n in range(1, 9)]
    troll = page.locator('[data-card="troll-3"]')
    chips = troll.locator(".status-chip").all_text_contents()
    assert chips in (["Patrolling"], ["Alerted"])
    values = troll.locator(".unit-resource").all_text_contents()
    assert any(v.startswith("Square: ") for v in values)
    assert any(v.startswith("Facing: ") for v in values)
    # The wounds once: the labelled wound boxes, not a value as well.
    assert troll.locator(".wounds").inner_text() == "Wounds 0/2"
    assert not any(v.startswith("Wounds") for v in values)
    # Facings are compass words: the page draws its compass (north = the far edge).
    assert page.locator("#compass").is_visible()
    priest = page.locator('[data-card="priest"]').locator(".unit-resource").all_text_contents()
    assert "Heals left: 3 of 3" in priest
    assert page.locator('[data-card="priest"]').locator(".status-chip").count() == 0

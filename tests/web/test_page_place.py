"""Setting up and placing by hand on the table page (issue 23), in a real headless Chromium: the
whole set-up checklist, a piece the camera cannot see offered to be placed by hand, dragged on
the board and turned, then sent as the ``place`` command; mid-battle the same from its card."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from page_helpers import open_page

from assistant.live_commands import Command
from assistant.live_hub import LiveHub
from assistant.session.by_hand import OFFER_AFTER_S
from assistant.session.game import LiveGame, Stage
from assistant.session.observation import Observation
from assistant.session.view import build_view
from assistant.web import ServerHandle
from tests.browser import CHROMIUM, MISSING
from tests.session.live_games import live_game
from tests.session.virtual_table import VirtualTable

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not CHROMIUM.exists(), reason=MISSING)]

HIDDEN = "goblin-boss"


def _setting_up() -> LiveGame:
    """crossroads-ambush in set-up, the Goblin Boss's tag unseen for a few seconds."""
    game = live_game("crossroads-ambush", 3)[0]
    table = VirtualTable(game)
    while table.t < OFFER_AFTER_S + 1.0:
        obs = table.observation()
        game.observe(Observation(obs.t, True, {k: v for k, v in obs.pieces.items() if k != HIDDEN}))
    assert game.stage is Stage.SETUP
    return game


def _board_px(page: Any, x_in: float, y_in: float) -> tuple[float, float]:
    box = page.locator("#overlay").bounding_box()
    w_in = page.evaluate("window.soloscope.state.view.table_width_in")
    d_in = page.evaluate("window.soloscope.state.view.table_depth_in")
    return box["x"] + x_in / w_in * box["width"], box["y"] + (1 - y_in / d_in) * box["height"]


def test_the_checklist_and_dragging_a_piece_into_place(
    page: Any, hub: LiveHub, server: ServerHandle, tmp_path: Path
) -> None:
    game = _setting_up()
    view = build_view(game)
    hub.publish(view)
    open_page(page, server.url)

    items = page.locator("#checklist li")
    assert items.count() == len(view.checklist) == len(game.state.units) + 3  # every piece
    boss = page.locator('#checklist li[data-check="Goblin Boss"]')
    assert "cannot see its tag" in boss.inner_text()
    assert page.locator("#checklist li.ok").count() == len(view.checklist) - 1
    assert page.locator("#setup-confirm").is_visible()
    page.screenshot(path=str(tmp_path / "setup_checklist.png"), full_page=True)

    unit = game.state.unit(HIDDEN)
    boss.locator("button.place-by-hand").click()
    assert page.locator("#placing-card").is_visible()
    assert page.locator(f'#overlay [data-placing="{HIDDEN}"]').count() == 1
    start = _board_px(page, unit.x, unit.y)
    target = (unit.x + 3.0, unit.y - 2.0)
    end = _board_px(page, *target)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move((start[0] + end[0]) / 2, (start[1] + end[1]) / 2, steps=4)
    page.mouse.move(*end, steps=4)
    page.mouse.up()
    page.locator('#placing-card [data-turn="45"]').click()
    page.screenshot(path=str(tmp_path / "placing.png"), full_page=True)
    page.locator("#placing-done").click()
    command = hub.next_command(10)
    assert command is not None and command.kind == "place" and command.unit_id == HIDDEN
    assert command.x_in is not None and command.y_in is not None
    assert abs(command.x_in - target[0]) < 0.3 and abs(command.y_in - target[1]) < 0.3
    assert command.heading_deg == pytest.approx((unit.heading_deg + 45) % 360, abs=0.1)
    assert page.locator("#placing-card").is_hidden()

    # The confirm button takes every unseen piece as set out.
    page.locator("#setup-confirm button").click()
    assert hub.next_command(10) == Command("confirm")

    # Placed: the session's next view marks it, and offers to move it again from its card.
    game.command(command)
    version = hub.publish(build_view(game))
    page.wait_for_function(f"Number(document.body.dataset.viewVersion) >= {version}")
    assert page.locator("#setup-card").is_hidden()  # the battle has begun
    card = page.locator(f'[data-card="{HIDDEN}"]')
    assert card.locator(".hand-chip").inner_text() == "placed by hand"
    base = page.locator(f'#overlay [data-unit-id="{HIDDEN}"] circle.base')
    assert "by-hand" in (base.get_attribute("class") or "")
    assert page.locator(f'[data-place="{HIDDEN}"]').inner_text() == "Move it by hand"

"""How the table page follows the live feed, in a real headless Chromium: each view is drawn
once, and a page left open while soloscope restarts shows the new session's board."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from board_samples import make_view
from page_helpers import open_page

from assistant.live_hub import LiveHub
from assistant.web import ServerHandle, serve

pytestmark = pytest.mark.browser

# Counts how often the page clears and redraws the board (installed before the page's script).
COUNT_BOARD_DRAWS = """
window.boardDraws = 0;
const replace = Element.prototype.replaceChildren;
Element.prototype.replaceChildren = function (...nodes) {
  if (this.id === "overlay") window.boardDraws += 1;
  return replace.apply(this, nodes);
};
"""


def _wait_live(page: Any) -> None:
    page.wait_for_function(
        "document.getElementById('connection').textContent === 'live'", timeout=60_000
    )


def test_each_view_is_drawn_once(page: Any, hub: LiveHub, server: ServerHandle) -> None:
    # The first fetch and the live feed both deliver the current view: drawing it twice would
    # replace every piece under the player's finger (and under a test's measurement).
    page.add_init_script(COUNT_BOARD_DRAWS)
    hub.publish(make_view())
    open_page(page, server.url)
    _wait_live(page)
    version = hub.publish(make_view(round_=3))
    page.wait_for_function(
        f"Number(document.body.dataset.viewVersion || 0) >= {version}", timeout=60_000
    )
    assert page.locator("#round").inner_text() == "Round 3"
    assert page.evaluate("window.boardDraws") == 2


def test_a_page_left_open_follows_a_restarted_soloscope(page: Any) -> None:
    first = LiveHub()
    server = serve(first, port=0, config={"SSE_POLL_S": 0.1})
    port = server.port
    try:
        for round_number in (1, 2, 3, 4):
            first.publish(dataclasses.replace(make_view(round_=round_number), title="Old game"))
        open_page(page, server.url)
        _wait_live(page)
        assert page.locator("#round").inner_text() == "Round 4"
    finally:
        server.stop()
    # soloscope starts again on the same port: its views count from 1 again.
    second = LiveHub()
    second.publish(dataclasses.replace(make_view(round_=1), title="Resumed game"))
    server = serve(second, port=port, config={"SSE_POLL_S": 0.1})
    try:
        page.wait_for_function(
            "document.getElementById('title').textContent === 'Resumed game'", timeout=60_000
        )
        assert page.locator("#round").inner_text() == "Round 1"
        _wait_live(page)
        version = second.publish(dataclasses.replace(make_view(round_=2), title="Resumed game"))
        assert version == 2
        page.wait_for_function(
            "document.getElementById('round').textContent === 'Round 2'", timeout=60_000
        )
    finally:
        server.stop()

"""The strike count on the table page, in a real headless Chromium: when the AI orders a strike
the order card gives the count ally by ally and the board draws each counting ally's sight
line to the target."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from assistant.live_hub import LiveHub
from assistant.session.game import Stage
from assistant.session.view import build_view
from assistant.web import serve
from tests.browser import CHROMIUM, CHROMIUM_ARGS, MISSING
from tests.session.virtual_table import VirtualTable
from tests.strike.test_strike_table import _live

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=MISSING)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


@pytest.fixture
def page() -> Iterator[sync_api.Page]:
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser.new_page(viewport={"width": 1280, "height": 860})
        browser.close()


def test_the_page_shows_the_strike_count_and_the_lines(page: sync_api.Page) -> None:
    live, _, _ = _live(1)
    table = VirtualTable(live)
    for _ in range(3000):
        order = live.order
        if live.stage is Stage.AI_ORDER and order is not None and order.action.kind == "strike":
            break
        table.step()
    else:
        raise AssertionError("the AI never ordered a strike")
    view = build_view(live)
    hub = LiveHub()
    hub.publish(view)
    handle = serve(hub, port=0, config={"SSE_POLL_S": 0.1})
    try:
        page.goto(handle.url)
        page.wait_for_function("Number(document.body.dataset.viewVersion || 0) > 0", timeout=60_000)
        text = page.locator("#order-text").text_content() or ""
        assert "against Toughness" in text and "count " in text
        target = order.action.target_id
        assert view.sight_lines
        for line in view.sight_lines:
            assert line.to_id == target
            assert line.note.startswith(("counts ", "not counted: "))
            drawn = page.locator(f'#overlay [data-sight="{line.from_id}>{target}"]')
            assert drawn.count() == 1, line
        assert any(line.from_id == order.action.unit_id for line in view.sight_lines)
    finally:
        handle.stop()

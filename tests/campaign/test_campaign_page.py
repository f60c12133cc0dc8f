"""The campaign page in a real headless Chromium (issue 16): the roster as cards with their
wounds and history, the scenario graph with the path taken, a link to every battle's record."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from assistant.live_hub import LiveHub
from assistant.web import serve
from tests.browser import CHROMIUM, CHROMIUM_ARGS, MISSING
from tests.campaign.helpers import campaign_copy, cli


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless (skips when it or Playwright is missing)."""
    if not CHROMIUM.exists():
        pytest.skip(MISSING)
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def chromium_page(chromium: Any) -> Iterator[Any]:
    """A page that fails the test on a JavaScript error or a request that leaves this
    computer."""
    context = chromium.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith("http://127.0.0.1")
            else (errors.append(route.request.url), route.abort())
        ),
    )
    yield page
    context.close()
    assert errors == [], errors


def test_campaign_page_shows_roster_graph_and_battles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], chromium_page: Any
) -> None:
    db = tmp_path / "b.sqlite"
    cli(capsys, "campaign", "new", str(campaign_copy(tmp_path, "B")), "--db", str(db))
    cli(capsys, "campaign", "next", "--simulate", "--seed", "9", "--db", str(db))
    cli(capsys, "campaign", "resolve", "--rolls", "1,2", "--speech", "off", "--db", str(db))
    cli(capsys, "campaign", "next", "--simulate", "--seed", "2", "--db", str(db))
    hub = LiveHub()
    handle = serve(hub, port=0, config={"CAMPAIGN_DB": str(db)})
    try:
        page = chromium_page
        page.goto(f"{handle.url}campaign")
        page.wait_for_selector("body[data-ready='1']")
        assert page.inner_text("#campaign-title") == "The Wardens' Road"
        cards = page.query_selector_all("#roster .veteran")
        assert [c.get_attribute("data-id") for c in cards] == ["ash", "ivy", "rook"]
        ivy = page.query_selector(".veteran[data-id='ivy']")
        assert ivy.get_attribute("data-status") == "lost" and "status-lost" in ivy.get_attribute(
            "class"
        )
        rook = page.query_selector(".veteran[data-id='rook']")
        # Rook carried a wound from the shrine and has just fallen at the ford: the card says
        # the fall (issue 22), not the wound it carried into that battle
        assert "fell at the ford (wounds not resolved yet)" in rook.inner_text().lower()
        assert "carrying" not in rook.inner_text()
        assert len(rook.query_selector_all(".slot.filled")) == 1
        assert "1. shrine" in rook.inner_text() and "2. ford" in rook.inner_text()
        # The graph: the path taken so far and the branch not taken.
        on_path = [
            g.get_attribute("data-id") for g in page.query_selector_all("#graph .node.on-path")
        ]
        assert on_path == ["shrine", "ford", "tower"]  # fought, fought, next
        assert page.query_selector("#graph .node.current").get_attribute("data-id") == "tower"
        assert page.query_selector("#graph .node[data-id='ditch']") is not None
        assert len(page.query_selector_all("#graph .edge.taken")) == 2
        assert "resolve the wounds of battle 2" in page.inner_text("#next-battle")
        links = page.query_selector_all("#battles a.replay")
        assert [a.inner_text() for a in links] == ["shrine", "ford"]
        box = page.query_selector("#roster").bounding_box()
        assert box is not None and box["width"] > 0 and box["height"] > 0
        links[0].click()
        page.wait_for_selector("#battle-log")
        assert "Road Wardens win the battle" in page.inner_text("#battle-log")
    finally:
        handle.stop()
        hub.close()


def test_campaign_page_without_a_campaign_says_so(chromium_page: Any, tmp_path: Path) -> None:
    hub = LiveHub()
    handle = serve(hub, port=0, config={"CAMPAIGN_DB": str(tmp_path / "none.sqlite")})
    try:
        chromium_page.goto(f"{handle.url}campaign")
        assert "no campaign at" in chromium_page.inner_text("#campaign-error")
        assert not (tmp_path / "none.sqlite").exists()
    finally:
        handle.stop()
        hub.close()

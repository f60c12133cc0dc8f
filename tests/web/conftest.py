"""Fixtures for the table page tests: a hub, a page server on a free port, headless Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from assistant.live_hub import LiveHub
from assistant.web import ServerHandle, serve
from tests.browser import CHROMIUM, CHROMIUM_ARGS, MISSING


@pytest.fixture
def hub() -> LiveHub:
    return LiveHub()


@pytest.fixture
def server(hub: LiveHub) -> Iterator[ServerHandle]:
    handle = serve(hub, port=0, config={"SSE_POLL_S": 0.1})
    yield handle
    handle.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (skips when either is missing)."""
    if not CHROMIUM.exists():
        pytest.skip(MISSING)
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A desktop-sized page; the test fails if the page's JavaScript raised an error."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"

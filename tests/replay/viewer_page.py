"""The offline replay viewer in a real headless Chromium, opened from disk (file://)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.browser import CHROMIUM, CHROMIUM_ARGS, MISSING


@contextmanager
def chromium() -> Iterator[Any]:
    """One headless Chromium (skips the test when the machine has none)."""
    if not CHROMIUM.exists():
        pytest.skip(MISSING)
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@contextmanager
def open_viewer(browser: Any, index_html: Path) -> Iterator[Any]:
    """The viewer page opened from disk, with no network at all (a request fails the test)."""
    pg = browser.new_page(viewport={"width": 1280, "height": 860})
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.route("http*://**", lambda route: (errors.append(route.request.url), route.abort()))
    pg.goto(index_html.resolve().as_uri())
    pg.wait_for_selector("body[data-ready='1']")
    yield pg
    assert errors == [], errors
    pg.close()


def scrub(page: Any, t: float) -> None:
    """Drag the scrubber to ``t`` seconds, as the player's hand would (an input event)."""
    page.eval_on_selector(
        "#scrubber",
        "(el, t) => { el.value = t; el.dispatchEvent(new Event('input', {bubbles: true})); }",
        t,
    )


def event_list(page: Any) -> list[dict[str, Any]]:
    """The event list as shown: time, text, whether current, whether inside the list's box."""
    return page.evaluate(
        """() => {
          const list = document.getElementById('events').getBoundingClientRect();
          return [...document.querySelectorAll('#events li')].map(li => {
            const r = li.getBoundingClientRect();
            return {t: Number(li.dataset.t), kind: li.dataset.kind,
                    text: li.querySelector('.text').textContent,
                    current: li.classList.contains('current'),
                    visible: r.top >= list.top - 1 && r.bottom <= list.bottom + 1};
          });
        }"""
    )

"""The page draws each unit's statuses and resources as the view lists them, whatever the
ruleset (headless Chromium): a status chip on the card and a marked base, labelled values."""

from __future__ import annotations

from dataclasses import replace

import pytest
from board_samples import make_view
from page_helpers import open_page

from assistant.live_hub import LiveHub
from assistant.live_view import BoardView, ResourceView
from assistant.web import ServerHandle
from tests.browser import CHROMIUM, MISSING

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=MISSING),
]

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


def _with_statuses(view: BoardView) -> BoardView:
    units = tuple(
        replace(
            u,
            statuses=("pinned", "alerted"),
            resources=(ResourceView("actions left", "2"), ResourceView("dice pool", "4 red")),
        )
        if u.id == "orc-archer"
        else u
        for u in view.units
    )
    return replace(view, units=units)


def test_statuses_and_resources_are_drawn_from_the_view(
    page: sync_api.Page, hub: LiveHub, server: ServerHandle
) -> None:
    hub.publish(_with_statuses(make_view()))
    open_page(page, server.url)
    card = page.locator('[data-card="orc-archer"]')
    assert card.locator(".status-chip").all_text_contents() == ["pinned", "alerted"]
    assert card.locator(".unit-resource").all_text_contents() == [
        "Actions left: 2",
        "Dice pool: 4 red",
    ]
    base = page.locator('#overlay [data-unit-id="orc-archer"] circle.base')
    assert "flagged" in (base.get_attribute("class") or "")
    assert base.get_attribute("data-statuses") == "pinned alerted"
    # A unit without any draws neither.
    plain = page.locator('[data-card="orc-captain"]')
    assert plain.locator(".status-chip").count() == 0
    assert plain.locator(".unit-resource").count() == 0
    captain = page.locator('#overlay [data-unit-id="orc-captain"] circle.base')
    assert "flagged" not in (captain.get_attribute("class") or "")


def test_the_view_keeps_statuses_and_resources_through_json() -> None:
    view = _with_statuses(make_view())
    again = BoardView.from_dict(view.to_dict())
    assert again == view

"""Each system's page (issue 23), in a real headless Chromium at 1280 and 390 px: a live game of
every rule system, mid-battle with an order and its lines of sight, drawn and saved as a
screenshot under the test's tmp folder; no two labels overlap and none leaves the board (a
line of sight's words with no room collapse to an "i" mark, read by tapping it), and each
system's cards show what that system has:

* strike: no wound boxes (a soldier is removed on the strike count), the side's dice pool once
  per side;
* Dungeon Crawl: wounds once (the boxes), a compass beside the board (facings are compass words);
* the card AI (firefight-lite): "Turn Done" on a figure that has acted, and the last card
  drawn, once for the AI side;
* the d20 status AI: its statuses and tactics, wounds once, a compass;
* 2D6: its statuses, no wound boxes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from page_helpers import open_page

from assistant.live_hub import LiveHub
from assistant.live_view import BoardView
from assistant.session.game import LiveGame, Stage
from assistant.session.view import build_view
from assistant.web import ServerHandle
from engine.model import Role
from tests.browser import CHROMIUM, MISSING
from tests.session.live_games import live_game
from tests.session.virtual_table import VirtualTable

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not CHROMIUM.exists(), reason=MISSING)]

VIEWPORTS = {"desktop": (1280, 860), "phone": (390, 844)}
TOLERANCE_PX = 0.5


@dataclass(frozen=True)
class System:
    """A bundled scenario of one rule system, and the moment of its battle to show."""

    scenario: str
    seed: int
    ready: Callable[[LiveGame], bool]
    """Show the page at the first AI order (with its lines of sight) where this holds."""


def _ordered(game: LiveGame) -> bool:
    """An AI order waits, and its unit has lines of sight to show."""
    return (
        game.stage is Stage.AI_ORDER
        and game.order is not None
        and bool(build_view(game).sight_lines)
    )


def _acted_ai(game: LiveGame) -> bool:
    ai = [u for u in game.state.units if game.state.side(u.side).role is Role.AI]
    return any(u.activated and u.on_table for u in ai) and _ordered(game)


def _with_status(game: LiveGame) -> bool:
    return any(u.statuses and u.on_table for u in game.state.units) and _ordered(game)


SYSTEMS = {
    "narrative": System("crossroads-ambush", 3, lambda g: _ordered(g) and g.state.round >= 2),
    "strike": System("strike-causeway", 1, lambda g: _ordered(g) and g.state.round >= 1),
    "skirmish2d6": System("skirmish-cairns", 2, _with_status),
    "firefight-lite": System("bosworth-street", 2, _acted_ai),
    "d20": System("d20-basic-battle", 2, _with_status),
    "dungeon": System("dungeon-crawl", 1, lambda g: _ordered(g) and g.state.round >= 2),
}


def _view(system: System) -> BoardView:
    """The page's view of the system's battle at its chosen moment: a perfect player at a
    virtual table, declaring what the autopilot declared in ``simulate`` with the same seed."""
    game = live_game(system.scenario, system.seed, planned=True)[0]
    game.confirm_hidden = True
    table = VirtualTable(game)
    for _ in range(3000):
        if system.ready(game):
            return build_view(game)
        if game.stage is Stage.OVER:
            break
        table.step()
    raise AssertionError(f"{system.scenario} never reached the moment to show")


@pytest.fixture(scope="module")
def views() -> dict[str, BoardView]:
    return {name: _view(system) for name, system in SYSTEMS.items()}


def _measure(page: Any) -> dict[str, Any]:
    """Every label's and mark's box, the board's box, and the cards' words, in one read."""
    result: dict[str, Any] = page.evaluate(
        """() => {
        const box = (n) => { const b = n.getBoundingClientRect();
          return {x: b.x, y: b.y, w: b.width, h: b.height,
            text: (n.dataset && n.dataset.sightNote) || n.textContent || ""}; };
        const sized = (b) => b.w > 0 && b.h > 0;
        const labels = [...document.querySelectorAll(
          "#overlay text.unit-label, #overlay text.terrain-label, #overlay text.sight-label, "
          + "#overlay g.sight-icon")].map(box).filter(sized);
        return {labels, board: box(document.getElementById("overlay")),
          icons: document.querySelectorAll("#overlay g.sight-icon").length,
          sightLabels: document.querySelectorAll("#overlay text.sight-label").length};
        }"""
    )
    return result


def _overlap_px(a: dict[str, float], b: dict[str, float]) -> float:
    dx = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    dy = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return min(dx, dy) if dx > 0 and dy > 0 else 0.0


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("system", list(SYSTEMS))
def test_each_systems_page_reads_without_overlaps(
    browser: Any,
    hub: LiveHub,
    server: ServerHandle,
    views: dict[str, BoardView],
    system: str,
    viewport: str,
    tmp_path: Path,
) -> None:
    view = views[system]
    assert view.sight_lines, f"{system}: the moment shown has lines of sight"
    hub.publish(view)
    width, height = VIEWPORTS[viewport]
    context = browser.new_context(viewport={"width": width, "height": height})
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        open_page(page, server.url)
        page.wait_for_function(
            "n => [...document.querySelectorAll('#overlay text.unit-label')]"
            ".filter(t => t.getBoundingClientRect().width > 0).length >= n",
            arg=sum(u.status != "off" for u in view.units),
            timeout=60_000,
        )
        drawn = _measure(page)
        labels, board = drawn["labels"], drawn["board"]
        # Each line of sight has its words on the board, or an "i" mark that holds them.
        assert drawn["sightLabels"] + drawn["icons"] == len(view.sight_lines)
        for a, b in combinations(labels, 2):
            assert _overlap_px(a, b) <= TOLERANCE_PX, f"{a['text']!r} overlaps {b['text']!r}"
        for label in labels:
            assert label["x"] >= board["x"] - TOLERANCE_PX, label["text"]
            assert label["x"] + label["w"] <= board["x"] + board["w"] + TOLERANCE_PX, label
            assert label["y"] >= board["y"] - TOLERANCE_PX, label["text"]
            assert label["y"] + label["h"] <= board["y"] + board["h"] + TOLERANCE_PX, label
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(tmp_path / f"{system}_{width}.png"), full_page=True)
        if drawn["icons"]:  # tap to read
            icon = page.locator("#overlay g.sight-icon").first
            words = icon.get_attribute("data-sight-note")
            icon.click()
            note = page.locator("#sight-note")
            # The page shows the note when it handles the click, which may come after the click
            # returns: wait for it (up to 5 s) rather than look once.
            note.wait_for(state="visible", timeout=5_000)
            assert note.inner_text() == words
            assert " · " in note.inner_text()  # a range, the cover or "no line of sight"
        _check_cards(page, system, view)
    finally:
        context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"


def _resources(page: Any, selector: str) -> list[str]:
    return [str(t) for t in page.locator(selector).all_inner_texts()]


def _check_cards(page: Any, system: str, view: BoardView) -> None:
    """What this system's cards (and its sides) show."""
    values = _resources(page, ".unit-resource")
    compass = page.locator("#compass")
    if system in ("dungeon", "d20"):
        assert compass.is_visible(), "facings are compass words: a compass is drawn"
    else:
        assert compass.is_hidden()
    if system == "strike":
        assert page.locator(".unit-card .wound").count() == 0  # no wound boxes
        pools = _resources(page, ".side-head .side-resource")
        assert len(pools) == len(view.sides) and all(p.startswith("Dice pool: ") for p in pools)
        assert not any("dice" in v.lower().split(":")[0] for v in values)
    if system in ("dungeon", "d20"):
        assert page.locator(".unit-card .wounds").count() > 0  # the wound boxes, once
        assert not any(v.startswith("Wounds") for v in values), values
    if system == "d20":
        assert any(v.startswith("Tactic: ") for v in values)
        assert page.locator(".unit-card .status-chip").count() > 0
    if system == "skirmish2d6":
        assert page.locator(".unit-card .wound").count() == 0
        assert page.locator(".unit-card .status-chip").count() > 0  # wounded, staggered, stunned
    if system == "firefight-lite":
        chips = _resources(page, ".unit-card .status-chip")
        assert "Turn Done" in chips, chips
        ai_side = page.locator(".side-group.ai .side-head").inner_text()
        assert "Last card drawn: " in ai_side and "Deck: " in ai_side
        assert not any(v.startswith(("Deck", "Events")) for v in values)

"""What a player reads on the table page, in a real headless Chromium: the turn line, the order
card, the buttons offered, the wound boxes, the end of the battle and the board's name labels."""

from __future__ import annotations

import re
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from board_samples import crowded_view, declare_prompt, make_view
from page_helpers import open_page

from assistant.live_hub import LiveHub
from assistant.scenarios import load_game
from assistant.session.dice import AutoDice
from assistant.session.game import LiveGame, Stage
from assistant.session.view import build_view
from assistant.web import ServerHandle
from engine.protocols import find_controller
from tests.session.virtual_table import VirtualTable

pytestmark = pytest.mark.browser

SCREENSHOT_DIR = Path("/tmp")
GAME_CONTROLS = "#controls button, #prompt-card button"


def _live_game(seed: int = 3) -> LiveGame:
    scenario, ruleset, state = load_game("crossroads-ambush")
    return LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller(scenario.scenario.ai_controller),
        dice=AutoDice(seed),
        say=lambda text: None,
        initial=state,
    )


def _play_until(game: LiveGame, table: VirtualTable, stage: Stage) -> None:
    """Carry out every AI order; the player passes on each of their turns."""
    for _ in range(3000):
        if game.stage is stage:
            return
        if game.stage is Stage.HUMAN:
            game.declare("pass", None)
            table.sync()
        else:
            table.step()
    raise AssertionError(f"the game never reached {stage}; it waits in {game.stage}")


def _visible_buttons(page: Any, name: str) -> int:
    return int(page.get_by_role("button", name=re.compile(f"^{name}$", re.IGNORECASE)).count())


def _wait_for_version(page: Any, version: int) -> None:
    page.wait_for_function(
        f"Number(document.body.dataset.viewVersion || 0) >= {version}", timeout=60_000
    )


def test_a_real_order_card_gives_the_reason_once_and_keeps_the_order(
    page: Any, hub: LiveHub, server: ServerHandle
) -> None:
    game = _live_game()
    table = VirtualTable(game)
    _play_until(game, table, Stage.AI_ORDER)
    assert game.order is not None and game.expected is not None
    ordered = game.state.unit(game.order.action.unit_id or "")
    hub.publish(build_view(game))
    open_page(page, server.url)

    card = page.locator("#order-card").inner_text()
    assert card.count("Why:") == 1, card
    order_text = page.locator("#order-text").inner_text()
    assert order_text.startswith(f"{ordered.name}:") and "Why" not in order_text
    assert page.locator("#order-reason").inner_text() == f"Why: {game.order.reason}."
    page.screenshot(path=str(SCREENSHOT_DIR / "soloscope_page_ai_order.png"))

    # The model is put down an inch off: the correction is announced, the card keeps the order.
    exp = game.expected
    table.poses[ordered.id] = (exp.x_in + 1.0, exp.y_in, exp.heading_deg)
    game.observe(table.observation())
    assert game.stage is Stage.AI_ORDER and game.announcements[-1].text.startswith("Move ")
    version = hub.publish(build_view(game))
    _wait_for_version(page, version)
    assert page.locator("#order-text").inner_text() == order_text
    assert page.locator("#log li").first.inner_text().endswith(game.announcements[-1].text)


def test_the_turn_line_and_one_pass_button_on_the_players_turn(
    page: Any, hub: LiveHub, server: ServerHandle
) -> None:
    game = _live_game()
    table = VirtualTable(game)
    table.run_until(Stage.HUMAN)
    view = build_view(game)
    assert view.turn == "Road Wardens"
    hub.publish(view)
    open_page(page, server.url)

    assert page.locator("#turn").inner_text() == "Turn: Road Wardens"
    body = page.locator("body").inner_text()
    assert "'s turn" not in body and "s's" not in body
    assert _visible_buttons(page, "pass") == 1
    # The scenario's cover words (hard, soft) get their colours, not SVG's default black.
    fills = page.locator("#overlay polygon.terrain").evaluate_all(
        "nodes => nodes.map(n => getComputedStyle(n).fill)"
    )
    assert fills and "rgb(0, 0, 0)" not in fills, fills
    assert _visible_buttons(page, "undo") == 1
    # The declaration buttons read as words, not as the ruleset's lower-case names.
    actions = page.locator("#prompt-buttons button").all_inner_texts()
    assert "Pass" in actions and all(a[:1].isupper() for a in actions), actions
    page.screenshot(path=str(SCREENSHOT_DIR / "soloscope_page_players_turn.png"))


def test_wound_boxes_are_labelled(page: Any, hub: LiveHub, server: ServerHandle) -> None:
    hub.publish(make_view(prompt=declare_prompt()))
    open_page(page, server.url)

    captain = page.locator('[data-card="orc-captain"] .wounds')
    assert captain.inner_text() == "Wounds 1/3"
    assert captain.locator(".wound").count() == 3
    assert captain.locator(".wound.taken").count() == 1
    assert page.locator('[data-card="ranger"] .wounds').inner_text() == "Wounds 0/2"
    # A screen reader hears the label once, not three unlabelled boxes.
    assert captain.locator(".wound[aria-hidden='true']").count() == 3


def test_after_the_battle_no_game_control_is_offered_and_the_outcome_is_shown(
    page: Any, hub: LiveHub, server: ServerHandle
) -> None:
    hub.publish(make_view(prompt=declare_prompt()))
    open_page(page, server.url)
    assert page.locator(GAME_CONTROLS).filter(visible=True).count() > 0

    game = _live_game()
    table = VirtualTable(game)
    _play_until(game, table, Stage.OVER)
    view = build_view(game)
    assert view.outcome == (
        f"Goblins win after {game.state.round} rounds: "
        "Road Wardens have no characters left on the table."
    )
    version = hub.publish(view)
    _wait_for_version(page, version)

    assert page.locator(GAME_CONTROLS).filter(visible=True).count() == 0
    for name in ("undo", "redo", "repeat", "pass", "confirm"):
        assert _visible_buttons(page, name) == 0, name
    outcome = page.locator("#outcome-card")
    assert outcome.is_visible()
    assert (outcome.text_content() or "").strip().startswith("The battle is over")
    assert view.outcome in outcome.inner_text()
    assert page.locator("#order-card").is_hidden()
    assert page.locator("#turn").inner_text() == ""
    assert page.locator("#round").inner_text() == "Battle over"
    page.screenshot(path=str(SCREENSHOT_DIR / "soloscope_page_over.png"))


def _measure_board(page: Any) -> dict[str, Any]:
    """Every label's, base's and the board's box (pixels) and each piece's label, base and
    leader count, read in one evaluation."""
    result: dict[str, Any] = page.evaluate(
        """() => {
        const box = (n) => { const b = n.getBoundingClientRect();
          return {x: b.x, y: b.y, w: b.width, h: b.height, text: n.textContent}; };
        const sized = (b) => b.w > 0 && b.h > 0;
        const all = (sel) => [...document.querySelectorAll(sel)].map(box).filter(sized);
        const units = {};
        for (const g of document.querySelectorAll("#overlay [data-unit-id]")) {
          units[g.dataset.unitId] = {label: box(g.querySelector("text.unit-label")),
            base: box(g.querySelector("circle.base")),
            leaders: g.querySelectorAll("line.leader").length};
        }
        return {labels: all("#overlay text.unit-label, #overlay text.terrain-label"),
          bases: all("#overlay circle.base"), board: box(document.getElementById("overlay")),
          units};
        }"""
    )
    return result


def _overlap_px(a: dict[str, float], b: dict[str, float]) -> float:
    dx = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    dy = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return min(dx, dy) if dx > 0 and dy > 0 else 0.0


def _gap_px(label: dict[str, float], base: dict[str, float]) -> float:
    """How far a label box is from a round base's edge (0 when they touch), in pixels."""
    cx, cy, r = base["x"] + base["w"] / 2, base["y"] + base["h"] / 2, base["w"] / 2
    dx = max(label["x"] - cx, 0.0, cx - (label["x"] + label["w"]))
    dy = max(label["y"] - cy, 0.0, cy - (label["y"] + label["h"]))
    return max(0.0, (dx * dx + dy * dy) ** 0.5 - r)


@pytest.mark.parametrize("viewport", [(1280, 860), (390, 844)], ids=["desktop", "phone"])
def test_name_labels_on_a_crowded_board_do_not_collide(
    browser: Any, hub: LiveHub, server: ServerHandle, viewport: tuple[int, int]
) -> None:
    view = crowded_view()
    hub.publish(view)
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    try:
        page = context.new_page()
        open_page(page, server.url)
        # On a loaded machine the board may be laid out (and its labels sized) a frame later.
        page.wait_for_function(
            "n => [...document.querySelectorAll("
            "'#overlay text.unit-label, #overlay text.terrain-label')]"
            ".filter(t => { const b = t.getBoundingClientRect(); return b.width > 0 && b.height > 0; })"
            ".length >= n",
            arg=len(view.units) + len(view.terrain),
            timeout=60_000,
        )
        board_now = _measure_board(page)  # one read: a redraw between reads moves every box
        labels, bases, board = board_now["labels"], board_now["bases"], board_now["board"]
        assert len(labels) == len(view.units) + len(view.terrain)
        tolerance_px = 0.5
        for a, b in combinations(labels, 2):
            assert _overlap_px(a, b) <= tolerance_px, f"{a['text']!r} overlaps {b['text']!r}"
        for label in labels:
            for base in bases:
                assert _overlap_px(label, base) <= tolerance_px, f"{label['text']!r} on a piece"
            assert label["x"] >= board["x"] - tolerance_px
            assert label["x"] + label["w"] <= board["x"] + board["w"] + tolerance_px
            assert label["y"] >= board["y"] - tolerance_px
            assert label["y"] + label["h"] <= board["y"] + board["h"] + tolerance_px
        # Each name stays near its piece (within 3 label heights), and reads as that piece's:
        # no other piece is nearer to it, or a leader line joins it to its own.
        pieces = board_now["units"]
        assert sorted(pieces) == sorted(unit.id for unit in view.units)
        for unit in view.units:
            label = pieces[unit.id]["label"]
            own = _gap_px(label, pieces[unit.id]["base"])
            assert own <= 3 * label["h"], unit.name
            nearest_other = min(
                _gap_px(label, pieces[other.id]["base"])
                for other in view.units
                if other.id != unit.id
            )
            assert own <= nearest_other + 0.5 or pieces[unit.id]["leaders"] == 1, unit.name
        page.screenshot(path=str(SCREENSHOT_DIR / f"soloscope_page_crowded_{viewport[0]}.png"))
    finally:
        context.close()

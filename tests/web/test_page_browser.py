"""The table page in a real headless Chromium (Debian's, driven by Playwright)."""

from __future__ import annotations

from pathlib import Path

import pytest
from board_samples import declare_prompt, dice_prompt, make_view, table_jpeg
from page_helpers import open_page as _open

from assistant.live_commands import Command
from assistant.live_hub import LiveHub
from assistant.web import ServerHandle, serve
from tests.browser import CHROMIUM, MISSING

SCREENSHOT_DIR = Path("/tmp")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=MISSING),
]

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


def test_page_shows_the_live_board_and_the_order(
    page: sync_api.Page, hub: LiveHub, server: ServerHandle
) -> None:
    view = make_view(prompt=declare_prompt())
    hub.publish(view)
    hub.publish_frame(table_jpeg(480, 480))
    _open(page, server.url)

    for unit in view.units:
        label = page.locator(f'#overlay [data-unit-id="{unit.id}"] text')
        assert label.text_content() == unit.name
    # The units are drawn where the view puts them: x across, y up from the player's edge.
    box = page.locator("#overlay").bounding_box()
    captain = page.locator('#overlay [data-unit-id="orc-captain"] circle.base').bounding_box()
    assert box is not None and captain is not None
    px_per_in = box["width"] / 24.0
    centre_x = captain["x"] + captain["width"] / 2 - box["x"]
    centre_y = captain["y"] + captain["height"] / 2 - box["y"]
    assert abs(centre_x / px_per_in - 12.0) < 0.1
    assert abs((box["height"] - centre_y) / px_per_in - 16.0) < 0.1
    assert page.locator('#overlay [data-ghost-of="orc-captain"]').count() == 1
    assert page.locator('#overlay [data-sight="orc-captain>ranger"]').count() == 1
    sight = page.locator("#overlay .sight-label").first.text_content() or ""
    assert "11.3" in sight and "light cover" in sight and "across the tower's corner" in sight

    page.wait_for_function("document.body.dataset.frameVersion === '1'", timeout=60_000)
    size = page.evaluate(
        "[document.getElementById('frame').naturalWidth, "
        "document.getElementById('frame').naturalHeight]"
    )
    assert size == [480, 480]

    assert page.locator("#order-text").text_content() == view.order.text  # type: ignore[union-attr]
    assert "nearest enemy in the open" in (page.locator("#order-reason").text_content() or "")
    assert page.locator("#round").text_content() == "Round 2"
    assert page.locator("#turn").text_content() == "Turn: Orc warband"
    assert "Scout's tag is hidden" in (page.locator("#statuses").text_content() or "")
    log = page.locator("#log li").all_text_contents()
    assert log[0].endswith(view.order.text) and log[1].startswith("0:03")  # type: ignore[union-attr]
    wounds = page.locator('[data-card="orc-captain"] .wound')
    assert wounds.count() == 3
    assert page.locator('[data-card="orc-captain"] .wound.taken').count() == 1

    # Ranges and arcs on demand: a click on a unit card shows that unit's.
    assert page.locator('#overlay [data-range-of="ranger"]').count() == 0
    page.locator('[data-card="ranger"]').click()
    assert page.locator('#overlay [data-range-of="ranger"]').count() == 1
    assert page.locator('#overlay [data-arc-of="ranger"]').count() == 1

    page.screenshot(path=str(SCREENSHOT_DIR / "soloscope_page_desktop.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(300)
    page.screenshot(path=str(SCREENSHOT_DIR / "soloscope_page_phone.png"), full_page=True)
    # On a phone the board fills the width and nothing spills sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_declaration_and_controls_reach_the_hub(
    page: sync_api.Page, hub: LiveHub, server: ServerHandle
) -> None:
    hub.publish(make_view(prompt=declare_prompt()))
    _open(page, server.url)

    page.locator('#prompt-buttons [data-action="shoot"]').click()
    page.locator('#prompt-targets [data-target="orc-archer"]').click()
    assert hub.next_command(10) == Command("declare", "shoot", "orc-archer", None, "ranger")
    page.locator('#prompt-buttons [data-action="pass"]').click()
    assert hub.next_command(10) == Command("declare", "pass", None, None, "ranger")

    page.locator('[data-command="undo"]').click()
    assert hub.next_command(10) == Command("undo")
    for kind in ("redo", "repeat"):
        page.locator(f'[data-command="{kind}"]').click()
        assert hub.next_command(10) == Command(kind)
    page.wait_for_function(
        "document.getElementById('feedback').textContent === 'Sent: repeat'", timeout=60_000
    )

    # A dice prompt published after load: buttons 1..8 appear; a press sends the value.
    hub.publish(make_view(prompt=dice_prompt(8)))
    page.wait_for_selector("#prompt-buttons [data-die='8']", timeout=60_000)
    assert page.locator("#prompt-buttons [data-die]").count() == 8
    page.locator("#prompt-buttons [data-die='5']").click()
    assert hub.next_command(10) == Command("dice", value=5)
    assert hub.next_command(0) is None


def test_updates_published_after_load_appear_without_reload(
    page: sync_api.Page, hub: LiveHub, server: ServerHandle
) -> None:
    hub.publish(make_view(round_=2))
    _open(page, server.url)
    page.evaluate("window.__notReloaded = true")

    text = "Orc Archer: move 3 inches toward the pine woods, then shoot the Scout."
    hub.publish(make_view(round_=3, order_text=text))
    page.wait_for_function(
        "document.getElementById('round').textContent === 'Round 3'", timeout=60_000
    )
    assert page.locator("#order-text").text_content() == text
    assert page.evaluate("window.__notReloaded") is True

    hub.publish_frame(table_jpeg(240, 240))
    page.wait_for_function("document.body.dataset.frameVersion === '1'", timeout=60_000)
    hub.publish_frame(table_jpeg(320, 320))
    page.wait_for_function("document.body.dataset.frameVersion === '2'", timeout=60_000)
    assert page.evaluate("document.getElementById('frame').naturalWidth") == 320
    assert page.evaluate("window.__notReloaded") is True

    # A frame with a 2 in margin round the table is drawn 2 in beyond each edge of the board.
    hub.publish_frame(table_jpeg(280, 280), bounds_in=(-2.0, -2.0, 26.0, 26.0))
    page.wait_for_function("document.body.dataset.frameVersion === '3'", timeout=60_000)
    board = page.locator("#overlay").bounding_box()
    image = page.locator("#frame").bounding_box()
    assert board is not None and image is not None
    px_per_in = board["width"] / 24.0
    assert abs((board["x"] - image["x"]) / px_per_in - 2.0) < 0.05
    assert (
        abs((image["y"] + image["height"] - board["y"] - board["height"]) / px_per_in - 2.0) < 0.05
    )
    assert abs(image["width"] / px_per_in - 28.0) < 0.05


def test_page_with_a_token(browser: sync_api.Browser, hub: LiveHub) -> None:
    hub.publish(make_view(prompt=declare_prompt()))
    handle = serve(hub, port=0, token="table-token", config={"SSE_POLL_S": 0.1})
    context = browser.new_context()
    try:
        page = context.new_page()
        refused = page.goto(handle.url)
        assert refused is not None and refused.status == 403
        assert "needs its access token" in page.locator("body").inner_text()
        page.goto(handle.login_url)
        page.wait_for_function("Number(document.body.dataset.viewVersion || 0) > 0")
        assert "token" not in page.url  # the token went into a cookie
        page.locator('[data-command="undo"]').click()
        assert hub.next_command(10) == Command("undo")
    finally:
        context.close()
        handle.stop()

"""The table page's defences for LAN mode: no framing by other sites, no type sniffing, the
token out of the address bar, names that cannot disguise themselves with bidirectional
controls, and a refusal (not a traceback) for a command nested too deeply to read."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from board_samples import make_view
from flask.testing import FlaskClient
from page_helpers import open_page

from assistant.live_hub import LiveHub
from assistant.live_view import AnnouncementView
from assistant.replay.viewer import render_viewer
from assistant.web import ServerHandle, create_app, serve
from assistant.web.auth import COOKIE_NAME
from assistant.web.commands import TOO_DEEP
from assistant.web.headers import SECURITY_HEADERS
from tests.campaign.helpers import campaign_copy, cli

TOKEN = "hardening-token"
RLO = "\u202e"
SPOOF = f"{RLO}evil"
"""Shown as "live" by a browser that obeys the override."""
BIDI = ("\u061c", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", RLO, "\u2066",
        "\u2067", "\u2068", "\u2069")  # fmt: skip


@pytest.fixture
def client() -> FlaskClient:
    return create_app(LiveHub(), {"TESTING": True}).test_client()


def _spoofed_view() -> Any:
    view = make_view(order_text=f"{SPOOF}: move 4 inches toward the ruined tower.")
    units = (replace(view.units[0], name=f"Orc {SPOOF}"), *view.units[1:])
    said = (*view.announcements, AnnouncementView(12.0, f"Orc {SPOOF} moves."))
    return replace(view, units=units, announcements=said, title=f"Ambush of {SPOOF}")


# ---------------------------------------------------------------- headers


def test_every_response_forbids_framing_and_sniffing(tmp_path: Path) -> None:
    """Before: none of these headers was sent."""
    app = create_app(LiveHub(), {"TESTING": True, "TOKEN": TOKEN})
    client = app.test_client()
    auth = {"X-Soloscope-Token": TOKEN}
    responses = {
        "refused without the token": client.get("/"),
        "page": client.get("/", headers=auth),
        "view": client.get("/api/view", headers=auth),
        "script": client.get("/static/app.js", headers=auth),
        "no frame yet": client.get("/frame.jpg", headers=auth),
        "not found": client.get("/nowhere", headers=auth),
        "campaign page": client.get("/campaign", headers=auth),
        "command": client.post("/api/command", json={"kind": "undo"}, headers=auth),
    }
    assert responses["page"].status_code == 200
    for what, response in responses.items():
        for name, value in SECURITY_HEADERS.items():
            assert response.headers.get(name) == value, (what, name)
    assert SECURITY_HEADERS["X-Frame-Options"] == "DENY"
    assert SECURITY_HEADERS["Content-Security-Policy"] == "frame-ancestors 'none'"
    assert SECURITY_HEADERS["X-Content-Type-Options"] == "nosniff"


@pytest.mark.browser
def test_another_page_cannot_frame_the_table_page(page: Any, server: ServerHandle) -> None:
    """Before: the table page drew itself inside another site's frame (clickjacking)."""
    page.set_content(f'<iframe id="table" src="{server.url}"></iframe>')  # waits for its load
    framed = page.frames[1]
    framed.wait_for_load_state()
    assert not framed.url.startswith(server.url), framed.url
    assert framed.evaluate("document.getElementById('overlay') === null")


# ---------------------------------------------------------------- the token


@pytest.mark.parametrize(
    ("address", "clean"),
    [
        ("/?token=T", "/"),
        ("/campaign?token=T", "/campaign"),
        ("/campaign/battle/2?view=log&token=T", "/campaign/battle/2?view=log"),
    ],
)
def test_a_browser_opening_any_address_with_the_token_is_sent_on_without_it(
    address: str, clean: str
) -> None:
    """Before: only "/" dropped the token; the campaign page and a battle's record kept it in
    the address bar and the history."""
    client = create_app(LiveHub(), {"TESTING": True, "TOKEN": TOKEN}).test_client()
    opened = client.get(address.replace("=T", f"={TOKEN}"), headers={"Sec-Fetch-Mode": "navigate"})
    assert opened.status_code == 303
    assert opened.headers["Location"] == clean
    cookie = client.get_cookie(COOKIE_NAME)
    assert cookie is not None and cookie.value == TOKEN
    # a typed address (no Sec-Fetch headers) asking for HTML is sent on too
    typed = create_app(LiveHub(), {"TESTING": True, "TOKEN": TOKEN}).test_client()
    reply = typed.get(address.replace("=T", f"={TOKEN}"), headers={"Accept": "text/html"})
    assert reply.status_code == 303 and reply.headers["Location"] == clean


def test_a_script_fetching_data_with_the_token_is_answered_in_place() -> None:
    client = create_app(LiveHub(), {"TESTING": True, "TOKEN": TOKEN}).test_client()
    for headers in ({}, {"Accept": "*/*"}, {"Sec-Fetch-Mode": "cors"}):
        reply = client.get(f"/api/view?token={TOKEN}", headers=headers)
        assert reply.status_code == 200, headers


# ---------------------------------------------------------------- bidirectional controls


@pytest.mark.browser
def test_a_right_to_left_override_in_a_name_cannot_turn_it_around(
    page: Any, hub: LiveHub, server: ServerHandle
) -> None:
    """Before: a unit named "\\u202eevil" was drawn, listed and announced as "live"."""
    hub.publish(_spoofed_view())
    open_page(page, server.url)
    shown = page.evaluate(
        """() => [
          ...[...document.querySelectorAll('.unit-label')].map(n => n.textContent),
          ...[...document.querySelectorAll('.unit-name')].map(n => n.textContent),
          document.getElementById('order-text').textContent,
          document.getElementById('title').textContent,
          ...[...document.querySelectorAll('#log li')].map(n => n.textContent),
        ]"""
    )
    text = "\n".join(shown)
    assert "Orc evil" in text and "evil: move 4 inches" in text and "Ambush of evil" in text
    assert not [c for c in BIDI if c in text], [hex(ord(c)) for c in BIDI if c in text]


def test_the_campaign_page_shows_names_without_bidirectional_controls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = campaign_copy(tmp_path)
    source.write_text(
        source.read_text(encoding="utf-8").replace("Sergeant Ash", f"Sergeant {SPOOF}"),
        encoding="utf-8",
    )
    db = tmp_path / "c.sqlite"
    cli(capsys, "campaign", "new", str(source), "--db", str(db))
    client = create_app(LiveHub(), {"TESTING": True, "CAMPAIGN_DB": str(db)}).test_client()
    html = client.get("/campaign").get_data(as_text=True)
    assert "Sergeant evil" in html
    assert not [c for c in BIDI if c in html]


def test_the_replay_viewer_shows_names_without_bidirectional_controls() -> None:
    document = {
        "version": 1,
        "table": {"width_in": 24, "depth_in": 24},
        "events": [{"t": 1.0, "kind": "note", "text": f"Orc {SPOOF} moved"}],
        "roster": {"title": f"Raid of {SPOOF}", "pieces": [{"name": f"Orc {SPOOF}"}]},
    }
    html = render_viewer(document)
    data = html[html.index("const DATA = ") :].split("\n", 1)[0]
    assert "Orc evil" in data and "Raid of evil" in data
    assert "\\u202e" not in data.lower() and RLO not in data


# ---------------------------------------------------------------- a command nested too deeply


@pytest.mark.parametrize("depth", [900, 990, 1000, 5000, 30000])
@pytest.mark.parametrize("shape", ["list", "kind"])
def test_a_command_nested_too_deeply_is_refused_in_one_sentence(
    client: FlaskClient, depth: int, shape: str
) -> None:
    """Before: HTTP 500, and a RecursionError traceback in the player's terminal."""
    nested = "[" * depth + "]" * depth
    body = nested if shape == "list" else f'{{"kind": {nested}}}'
    reply = client.post("/api/command", data=body, content_type="application/json")
    assert reply.status_code == 400
    error = reply.get_json()["error"]
    assert error == TOO_DEEP or "is not one of" in error or "must be a JSON object" in error
    assert "\n" not in error and "Traceback" not in error


def test_a_deep_command_to_the_served_page_leaves_no_traceback(
    capfd: pytest.CaptureFixture[str],
) -> None:
    hub = LiveHub()
    handle = serve(hub, port=0)
    body = ("[" * 20000 + "]" * 20000).encode()
    request = urllib.request.Request(
        f"{handle.url}api/command", data=body, headers={"Content-Type": "application/json"}
    )
    try:
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)
        assert refused.value.code == 400
        assert json.loads(refused.value.read())["error"] == TOO_DEEP
    finally:
        handle.stop()
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err and "RecursionError" not in out + err
    assert hub.next_command(0) is None


def test_a_body_that_is_not_json_is_refused_in_one_sentence(client: FlaskClient) -> None:
    for body in (b"{kind: undo", b"\xff\xfe"):
        reply = client.post("/api/command", data=body, content_type="application/json")
        assert reply.status_code == 400
        assert reply.get_json()["error"].startswith("The command is not valid JSON")

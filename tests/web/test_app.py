"""The table page's Flask app through its test client: view JSON, commands, frames, tokens, SSE."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from board_samples import dice_prompt, make_view, table_jpeg
from flask import Flask
from flask.testing import FlaskClient

from assistant.live_commands import Command
from assistant.live_hub import LiveHub
from assistant.web import create_app
from assistant.web.auth import COOKIE_NAME, login_url, token_banner

TOKEN = "s3cret-token"


@pytest.fixture
def hub() -> LiveHub:
    return LiveHub()


@pytest.fixture
def app(hub: LiveHub) -> Flask:
    return create_app(hub, {"TESTING": True})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def test_page_and_its_static_files(client: FlaskClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'id="overlay"' in html and 'id="frame"' in html
    for name in ("app.js", "style.css"):
        assert f"/static/{name}" in html
        assert client.get(f"/static/{name}").status_code == 200


def test_view_json(client: FlaskClient, hub: LiveHub) -> None:
    assert client.get("/api/view").get_json() == {"version": 0, "view": None}
    view = make_view()
    hub.publish(view)
    body = client.get("/api/view").get_json()
    assert body["version"] == 1
    assert body["view"] == json.loads(view.to_json())
    assert [u["name"] for u in body["view"]["units"]][:2] == ["Orc Captain", "Orc Archer"]


def test_frame(client: FlaskClient, hub: LiveHub) -> None:
    missing = client.get("/frame.jpg")
    assert missing.status_code == 404 and "No camera frame" in missing.get_data(as_text=True)
    jpeg = table_jpeg()
    hub.publish_frame(jpeg)
    frame = client.get("/frame.jpg")
    assert frame.status_code == 200 and frame.mimetype == "image/jpeg"
    assert frame.data == jpeg
    assert frame.headers["Cache-Control"] == "no-store"


def test_posted_commands_land_in_the_hub_queue(client: FlaskClient, hub: LiveHub) -> None:
    hub.publish(make_view(prompt=dice_prompt(6)))
    posted = [
        {"kind": "declare", "action": "shoot", "target": "orc-captain", "unit_id": "ranger"},
        {"kind": "dice", "value": 4},
        {"kind": "undo"},
        {"kind": "redo"},
        {"kind": "repeat"},
        {"kind": "confirm", "unit_id": "scout"},
        {"kind": "pass"},
    ]
    for payload in posted:
        reply = client.post("/api/command", json=payload)
        assert reply.status_code == 202, reply.get_json()
        assert reply.get_json() == {"ok": True, "command": payload}
    received = [hub.next_command(1) for _ in posted]
    assert received == [Command.from_dict(p) for p in posted]
    assert received[0] == Command("declare", "shoot", "orc-captain", None, "ranger")
    assert hub.next_command(0) is None


def test_bad_commands_are_refused_with_a_reason(client: FlaskClient, hub: LiveHub) -> None:
    hub.publish(make_view(prompt=dice_prompt(6)))
    for payload, words in [
        ({"kind": "dice", "value": 9}, "d6 cannot show 9"),
        ({"kind": "teleport"}, "not one of"),
        ({"kind": "declare"}, "needs an action"),
    ]:
        reply = client.post("/api/command", json=payload)
        assert reply.status_code == 400
        assert words in reply.get_json()["error"]
    not_json = client.post("/api/command", data="kind=undo")
    assert not_json.status_code == 415
    assert hub.next_command(0) is None


def test_token_required_when_set(hub: LiveHub) -> None:
    client = create_app(hub, {"TESTING": True, "TOKEN": TOKEN}).test_client()
    for path in ("/", "/api/view", "/frame.jpg", "/events", "/static/app.js"):
        missing = client.get(path)
        assert missing.status_code == 403, path
        assert missing.mimetype == "text/plain"
        assert "needs its access token" in missing.get_data(as_text=True)
        wrong = client.get(f"{path}?token=nope")
        assert wrong.status_code == 403 and "token is wrong" in wrong.get_data(as_text=True)
    assert client.post("/api/command", json={"kind": "undo"}).status_code == 403
    assert client.get("/api/view", headers={"X-Soloscope-Token": "nope"}).status_code == 403
    assert hub.next_command(0) is None

    # Header and bearer work without a cookie.
    assert client.get("/api/view", headers={"X-Soloscope-Token": TOKEN}).status_code == 200
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    assert client.get("/api/view", headers=bearer).status_code == 200

    # ?token= once: the page redirects to a clean address and keeps the token in a cookie.
    first = client.get(f"/?token={TOKEN}")
    assert first.status_code == 303 and first.headers["Location"].endswith("/")
    cookie = client.get_cookie(COOKIE_NAME)
    assert cookie is not None and cookie.value == TOKEN and cookie.http_only
    assert client.get("/").status_code == 200
    assert client.post("/api/command", json={"kind": "undo"}).status_code == 202
    assert hub.next_command(0) == Command("undo")


def test_without_token_only_local_host_names_are_answered(client: FlaskClient) -> None:
    assert client.get("/api/view", headers={"Host": "127.0.0.1:5000"}).status_code == 200
    assert client.get("/api/view", headers={"Host": "[::1]:5000"}).status_code == 200
    rebound = client.get("/api/view", headers={"Host": "evil.example:5000"})
    assert rebound.status_code == 403 and "--listen-all" in rebound.get_data(as_text=True)


def test_event_stream_sends_views_and_frames(client: FlaskClient, hub: LiveHub) -> None:
    hub.publish(make_view(round_=1))
    response = client.get("/events", buffered=False)
    assert response.mimetype == "text/event-stream"
    chunks = iter(response.response)
    assert next(chunks).startswith(b"retry:")
    first = next(chunks).decode()
    assert first.startswith("id: 1\nevent: view\ndata: ")
    assert json.loads(first.split("data: ", 1)[1])["round"] == 1
    hub.publish(make_view(round_=3))
    second = next(chunks).decode()
    assert second.startswith("id: 2\nevent: view\n") and '"round":3' in second
    hub.publish_frame(table_jpeg())
    assert next(chunks).decode() == 'event: frame\ndata: {"version": 1, "bounds_in": null}\n\n'
    hub.publish_frame(table_jpeg(), bounds_in=(-1, -1, 25, 25))
    frame = next(chunks).decode()
    assert json.loads(frame.split("data: ", 1)[1]) == {"version": 2, "bounds_in": [-1, -1, 25, 25]}
    assert hub.subscriber_count == 1
    response.close()
    assert hub.subscriber_count == 0


def test_token_banner_and_login_url() -> None:
    url = "http://192.168.1.20:5000/"
    assert login_url(url, TOKEN) == f"{url}?token={TOKEN}"
    assert login_url(url, None) == url
    banner = token_banner(url, TOKEN)
    assert f"{url}?token={TOKEN}" in banner
    qr_lines = [line for line in banner.splitlines() if "█" in line]
    assert len(qr_lines) > 10 and len({len(line) for line in qr_lines}) == 1
    local = token_banner("http://127.0.0.1:5000/", None)
    assert "http://127.0.0.1:5000/" in local and "█" not in local


class _CountingBody(io.RawIOBase):
    """A request body of ``size`` bytes of a JSON-looking text that counts what is read of it."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = min(len(buffer), self.size - self.read_bytes)
        buffer[:n] = b" " * n
        self.read_bytes += n
        return n


def test_an_oversized_body_is_refused_before_it_is_read(client: FlaskClient, hub: LiveHub) -> None:
    size = 20 * 1024 * 1024
    body = _CountingBody(size)
    reply = client.post(
        "/api/command",
        content_type="application/json",
        environ_overrides={"wsgi.input": body, "CONTENT_LENGTH": str(size)},
    )
    assert reply.status_code == 413
    assert reply.mimetype == "text/plain"
    assert "too large" in reply.get_data(as_text=True)
    assert body.read_bytes == 0
    assert hub.next_command(0) is None
    # The limit is Flask's MAX_CONTENT_LENGTH: 64 KB, far above any command.
    assert client.application.config["MAX_CONTENT_LENGTH"] == 64 * 1024
    padded = {"kind": "undo", "unit_id": None, "pad": " " * (65 * 1024)}
    assert client.post("/api/command", json=padded).status_code == 413
    assert client.post("/api/command", json={"kind": "undo"}).status_code == 202


def test_a_chunked_body_is_cut_off_at_the_limit(client: FlaskClient, hub: LiveHub) -> None:
    size = 20 * 1024 * 1024
    body = _CountingBody(size)
    reply = client.post(
        "/api/command",
        content_type="application/json",
        environ_overrides={
            "wsgi.input": body,
            "wsgi.input_terminated": True,
            "HTTP_TRANSFER_ENCODING": "chunked",
        },
    )
    assert reply.status_code == 413 and "too large" in reply.get_data(as_text=True)
    assert body.read_bytes <= 128 * 1024
    assert hub.next_command(0) is None


ORIGIN = "http://127.0.0.1:5000"


def test_commands_from_another_origin_are_refused(client: FlaskClient, hub: LiveHub) -> None:
    local = {"Host": "127.0.0.1:5000"}
    for headers in (
        {"Origin": "http://evil.example"},
        {"Origin": "http://127.0.0.1:5001"},  # another port is another origin
        {"Origin": "https://127.0.0.1:5000"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Referer": "http://evil.example/page"},
    ):
        reply = client.post("/api/command", json={"kind": "undo"}, headers={**local, **headers})
        assert reply.status_code == 403, headers
        assert reply.mimetype == "text/plain"
        assert "only from its own page" in reply.get_data(as_text=True)
    assert hub.next_command(0) is None

    # Its own page (Origin, Sec-Fetch-Site or Referer of the same origin) and a client that
    # sends none of them (curl, a script on this computer) are accepted.
    for headers in (
        {"Origin": ORIGIN},
        {"Origin": ORIGIN, "Sec-Fetch-Site": "same-origin"},
        {"Sec-Fetch-Site": "same-origin"},
        {"Referer": f"{ORIGIN}/"},
        {},
    ):
        reply = client.post("/api/command", json={"kind": "undo"}, headers={**local, **headers})
        assert reply.status_code == 202, headers
        assert hub.next_command(0) == Command("undo")
    # Reading is not state-changing: a GET with a foreign Origin is answered (the token or host
    # check still applies).
    assert (
        client.get("/api/view", headers={**local, "Origin": "http://evil.example"}).status_code
        == 200
    )


def test_with_a_token_a_command_needs_the_token_and_the_same_origin(hub: LiveHub) -> None:
    client = create_app(hub, {"TESTING": True, "TOKEN": TOKEN}).test_client()
    lan = {"Host": "192.168.1.20:5000", "X-Soloscope-Token": TOKEN}
    assert client.post("/api/command", json={"kind": "undo"}, headers=lan).status_code == 202
    assert hub.next_command(0) == Command("undo")
    same = {**lan, "Origin": "http://192.168.1.20:5000"}
    assert client.post("/api/command", json={"kind": "undo"}, headers=same).status_code == 202
    assert hub.next_command(0) == Command("undo")
    foreign = {**lan, "Origin": "http://192.168.1.99"}
    assert client.post("/api/command", json={"kind": "undo"}, headers=foreign).status_code == 403
    no_token = {"Host": "192.168.1.20:5000"}
    assert client.post("/api/command", json={"kind": "undo"}, headers=no_token).status_code == 403
    assert hub.next_command(0) is None

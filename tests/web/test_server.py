"""The table page served for real (werkzeug in a thread): binding, tokens, streams, slow speech."""

from __future__ import annotations

import http.client
import json
import shutil
import socket
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from board_samples import make_view

from assistant.errors import UserError
from assistant.live_hub import LiveHub
from assistant.speech import Speaker
from assistant.web import serve


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_serves_on_loopback_and_stops() -> None:
    hub = LiveHub()
    hub.publish(make_view())
    handle = serve(hub, port=0)
    try:
        assert handle.url == f"http://127.0.0.1:{handle.port}/"
        assert handle.token is None and handle.login_url == handle.url
        status, body = _get(handle.url + "api/view")
        assert status == 200 and json.loads(body)["version"] == 1
    finally:
        handle.stop()
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", handle.port), 2):
        pass


def test_listening_on_all_interfaces_needs_the_token() -> None:
    hub = LiveHub()
    handle = serve(hub, host="0.0.0.0", port=0)
    try:
        assert handle.token and len(handle.token) >= 16
        assert handle.login_url == f"{handle.url}?token={handle.token}"
        local = f"http://127.0.0.1:{handle.port}/"
        status, body = _get(local + "api/view")
        assert status == 403 and b"needs its access token" in body
        status, body = _get(local + "api/view?token=guess")
        assert status == 403 and b"token is wrong" in body
        status, body = _get(f"{local}api/view?token={handle.token}")
        assert status == 200
    finally:
        handle.stop()


def test_port_in_use_is_a_user_error() -> None:
    hub = LiveHub()
    first = serve(hub, port=0)
    try:
        with pytest.raises(UserError, match=f"cannot listen on 127.0.0.1:{first.port}.*--port"):
            serve(hub, port=first.port)
    finally:
        first.stop()


def test_open_event_stream_ends_when_the_server_stops() -> None:
    hub = LiveHub()
    hub.publish(make_view(round_=4))
    handle = serve(hub, port=0, config={"SSE_POLL_S": 0.1})
    parts = urlsplit(handle.url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        connection.request("GET", "/events")
        response = connection.getresponse()
        assert response.status == 200
        assert response.readline() == b"retry: 2000\n"
        response.readline()
        assert response.readline() == b"id: 1\n"
        assert response.readline() == b"event: view\n"
        assert b'"round":4' in response.readline()
        handle.stop()
        rest = response.read()  # returns once the stream is closed by the server
        assert b"event: view" not in rest
    finally:
        connection.close()
        handle.stop()
    assert hub.subscriber_count == 0


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_page_keeps_answering_while_speech_is_slow(tmp_path: Path) -> None:
    """The page answers while the speaker is busy: its player is held on a gate file until
    every request was answered, so no clock or machine load decides the outcome."""
    hub = LiveHub()
    handle = serve(hub, port=0)
    gate = tmp_path / "gate"
    player = ["sh", "-c", f'while [ ! -e "{gate}" ]; do sleep 0.05; done', "player"]
    speaker = Speaker("on", tmp_path / "speech", echo=None, player=player)
    try:
        long_text = (
            "The Orc Captain pivots left and moves four inches toward the ruined tower. " * 15
        )
        for _ in range(2):
            speaker.say(long_text)
        for round_ in range(1, 6):
            hub.publish(make_view(round_=round_))
            status, body = _get(handle.url + "api/view")
            assert status == 200 and json.loads(body)["view"]["round"] == round_
            assert speaker.pending == 2
    finally:
        gate.touch()
        assert speaker.close(120.0)
        handle.stop()
    assert len(speaker.announcements) == 2


def test_a_huge_declared_body_is_refused_without_waiting_for_it() -> None:
    """A POST announcing 200 MB gets 413 at once: the server never waits for (or holds) it."""
    hub = LiveHub()
    handle = serve(hub, port=0)
    head = (
        "POST /api/command HTTP/1.1\r\n"
        f"Host: 127.0.0.1:{handle.port}\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {200 * 1024 * 1024}\r\n\r\n"
    )
    try:
        with socket.create_connection(("127.0.0.1", handle.port), timeout=60) as connection:
            connection.sendall(head.encode() + b'{"kind": "undo", "pad": "')
            reply = b""
            while chunk := connection.recv(65536):
                reply += chunk
        assert reply.startswith(b"HTTP/1.1 413"), reply[:80]
        assert b"too large" in reply
    finally:
        handle.stop()
    assert hub.next_command(0) is None

"""The ``place`` command (issue 23): the page sends exactly ``{"kind": "place", "unit": ID,
"x": INCHES, "y": INCHES, "heading": DEGREES}``; a later issue builds camera-free play on it,
so its fields are a contract. Bad input is refused with one sentence naming it."""

from __future__ import annotations

from typing import Any

import pytest
from board_samples import make_view
from flask.testing import FlaskClient

from assistant.live_commands import Command, CommandError
from assistant.live_hub import LiveHub
from assistant.web import create_app


@pytest.fixture
def hub() -> LiveHub:
    live = LiveHub()
    live.publish(make_view())  # 24 x 24 in; orc-captain active, scout fallen
    return live


@pytest.fixture
def client(hub: LiveHub) -> FlaskClient:
    return create_app(hub, {"TESTING": True}).test_client()


def test_a_place_command_reaches_the_session_exactly(client: FlaskClient, hub: LiveHub) -> None:
    sent = {"kind": "place", "unit": "orc-captain", "x": 7.5, "y": 12, "heading": -90}
    reply = client.post("/api/command", json=sent)
    assert reply.status_code == 202
    assert reply.get_json()["command"] == {
        "kind": "place",
        "unit": "orc-captain",
        "x": 7.5,
        "y": 12.0,
        "heading": 270.0,
    }
    command = hub.next_command(1.0)
    assert command == Command("place", unit_id="orc-captain", x_in=7.5, y_in=12.0, heading_deg=270)
    assert command is not None and Command.from_dict(command.to_dict()) == command


@pytest.mark.parametrize(
    ("payload", "words"),
    [
        ({"kind": "place", "x": 1, "y": 1, "heading": 0}, 'needs the unit placed ("unit"'),
        ({"kind": "place", "unit": "orc-captain", "y": 1, "heading": 0}, "'x' must be a number"),
        ({"kind": "place", "unit": "orc-captain", "x": "3", "y": 1, "heading": 0}, "'x'"),
        ({"kind": "place", "unit": "orc-captain", "x": 1, "y": 1}, "'heading' must be a number"),
        ({"kind": "place", "unit": "orc-captain", "x": True, "y": 1, "heading": 0}, "'x'"),
        ({"kind": "place", "unit": "orc-captain", "x": 1, "y": 1e400, "heading": 0}, "'y'"),
        ({"kind": "place", "unit": "dragon", "x": 1, "y": 1, "heading": 0}, "no unit 'dragon'"),
        ({"kind": "place", "unit": "orc-captain", "x": 25, "y": 1, "heading": 0}, "off the 24"),
        ({"kind": "place", "unit": "orc-captain", "x": 1, "y": -0.5, "heading": 0}, "off the"),
        ({"kind": "place", "unit": "scout", "x": 1, "y": 1, "heading": 0}, "out of the battle"),
    ],
)
def test_a_bad_place_command_is_refused_in_one_sentence(
    client: FlaskClient, hub: LiveHub, payload: dict[str, Any], words: str
) -> None:
    reply = client.post("/api/command", json=payload)
    assert reply.status_code == 400
    error = reply.get_json()["error"]
    assert words in error and "\n" not in error and "Traceback" not in error
    assert hub.next_command(0.0) is None


def test_a_place_command_with_nan_is_refused() -> None:
    with pytest.raises(CommandError, match="'heading' must be a number"):
        Command.from_dict(
            {"kind": "place", "unit": "orc-captain", "x": 1, "y": 1, "heading": float("nan")}
        )

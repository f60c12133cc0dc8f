"""What every blueprint reads from its app: the hub and the server's stopping flag."""

from __future__ import annotations

import threading

from flask import Flask

from assistant.live_hub import LiveHub

HUB_KEY = "soloscope.hub"
STOPPING_KEY = "soloscope.stopping"


def hub_of(app: Flask) -> LiveHub:
    """The hub an app built by ``create_app`` shows."""
    hub: LiveHub = app.extensions[HUB_KEY]
    return hub


def stopping_event(app: Flask) -> threading.Event:
    """Set when the server is stopping: open event streams end."""
    event: threading.Event = app.extensions[STOPPING_KEY]
    return event

"""The Flask app factory for the table page (no global state: the hub lives in the app)."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from flask import Flask

from assistant.bidi import without_bidi_controls
from assistant.live_hub import LiveHub
from assistant.web import auth, campaign_page, commands, headers, limits, live, pages
from assistant.web.context import HUB_KEY, STOPPING_KEY

DEFAULT_CONFIG: dict[str, Any] = {
    "TOKEN": None,
    # None: no token needed (the page is only reachable from this computer).
    "SSE_KEEPALIVE_S": 15.0,
    # Seconds between keep-alive comments on an idle event stream.
    "SSE_POLL_S": 0.5,
    # How often (s) an event stream checks whether the server is stopping.
    "MAX_CONTENT_LENGTH": limits.MAX_BODY_BYTES,
    # Largest request body in bytes; larger ones get 413 before they are read.
}


def _plain(value: Any) -> Any:
    """A template value as shown: text without bidirectional controls (``assistant.bidi``)."""
    return without_bidi_controls(value) if isinstance(value, str) else value


def create_app(hub: LiveHub, config: Mapping[str, Any] | None = None) -> Flask:
    """The table page's Flask app, showing and commanding ``hub``.

    ``config`` keys: ``TOKEN`` (str or None: when set, every request needs it as ``?token=``
    once, then a cookie, or the ``X-Soloscope-Token`` header), ``SSE_KEEPALIVE_S``,
    ``SSE_POLL_S``, ``MAX_CONTENT_LENGTH`` (bytes), plus any Flask setting (``TESTING``...).
    Commands (POST) are also refused when they come from another web site (see ``auth``).
    Every response carries the headers of ``headers``; text shown by a template and by the
    page's script has its bidirectional controls taken out.
    """
    app = Flask(__name__)
    app.config.update(DEFAULT_CONFIG)
    if config:
        app.config.update(config)
    app.jinja_env.finalize = _plain  # every value a template shows
    app.extensions[HUB_KEY] = hub
    app.extensions[STOPPING_KEY] = threading.Event()
    headers.init_app(app)
    limits.init_app(app)  # first: nothing else runs for an oversized request
    auth.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(commands.bp)
    app.register_blueprint(campaign_page.bp)
    return app

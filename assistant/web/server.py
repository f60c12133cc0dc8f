"""Running the table page in a background thread with werkzeug's server."""

from __future__ import annotations

import ipaddress
import secrets
import socket
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from werkzeug.serving import BaseWSGIServer

from assistant.errors import UserError
from assistant.live_hub import LiveHub
from assistant.web.app import create_app
from assistant.web.auth import EMPTY_TOKEN, login_url
from assistant.web.connections import ConnectionLimits, bounded_server
from assistant.web.context import stopping_event


def is_loopback(host: str) -> bool:
    """True when ``host`` only listens on this computer (127.x, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _lan_address() -> str:
    """This computer's address on its network (for a phone), or 127.0.0.1 if none is known."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # documentation address: nothing is sent
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


@dataclass
class ServerHandle:
    """A running table page. ``url`` is where to open it; ``stop()`` ends it."""

    url: str
    """The page's address, e.g. ``http://127.0.0.1:5000/`` (without the token)."""
    host: str
    """The interface it listens on."""
    port: int
    """The port it listens on (the real one when 0 was asked for)."""
    token: str | None
    """The access token every request needs, or None (loopback only)."""
    _server: BaseWSGIServer = field(repr=False)
    _thread: threading.Thread = field(repr=False)
    _stopping: threading.Event = field(repr=False)

    @property
    def login_url(self) -> str:
        """``url`` with the token, as the terminal shows it."""
        return login_url(self.url, self.token)

    def stop(self, timeout_s: float = 5.0) -> None:
        """Stop serving: open event streams end, the port is released."""
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout_s)


def serve(
    hub: LiveHub,
    host: str = "127.0.0.1",
    port: int = 5000,
    token: str | None = None,
    *,
    config: Mapping[str, Any] | None = None,
    limits: ConnectionLimits | None = None,
) -> ServerHandle:
    """Serve the table page for ``hub`` in a background thread; returns at once.

    Binds ``host`` (127.0.0.1 by default: this computer only). Any other host (the CLI's
    ``--listen-all`` gives ``0.0.0.0``) makes every request need a token: ``token`` if given,
    else a new random one (``handle.token``). ``port`` 0 picks a free port. An empty ``token``
    is a ``UserError`` (it would refuse every request). ``limits`` bounds the connections
    and how long a request may take to arrive (``ConnectionLimits()`` by default).
    """
    if token is not None and not token.strip():
        raise UserError(EMPTY_TOKEN)
    if token is None and not is_loopback(host):
        token = secrets.token_urlsafe(12)
    app = create_app(hub, {**(config or {}), "TOKEN": token})
    # Bind here, not in werkzeug: it prints and exits the process when the port is taken.
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host.strip("[]"), port))
        listener.listen(128)
        server = bounded_server(host, port, app, listener.fileno(), limits or ConnectionLimits())
    except OSError as exc:
        raise UserError(
            f"the table page cannot listen on {host}:{port} ({exc.strerror or exc}); "
            "is another soloscope running? Choose another --port."
        ) from exc
    finally:
        listener.close()  # werkzeug holds its own duplicate of the socket
    real_port = int(server.port)
    shown = _lan_address() if host in ("0.0.0.0", "::", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    thread = threading.Thread(target=server.serve_forever, name="soloscope-web", daemon=True)
    thread.start()
    return ServerHandle(
        url=f"http://{shown}:{real_port}/",
        host=host,
        port=real_port,
        token=token,
        _server=server,
        _thread=thread,
        _stopping=stopping_event(app),
    )

"""How many connections the table page holds, and how long a request may take to arrive.

Werkzeug's threaded server gives every connection a thread and waits for a request's headers
for as long as the client likes, so a device on the network could hold the page's threads
open by sending its headers a byte at a time. Here a request line and its headers must arrive
within ``header_timeout_s`` (whatever the pace of the bytes), any later read or write may stall
for at most ``stall_timeout_s``, and at most ``total`` connections (``per_address`` from one
address) are open at once; one more is answered with 503 and a sentence, without a thread.
The server closes every connection after its response, so a connection is one request (or one
open event stream).
"""

from __future__ import annotations

import contextlib
import io
import socket
import threading
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

BUSY = (
    "The table page is busy: too many connections are open. Close other tabs showing it, "
    "then reload.\n"
)


@dataclass(frozen=True)
class ConnectionLimits:
    """What one client and all clients together may hold of the table page's server."""

    total: int = 64
    """Connections open at once (an open page holds one for its live feed, briefly more)."""
    per_address: int = 16
    """Connections open at once from one network address."""
    header_timeout_s: float = 10.0
    """Seconds from the connection to the end of the request's headers."""
    stall_timeout_s: float = 30.0
    """Seconds any later read or write may wait (a body, a live feed nobody reads)."""


class _DeadlineSocketReader(io.RawIOBase):
    """A socket's incoming bytes; each read waits at most until ``deadline`` (a
    ``time.monotonic`` value) when one is set, else ``stall_s``."""

    def __init__(self, sock: socket.socket, stall_s: float) -> None:
        super().__init__()
        self._sock = sock
        self._stall_s = stall_s
        self.deadline: float | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:
        wait_s = self._stall_s
        if self.deadline is not None:
            wait_s = min(wait_s, self.deadline - time.monotonic())
            if wait_s <= 0:
                raise TimeoutError("the request's headers did not arrive in time")
        self._sock.settimeout(wait_s)
        return self._sock.recv_into(buffer)


class GuardedRequestHandler(WSGIRequestHandler):
    """Werkzeug's handler with a deadline on the request's headers, a bound on stalls, and no
    log line per request (the terminal is the player's)."""

    limits = ConnectionLimits()

    def setup(self) -> None:
        super().setup()
        self.rfile.close()  # the socket's own reader, replaced by one that keeps time
        self._reader = _DeadlineSocketReader(self.connection, self.limits.stall_timeout_s)
        self._reader.deadline = time.monotonic() + self.limits.header_timeout_s
        self.rfile = io.BufferedReader(self._reader)

    def parse_request(self) -> bool:
        parsed = super().parse_request()
        self._reader.deadline = None  # the headers are in: the body reads by the stall bound
        return parsed

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        return

    def log_error(self, format: str, *args: Any) -> None:
        if format.startswith("Request timed out"):
            return  # a client too slow to send its request: it is closed, nothing to tell
        super().log_error(format, *args)


class BoundedWSGIServer(ThreadedWSGIServer):
    """Werkzeug's threaded server that holds at most ``limits`` connections."""

    def __init__(self, *args: Any, limits: ConnectionLimits, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.limits = limits
        self._count_lock = threading.Lock()
        self._open: Counter[str] = Counter()

    @property
    def open_connections(self) -> int:
        """Connections being served now."""
        with self._count_lock:
            return sum(self._open.values())

    def _admit(self, address: str) -> bool:
        with self._count_lock:
            if sum(self._open.values()) >= self.limits.total:
                return False
            if self._open[address] >= self.limits.per_address:
                return False
            self._open[address] += 1
            return True

    def _release(self, address: str) -> None:
        with self._count_lock:
            self._open[address] -= 1
            if self._open[address] <= 0:
                del self._open[address]

    def process_request(self, request: Any, client_address: Any) -> None:
        address = str(client_address[0])
        if not self._admit(address):
            _refuse(request)
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._release(address)
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            self.finish_request(request, client_address)
        except Exception:
            self.handle_error(request, client_address)
        finally:
            self._release(str(client_address[0]))  # first: the client may reconnect at once
            self.shutdown_request(request)


def _refuse(sock: socket.socket) -> None:
    """503 and a sentence on a connection over the limits, from the accepting thread: a short
    write to a fresh socket does not wait, and whatever the client sent is read first (what
    is left unread at close would reset the connection before the client reads the reply)."""
    body = BUSY.encode()
    head = (
        "HTTP/1.1 503 Service Unavailable\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Retry-After: 5\r\n"
        "Connection: close\r\n\r\n"
    ).encode()
    try:
        sock.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            sock.recv(65536)
        sock.settimeout(0.5)
        sock.sendall(head + body)
    except OSError:
        pass


def bounded_server(
    host: str, port: int, app: Any, fd: int, limits: ConnectionLimits
) -> BoundedWSGIServer:
    """A threaded WSGI server for ``app`` on the listening socket ``fd``, within ``limits``."""
    handler = type("TablePageRequestHandler", (GuardedRequestHandler,), {"limits": limits})
    return BoundedWSGIServer(host, port, app, handler=handler, fd=fd, limits=limits)

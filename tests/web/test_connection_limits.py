"""The table page's server holds a bounded number of connections, and a request's headers must
arrive in time, however slowly their bytes are sent (LAN mode: any device on the network can
connect)."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest

from assistant.live_hub import LiveHub
from assistant.web import ServerHandle, serve
from assistant.web.connections import BUSY, ConnectionLimits

SHORT = ConnectionLimits(total=3, per_address=2, header_timeout_s=0.5, stall_timeout_s=5.0)
"""Small limits and a short header deadline, to see it cut."""
LONG = ConnectionLimits(total=3, per_address=2, header_timeout_s=60.0, stall_timeout_s=60.0)
"""The same limits with a deadline no test reaches: the connections stay until closed."""


@pytest.fixture
def bounded() -> Iterator[ServerHandle]:
    handle = serve(LiveHub(), port=0, limits=SHORT)
    yield handle
    handle.stop()


@pytest.fixture
def patient() -> Iterator[ServerHandle]:
    handle = serve(LiveHub(), port=0, limits=LONG)
    yield handle
    handle.stop()


def _connect(handle: ServerHandle, source: str = "127.0.0.1") -> socket.socket:
    return socket.create_connection(("127.0.0.1", handle.port), 10, (source, 0))


def _request(port: int) -> bytes:
    return f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()


def _reply(conn: socket.socket) -> bytes:
    data = b""
    while chunk := conn.recv(65536):
        data += chunk
    return data


def _closed_by_server(conn: socket.socket) -> bool:
    try:
        return conn.recv(1) == b""
    except ConnectionResetError:
        return True


def test_a_request_dripped_a_byte_at_a_time_is_cut_off_at_the_header_deadline(
    bounded: ServerHandle,
) -> None:
    """Before: the server waited as long as the client liked (one thread held per client)."""
    request = _request(bounded.port)
    with _connect(bounded) as conn:
        sent = 0
        cut_off = False
        # 0.1 s a byte: the whole request would take ten times the header deadline
        for byte in request[:-4]:
            try:
                conn.sendall(bytes([byte]))
            except OSError:
                cut_off = True
                break
            sent += 1
            time.sleep(0.1)
        if not cut_off:
            conn.settimeout(10)
            cut_off = _closed_by_server(conn)
    assert cut_off, f"the server waited for all {sent} bytes of a dripped request"
    assert sent < len(request) - 4


def test_idle_connections_are_closed_at_the_deadline_and_their_places_freed(
    bounded: ServerHandle,
) -> None:
    first, second = _connect(bounded), _connect(bounded)
    try:
        assert _closed_by_server(first) and _closed_by_server(second)
    finally:
        first.close()
        second.close()
    # both places of this address are free again
    with _connect(bounded) as third:
        third.sendall(_request(bounded.port))
        assert _reply(third).startswith(b"HTTP/1.1 200")


def test_connections_are_bounded_per_address_and_in_all(patient: ServerHandle) -> None:
    """Before: every connection got its thread, however many were open."""
    held = [_connect(patient), _connect(patient), _connect(patient, "127.0.0.2")]
    try:
        for source in ("127.0.0.1", "127.0.0.3"):  # this address's two; three in all
            with _connect(patient, source) as extra:
                extra.sendall(_request(patient.port))
                reply = _reply(extra)
            assert reply.startswith(b"HTTP/1.1 503"), (source, reply[:60])
            assert reply.endswith(BUSY.encode())
        # the held ones are served, and once one is done its place is free again
        held[2].sendall(_request(patient.port))
        assert _reply(held[2]).startswith(b"HTTP/1.1 200")
        with _connect(patient, "127.0.0.3") as later:
            later.sendall(_request(patient.port))
            assert _reply(later).startswith(b"HTTP/1.1 200")
    finally:
        for conn in held:
            conn.close()


def test_a_body_that_stops_arriving_is_refused_without_a_traceback(
    capfd: pytest.CaptureFixture[str],
) -> None:
    """Once the headers are in, a read may stall only ``stall_timeout_s``: a command whose body
    stops halfway is refused (werkzeug takes the stalled read for a client gone: 400), and the
    player's terminal shows nothing. Before, the server waited for the rest for ever."""
    limits = ConnectionLimits(header_timeout_s=30.0, stall_timeout_s=0.5)
    handle = serve(LiveHub(), port=0, limits=limits)
    head = (
        "POST /api/command HTTP/1.1\r\n"
        f"Host: 127.0.0.1:{handle.port}\r\n"
        "Content-Type: application/json\r\n"
        "Content-Length: 100\r\n\r\n"
    )
    try:
        with _connect(handle) as conn:
            conn.sendall(head.encode() + b'{"kind": "un')
            reply = _reply(conn)
    finally:
        handle.stop()
    assert reply.startswith(b"HTTP/1.1 400"), reply[:80]
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err and "TimeoutError" not in out + err

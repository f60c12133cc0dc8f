"""Debian's Chromium for the browser tests, started the way this machine's closed network needs
(no background networking, no QUIC, no first-run work)."""

from __future__ import annotations

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
MISSING = "/usr/bin/chromium is missing (make test installs Debian's chromium)"

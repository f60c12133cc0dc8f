"""What the browser tests of the table page do often: open it, read where things are drawn."""

from __future__ import annotations

from typing import Any


def open_page(page: Any, url: str) -> None:
    """Open the table page and wait until it has drawn its first view."""
    page.goto(url)
    page.wait_for_function("Number(document.body.dataset.viewVersion || 0) > 0", timeout=60_000)

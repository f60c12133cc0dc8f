"""The progress bar of long commands (replay, footage, render): one line on standard error with
how far the work is, the time elapsed and the time left.

It is drawn only when standard error is a terminal and ``--quiet`` was not given, so logs and
pipes get nothing. The work reports through a plain callback, ``update(done, total)``, so the
modules doing it know nothing of the display.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

ProgressFn = Callable[[float, float | None], None]
"""``update(done, total)``: work done so far and the total (None while it is not known yet)."""

T = TypeVar("T")


def stderr_is_terminal() -> bool:
    """Whether standard error is a terminal (a progress bar would be seen, not logged)."""
    try:
        return sys.stderr is not None and sys.stderr.isatty()
    except (ValueError, OSError):
        return False


@contextmanager
def progress_bar(
    label: str, describe: Callable[[float, float | None], str], *, quiet: bool = False
) -> Iterator[ProgressFn]:
    """A progress bar on standard error while the ``with`` block runs; yields its ``update``.

    ``label`` leads the line ("replaying"); ``describe(done, total)`` says how far the work is
    in its own units ("12/105 s of footage"). Nothing is drawn when ``quiet`` is set or
    standard error is not a terminal.
    """
    show = not quiet and stderr_is_terminal()
    with Progress(
        TextColumn(label),
        BarColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[what]} ·"),
        TimeElapsedColumn(),
        TextColumn("elapsed · ETA"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not show,
        transient=False,
    ) as progress:
        task = progress.add_task(label, total=None, what="")

        def update(done: float, total: float | None) -> None:
            progress.update(task, completed=done, total=total, what=describe(done, total))

        yield update


def counted(items: Iterable[T], total: int, update: ProgressFn) -> Iterator[T]:
    """``items`` unchanged, reporting ``update(n, total)`` after each of them."""
    update(0, total)
    for n, item in enumerate(items, start=1):
        yield item
        update(n, total)

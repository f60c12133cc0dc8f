"""The progress bar of long commands (replay, footage, render): one line on standard error with
how far the work is, the time elapsed and the time left.

It is drawn only when standard error is a terminal and ``--quiet`` was not given, so logs and
pipes get nothing; a command whose work takes minutes (the demo's first render) asks for
``lines`` instead, and off a terminal prints a plain line every few seconds with the time left.
The work reports through a plain callback, ``update(done, total)``, so the modules doing it
know nothing of the display.
"""

from __future__ import annotations

import math
import sys
import time
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


LINE_EVERY_S = 5.0
"""Seconds between two progress lines off a terminal."""


@contextmanager
def progress_bar(
    label: str,
    describe: Callable[[float, float | None], str],
    *,
    quiet: bool = False,
    lines: bool = False,
) -> Iterator[ProgressFn]:
    """A progress bar on standard error while the ``with`` block runs; yields its ``update``.

    ``label`` leads the line ("replaying"); ``describe(done, total)`` says how far the work is
    in its own units ("12/105 s of footage"). Nothing is drawn when ``quiet`` is set or
    standard error is not a terminal; with ``lines``, off a terminal a plain line (what is
    done, the time elapsed and left) is printed every :data:`LINE_EVERY_S` seconds instead.
    """
    if lines and not quiet and not stderr_is_terminal():
        yield progress_lines(label, describe)
        return
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


def progress_lines(
    label: str,
    describe: Callable[[float, float | None], str],
    *,
    every_s: float = LINE_EVERY_S,
    clock: Callable[[], float] = time.monotonic,
    write: Callable[[str], None] | None = None,
) -> ProgressFn:
    """An ``update(done, total)`` that writes a line (to standard error by default) at most
    every ``every_s`` seconds and when the work is done: "LABEL: WHAT, 12 s elapsed, about
    40 s left"."""
    out = write if write is not None else _to_stderr
    start = clock()
    last = [-math.inf]
    ended = [False]

    def update(done: float, total: float | None) -> None:
        now = clock()
        if total is not None and done >= total:
            if ended[0]:
                return
            ended[0] = True
        elif now - last[0] < every_s:
            return
        last[0] = now
        spent = now - start
        text = f"{label}: {describe(done, total)}, {_duration(spent)} elapsed"
        if total and 0 < done < total:
            text += f", about {_duration(spent * (total - done) / done)} left"
        out(text)

    return update


def _duration(seconds: float) -> str:
    """A duration in words: "42 s", "3 min 05 s"."""
    whole = round(seconds)
    return f"{whole} s" if whole < 60 else f"{whole // 60} min {whole % 60:02d} s"


def _to_stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def counted(items: Iterable[T], total: int, update: ProgressFn) -> Iterator[T]:
    """``items`` unchanged, reporting ``update(n, total)`` after each of them."""
    update(0, total)
    for n, item in enumerate(items, start=1):
        yield item
        update(n, total)

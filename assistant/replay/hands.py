"""The hand watch: keeps, for every stretch of footage in which the board was not settled (a
*span*), what :class:`assistant.replay.span_view.SpanView` needs to tell where the hand went and
what changed.

The settle judge (:mod:`vision.settle`) keeps a small top-down grey view of the table, about
4 mm per pixel, for every frame. The watch keeps the views of a span at half that resolution (a
few kilobytes a frame) and, on the same grid, a colour view of the settled board before it and
after it.

Watching costs a resize of the judge's 200 x 200 view per frame, and a colour view of the
settled board (a warp into the same small grid) about once a second while it is settled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from assistant.replay.span_view import (
    F32,
    I8,
    U8,
    SettledBoard,
    SpanView,
    WatchSettings,
    half_view,
    level_colour,
)

ColourView = Callable[[], U8]
"""Makes the colour (BGR) view of the current frame on the judge's grid, when asked."""


@dataclass
class _Span:
    before: SettledBoard
    times: list[float] = field(default_factory=list)
    views: list[I8] = field(default_factory=list)
    after: SettledBoard | None = None
    t1: float | None = None
    keep_every: int = 1
    fed: int = 0


class HandWatch:
    """Keeps the spans of a footage as its frames come (see the module docstring).

    Feed every processed frame with :meth:`feed`; ask for the footage between two settled
    boards with :meth:`span`; drop what is no longer needed with :meth:`forget`.
    """

    def __init__(
        self,
        view_to_table: npt.NDArray[np.float64],
        mm_per_px: float,
        settings: WatchSettings | None = None,
    ) -> None:
        self.view_to_table = np.asarray(view_to_table, dtype=np.float64)
        self.mm_per_px = mm_per_px
        self.settings = settings or WatchSettings()
        self._spans: list[_Span] = []
        self._open: _Span | None = None
        self._board: SettledBoard | None = None
        """The settled board now (or the last one)."""
        self._latest: tuple[float, F32, ColourView | None] | None = None
        """The last frame fed: its time, grey view and colour view (for :meth:`close`)."""

    def feed(
        self,
        t: float,
        settled: bool,
        view: F32 | None,
        colour: ColourView | None = None,
        camera_moved: bool = False,
    ) -> None:
        """One processed frame at ``t`` seconds: whether the board was settled, the settle
        judge's grey view (None: the frame tells nothing), for settled frames a way to make its
        colour view (asked for about once a second), and whether the camera was found to have
        moved at this frame (the frames just before are then dropped)."""
        if camera_moved and self._open is not None:
            keep = [
                i for i, ti in enumerate(self._open.times) if ti < t - self.settings.camera_window_s
            ]
            self._open.times = [self._open.times[i] for i in keep]
            self._open.views = [self._open.views[i] for i in keep]
        if view is None or camera_moved:
            return
        self._latest = (t, view, colour)
        if settled:
            board = self._board
            if self._open is not None or board is None:
                board = self._board = SettledBoard(t, view)
                if self._open is not None:
                    self._open.after, self._open.t1 = board, t
                    self._spans.append(self._open)
                    self._open = None
            else:
                board.t, board.grey = t, view  # the same settled board, its latest look
            if colour is not None and t - board.colour_t >= self.settings.colour_every_s:
                board.colour, board.colour_t = level_colour(colour()), t
            return
        if self._board is None:
            return  # nothing settled yet to compare with
        span = self._open
        if span is None:
            span = self._open = _Span(SettledBoard(**vars(self._board)))
        span.fed += 1
        if span.fed % span.keep_every:
            return
        span.times.append(t)
        span.views.append(half_view(view))
        if len(span.views) > self.settings.max_frames:
            span.times, span.views = span.times[::2], span.views[::2]
            span.keep_every *= 2

    def close(self, t1: float) -> None:
        """The footage ended on a still board not judged settled: the open span ends at ``t1``
        (seconds) with the last frame fed as the board after it."""
        if self._open is None or self._latest is None:
            return
        t, view, colour = self._latest
        board = SettledBoard(t, view)
        if colour is not None:
            board.colour, board.colour_t = level_colour(colour()), t
        self._open.after, self._open.t1 = board, t1
        self._spans.append(self._open)
        self._open = None
        self._board = board

    def span(self, t0: float, t1: float) -> SpanView | None:
        """The footage between the settled board that ended at ``t0`` and the one that began
        at ``t1`` (seconds), the spans in between joined; None when none was watched."""
        eps = 1e-6
        parts = [
            s
            for s in self._spans
            if s.after is not None
            and s.t1 is not None
            and s.before.t >= t0 - eps
            and s.t1 <= t1 + eps
        ]
        if not parts:
            return None
        last = parts[-1]
        assert last.after is not None and last.t1 is not None
        return SpanView(
            parts[0].before,
            last.after,
            last.t1,
            [t for s in parts for t in s.times],
            [v for s in parts for v in s.views],
            self.view_to_table,
            self.mm_per_px,
            self.settings,
        )

    def forget(self, t: float) -> None:
        """Drop the spans that ended before ``t`` seconds."""
        self._spans = [s for s in self._spans if s.t1 is None or s.t1 >= t]

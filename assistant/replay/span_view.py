"""The footage between two settled boards, as the hand watch kept it: where the hand went and
what changed.

:class:`SpanView` holds the half-resolution grey views of the frames in between and a colour
view of the settled board before and after (grey alone misses a figure whose colour is as dark
as the mat), and tells:

- where the hand was: where a grey view differs both from the board before and from the board
  after (a hand, its arm and its shadow; a piece lifted or set down differs from only one);
- when the hand covered a place (a piece's base): the first and the last frame it did;
- what changed on the table: regions where the settled views before and after differ, as blobs
  in table inches (a piece gone, a piece set down whose tag cannot be seen, ...).

The views come from :class:`assistant.replay.hands.HandWatch`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]
I8 = npt.NDArray[np.int8]
U8 = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class Blob:
    """A region where the board after a span differs from the board before it."""

    x_in: float
    y_in: float
    """Centre (of the filled region), table inches."""
    area_mm2: float
    radius_in: float
    """Half the larger side of its bounding box, inches."""


@dataclass(frozen=True)
class Cover:
    """When the hand covered a place during a span (seconds)."""

    first_t: float
    last_t: float


@dataclass(frozen=True)
class Dwell:
    """A stretch in which the hand stayed still over a place (seconds): a hand stops to grasp
    a piece and to let it go."""

    t0: float
    t1: float

    @property
    def middle_t(self) -> float:
        """The middle of the stretch, seconds."""
        return (self.t0 + self.t1) / 2.0


@dataclass(frozen=True)
class WatchSettings:
    """Thresholds of the hand watch (grey levels 0-255 of levelled views, shares 0-1)."""

    hand_level: float = 20.0
    """A half-resolution grey view pixel this far from both settled boards is under the hand."""
    cover_share: float = 0.3
    """A place is covered when this share of its disc is under the hand."""
    still_level: float = 12.0
    """A half-resolution grey view pixel changing less than this from one frame to the next
    is still."""
    still_share: float = 0.25
    """The hand over a place is still (grasping, letting go) when less than this share of the
    place's disc changes from one frame to the next."""
    camera_share: float = 0.4
    """A frame where more than this share of the view is 'hand' is the camera moving (or the
    light changing), not a hand: it tells nothing about places."""
    change_level: float = 30.0
    """A colour view pixel this far (in its most changed channel) between the settled boards
    has changed."""
    min_blob_mm2: float = 120.0
    """Smaller changed regions are noise."""
    colour_every_s: float = 1.0
    """While the board is settled, its colour view is refreshed this often (seconds)."""
    camera_window_s: float = 0.5
    """When the camera moved (the table mapping was re-fitted), the frames of this many
    seconds before tell nothing about the hand: the whole picture shifted."""
    max_frames: int = 3000
    """Frames kept per span (a hand resting for minutes): beyond, every other one is dropped."""


@dataclass
class SettledBoard:
    """The settled board at one moment: the judge's grey view and a levelled colour view."""

    t: float
    grey: F32
    colour: F32 | None = None
    colour_t: float = -math.inf


def half_view(view: F32) -> I8:
    """A grey view at half resolution, rounded into signed bytes."""
    h, w = view.shape[:2]
    small = cv2.resize(view, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_AREA)
    return np.asarray(np.clip(np.rint(small), -127, 127), dtype=np.int8)


def level_colour(image: U8) -> F32:
    """A colour view blurred and levelled by each channel's median (a global change of light
    does not count as a change)."""
    view = cv2.GaussianBlur(image.astype(np.float32), (5, 5), 0)
    return np.asarray(view - np.median(view.reshape(-1, view.shape[2]), axis=0), dtype=np.float32)


class SpanView:
    """The footage between two settled boards (see the module docstring); ``t0``: the last
    settled frame before, ``t1``: the first settled frame after (seconds)."""

    def __init__(
        self,
        before: SettledBoard,
        after: SettledBoard,
        t1: float,
        times: list[float],
        views: list[I8],
        view_to_table: npt.NDArray[np.float64],
        mm_per_px: float,
        settings: WatchSettings,
    ) -> None:
        self.t0, self.t1 = before.t, t1
        self.settings = settings
        self.mm_per_px = mm_per_px
        self._v2t = view_to_table
        self._t2v = np.linalg.inv(view_to_table)
        self._before, self._after = before, after
        self.times = np.asarray(times, dtype=np.float64)
        hb = half_view(before.grey).astype(np.int16)
        ha = half_view(after.grey).astype(np.int16)
        if views:
            stack = np.stack(views).astype(np.int16)
            level = settings.hand_level
            hand = (np.abs(stack - hb) > level) & (np.abs(stack - ha) > level)
            share = hand.reshape(len(views), -1).mean(axis=1)
            usable = share <= settings.camera_share
            self._hand: npt.NDArray[np.bool_] = hand[usable]
            self._views: npt.NDArray[np.int16] = stack[usable]
            self.times = self.times[usable]
        else:
            self._hand = np.zeros((0, *hb.shape), dtype=bool)
            self._views = np.zeros((0, *hb.shape), dtype=np.int16)
        self._blobs: list[Blob] | None = None
        self._labels: npt.NDArray[np.int32] | None = None

    @property
    def frame_rate(self) -> float:
        """Frames a second looked at during the span (0 with fewer than two)."""
        if len(self.times) < 2:
            return 0.0
        return 1.0 / float(np.median(np.diff(self.times)))

    @property
    def watched(self) -> bool:
        """Whether the boards before and after have colour views to compare."""
        return self._before.colour is not None and self._after.colour is not None

    # -- places --------------------------------------------------------------------------------

    def _disc(
        self, shape: tuple[int, ...], scale: float, x_in: float, y_in: float, radius_mm: float
    ) -> tuple[slice, slice, npt.NDArray[np.bool_]]:
        """Rows, columns and mask of a disc in a grid of ``scale`` view pixels per cell."""
        u, v, w = self._t2v @ np.array([x_in, y_in, 1.0])
        u, v = (u / w - (scale - 1) / 2) / scale, (v / w - (scale - 1) / 2) / scale
        r = max(0.75, radius_mm / (self.mm_per_px * scale))
        h, wd = shape[0], shape[1]
        c0, c1 = max(0, math.floor(u - r)), min(wd, math.ceil(u + r) + 1)
        r0, r1 = max(0, math.floor(v - r)), min(h, math.ceil(v + r) + 1)
        if c0 >= c1 or r0 >= r1:
            return slice(0, 0), slice(0, 0), np.zeros((0, 0), dtype=bool)
        yy, xx = np.mgrid[r0:r1, c0:c1]
        mask = (xx - u) ** 2 + (yy - v) ** 2 <= r * r
        if not mask.any():
            row = min(max(round(v) - r0, 0), r1 - r0 - 1)
            col = min(max(round(u) - c0, 0), c1 - c0 - 1)
            mask[row, col] = True
        return slice(r0, r1), slice(c0, c1), mask

    def cover(
        self, x_in: float, y_in: float, radius_mm: float, after_t: float | None = None
    ) -> Cover | None:
        """When the hand covered the disc (table inches, millimetres) during the span, or None
        if it never did; ``after_t``: only frames after this time (seconds)."""
        if not len(self.times):
            return None
        rows, cols, mask = self._disc(self._hand.shape[1:], 2.0, x_in, y_in, radius_mm)
        if not mask.size:
            return None
        share = self._hand[:, rows, cols][:, mask].mean(axis=1)
        hit = share >= self.settings.cover_share
        if after_t is not None:
            hit &= self.times > after_t
        if not hit.any():
            return None
        idx = np.flatnonzero(hit)
        return Cover(float(self.times[idx[0]]), float(self.times[idx[-1]]))

    def dwells(
        self, x_in: float, y_in: float, radius_mm: float, after_t: float | None = None
    ) -> list[Dwell]:
        """The stretches (two frames or more) in which the hand covered the disc and stayed
        still over it, in time order; ``after_t``: only frames after this time (seconds)."""
        n = len(self.times)
        if n < 2:
            return []
        rows, cols, mask = self._disc(self._hand.shape[1:], 2.0, x_in, y_in, radius_mm)
        if not mask.size:
            return []
        covered = self._hand[:, rows, cols][:, mask].mean(axis=1) >= self.settings.cover_share
        patch = self._views[:, rows, cols][:, mask]
        moving = (np.abs(np.diff(patch, axis=0)) > self.settings.still_level).mean(axis=1)
        still = np.concatenate([[False], moving < self.settings.still_share]) & covered
        if after_t is not None:
            still &= self.times > after_t
        out: list[Dwell] = []
        i = 0
        while i < n:
            if not still[i]:
                i += 1
                continue
            j = i
            while j + 1 < n and still[j + 1]:
                j += 1
            if j > i:
                out.append(Dwell(float(self.times[i - 1]), float(self.times[j])))
            i = j + 1
        return out

    # -- what changed --------------------------------------------------------------------------

    def _changes(self) -> npt.NDArray[np.int32]:
        """Labels of the changed regions (0: unchanged) on the view grid."""
        if self._labels is None:
            a, b = self._before.colour, self._after.colour
            if a is None or b is None or a.shape != b.shape:
                self._labels = np.zeros(self._before.grey.shape[:2], dtype=np.int32)
            else:
                changed = (np.abs(b - a).max(axis=2) > self.settings.change_level).astype(np.uint8)
                changed = cv2.morphologyEx(changed, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
                _, labels = cv2.connectedComponents(changed, connectivity=8)
                self._labels = np.asarray(labels, dtype=np.int32)
        return self._labels

    def changed_share(self, x_in: float, y_in: float, radius_mm: float) -> float:
        """Share (0-1) of the disc where the board after differs from the board before."""
        labels = self._changes()
        rows, cols, mask = self._disc(labels.shape, 1.0, x_in, y_in, radius_mm)
        if not mask.size:
            return 0.0
        return float((labels[rows, cols][mask] > 0).mean())

    def stands_out(self, x_in: float, y_in: float, radius_mm: float) -> tuple[float, float]:
        """How much the disc stands out from the table around it (a ring out to twice its
        radius), on the board before and after: the mean of each pixel's largest channel
        difference from the ring's median colour (0 without colour views). A base with its
        figure stands out; an empty place of the mat hardly does."""
        a, b = self._before.colour, self._after.colour
        if a is None or b is None:
            return 0.0, 0.0
        rows, cols, disc = self._disc(a.shape, 1.0, x_in, y_in, radius_mm)
        rows2, cols2, wide = self._disc(a.shape, 1.0, x_in, y_in, 2.0 * radius_mm)
        if not disc.size or not wide.size:
            return 0.0, 0.0
        ring = wide.copy()
        r_off, c_off = rows.start - rows2.start, cols.start - cols2.start
        ring[r_off : r_off + disc.shape[0], c_off : c_off + disc.shape[1]] &= ~disc
        out = []
        for view in (a, b):
            around = np.median(view[rows2, cols2][ring], axis=0)
            inside = view[rows, cols][disc]
            out.append(float(np.abs(inside - around).max(axis=1).mean()))
        return out[0], out[1]

    def colour_shift(self, x_in: float, y_in: float, radius_mm: float) -> float:
        """How far the disc's median colour moved from the board before to the board after:
        its largest channel difference (0 without colour views). A figure turned or set back
        in its place keeps its base's colours; a place left empty takes the board's."""
        a, b = self._before.colour, self._after.colour
        if a is None or b is None:
            return 0.0
        rows, cols, disc = self._disc(a.shape, 1.0, x_in, y_in, radius_mm)
        if not disc.size:
            return 0.0
        was = np.median(a[rows, cols][disc], axis=0)
        now = np.median(b[rows, cols][disc], axis=0)
        return float(np.abs(now - was).max())

    def blobs(self) -> list[Blob]:
        """The changed regions (at least ``min_blob_mm2``), largest first."""
        if self._blobs is None:
            labels = self._changes()
            out = []
            for i in range(1, int(labels.max()) + 1):
                blob = self._blob(labels == i)
                if blob is not None:
                    out.append(blob)
            out.sort(key=lambda b: -b.area_mm2)
            self._blobs = out
        return list(self._blobs)

    def blob_at(self, x_in: float, y_in: float, radius_mm: float) -> Blob | None:
        """The largest changed region overlapping the disc, or None."""
        labels = self._changes()
        rows, cols, mask = self._disc(labels.shape, 1.0, x_in, y_in, radius_mm)
        if not mask.size:
            return None
        found = labels[rows, cols][mask]
        found = found[found > 0]
        if not found.size:
            return None
        return self._blob(labels == int(np.bincount(found).argmax()))

    def _blob(self, region: npt.NDArray[np.bool_]) -> Blob | None:
        ys, xs = np.nonzero(region)
        area = len(xs) * self.mm_per_px**2
        if area < self.settings.min_blob_mm2:
            return None
        x, y, w = self._v2t @ np.array([xs.mean(), ys.mean(), 1.0])
        side_px = max(int(xs.max() - xs.min()), int(ys.max() - ys.min())) + 1
        return Blob(float(x / w), float(y / w), area, side_px * self.mm_per_px / 2 / 25.4)

"""Settled-board judgement from the image: nothing moving and nothing (a hand) over the table.

The table area (plus a margin) is warped to a small top-down grey view, about 4 mm per pixel,
levelled by its median so a global light change does not count. Two tests:

- motion: the view against the previous frame; anything changing over more than
  ``min_area_mm2`` is movement, and the board is still only after ``still_s`` without it;
- change against the last settled view: regions that differ must be explained by the pieces the
  tracker saw move, appear or vanish (a disc of ``explain_radius_mm`` around their old and new
  places). A hand held still over the table is not explained, so the board stays unsettled.

An unexplained change that stays still for ``absorb_s`` (8 s) and hides no tag is taken into the
background (dice or a tape measure left on the table), so the board can settle again.

With ``footprint_mm2`` set (the replay sets it from its pieces' bases; the live session leaves
it off), a still change made only of separate patches each no larger than a piece's footprint,
no more of them than the places the tracker names as changed, and hiding no tag, is taken as
pieces put down whose own figures hide their tags: the board settles at once. A hand over the
table (with its arm, far larger than a piece) never passes, nor does any change when no piece's
tag changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from calibration.pose import TableMapping
from vision.errors import VisionError

MM_PER_IN = 25.4
F32 = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Place:
    """A disc on the table: centre in inches, radius in millimetres."""

    x_in: float
    y_in: float
    radius_mm: float = 40.0


@dataclass(frozen=True)
class SettleState:
    """The judgement for one frame."""

    settled: bool
    moving: bool
    """Something changed since the previous frame."""
    unexplained_mm2: float
    """Area differing from the last settled view and not explained by known piece moves, mm^2."""
    motion_boxes_in: tuple[tuple[float, float, float, float], ...]
    """Where things moved this frame: (x0, y0, x1, y1) table inches, for region search."""


class SettleJudge:
    """Judges, frame by frame, whether the board is settled (see the module docstring)."""

    def __init__(
        self,
        mapping: TableMapping,
        width_in: float,
        depth_in: float,
        *,
        mm_per_px: float = 4.0,
        margin_in: float = 3.5,
        still_s: float = 0.1,
        motion_level: float = 12.0,
        change_level: float = 22.0,
        min_area_mm2: float = 300.0,
        absorb_s: float = 8.0,
        footprint_mm2: float | None = None,
    ) -> None:
        if mm_per_px <= 0 or still_s < 0 or min_area_mm2 <= 0:
            raise VisionError(
                "SettleJudge needs mm_per_px > 0, still_s >= 0 and min_area_mm2 > 0, got "
                f"{mm_per_px}, {still_s}, {min_area_mm2}"
            )
        self.width_in, self.depth_in = width_in, depth_in
        self.mm_per_px = mm_per_px
        self.margin_in = margin_in
        self.still_s = still_s
        self.motion_level = motion_level
        self.change_level = change_level
        self.min_area_mm2 = min_area_mm2
        self.absorb_s = absorb_s
        self.footprint_mm2 = footprint_mm2
        """The largest patch (mm^2) a piece put down can change, or None: see the module
        docstring."""
        px_in = mm_per_px / MM_PER_IN
        self._size = (
            int(np.ceil((width_in + 2 * margin_in) / px_in)),
            int(np.ceil((depth_in + 2 * margin_in) / px_in)),
        )
        # view pixel (u, v) -> table inches: x = u * px_in - margin, y = depth + margin - v * px_in
        self._view_to_table = np.array(
            [[px_in, 0.0, -margin_in], [0.0, -px_in, depth_in + margin_in], [0.0, 0.0, 1.0]]
        )
        self.set_mapping(mapping)
        self._prev: F32 | None = None
        self._background: F32 | None = None
        self._peeked: tuple[int, F32] | None = None
        self._last_motion_t = -np.inf
        self._still_since: float | None = None

    @property
    def view(self) -> F32 | None:
        """The last frame's top-down grey view (levelled by its median), or None before the
        first frame and right after a re-fit. Row 0 is the far side of the table; see
        :attr:`view_to_table`. Read-only: the judge keeps using it."""
        return self._prev

    @property
    def view_to_table(self) -> npt.NDArray[np.float64]:
        """3x3 matrix: view pixel (u, v, 1) -> table inches (x, y, 1); the same for every
        camera mapping, so views before and after a re-fit line up on the table."""
        return self._view_to_table

    def warp(self, image: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        """An image of the camera (BGR or grey, pixels) sampled onto the view's grid as it is,
        not blurred or levelled (a colour view of the table for whoever needs one)."""
        out = cv2.warpPerspective(
            image, self._view_to_px, self._size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
        )
        return np.asarray(out, dtype=np.uint8)

    def set_mapping(self, mapping: TableMapping) -> None:
        """Use a new table mapping (after drift); the views are rebuilt from the next frame."""
        self._mapping = mapping
        self._view_to_px = mapping.matrix() @ self._view_to_table
        self._prev = None
        self._background = None
        self._peeked = None

    def moved_near(self, grey: npt.NDArray[np.uint8], places: Sequence[Place]) -> list[bool]:
        """For each place, whether the image changed near it since the previous frame (before
        :meth:`update` sees this frame; the view is kept for it). All True when there is no
        previous frame."""
        view = self._view(grey)
        self._peeked = (id(grey), view)
        if self._prev is None:
            return [True] * len(places)
        motion = (np.abs(view - self._prev) > self.motion_level).astype(np.uint8)
        inv = np.linalg.inv(self._view_to_table)
        out = []
        for p in places:
            u, v, _ = inv @ np.array([p.x_in, p.y_in, 1.0])
            r = max(1, round(p.radius_mm / self.mm_per_px))
            u0, v0 = max(0, round(u) - r), max(0, round(v) - r)
            patch = motion[v0 : round(v) + r + 1, u0 : round(u) + r + 1]
            out.append(bool(patch.size == 0 or patch.any()))
        return out

    def _view(self, grey: npt.NDArray[np.uint8]) -> F32:
        peeked = self._peeked
        if peeked is not None and peeked[0] == id(grey):
            self._peeked = None
            return peeked[1]
        # Sampling the full image straight into the small view costs in proportion to the view
        # (about 0.1 ms); the same pixels are sampled every frame, so a still scene gives the
        # same view up to sensor noise, which the blur and the thresholds absorb.
        view = cv2.warpPerspective(
            grey, self._view_to_px, self._size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
        ).astype(np.float32)
        view = cv2.GaussianBlur(view, (5, 5), 0)
        return np.asarray(view - np.median(view), dtype=np.float32)

    def _disc_mask(self, places: Sequence[Place]) -> npt.NDArray[np.uint8]:
        mask = np.zeros((self._size[1], self._size[0]), dtype=np.uint8)
        inv = np.linalg.inv(self._view_to_table)
        for p in places:
            u, v, _ = inv @ np.array([p.x_in, p.y_in, 1.0])
            r = max(1, round(p.radius_mm / self.mm_per_px))
            cv2.circle(mask, (round(u), round(v)), r, 255, -1)
        return mask

    def update(
        self,
        t: float,
        grey: npt.NDArray[np.uint8],
        explained: Sequence[Place] = (),
        hidden: Sequence[Place] = (),
    ) -> SettleState:
        """Judge one frame (grey image, pixels) at time ``t`` seconds. ``explained``: places of
        pieces that moved, appeared or vanished since the last settled frame; ``hidden``: places
        of tags hidden right now (never absorbed into the background)."""
        view = self._view(grey)
        px_mm2 = self.mm_per_px**2
        boxes: tuple[tuple[float, float, float, float], ...] = ()
        moving = False
        if self._prev is not None:
            motion = (np.abs(view - self._prev) > self.motion_level).astype(np.uint8)
            area = float(motion.sum()) * px_mm2
            moving = area > self.min_area_mm2
            if moving:
                self._last_motion_t = t
                boxes = self._boxes(motion)
        else:
            self._last_motion_t = t
        self._prev = view
        still = (t - self._last_motion_t) >= self.still_s and not moving
        if not still:
            self._still_since = None
        elif self._still_since is None:
            self._still_since = t
        if self._background is None:
            if still:
                self._background = view
            return SettleState(still, moving, 0.0, boxes)
        changed = (np.abs(view - self._background) > self.change_level).astype(np.uint8)
        changed = cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        if explained:
            changed[self._disc_mask(explained) > 0] = 0
        unexplained = float(changed.sum()) * px_mm2
        settled = still and unexplained <= self.min_area_mm2
        if not settled and still and not (hidden and np.any(changed[self._disc_mask(hidden) > 0])):
            waited = self._still_since is not None and t - self._still_since >= self.absorb_s
            settled = waited or self._pieces_put_down(changed, len(explained))
        if settled:
            self._background = view
        return SettleState(settled, moving, unexplained, boxes)

    def _pieces_put_down(self, changed: npt.NDArray[np.uint8], places: int) -> bool:
        """Whether the unexplained change (a mask of the view) is only pieces whose figures hide
        their own tags: separate patches, each within :attr:`footprint_mm2`, at most one per
        changed place the tracker named (``places``)."""
        if self.footprint_mm2 is None or places == 0:
            return False
        _, _, stats, _ = cv2.connectedComponentsWithStats(changed)
        areas = stats[1:, cv2.CC_STAT_AREA].astype(np.float64) * self.mm_per_px**2
        patches = areas[areas > self.min_area_mm2 / 4]
        return len(patches) <= places and bool(np.all(areas <= self.footprint_mm2))

    @property
    def still_since_t(self) -> float | None:
        """Since when (seconds) nothing has moved on the table, settled or not; None while
        something moves."""
        return self._still_since

    def _boxes(self, mask: npt.NDArray[np.uint8]) -> tuple[tuple[float, float, float, float], ...]:
        grown = cv2.dilate(mask, np.ones((5, 5), np.uint8))
        n, _, stats, _ = cv2.connectedComponentsWithStats(grown)
        out = []
        for i in range(1, n):
            x, y, w, h, _ = stats[i]
            x0, y1, _ = self._view_to_table @ np.array([x, y, 1.0])
            x1, y0, _ = self._view_to_table @ np.array([x + w, y + h, 1.0])
            out.append((float(x0), float(y0), float(x1), float(y1)))
        return tuple(out)

"""Drift: noticing that the camera (or the table) moved since calibration, and re-fitting.

Every frame the corner tags in view are mapped to the table through the current mapping; if they
land more than ``threshold_mm`` (1 mm) from where they belong, the mapping is re-fitted from the
corner tags in view: a full homography and pose from three or four tags, a similarity correction
of the old homography from one or two. A camera that moves shifts every corner tag: of two or
more in view (or one alone while the others are covered), one shifted alone is a misread tag
(a hand over part of it), not a move: it is re-fitted when a second tag confirms it, or when
it stays ``LONG_BUMP_FRAMES`` frames.

A bump usually takes a few frames, each re-fitted. It is said once, when it is over (the first
frame whose corner tags sit where they belong again), with its whole size: how far the corner
tags moved from where the mapping before the bump put them, and how many re-fits it took. A
camera that keeps moving is said every ``LONG_BUMP_FRAMES`` frames, with what it moved so far, so
that no run of re-fits goes unsaid. Losing every corner tag keeps the last mapping, with a
warning once per loss; a failed re-fit is said once per bump.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.errors import CalibrationError
from calibration.pose import TableMapping
from calibration.profile import TableProfile, fit_mapping
from calibration.table import MM_PER_IN, TableFit, apply_homography, corner_layout

DRIFT_THRESHOLD_MM = 1.0
LONG_BUMP_FRAMES = 30
"""A bump still going on after this many frames (a second at 30 fps) is said as it stands."""


@dataclass(frozen=True)
class DriftCheck:
    """What one frame's corner tags said about the mapping."""

    moved_mm: float | None
    """Median distance (mm) of the visible corner tags from their places before any re-fit, or
    None when no corner tag was seen."""
    refitted: bool
    """True when the mapping was re-fitted in this frame."""
    corner_ids: tuple[int, ...]
    """Corner tags seen."""
    warning: str | None
    """A sentence to show once, or None."""
    bump_mm: float | None = None
    """The whole size of the bump said in this frame (mm on the table), or None."""


class DriftMonitor:
    """Keeps a profile's table mapping true to the corner tags while tracking."""

    def __init__(self, profile: TableProfile, threshold_mm: float = DRIFT_THRESHOLD_MM) -> None:
        if threshold_mm <= 0:
            raise CalibrationError(f"threshold_mm must be positive, got {threshold_mm}")
        self.profile = profile
        self.threshold_mm = threshold_mm
        self.mapping: TableMapping = profile.mapping()
        self._layout = corner_layout(profile.width_in, profile.depth_in, profile.corner_tag_mm)
        self._lost_warned = False
        self._bump: _Bump | None = None
        self._alone_frames = 0
        """Frames running in which one corner tag alone showed a shift."""
        self._known_ids: set[int] = set(profile.fit.corner_ids)
        """Corner tags seen in view so far (the table shows them; a hand may cover some)."""
        self.refits = 0

    def check(self, corners_px: Mapping[int, Sequence[tuple[float, float]]]) -> DriftCheck:
        """Check (and if needed re-fit) the mapping from this frame's corner tags (raw pixels,
        id -> four corners in OpenCV order)."""
        seen = {i: np.asarray(c, dtype=np.float64).reshape(4, 2) for i, c in corners_px.items()}
        seen = {i: c for i, c in seen.items() if i in self._layout}
        ids = tuple(sorted(seen))
        if not ids:
            warning = None
            if not self._lost_warned:
                warning = "corner tags not in view: keeping the last table mapping"
                self._lost_warned = True
            return DriftCheck(None, False, ids, warning)
        self._lost_warned = False
        shifts = self._shifts_mm(self.mapping, seen)
        moved = float(np.median(shifts))
        bump = self._bump
        known = len(self._known_ids)
        self._known_ids.update(ids)
        alone = moved > self.threshold_mm and _one_tag_alone(shifts, self.threshold_mm, known)
        self._alone_frames = self._alone_frames + 1 if alone else 0
        if alone and self._alone_frames < LONG_BUMP_FRAMES:
            # One corner tag shifted and no other confirms it: that tag was misread (a hand
            # over part of it). Nothing is re-fitted; a camera that did move is re-fitted when
            # a second corner tag shows the shift too, or when the shift stays (a turn about
            # the other tag).
            return DriftCheck(moved, False, ids, None)
        if moved <= self.threshold_mm:
            if bump is None:
                return DriftCheck(moved, False, ids, None)
            self._bump = None
            if not bump.refits:  # every re-fit failed (said) and the camera came back
                return DriftCheck(moved, False, ids, None)
            size = self._moved_mm(bump.before, seen)
            return DriftCheck(moved, False, ids, bump.said(size, ids, over=True), size)
        if bump is None:
            bump = self._bump = _Bump(self.mapping)
        bump.frames += 1
        try:
            self._refit(seen)
        except CalibrationError as exc:
            warning = None
            if not bump.failure_said:
                bump.failure_said = True
                warning = f"camera moved by {moved:.1f} mm; re-fit failed: {exc}"
            return DriftCheck(moved, False, ids, warning)
        self.refits += 1
        bump.refits += 1
        if bump.frames < LONG_BUMP_FRAMES:
            return DriftCheck(moved, True, ids, None)
        # still moving: say what it did so far, then count afresh from here
        size = self._moved_mm(bump.before, seen)
        self._bump = _Bump(self.mapping)
        return DriftCheck(moved, True, ids, bump.said(size, ids, over=False), size)

    def _moved_mm(self, mapping: TableMapping, seen: Mapping[int, np.ndarray]) -> float:
        """Median distance (mm) of the seen corner tags, mapped through ``mapping``, from their
        places on the table."""
        return float(np.median(self._shifts_mm(mapping, seen)))

    def _shifts_mm(self, mapping: TableMapping, seen: Mapping[int, np.ndarray]) -> list[float]:
        """Each seen corner tag's mean distance (mm), mapped through ``mapping``, from its place
        on the table."""
        moves = []
        for i, corners in seen.items():
            on_table = mapping.to_table_in(corners, 0.0)
            moves.append(
                float(np.linalg.norm(on_table - np.array(self._layout[i]), axis=1).mean())
                * MM_PER_IN
            )
        return moves

    def _refit(self, seen: Mapping[int, np.ndarray]) -> None:
        p = self.profile
        if len(seen) >= 3:
            fit, pose = fit_mapping(
                seen, p.image_size_px, p.width_in, p.depth_in, p.intrinsics, p.corner_tag_mm
            )
            self.profile = p.with_mapping(fit, pose)
            self.mapping = self.profile.mapping()
            return
        # One or two tags: correct the old homography by a similarity on the table plane.
        ids = sorted(seen)
        now = np.vstack([self.mapping.to_table_in(seen[i], 0.0) for i in ids])
        true = np.vstack([np.array(self._layout[i]) for i in ids])
        m, _ = cv2.estimateAffinePartial2D(true, now, method=cv2.LMEDS)
        if m is None:
            raise CalibrationError("corner tags give no consistent correction")
        corr = np.vstack([m, [0.0, 0.0, 1.0]])
        h = self.mapping.matrix() @ corr
        h = h / h[2, 2]
        und = np.vstack([self.mapping.undistort_px(seen[i]) for i in ids])
        back = apply_homography(np.linalg.inv(h), und)
        err = np.linalg.norm(back - true, axis=1) * MM_PER_IN
        old = p.fit
        fit = TableFit(
            homography=tuple(tuple(float(v) for v in row) for row in h),
            corner_ids=tuple(ids),
            reprojection_rms_mm=float(np.sqrt((err**2).mean())),
            reprojection_max_mm=float(err.max()),
            px_per_mm_min=old.px_per_mm_min,
            px_per_mm_max=old.px_per_mm_max,
            inliers=len(err),
        )
        self.profile = p.with_mapping(fit, p.pose)
        self.mapping = self.profile.mapping()


def _one_tag_alone(shifts_mm: Sequence[float], threshold_mm: float, known: int) -> bool:
    """Whether only one corner tag lies beyond ``threshold_mm`` of its place, on a table that
    has shown ``known`` corner tags: of two or more in view, or the only one in view while
    others are covered. A camera (or table) that moves shifts every corner tag; one tag
    shifting alone is that tag misread. With two tags in view their median is their mean, so
    before this one tag half covered by a hand (read 2-3 mm off) was taken for the camera
    moving, re-fitted to, and said as a move when the hand left; with the other under the
    hand, the one tag left was believed alone."""
    beyond = sum(s > threshold_mm for s in shifts_mm)
    return beyond == 1 and (len(shifts_mm) >= 2 or known >= 2)


@dataclass
class _Bump:
    """A bump being followed: the mapping before it, frames and re-fits so far."""

    before: TableMapping
    frames: int = 0
    refits: int = 0
    failure_said: bool = False

    def said(self, size_mm: float, ids: tuple[int, ...], *, over: bool) -> str:
        """The sentence for this bump, ``size_mm`` its size (so far, unless ``over``)."""
        times = "once" if self.refits == 1 else f"{self.refits} times"
        if over:
            return (
                f"camera or table moved by {size_mm:.1f} mm: table mapping re-fitted {times} "
                f"from corner tags {list(ids)}"
            )
        return (
            f"the camera keeps moving: moved by {size_mm:.1f} mm in {self.frames} frames, table "
            f"mapping re-fitted {times}; fix it to a rigid stand that nothing can bump"
        )

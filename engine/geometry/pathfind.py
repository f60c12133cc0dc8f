"""Is a point reachable? The shortest legal path of a given shape between two points (inches).

Used to check a player's observed move (start and end seen by the camera) and to test
"reachable within the move". Paths are polylines of at most ``len(pattern)`` legs; the search
tries the straight line first, then one bend point for patterns of two or more legs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely

from engine.geometry.angles import Point, centre_distance_in
from engine.geometry.movement import (
    LIMIT_TOL_IN,
    MoveArea,
    check_path,
    straight_split,
)

RING_DIRECTIONS = 48
"""Bend candidates: directions around the start (every 7.5 degrees)..."""
RING_STEPS = 8
"""... times this many distances up to the first leg's limit."""
CORNER_CLEARANCE_IN = 1e-4
"""Bend candidates near obstacles sit this far outside the base's touching distance."""


def _bend_candidates(
    start: Point, goal: Point, first_in: float, rest_in: float, area: MoveArea
) -> list[Point]:
    """Candidate bend points for a path start -> bend -> (straight) goal."""
    r = area.radius_in
    cands: list[Point] = []
    for k in range(RING_DIRECTIONS):
        ang = 2.0 * math.pi * k / RING_DIRECTIONS
        ux, uy = math.sin(ang), math.cos(ang)
        for j in range(1, RING_STEPS + 1):
            d = first_in * j / RING_STEPS
            cands.append((start[0] + ux * d, start[1] + uy * d))
    # Points just clear of each obstacle: the shortest way round a corner bends there.
    for _, cx, cy, cr in area.blockers.circles:
        rad = r + cr + CORNER_CLEARANCE_IN
        for k in range(32):
            ang = 2.0 * math.pi * k / 32
            cands.append((cx + rad * math.sin(ang), cy + rad * math.cos(ang)))
    for ob in area.blockers.shapes:
        grown = ob.shape.buffer(r + CORNER_CLEARANCE_IN, quad_segs=4)
        cands.extend((float(x), float(y)) for x, y in shapely.get_coordinates(grown))
    # The two points at exactly the limits from both ends.
    d = centre_distance_in(start, goal)
    if 0.0 < d <= first_in + rest_in and d >= abs(first_in - rest_in):
        along = (d * d + first_in * first_in - rest_in * rest_in) / (2.0 * d)
        off = math.sqrt(max(0.0, first_in * first_in - along * along))
        ux, uy = (goal[0] - start[0]) / d, (goal[1] - start[1]) / d
        for side in (1.0, -1.0):
            cands.append(
                (start[0] + along * ux - side * off * uy, start[1] + along * uy + side * off * ux)
            )
    return cands


def find_path(
    start: Point, goal: Point, leg_patterns: Sequence[Sequence[float]], area: MoveArea
) -> tuple[Point, ...] | None:
    """A legal path from ``start`` to ``goal`` under any of ``leg_patterns``, or None.

    Each pattern lists leg limits in inches (seed 000: ``[[M], [M/2, M/2]]``). The straight line
    is tried first (cut in proportion to the limits for multi-leg patterns); then, for patterns
    of two or more legs, bend points (a ring of directions and distances around the start, and
    points just clear of each obstacle) with the rest of the path straight; the shortest legal
    path found is returned. The search is a sampling one: a path needing a very precise bend may
    be missed.
    """
    start = (float(start[0]), float(start[1]))
    goal = (float(goal[0]), float(goal[1]))
    for pattern in sorted(leg_patterns, key=len):
        if not pattern:
            continue
        pts = straight_split(start, goal, pattern)
        if check_path(pts, pattern, area).legal:
            return pts
    best: tuple[float, tuple[Point, ...]] | None = None
    for pattern in leg_patterns:
        if len(pattern) < 2:
            continue
        found = _best_bent_path(start, goal, pattern, area)
        if found is not None and (best is None or found[0] < best[0]):
            best = found
    return None if best is None else best[1]


def _best_bent_path(
    start: Point, goal: Point, pattern: Sequence[float], area: MoveArea
) -> tuple[float, tuple[Point, ...]] | None:
    first, rest = float(pattern[0]), [float(x) for x in pattern[1:]]
    rest_total = sum(rest)
    cands = _bend_candidates(start, goal, first, rest_total, area)
    if not cands:
        return None
    arr = np.array(cands, dtype=np.float64)
    d1 = np.hypot(arr[:, 0] - start[0], arr[:, 1] - start[1])
    d2 = np.hypot(goal[0] - arr[:, 0], goal[1] - arr[:, 1])
    keep = (d1 <= first + LIMIT_TOL_IN) & (d2 <= rest_total + LIMIT_TOL_IN) & (d1 > 0.0)
    r = area.radius_in
    w, h = area.table.width_in, area.table.depth_in
    keep &= (arr[:, 0] >= r) & (arr[:, 0] <= w - r) & (arr[:, 1] >= r) & (arr[:, 1] <= h - r)
    idx = np.nonzero(keep)[0]
    if len(idx) == 0:
        return None
    # Cheap clearance filter with the ray caster, then exact checks shortest first.
    sx = np.full(len(idx), start[0])
    sy = np.full(len(idx), start[1])
    ux1 = (arr[idx, 0] - start[0]) / d1[idx]
    uy1 = (arr[idx, 1] - start[1]) / d1[idx]
    free1 = area.blockers.free_lengths(sx, sy, ux1, uy1, r)
    ok = free1 >= d1[idx] - 1e-6
    with np.errstate(invalid="ignore", divide="ignore"):
        ux2 = np.where(d2[idx] > 0, (goal[0] - arr[idx, 0]) / d2[idx], 0.0)
        uy2 = np.where(d2[idx] > 0, (goal[1] - arr[idx, 1]) / d2[idx], 1.0)
    if len(rest) == 1:
        free2 = area.blockers.free_lengths(arr[idx, 0], arr[idx, 1], ux2, uy2, r)
        ok &= free2 >= d2[idx] - 1e-6
    order = idx[ok][np.argsort((d1 + d2)[idx[ok]], kind="stable")]
    for i in order.tolist():
        bend = (float(arr[i, 0]), float(arr[i, 1]))
        pts = (start, *straight_split(bend, goal, rest))
        if check_path(pts, pattern, area).legal:
            return (float(d1[i] + d2[i]), pts)
    return None

"""Where to stand to see a target: the shortest legal move after which a target is within a
given distance and in sight (RULES D000-09), in inches.

The search covers every path of the given leg patterns (seed 000: one leg of up to M, or two of
up to M/2): rays leave the start in a fine fan, straight at the target and along the lines that
graze each obstacle; for two-leg patterns the same rays carry bend points (where they graze an
obstacle, where they are stopped, where the leg's allowance ends, and between), and a second fan
leaves each bend. Along each ray the first point that is in reach of the target, clear of the
keep-away discs and in sight is found by sampling; sight is read from a ``SightMap`` (the free
distance along fine rays from the target, since sight is symmetric). The best paths are then
refined (the last leg cut back to the exact edge of sight) and checked exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import shapely

from engine.geometry.angles import EPS_IN, Point, centre_distance_in
from engine.geometry.movement import MoveArea, check_path
from engine.geometry.outline import FloatArray, outline
from engine.geometry.raysearch import MIN_MOVE_IN, clear_ranges, graze_rays
from engine.geometry.sight import Obstacle

SIGHT_RAYS = 1440
"""Rays of a ``SightMap`` (every 0.25 degrees)."""
FIRST_FAN = 180
"""Directions of a single leg (every 2 degrees), besides the target and the grazing lines."""
BEND_FAN = 96
"""Directions that carry bend points (every 3.75 degrees), besides the target, the grazing lines
and the rays aimed at the nearest points in view."""
BEND_FRACTIONS = (1.0 / 3.0, 2.0 / 3.0, 1.0)
"""Bend points at these fractions of the first leg's reach (plus where a ray is stopped)."""
SECOND_FAN = 24
"""Directions of a second leg from each bend (every 15 degrees), besides the target and the
rays aimed at the nearest points in view."""
AIM_GROUP = 8
"""Sight-map rays per part when aiming at the nearest points in view (see ``_aims``)."""
AIM_INSET_IN = 0.02
"""Aim this far (inches) inside the edge of sight."""
AIMS = 24
"""Rays aimed at the nearest points in view from the start..."""
BEND_AIMS = 4
"""... and from each bend."""
BOUND_GROUP = 4
"""Sight-map rays per group when bounding the distance to a view (see ``_view_distance``)."""
SAMPLE_IN = 0.1
"""Spacing of the points tried along a ray, inches."""
BEND_BATCH = 16
"""Bends whose second legs are tried together (best first; later batches are pruned)."""
TIE_IN = 0.01
"""Paths whose lengths differ by less than this (inches, about the search's precision) tie:
then fewer legs win, then a first leg straight at the target (D000-09), then the shorter."""
AT_TARGET_RAD = 1e-9
"""A first leg within this angle (radians) of the bearing to the target is straight at it."""
CHECKS = 8
KEEP = 32
"""Candidates kept from each batch of rays (the shortest)."""
"""How many of the best candidates are refined and checked exactly, at most."""
REFINE_STEPS = 10
"""Bisection steps when cutting a last leg back to the edge of the goal."""
BEND_SPACING_IN = 0.05
"""Bend points closer than this (inches) to one already kept are dropped."""

_Candidate = tuple[float, int, float, tuple[Point, ...], float]
"""(length in inches, legs, turn away from the target in radians, path, the last sampled
distance along the last leg that was not yet in the goal)."""


@dataclass(frozen=True)
class SightMap:
    """What can be seen from a point: along each of ``len(free)`` equally spaced compass
    directions, the distance in inches at which a line from the point first enters a blocker."""

    origin: Point
    free: FloatArray

    def visible(self, x: FloatArray, y: FloatArray) -> npt.NDArray[np.bool_]:
        """Whether the line from each point (x[i], y[i]) to the origin is clear, by the map.

        Conservative between rays (the nearer of the two neighbouring rays' blockers counts);
        a point exactly at the origin is visible. Returns a boolean array.
        """
        dx, dy = x - self.origin[0], y - self.origin[1]
        d = np.hypot(dx, dy)
        n = len(self.free)
        k = np.mod(np.arctan2(dx, dy), 2.0 * math.pi) * (n / (2.0 * math.pi))
        i0 = np.floor(k).astype(np.intp) % n
        i1 = (i0 + 1) % n
        limit = np.minimum(self.free[i0], self.free[i1])
        return np.asarray((d < limit) | (d == 0.0), dtype=np.bool_)


def sight_map(
    origin: Point,
    blockers: Sequence[Obstacle],
    rays: int = SIGHT_RAYS,
    within_in: float = math.inf,
    around: tuple[Point, float] | None = None,
) -> SightMap:
    """The ``SightMap`` of ``origin`` among ``blockers`` (round bases count as circles shrunk by
    1e-6 in, other shapes by their boundary; a shape holding the origin blocks every ray).

    Only what lies within ``within_in`` inches of the origin is looked at; with ``around``
    ``(centre, radius)`` only the rays toward that disc are cast (the others read as blocked at
    the origin).
    """
    ang = np.arange(rays) * (2.0 * math.pi / rays)
    free = np.zeros(rays)
    ox, oy = origin
    idx = np.arange(rays)
    if around is not None:
        (cx, cy), radius = around
        d = math.hypot(cx - ox, cy - oy)
        if d > radius:
            half = math.asin(radius / d) + 2.0 * (2.0 * math.pi / rays)
            mid = math.atan2(cx - ox, cy - oy)
            off = np.abs(np.remainder(ang - mid + math.pi, 2.0 * math.pi) - math.pi)
            idx = np.nonzero(off <= half)[0]
    ux, uy = np.sin(ang[idx]), np.cos(ang[idx])
    best = np.full(len(idx), np.inf)
    origin_pt = shapely.Point(origin)
    circles: list[tuple[float, float, float]] = []
    seg_a: list[FloatArray] = []
    seg_b: list[FloatArray] = []
    for ob in blockers:
        minx, miny, maxx, maxy = ob.bounds
        gap = math.hypot(max(minx - ox, 0.0, ox - maxx), max(miny - oy, 0.0, oy - maxy))
        if gap > within_in:
            continue
        circle = ob.circle
        if circle is not None:
            (cx, cy), cr = circle
            rho = cr - EPS_IN
            if rho <= 0.0:
                continue
            if math.hypot(cx - ox, cy - oy) <= rho:
                return SightMap(origin, free)
            circles.append((cx - ox, cy - oy, rho))
            continue
        if ob.areal and ob.core.contains(origin_pt):
            return SightMap(origin, free)
        shape_outline = outline(ob.shape) if ob.edges is None else ob.edges
        if len(shape_outline.a):
            seg_a.append(shape_outline.a)
            seg_b.append(shape_outline.b)
    if circles:
        c = np.array(circles)
        wx, wy, rr = c[:, 0][None, :], c[:, 1][None, :], c[:, 2][None, :]
        b = wx * ux[:, None] + wy * uy[:, None]
        disc = b * b - (wx * wx + wy * wy - rr * rr)
        ok = (b > 0.0) & (disc > 0.0)
        t = np.where(ok, b - np.sqrt(np.where(ok, disc, 0.0)), np.inf)
        best = np.minimum(best, t.min(axis=1))
    if seg_a:
        a_all, b_all = np.concatenate(seg_a), np.concatenate(seg_b)
        ax, ay = a_all[:, 0][None, :], a_all[:, 1][None, :]
        dx = b_all[:, 0][None, :] - ax
        dy = b_all[:, 1][None, :] - ay
        sx, sy = ax - ox, ay - oy
        u_x, u_y = ux[:, None], uy[:, None]
        with np.errstate(all="ignore"):
            denom = u_x * dy - u_y * dx
            t = (sx * dy - sy * dx) / denom
            s = (sx * u_y - sy * u_x) / denom
            hit = (denom != 0.0) & (t >= 0.0) & (s >= 0.0) & (s <= 1.0)
        best = np.minimum(best, np.where(hit, t, np.inf).min(axis=1))
    free[idx] = best
    return SightMap(origin, free)


@dataclass(frozen=True)
class _Goal:
    """Where a move may end: within ``reach_in`` of ``target``, outside every keep-away disc,
    and (by the map, then exactly) in sight of the target."""

    target: Point
    reach_in: float
    keep_x: FloatArray
    keep_y: FloatArray
    keep_r: FloatArray
    smap: SightMap
    blockers: tuple[Obstacle, ...]

    def approx(self, x: FloatArray, y: FloatArray) -> npt.NDArray[np.bool_]:
        ok = np.hypot(x - self.target[0], y - self.target[1]) <= self.reach_in + EPS_IN
        for kx, ky, kr in zip(self.keep_x, self.keep_y, self.keep_r, strict=True):
            ok &= np.hypot(x - kx, y - ky) > kr
        return np.asarray(ok & self.smap.visible(x, y), dtype=np.bool_)

    def exact(self, p: Point) -> bool:
        if centre_distance_in(p, self.target) > self.reach_in + EPS_IN:
            return False
        for kx, ky, kr in zip(self.keep_x, self.keep_y, self.keep_r, strict=True):
            if math.hypot(p[0] - kx, p[1] - ky) <= kr:
                return False
        return not any(ob.blocks_segment(p, self.target) for ob in self.blockers)


def _first_in_goal(
    px: FloatArray,
    py: FloatArray,
    ux: FloatArray,
    uy: FloatArray,
    lo: FloatArray,
    hi: FloatArray,
    goal: _Goal,
    aim: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray]:
    """(first, before) for each ray: the first sampled distance in [lo, hi] whose point is in
    the goal (inf when none), and the sample before it. Samples are ``SAMPLE_IN`` apart from
    where the ray comes in reach of the target, plus, where ``aim`` is not NaN, at ``aim``."""
    n = len(px)
    first = np.full(n, np.inf)
    before = np.full(n, np.inf)
    if n == 0:
        return first, before
    tx, ty = goal.target
    wx, wy = tx - px, ty - py
    proj = wx * ux + wy * uy
    perp2 = np.maximum(0.0, wx * wx + wy * wy - proj * proj)
    reach2 = goal.reach_in**2
    half = np.sqrt(np.maximum(0.0, reach2 - perp2))
    a = np.maximum(np.maximum(proj - half, lo), MIN_MOVE_IN)
    b = np.minimum(proj + half, hi)
    live = np.nonzero((perp2 <= reach2) & (a <= b))[0]
    if len(live) == 0:
        return first, before
    a, b = a[live], b[live]
    counts = np.ceil((b - a) / SAMPLE_IN).astype(np.intp) + 1
    width = int(counts.max())
    k = np.arange(width)
    ts = np.minimum(a[:, None] + k[None, :] * SAMPLE_IN, b[:, None])
    mask = k[None, :] < counts[:, None]
    if aim is not None:
        extra = aim[live]
        ts = np.concatenate([ts, np.where(np.isnan(extra), a, extra)[:, None]], axis=1)
        mask = np.concatenate([mask, ((extra >= a) & (extra <= b))[:, None]], axis=1)
    xs = px[live][:, None] + ux[live][:, None] * ts
    ys = py[live][:, None] + uy[live][:, None] * ts
    inside = np.zeros(ts.shape, dtype=np.bool_)
    inside[mask] = goal.approx(xs[mask], ys[mask])
    hit = np.where(inside, ts, np.inf).min(axis=1)
    prior = np.where(mask & (ts < hit[:, None]), ts, -np.inf).max(axis=1)
    first[live] = hit
    before[live] = np.where(np.isfinite(hit), np.where(np.isfinite(prior), prior, hit), np.inf)
    return first, before


def _aims(
    smap: SightMap,
    reach_in: float,
    px: FloatArray,
    py: FloatArray,
    limit_in: float,
    count: int,
    coarse: int = 1,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """(origin index, ux, uy, t): rays from each point (px[i], py[i]) straight at the nearest
    points that the map says are in reach and in sight (a little inside the edge of sight), at
    most ``count`` per point from different parts of the map and no farther than ``limit_in``.
    They find slivers of view that a fan of directions would step over. With ``coarse`` > 1
    the map is read in groups of that many rays (between them, as far as the nearest
    blocker of the group): quicker for many points."""
    n = len(smap.free)
    empty = np.zeros(0)
    if len(px) == 0 or n % (AIM_GROUP * coarse):
        return empty.astype(np.intp), empty, empty, empty
    step = 2.0 * math.pi / n
    free = smap.free.reshape(n // coarse, coarse).min(axis=1)
    n //= coarse
    ang = (np.arange(n) * coarse + (coarse - 1) / 2.0) * step
    length = np.minimum(free - AIM_INSET_IN, reach_in)
    ux, uy = np.sin(ang), np.cos(ang)
    wx = px[:, None] - smap.origin[0]
    wy = py[:, None] - smap.origin[1]
    along = np.clip(wx * ux[None, :] + wy * uy[None, :], 0.0, np.maximum(length, 0.0)[None, :])
    qx = smap.origin[0] + along * ux[None, :]
    qy = smap.origin[1] + along * uy[None, :]
    dist = np.where(length[None, :] > 0.0, np.hypot(qx - px[:, None], qy - py[:, None]), np.inf)
    # The nearest point of each part of the map (AIM_GROUP rays), then the nearest parts.
    grouped = dist.reshape(len(px), n // AIM_GROUP, AIM_GROUP)
    inner = grouped.argmin(axis=2)
    best = np.take_along_axis(grouped, inner[:, :, None], axis=2)[:, :, 0]
    order = np.argsort(best, axis=1)[:, :count]
    rows = np.repeat(np.arange(len(px)), order.shape[1])
    groups = order.reshape(-1)
    cols = groups * AIM_GROUP + inner[rows, groups]
    d = dist[rows, cols]
    keep = (d <= limit_in + EPS_IN) & (d >= MIN_MOVE_IN)
    rows, cols, d = rows[keep], cols[keep], d[keep]
    vx = (qx[rows, cols] - px[rows]) / d
    vy = (qy[rows, cols] - py[rows]) / d
    return rows.astype(np.intp), vx, vy, d


def _directions(
    toward: float, fan: int, extra_x: FloatArray, extra_y: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """Unit vectors: straight at the target first, then a fan of ``fan`` directions, then any
    extra (grazing) directions."""
    ang = np.arange(fan) * (2.0 * math.pi / fan)
    return (
        np.concatenate([[math.sin(toward)], np.sin(ang), extra_x]),
        np.concatenate([[math.cos(toward)], np.cos(ang), extra_y]),
    )


def shortest_view_move(
    start: Point,
    target: Point,
    reach_in: float,
    leg_patterns: Sequence[Sequence[float]],
    area: MoveArea,
    blockers: Sequence[Obstacle],
    keep_away: Sequence[tuple[Point, float]] = (),
) -> tuple[Point, ...] | None:
    """The shortest legal path after which ``target`` is in reach and in sight (D000-09).

    Paths follow any of ``leg_patterns`` (leg limits in inches; patterns of one or two legs),
    are legal in ``area`` (``check_path``) and are at least 1e-4 in long. The end must be within
    ``reach_in`` inches of ``target`` (centre to centre), have a centre line to ``target`` that no
    obstacle of ``blockers`` crosses, and lie outside every keep-away disc ``(centre, radius)``
    (bases it may not end touching). Shortest by length travelled; on a tie a single leg straight
    at the target, then fewer legs. None when no such path is found.
    """
    start = (float(start[0]), float(start[1]))
    target = (float(target[0]), float(target[1]))
    patterns: list[tuple[float, ...]] = [
        tuple(float(x) for x in p) for p in leg_patterns if 1 <= len(p) <= 2
    ]
    if not patterns:
        return None
    longest = max(sum(p) for p in patterns)
    d_start = centre_distance_in(start, target)
    if d_start - reach_in > longest + EPS_IN:
        return None
    keep = np.array([[c[0], c[1], r] for c, r in keep_away], dtype=np.float64).reshape(-1, 3)
    straight = _straight_at(start, target, d_start, reach_in, patterns, area, blockers, keep)
    if straight is not None:
        return straight
    smap = sight_map(target, blockers, within_in=reach_in, around=(start, longest + 2 * SAMPLE_IN))
    sx, sy = np.array([start[0]]), np.array([start[1]])
    if float(_view_distance(smap, reach_in, sx, sy)[0]) > longest + EPS_IN:
        return None
    goal = _Goal(target, reach_in, keep[:, 0], keep[:, 1], keep[:, 2], smap, tuple(blockers))
    toward = math.atan2(target[0] - start[0], target[1] - start[1])
    candidates: list[_Candidate] = []
    # Single legs.
    for single in (p for p in patterns if len(p) == 1):
        candidates += _single_legs(start, toward, single[0], area, goal)
    best = min((c[0] for c in candidates), default=math.inf)
    # Two legs: bends first, then second legs from the most promising bends.
    for double in (p for p in patterns if len(p) == 2):
        found = _two_legs(start, toward, double, area, goal, best)
        candidates += found
        best = min([best, *(c[0] for c in found)])
    if not candidates:
        return None
    return _settle(candidates, patterns, area, goal)


def _straight_at(
    start: Point,
    target: Point,
    d_start: float,
    reach_in: float,
    patterns: list[tuple[float, ...]],
    area: MoveArea,
    blockers: Sequence[Obstacle],
    keep: FloatArray,
) -> tuple[Point, ...] | None:
    """The straight leg at the target that just comes in reach, when that end is in sight, clear
    of the keep-away discs and legal: no move can be shorter, since every move must cover at
    least the distance still missing. None otherwise."""
    run = d_start - reach_in
    if run < MIN_MOVE_IN:
        return None
    f = run / d_start
    end = (start[0] + f * (target[0] - start[0]), start[1] + f * (target[1] - start[1]))
    if centre_distance_in(end, target) > reach_in + EPS_IN:
        return None
    for kx, ky, kr in keep.tolist():
        if math.hypot(end[0] - kx, end[1] - ky) <= kr:
            return None
    if any(ob.blocks_segment(end, target) for ob in blockers):
        return None
    for pattern in sorted(patterns, key=len):
        if len(pattern) == 1 and check_path((start, end), pattern, area).legal:
            return (start, end)
    return None


def _view_distance(smap: SightMap, reach_in: float, px: FloatArray, py: FloatArray) -> FloatArray:
    """A lower bound (inches) of how far each point is from any point that is, by the map, in
    reach and in sight of the map's origin (walls in the way are ignored).

    The map's rays are taken in groups of ``BOUND_GROUP`` (the farthest of each group), and the
    result is lowered by the widest gap between rays, so that it stays a lower bound.
    """
    n = len(smap.free)
    groups = n // BOUND_GROUP
    free = smap.free[: groups * BOUND_GROUP].reshape(groups, BOUND_GROUP)
    # A group's sector runs from its first ray to the next group's first ray.
    far = np.maximum(free.max(axis=1), np.roll(free[:, 0], -1))
    length = np.minimum(far, reach_in + EPS_IN)
    ang = (np.arange(groups) + 0.5) * (2.0 * math.pi / groups)
    seen = length > 0.0
    if not seen.any():
        return np.full(len(px), np.inf)
    length, ang = length[seen], ang[seen]
    ux, uy = np.sin(ang), np.cos(ang)
    wx = px[:, None] - smap.origin[0]
    wy = py[:, None] - smap.origin[1]
    along = np.clip(wx * ux[None, :] + wy * uy[None, :], 0.0, length[None, :])
    dist = np.hypot(wx - along * ux[None, :], wy - along * uy[None, :]).min(axis=1)
    slack = (reach_in + EPS_IN) * math.sin(math.pi / groups) + EPS_IN
    return np.asarray(np.maximum(0.0, dist - slack), dtype=np.float64)


def _single_legs(
    start: Point, toward: float, limit: float, area: MoveArea, goal: _Goal
) -> list[_Candidate]:
    out: list[_Candidate] = []
    gx, gy, _ = graze_rays(start, area, limit)
    ox, oy = np.array([start[0]]), np.array([start[1]])
    _, ax, ay, at = _aims(goal.smap, goal.reach_in, ox, oy, limit, AIMS)
    ux, uy = _directions(toward, FIRST_FAN, np.concatenate([gx, ax]), np.concatenate([gy, ay]))
    aim = np.concatenate([np.full(len(ux) - len(at), np.nan), at])
    inv = np.zeros(len(ux), dtype=np.intp)
    lo, hi = clear_ranges(area, ox, oy, inv, ux, uy)
    px, py = np.full(len(ux), start[0]), np.full(len(ux), start[1])
    hi = np.minimum(hi, area.ground.reach_in(px, py, ux, uy, limit))
    first, before = _first_in_goal(px, py, ux, uy, lo, hi, goal, aim)
    for i in _shortest(first):
        end = (float(start[0] + ux[i] * first[i]), float(start[1] + uy[i] * first[i]))
        dev = _deviation(toward, float(ux[i]), float(uy[i]))
        out.append((float(first[i]), 1, dev, (start, end), float(before[i])))
    return out


def _shortest(length: FloatArray) -> list[int]:
    """Indices of the ``KEEP`` smallest finite lengths, shortest first."""
    finite = np.nonzero(np.isfinite(length))[0]
    if len(finite) > KEEP:
        finite = finite[np.argpartition(length[finite], KEEP)[:KEEP]]
    return [int(i) for i in finite[np.argsort(length[finite], kind="stable")]]


def _deviation(toward: float, ux: float, uy: float) -> float:
    """How far (radians) the direction (ux, uy) turns away from the bearing ``toward``."""
    return abs(math.remainder(math.atan2(ux, uy) - toward, 2.0 * math.pi))


def _two_legs(
    start: Point,
    toward: float,
    pattern: tuple[float, ...],
    area: MoveArea,
    goal: _Goal,
    best: float,
) -> list[_Candidate]:
    l1, l2 = pattern
    if l1 < MIN_MOVE_IN:
        return []
    gx, gy, graze = graze_rays(start, area, l1)
    ox, oy = np.array([start[0]]), np.array([start[1]])
    _, ax, ay, _ = _aims(goal.smap, goal.reach_in, ox, oy, l1 + l2, AIMS)
    ux, uy = _directions(toward, BEND_FAN, np.concatenate([gx, ax]), np.concatenate([gy, ay]))
    graze_t = np.concatenate([np.full(BEND_FAN + 1, np.nan), graze, np.full(len(ax), np.nan)])
    inv = np.zeros(len(ux), dtype=np.intp)
    lo, hi = clear_ranges(area, ox, oy, inv, ux, uy)
    px, py = np.full(len(ux), start[0]), np.full(len(ux), start[1])
    hi = np.minimum(hi, area.ground.reach_in(px, py, ux, uy, l1))
    ok = hi >= np.maximum(lo, MIN_MOVE_IN)
    ts = [hi * f for f in BEND_FRACTIONS]
    ts.append(np.where((graze_t <= hi) & (graze_t >= lo), graze_t, np.nan))
    t1 = np.concatenate(ts)
    ray = np.tile(np.arange(len(ux)), len(ts))
    keep = np.repeat(ok[None, :], len(ts), axis=0).reshape(-1) & np.isfinite(t1)
    keep &= t1 >= MIN_MOVE_IN
    t1, ray = t1[keep], ray[keep]
    bx, by = start[0] + ux[ray] * t1, start[1] + uy[ray] * t1
    tx, ty = goal.target
    to_reach = np.maximum(0.0, np.hypot(bx - tx, by - ty) - goal.reach_in)
    order = np.nonzero((t1 + to_reach < best - 1e-9) & (to_reach <= l2 + EPS_IN))[0]
    bound = t1 + to_reach
    to_view = _view_distance(goal.smap, goal.reach_in, bx[order], by[order])
    bound[order] = t1[order] + to_view
    order = order[(bound[order] < best - 1e-9) & (to_view <= l2 + EPS_IN)]
    order = order[np.argsort(bound[order], kind="stable")]
    order = _spread(order, bx, by)
    out: list[_Candidate] = []
    for s in range(0, len(order), BEND_BATCH):
        chunk = order[s : s + BEND_BATCH]
        chunk = chunk[bound[chunk] < best - 1e-9]
        if len(chunk) == 0:
            break
        cx, cy = bx[chunk], by[chunk]
        fan = np.arange(SECOND_FAN) * (2.0 * math.pi / SECOND_FAN)
        to_t = np.arctan2(tx - cx, ty - cy)
        angles = np.concatenate([to_t[:, None], np.repeat(fan[None, :], len(chunk), 0)], 1)
        owner = np.repeat(np.arange(len(chunk)), angles.shape[1])
        vx, vy = np.sin(angles).reshape(-1), np.cos(angles).reshape(-1)
        a_owner, a_x, a_y, a_t = _aims(goal.smap, goal.reach_in, cx, cy, l2, BEND_AIMS, coarse=4)
        owner = np.concatenate([owner, a_owner])
        vx, vy = np.concatenate([vx, a_x]), np.concatenate([vy, a_y])
        aim = np.concatenate([np.full(len(owner) - len(a_t), np.nan), a_t])
        lo2, hi2 = clear_ranges(area, cx, cy, owner, vx, vy)
        qx, qy = cx[owner], cy[owner]
        hi2 = np.minimum(hi2, area.ground.reach_in(qx, qy, vx, vy, l2))
        first, before = _first_in_goal(qx, qy, vx, vy, lo2, hi2, goal, aim)
        for i in _shortest(t1[chunk][owner] + first):
            c = int(chunk[owner[i]])
            length = float(t1[c] + first[i])
            bend = (float(bx[c]), float(by[c]))
            end = (float(bend[0] + vx[i] * first[i]), float(bend[1] + vy[i] * first[i]))
            dev = _deviation(toward, float(ux[ray[c]]), float(uy[ray[c]]))
            out.append((length, 2, dev, (start, bend, end), float(before[i])))
            best = min(best, length)
    return out


def _spread(order: np.ndarray, x: FloatArray, y: FloatArray) -> np.ndarray:
    """``order`` without points closer than ``BEND_SPACING_IN`` to one kept before them."""
    cell = BEND_SPACING_IN
    seen: set[tuple[int, int]] = set()
    kept = []
    for i in order.tolist():
        key = (int(x[i] // cell), int(y[i] // cell))
        if key in seen:
            continue
        seen.add(key)
        kept.append(i)
    return np.array(kept, dtype=np.intp)


def _settle(
    candidates: list[_Candidate],
    patterns: list[tuple[float, ...]],
    area: MoveArea,
    goal: _Goal,
) -> tuple[Point, ...] | None:
    """The best candidate that passes the exact checks, its last leg cut back to the exact edge
    of the goal: shortest first, then a straight leg at the target, then fewer legs. Candidates
    are taken in order of their sampled length until none could still beat the best found."""

    def beats(a: tuple[float, int, float], b: tuple[float, int, float]) -> bool:
        """Shorter by more than the search's precision; else fewer legs, then straighter."""
        if abs(a[0] - b[0]) > TIE_IN:
            return a[0] < b[0]
        return (a[1], a[2] > AT_TARGET_RAD, a[0]) < (b[1], b[2] > AT_TARGET_RAD, b[0])

    candidates.sort(key=lambda c: (c[0], c[1], c[2]))
    best: tuple[tuple[float, int, float], tuple[Point, ...]] | None = None
    checked = 0
    for length, legs, dev, path, before in candidates:
        last = centre_distance_in(path[-2], path[-1])
        floor = length - max(0.0, last - before) if before < last else length
        if best is not None and floor > best[0][0] + TIE_IN:
            break
        if best is not None and not beats((floor, legs, dev), best[0]):
            continue
        if checked >= CHECKS:
            break
        checked += 1
        for tip_length, tip in _cut_back(path, last, before, goal):
            if tip_length < MIN_MOVE_IN:
                continue
            if not goal.exact(tip[-1]):
                continue
            if not any(len(p) == legs and check_path(tip, p, area).legal for p in patterns):
                continue
            k = (length - last + tip_length, legs, dev)
            if best is None or beats(k, best[0]):
                best = (k, tip)
            break
    return None if best is None else best[1]


def _cut_back(
    path: tuple[Point, ...], last: float, before: float, goal: _Goal
) -> list[tuple[float, tuple[Point, ...]]]:
    """(last leg's length, path) with the last leg cut back by bisection to where the goal
    starts (between the sample ``before`` and the end), then the path as sampled."""
    out = []
    a, end = path[-2], path[-1]
    if before < last:
        ux, uy = (end[0] - a[0]) / last, (end[1] - a[1]) / last
        lo_t, hi_t = before, last
        for _ in range(REFINE_STEPS):
            mid = (lo_t + hi_t) / 2.0
            if goal.exact((a[0] + ux * mid, a[1] + uy * mid)):
                hi_t = mid
            else:
                lo_t = mid
        if hi_t < last - 1e-9:
            out.append((hi_t, (*path[:-1], (float(a[0] + ux * hi_t), float(a[1] + uy * hi_t)))))
    out.append((last, path))
    return out

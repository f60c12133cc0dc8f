"""Moving a round base along straight legs (RULES.md §1.5, §2.e D000-02), in inches.

A leg is legal when its cost is within its limit, the swept base (a capsule of the base's
radius) does not run into an obstacle (``collide`` has the exact rule, including how a base that
already overlaps something may move away from it), and the base ends on the table. Difficult
ground costs 2 in of allowance per inch travelled inside it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import InitVar, dataclass, field
from itertools import pairwise

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from engine.errors import EngineError
from engine.geometry.angles import EPS_IN, Point, centre_distance_in
from engine.geometry.collide import ObstacleSet
from engine.geometry.outline import EMPTY_OUTLINE, FloatArray, Outline, outline
from engine.geometry.sight import BASE_QUAD_SEGS, Obstacle, base_shape
from engine.geometry.table import Table

LIMIT_TOL_IN = 1e-6
"""A leg may exceed its limit by this many inches (rounding)."""

_NUDGE_IN = 1e-7
"""Rays are judged inside or outside difficult ground a hair (inches) from where they start."""

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


class GeometryError(EngineError):
    """A geometry function was called with input it cannot work with."""


def swept_base(start: Point, end: Point, r: float) -> BaseGeometry:
    """The area a round base of radius ``r`` inches covers sliding from ``start`` to ``end``.

    A capsule (``LineString.buffer(r)``), or the base's disc when ``start == end``.
    """
    if start == end:
        return base_shape(start, r)
    return shapely.LineString([start, end]).buffer(r, quad_segs=BASE_QUAD_SEGS)


def _ordered_names(hits: Sequence[tuple[float, str]]) -> tuple[str, ...]:
    names: list[str] = []
    for _, name in sorted(hits, key=lambda hit: hit[0]):
        if name not in names:
            names.append(name)
    return tuple(names)


def leg_blockers(
    start: Point, end: Point, r: float, obstacles: Sequence[Obstacle]
) -> tuple[str, ...]:
    """Names of the obstacles a base of radius ``r`` inches runs into on the leg, nearest first.

    The swept base must overlap an obstacle's interior by more than 1e-6 in to count (touching
    is fine); a base that starts overlapping an obstacle may move away from it (``collide``).
    """
    return _ordered_names(ObstacleSet(obstacles).leg_blockers(start, end, r))


def base_overlaps(c: Point, r: float, obstacles: Sequence[Obstacle]) -> tuple[str, ...]:
    """Names of the obstacles that a base of radius ``r`` inches standing at ``c`` overlaps.

    Overlap means by more than 1e-6 in; for checking a placement or an observed position.
    """
    point = shapely.Point(c)
    names: list[str] = []
    for ob in obstacles:
        circle = ob.circle
        if circle is None:
            overlap = float(shapely.distance(ob.shape, point)) < r - EPS_IN
        else:
            overlap = centre_distance_in(c, circle[0]) < r + circle[1] - EPS_IN
        if overlap and ob.name not in names:
            names.append(ob.name)
    return tuple(names)


def merged(areas: Sequence[BaseGeometry]) -> BaseGeometry:
    """The union of ``areas``, prepared (a terrain's is made once, in its
    :class:`DifficultGround`)."""
    union = areas[0] if len(areas) == 1 else shapely.union_all(list(areas))
    if not union.is_empty:
        shapely.prepare(union)
    return union


class DifficultGround:
    """The union of the difficult-terrain areas, prepared for cost queries (inches). A
    terrain's is made once and shared by its games (:class:`engine.boards.open.OpenTerrain`);
    it never changes once made."""

    def __init__(self, areas: Sequence[BaseGeometry]) -> None:
        """Merge ``areas``; overlapping areas still cost double, not more."""
        self.union: BaseGeometry | None = None
        self.bounds = (math.inf, math.inf, -math.inf, -math.inf)
        self.edges: Outline = EMPTY_OUTLINE
        """The difficult ground's boundary as segments (for ``reach_in``)."""
        if areas:
            union = merged(areas)
            if not union.is_empty:
                self.union = union
                minx, miny, maxx, maxy = union.bounds
                self.bounds = (float(minx), float(miny), float(maxx), float(maxy))
                self.edges = outline(union)

    def _touches_box(self, minx: float, miny: float, maxx: float, maxy: float) -> bool:
        bminx, bminy, bmaxx, bmaxy = self.bounds
        return not (maxx < bminx or minx > bmaxx or maxy < bminy or miny > bmaxy)

    def inside_length_in(self, a: Point, b: Point) -> float:
        """Length in inches of the segment ``a``-``b`` that lies inside difficult ground."""
        if self.union is None or a == b:
            return 0.0
        if not self._touches_box(
            min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])
        ):
            return 0.0
        line = shapely.LineString([a, b])
        if not shapely.intersects(self.union, line):
            return 0.0
        return float(shapely.intersection(line, self.union).length)

    def leg_cost_in(self, a: Point, b: Point) -> float:
        """Allowance in inches used by the leg ``a``-``b``: its length plus the part inside."""
        return centre_distance_in(a, b) + self.inside_length_in(a, b)

    def reach_in(
        self, px: FloatArray, py: FloatArray, ux: FloatArray, uy: FloatArray, limit_in: float
    ) -> FloatArray:
        """How far (inches) along each ray an allowance of ``limit_in`` inches carries a base.

        Vectorised: each ray's crossings of the difficult ground's boundary split it into
        stretches outside (1 in per inch) and inside (2 in per inch).
        """
        reach = np.full(len(px), max(0.0, float(limit_in)))
        if self.union is None or limit_in <= 0.0 or len(px) == 0:
            return reach
        ex, ey = px + ux * limit_in, py + uy * limit_in
        bminx, bminy, bmaxx, bmaxy = self.bounds
        near = ~(
            (np.maximum(px, ex) < bminx)
            | (np.minimum(px, ex) > bmaxx)
            | (np.maximum(py, ey) < bminy)
            | (np.minimum(py, ey) > bmaxy)
        )
        idx = np.nonzero(near)[0]
        edges = self.edges
        if len(idx) == 0 or len(edges.ring) == 0:
            return reach
        rx, ry, vx, vy = px[idx][:, None], py[idx][:, None], ux[idx][:, None], uy[idx][:, None]
        ax, ay = edges.a[:, 0][None, :], edges.a[:, 1][None, :]
        dx, dy = edges.b[:, 0][None, :] - ax, edges.b[:, 1][None, :] - ay
        with np.errstate(all="ignore"):
            denom = vx * dy - vy * dx
            wx, wy = ax - rx, ay - ry
            t = (wx * dy - wy * dx) / denom
            # A segment is crossed when its ends lie on opposite sides of the ray (an end on
            # the ray counts as the right side: a ray through a corner crosses once, a ray
            # that only touches a corner not at all).
            side_a = vx * wy - vy * wx > 0.0
            side_b = vx * (wy + dy) - vy * (wx + dx) > 0.0
            ok = edges.ring[None, :] & (side_a != side_b) & (t > _NUDGE_IN) & (t < limit_in)
            # Whether each ray starts inside: crossing number along +x from a point a hair
            # along the ray (a ray from a corner or an edge takes the side it heads into).
            qx, qy = rx + vx * _NUDGE_IN, ry + vy * _NUDGE_IN
            by_ = edges.b[:, 1][None, :]
            bx_ = edges.b[:, 0][None, :]
            cross = ((ay > qy) != (by_ > qy)) & (qx < ax + (qy - ay) * (bx_ - ax) / (by_ - ay))
        inside0 = ((cross & edges.ring[None, :]).sum(axis=1) % 2) == 1
        ts = np.sort(np.where(ok, t, np.inf), axis=1)
        k = int(np.isfinite(ts).sum(axis=1).max())
        bounds = np.concatenate(
            [
                np.zeros((len(idx), 1)),
                np.minimum(ts[:, :k], limit_in),
                np.full((len(idx), 1), limit_in),
            ],
            axis=1,
        )
        lengths = np.diff(bounds, axis=1)
        inside = inside0[:, None] ^ (np.arange(k + 1)[None, :] % 2 == 1)
        rate = np.where(inside, 2.0, 1.0)
        cost_end = np.cumsum(rate * lengths, axis=1)
        first = np.argmax(cost_end >= limit_in - 1e-12, axis=1)
        rows = np.arange(len(idx))
        cost_before = np.where(first > 0, cost_end[rows, np.maximum(first - 1, 0)], 0.0)
        reach[idx] = bounds[rows, first] + (limit_in - cost_before) / rate[rows, first]
        return np.asarray(np.minimum(reach, limit_in), dtype=np.float64)


def _reach_with_spans(spans: Sequence[tuple[float, float]], limit_in: float) -> float:
    """Distance reached with ``limit_in`` of allowance when the spans (t0, t1) cost double."""
    pos, used = 0.0, 0.0
    for s0, s1 in spans:
        if used + (s0 - pos) >= limit_in:
            return pos + (limit_in - used)
        used += max(0.0, s0 - pos)
        pos = max(pos, s0)
        if used + 2.0 * (s1 - pos) >= limit_in:
            return pos + (limit_in - used) / 2.0
        used += 2.0 * max(0.0, s1 - pos)
        pos = max(pos, s1)
    return pos + (limit_in - used)


def leg_cost_in(start: Point, end: Point, difficult: Sequence[BaseGeometry] = ()) -> float:
    """Allowance in inches a straight leg uses: its length plus its length inside difficult
    ground once more (2 in per inch inside; overlapping difficult areas count once)."""
    return DifficultGround(difficult).leg_cost_in(start, end)


def path_cost_in(points: Sequence[Point], difficult: Sequence[BaseGeometry] = ()) -> float:
    """Total allowance in inches used by the polyline ``points`` (see ``leg_cost_in``)."""
    ground = DifficultGround(difficult)
    return sum(ground.leg_cost_in(a, b) for a, b in pairwise(points))


@dataclass(frozen=True)
class MoveArea:
    """Everything a moving base must respect (prepared for the tests once, when it is made)."""

    table: Table
    """The table; the base must stay wholly on it."""
    radius_in: float
    """The moving base's radius, inches."""
    obstacles: tuple[Obstacle, ...]
    """Impassable terrain and other bases (the caller chose which ones)."""
    difficult: tuple[BaseGeometry, ...] = ()
    """Difficult ground: 2 in of allowance per inch inside."""
    prepared: InitVar[DifficultGround | None] = None
    """``difficult`` already prepared (a terrain's, shared); None: prepared here."""
    blockers: ObstacleSet = field(init=False, compare=False, repr=False)
    """The obstacles prepared for collision tests."""
    ground: DifficultGround = field(init=False, compare=False, repr=False)
    """The difficult ground prepared for cost queries."""
    kinds: dict[str, str] = field(init=False, compare=False, repr=False)
    """Obstacle name -> kind ("terrain" or "base")."""

    def __post_init__(self, prepared: DifficultGround | None) -> None:
        kinds: dict[str, str] = {}
        for ob in self.obstacles:
            kinds.setdefault(ob.name, ob.kind)
        # Derived once at construction (the frozen-dataclass idiom): never changed afterwards.
        object.__setattr__(self, "blockers", ObstacleSet(self.obstacles))
        ground = DifficultGround(self.difficult) if prepared is None else prepared
        object.__setattr__(self, "ground", ground)
        object.__setattr__(self, "kinds", kinds)


@dataclass(frozen=True)
class PathCheck:
    """Whether a proposed path is legal, and why not."""

    legal: bool
    """True when every leg is within its limit, clear, and the base stays on the table."""
    reason: str
    """Empty when legal; else one plain sentence for the player."""
    points: tuple[Point, ...]
    """Start, bends..., end, inches."""


def _ordinal(i: int) -> str:
    return _ORDINALS[i] if i < len(_ORDINALS) else f"number {i + 1}"


def _fmt_in(x: float, other: float | None = None) -> str:
    """Inches for a sentence: 2 decimals, more when needed to tell ``x`` from ``other``."""
    for decimals in range(2, 7):
        text = f"{round(x, decimals):g}"
        if other is None or text != f"{round(other, decimals):g}":
            return text
    return f"{x:g}"


def check_path(
    points: Sequence[Point], leg_limits_in: Sequence[float], area: MoveArea
) -> PathCheck:
    """Check a path of ``len(points) - 1`` straight legs for a base moving in ``area``.

    Leg i may cost (``leg_cost_in``) at most ``leg_limits_in[i]`` (+1e-6) inches; a path may
    use fewer legs than there are limits; zero-length legs are allowed. Every leg must be clear
    of obstacles and the base must be wholly on the table at every point after the start (the
    start itself is where the base already is).
    """
    pts = tuple((float(x), float(y)) for x, y in points)
    if not pts:
        raise GeometryError("check_path needs at least the start point; got no points")
    legs = len(pts) - 1
    if legs > len(leg_limits_in):
        allowed = len(leg_limits_in)
        return PathCheck(False, f"the path has {legs} legs, more than the {allowed} allowed", pts)
    r = area.radius_in
    for i in range(legs):
        a, b = pts[i], pts[i + 1]
        limit = leg_limits_in[i]
        length = centre_distance_in(a, b)
        cost = length + area.ground.inside_length_in(a, b)
        if cost > limit + LIMIT_TOL_IN:
            if cost > length + 1e-9:
                what = f"costs {_fmt_in(cost, limit)} in (difficult ground counts double)"
            else:
                what = f"is {_fmt_in(length, limit)} in"
            reason = f"the {_ordinal(i)} leg {what}, more than the {_fmt_in(limit)} in allowed"
            return PathCheck(False, reason, pts)
        hits = area.blockers.leg_blockers(a, b, r)
        if hits:
            name = _ordered_names(hits)[0]
            if area.kinds.get(name) == "base":
                return PathCheck(False, f"the path runs through {name}", pts)
            return PathCheck(False, f"the path crosses {name}", pts)
        if not area.table.contains_base(b, r):
            return PathCheck(False, "the base would leave the table", pts)
    return PathCheck(True, "", pts)


def check_path_any(
    points: Sequence[Point], leg_patterns: Sequence[Sequence[float]], area: MoveArea
) -> PathCheck:
    """``check_path`` under each pattern of leg limits; the first legal result, else the first
    pattern's refusal (patterns with fewer legs than the path are skipped when others fit)."""
    if not leg_patterns:
        raise GeometryError("check_path_any needs at least one pattern of leg limits")
    checks = [check_path(points, pattern, area) for pattern in leg_patterns]
    for check in checks:
        if check.legal:
            return check
    fitting = [c for c, p in zip(checks, leg_patterns, strict=True) if len(points) - 1 <= len(p)]
    return (fitting or checks)[0]


def straight_split(start: Point, goal: Point, limits: Sequence[float]) -> tuple[Point, ...]:
    """The straight line ``start``-``goal`` cut into ``len(limits)`` legs in proportion to the
    limits (inches); a single point when ``start == goal``."""
    if start == goal:
        return (start,)
    total = sum(limits)
    if len(limits) <= 1 or total <= 0.0:
        return (start, goal)
    pts = [start]
    acc = 0.0
    for limit in limits[:-1]:
        acc += limit
        f = acc / total
        pts.append((start[0] + f * (goal[0] - start[0]), start[1] + f * (goal[1] - start[1])))
    pts.append(goal)
    return tuple(pts)

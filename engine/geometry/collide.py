"""Fast collision tests for a moving round base against a fixed set of obstacles, in inches.

``ObstacleSet`` prepares a set of obstacles once: round bases become circles, every other
shape becomes a list of boundary segments (numpy arrays). It answers two questions:

* ``leg_blockers`` — exactly (circle maths and shapely distances), which obstacles a straight
  leg of a base of radius r runs into;
* ``free_lengths`` — for many rays at once (numpy), how far a base can slide along each ray
  before it runs into something. This feeds the path search; every path it proposes is then
  checked with ``leg_blockers``.

The blocking rule ("escape rule"): a leg is blocked by an obstacle when, somewhere along the
leg, the base comes closer to it than ``min(start distance, r)`` minus 1e-6 in. Normally the
start is clear and this is "the swept base overlaps the obstacle's interior"; a base that
already overlaps something (a camera-measured position, a hand-placed base) may still move away
from it, but not further into it. A base whose centre stands inside an impassable polygon may
leave it in any direction.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry.base import BaseGeometry

from engine.geometry.angles import EPS_IN, Point, segment_point_distance_in
from engine.geometry.sight import Obstacle

FloatArray = npt.NDArray[np.float64]

_RAY_SLACK_IN = EPS_IN / 2
"""The ray caster stops a base this much short of the exact test's limit, so that rays sliding
along or grazing an obstacle (which the exact test allows) are not cut short by rounding."""


@dataclass(frozen=True)
class _RayData:
    """Obstacles as numpy arrays: circles (cx, cy, cr) and boundary segments a-b per shape."""

    cx: FloatArray
    cy: FloatArray
    cr: FloatArray
    ax: FloatArray
    ay: FloatArray
    bx: FloatArray
    by: FloatArray
    ring: npt.NDArray[np.bool_]
    """Per segment: part of a polygon ring (counts for inside tests)."""
    starts: npt.NDArray[np.intp]
    """Index of each shape's first segment (segments are grouped by shape)."""
    owner: npt.NDArray[np.intp]
    """Per segment: index of its shape group."""
    areal: npt.NDArray[np.bool_]
    """Per shape group: has polygon rings."""


@dataclass(frozen=True)
class _Outline:
    """A shape's boundary as segments a[i]-b[i] (inches), plus its isolated points."""

    a: FloatArray
    b: FloatArray
    ring: npt.NDArray[np.bool_]
    """Per segment: part of a polygon ring."""
    points: tuple[tuple[float, float], ...]


@lru_cache(maxsize=4096)
def _outline(shape: BaseGeometry) -> _Outline:
    """The boundary segments of a shape (cached: terrain stays put from one move to the next)."""
    seg_a: list[FloatArray] = []
    seg_b: list[FloatArray] = []
    ring: list[npt.NDArray[np.bool_]] = []
    points: list[tuple[float, float]] = []
    for part in shapely.get_parts(shape):
        kind = part.geom_type
        if kind == "Point":
            x, y = shapely.get_coordinates(part)[0]
            points.append((float(x), float(y)))
            continue
        if kind == "Polygon":
            lines = [part.exterior, *part.interiors]
            is_ring = True
        else:
            lines = [part] if kind in ("LineString", "LinearRing") else []
            is_ring = False
        for line in lines:
            xy = shapely.get_coordinates(line)
            a, b = xy[:-1], xy[1:]
            keep = np.hypot(b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]) > 0.0
            seg_a.append(a[keep])
            seg_b.append(b[keep])
            ring.append(np.full(int(keep.sum()), is_ring))
    if not seg_a:
        empty = np.zeros((0, 2), dtype=np.float64)
        return _Outline(empty, empty, np.zeros(0, dtype=np.bool_), tuple(points))
    return _Outline(
        np.concatenate(seg_a), np.concatenate(seg_b), np.concatenate(ring), tuple(points)
    )


class ObstacleSet:
    """A fixed set of obstacles prepared for fast tests against a moving round base."""

    def __init__(self, obstacles: Sequence[Obstacle]) -> None:
        """Split ``obstacles`` into round bases (circles) and other shapes."""
        self.obstacles = tuple(obstacles)
        self.circles: list[tuple[str, float, float, float]] = []
        self.shapes: list[Obstacle] = []
        for ob in self.obstacles:
            circle = ob.circle
            if circle is None:
                shapely.prepare(ob.shape)
                self.shapes.append(ob)
            else:
                (cx, cy), cr = circle
                self.circles.append((ob.name, cx, cy, cr))
        self.shape_bounds = [ob.bounds for ob in self.shapes]

    @cached_property
    def rays(self) -> _RayData:
        """The obstacles as numpy arrays for ``free_lengths`` (built on first use)."""
        cxs = [c[1] for c in self.circles]
        cys = [c[2] for c in self.circles]
        crs = [c[3] for c in self.circles]
        outlines = [_outline(ob.shape) for ob in self.shapes]
        for outline in outlines:
            for x, y in outline.points:
                cxs.append(x)
                cys.append(y)
                crs.append(0.0)
        outlines = [o for o in outlines if len(o.ring)]
        counts = [len(o.ring) for o in outlines]
        if outlines:
            a_all = np.concatenate([o.a for o in outlines])
            b_all = np.concatenate([o.b for o in outlines])
            ring_all = np.concatenate([o.ring for o in outlines])
        else:
            a_all = b_all = np.zeros((0, 2), dtype=np.float64)
            ring_all = np.zeros(0, dtype=np.bool_)
        starts = np.cumsum([0, *counts[:-1]]).astype(np.intp) if counts else np.zeros(0, np.intp)
        owner = np.repeat(np.arange(len(counts), dtype=np.intp), counts)
        return _RayData(
            cx=np.array(cxs, dtype=np.float64),
            cy=np.array(cys, dtype=np.float64),
            cr=np.array(crs, dtype=np.float64),
            ax=a_all[:, 0],
            ay=a_all[:, 1],
            bx=b_all[:, 0],
            by=b_all[:, 1],
            ring=ring_all,
            starts=starts,
            owner=owner,
            areal=np.array([bool(o.ring.any()) for o in outlines], dtype=np.bool_),
        )

    # ----------------------------------------------------------------- exact tests

    def leg_blockers(self, start: Point, end: Point, r: float) -> list[tuple[float, str]]:
        """(gap at the start, name) of every obstacle the leg ``start``-``end`` runs into.

        Exact test for a base of radius ``r`` inches under the escape rule (module docstring).
        """
        hits: list[tuple[float, str]] = []
        for name, cx, cy, cr in self.circles:
            reach = r + cr
            if (
                max(start[0], end[0]) < cx - reach
                or min(start[0], end[0]) > cx + reach
                or max(start[1], end[1]) < cy - reach
                or min(start[1], end[1]) > cy + reach
            ):
                continue
            d0 = math.hypot(start[0] - cx, start[1] - cy)
            if segment_point_distance_in(start, end, (cx, cy)) < min(d0, reach) - EPS_IN:
                hits.append((d0 - reach, name))
        line: BaseGeometry | None = None
        start_pt: BaseGeometry | None = None
        for ob, (minx, miny, maxx, maxy) in zip(self.shapes, self.shape_bounds, strict=True):
            if (
                max(start[0], end[0]) < minx - r
                or min(start[0], end[0]) > maxx + r
                or max(start[1], end[1]) < miny - r
                or min(start[1], end[1]) > maxy + r
            ):
                continue
            if line is None:
                line = shapely.Point(start) if start == end else shapely.LineString([start, end])
                start_pt = shapely.Point(start)
            d_leg = float(shapely.distance(ob.shape, line))
            if d_leg >= r - EPS_IN:
                continue
            d0 = float(shapely.distance(ob.shape, start_pt))
            if d_leg < min(d0, r) - EPS_IN:
                hits.append((d0 - r, ob.name))
        return hits

    # ----------------------------------------------------------------- ray casting

    def free_lengths(
        self, px: FloatArray, py: FloatArray, ux: FloatArray, uy: FloatArray, r: float
    ) -> FloatArray:
        """How far (inches) a base of radius ``r`` can slide along each ray before it is blocked.

        Ray i starts at (px[i], py[i]) with unit direction (ux[i], uy[i]); ``inf`` when nothing
        is ever in the way. The length ends where the base would first touch an obstacle, or
        for a base that already overlaps one, where it would start to go further into it;
        a leg to at most this length passes ``leg_blockers`` (up to rounding: callers verify
        what they keep).
        """
        rays = self.rays
        best = np.full(len(px), np.inf)
        if len(rays.cx):
            wx = rays.cx[None, :] - px[:, None]
            wy = rays.cy[None, :] - py[:, None]
            d0 = np.hypot(wx, wy)
            rho = np.minimum(d0, r + rays.cr[None, :]) - _RAY_SLACK_IN
            best = np.minimum(best, _disc_entry(wx, wy, d0, rho, ux, uy).min(axis=1))
        if len(rays.ax):
            best = np.minimum(best, _edge_entry(rays, px, py, ux, uy, r))
        return best


def _edge_entry(
    rays: _RayData, px: FloatArray, py: FloatArray, ux: FloatArray, uy: FloatArray, r: float
) -> FloatArray:
    """Ray parameter of the first contact with any shape's boundary segments (see above)."""
    ax, ay, bx, by = rays.ax[None, :], rays.ay[None, :], rays.bx[None, :], rays.by[None, :]
    pxc, pyc = px[:, None], py[:, None]
    ex, ey = bx - ax, by - ay
    seg_len = np.hypot(ex, ey)
    ex, ey = ex / seg_len, ey / seg_len
    # Distance from each ray origin to each segment, and inside tests for polygons.
    wax, way = pxc - ax, pyc - ay
    along = np.clip(wax * ex + way * ey, 0.0, seg_len)
    dist = np.hypot(wax - along * ex, way - along * ey)
    d_shape = np.minimum.reduceat(dist, rays.starts, axis=1)
    with np.errstate(all="ignore"):
        crosses = ((ay > pyc) != (by > pyc)) & (pxc < ax + (pyc - ay) * (bx - ax) / (by - ay))
    crossings = np.add.reduceat((crosses & rays.ring[None, :]).astype(np.intp), rays.starts, axis=1)
    inside = (crossings % 2 == 1) & rays.areal[None, :]
    rho_shape = np.where(inside, -1.0, np.minimum(d_shape, r)) - _RAY_SLACK_IN
    rho = rho_shape[:, rays.owner]
    uxc, uyc = ux[:, None], uy[:, None]
    t = np.minimum(
        _disc_entry(-wax, -way, np.hypot(wax, way), rho, ux, uy),
        _disc_entry(bx - pxc, by - pyc, np.hypot(bx - pxc, by - pyc), rho, ux, uy),
    )
    # The two long sides of each capsule: lines at signed offset ±rho from the segment,
    # crossed toward the segment.
    nx, ny = -ey, ex
    h = wax * nx + way * ny
    un = uxc * nx + uyc * ny
    with np.errstate(all="ignore"):
        for side in (1.0, -1.0):
            ts = (side * rho - h) / un
            hx, hy = wax + ts * uxc, way + ts * uyc
            s = hx * ex + hy * ey
            ok = (rho > 0.0) & (side * un < 0.0) & (ts >= 0.0) & (s >= 0.0) & (s <= seg_len)
            t = np.minimum(t, np.where(ok, ts, np.inf))
    return np.asarray(t.min(axis=1), dtype=np.float64)


def _disc_entry(
    wx: FloatArray, wy: FloatArray, d0: FloatArray, rho: FloatArray, ux: FloatArray, uy: FloatArray
) -> FloatArray:
    """Ray parameter where rays (origin at distance ``d0`` from each centre, offset w = centre -
    origin) first come closer than ``rho`` to each centre; inf if never or ``rho`` <= 0."""
    b = wx * ux[:, None] + wy * uy[:, None]
    disc = b * b - (d0 * d0 - rho * rho)
    ok = (rho > 0.0) & (b > 0.0) & (disc > 0.0)
    with np.errstate(all="ignore"):
        t = np.where(ok, b - np.sqrt(np.where(ok, disc, 0.0)), np.inf)
    return np.asarray(np.maximum(t, 0.0), dtype=np.float64)

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
from functools import cached_property

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry.base import BaseGeometry

from engine.geometry.angles import EPS_IN, Point, segment_point_distance_in
from engine.geometry.outline import FloatArray, outline
from engine.geometry.sight import Obstacle

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
    ex: FloatArray
    ey: FloatArray
    """Per segment: unit vector from a to b."""
    seg_len: FloatArray
    """Per segment: length, inches."""
    vx: FloatArray
    vy: FloatArray
    vowner: npt.NDArray[np.intp]
    """Segment end points (each once per segment start, plus the far end of open lines) and
    the shape group each belongs to."""


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
        outlines = [outline(ob.shape) if ob.edges is None else ob.edges for ob in self.shapes]
        for shape_outline in outlines:
            for x, y in shape_outline.points:
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
        seg_len = np.hypot(b_all[:, 0] - a_all[:, 0], b_all[:, 1] - a_all[:, 1])
        with np.errstate(all="ignore"):
            ex = (b_all[:, 0] - a_all[:, 0]) / seg_len
            ey = (b_all[:, 1] - a_all[:, 1]) / seg_len
        open_end = ~ring_all
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
            ex=ex,
            ey=ey,
            seg_len=seg_len,
            vx=np.concatenate([a_all[:, 0], b_all[open_end, 0]]),
            vy=np.concatenate([a_all[:, 1], b_all[open_end, 1]]),
            vowner=np.concatenate([owner, owner[open_end]]),
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
        if len(px) == 0:
            return np.full(0, np.inf)
        origins, inv = np.unique(np.stack([px, py], axis=1), axis=0, return_inverse=True)
        return self.free_lengths_from(origins[:, 0], origins[:, 1], inv.reshape(-1), ux, uy, r)

    def free_lengths_from(
        self,
        ox: FloatArray,
        oy: FloatArray,
        inv: npt.NDArray[np.intp],
        ux: FloatArray,
        uy: FloatArray,
        r: float,
    ) -> FloatArray:
        """``free_lengths`` for rays that share origins: ray i starts at origin ``inv[i]`` of
        (``ox``, ``oy``). Per-origin work (distances, inside tests) is done once per origin."""
        rays = self.rays
        best = np.full(len(ux), np.inf)
        if len(ux) == 0:
            return best
        if len(rays.cx):
            wx = rays.cx[None, :] - ox[:, None]
            wy = rays.cy[None, :] - oy[:, None]
            d0 = np.hypot(wx, wy)
            rho = np.minimum(d0, r + rays.cr[None, :]) - _RAY_SLACK_IN
            hit = _disc_entry(wx[inv], wy[inv], (d0 * d0 - rho * rho)[inv], rho[inv], ux, uy)
            best = np.minimum(best, hit.min(axis=1))
        if len(rays.ax):
            best = np.minimum(best, _edge_entry(rays, ox, oy, inv, ux, uy, r))
        return best


def _edge_entry(
    rays: _RayData,
    ox: FloatArray,
    oy: FloatArray,
    inv: npt.NDArray[np.intp],
    ux: FloatArray,
    uy: FloatArray,
    r: float,
) -> FloatArray:
    """Ray parameter of the first contact with any shape's boundary segments.

    ``ox``/``oy`` are the distinct ray origins and ``inv`` maps each ray to its origin. Each
    segment, grown by the clearance rho, is a capsule: two discs at its ends and two long
    sides; a ray from outside first enters through a disc or through the side facing it.
    """
    ax, ay, bx, by = rays.ax[None, :], rays.ay[None, :], rays.bx[None, :], rays.by[None, :]
    ex, ey, seg_len = rays.ex[None, :], rays.ey[None, :], rays.seg_len[None, :]
    pxc, pyc = ox[:, None], oy[:, None]
    # Per origin: distance to each shape and whether it stands inside a polygon.
    wax, way = pxc - ax, pyc - ay
    s0 = wax * ex + way * ey
    along = np.clip(s0, 0.0, seg_len)
    dist = np.hypot(wax - along * ex, way - along * ey)
    d_shape = np.minimum.reduceat(dist, rays.starts, axis=1)
    with np.errstate(all="ignore"):
        crosses = ((ay > pyc) != (by > pyc)) & (pxc < ax + (pyc - ay) * (bx - ax) / (by - ay))
    crossings = np.add.reduceat((crosses & rays.ring[None, :]).astype(np.intp), rays.starts, axis=1)
    inside = (crossings % 2 == 1) & rays.areal[None, :]
    rho_shape = np.where(inside, -1.0, np.minimum(d_shape, r)) - _RAY_SLACK_IN
    # Discs at the segment ends.
    rho_v = rho_shape[:, rays.vowner]
    wvx = rays.vx[None, :] - pxc
    wvy = rays.vy[None, :] - pyc
    c_v = wvx * wvx + wvy * wvy - rho_v * rho_v
    t = _disc_entry(wvx[inv], wvy[inv], c_v[inv], rho_v[inv], ux, uy).min(axis=1)
    # The long side facing the origin, crossed toward the segment.
    rho = rho_shape[:, rays.owner]
    h = wax * -ey + way * ex
    side = np.where(h >= 0.0, 1.0, -1.0)
    num = (side * rho - h)[inv]
    uxc, uyc = ux[:, None], uy[:, None]
    un = uxc * -ey + uyc * ex
    ue = uxc * ex + uyc * ey
    with np.errstate(all="ignore"):
        ts = num / un
        s = s0[inv] + ts * ue
        ok = (rho > 0.0)[inv] & (side[inv] * un < 0.0) & (ts >= 0.0) & (s >= 0.0) & (s <= seg_len)
        t_side = np.where(ok, ts, np.inf).min(axis=1)
    return np.asarray(np.minimum(t, t_side), dtype=np.float64)


def _disc_entry(
    wx: FloatArray, wy: FloatArray, c: FloatArray, rho: FloatArray, ux: FloatArray, uy: FloatArray
) -> FloatArray:
    """Ray parameter where rays (offset w = centre - origin, c = |w|^2 - rho^2) first come
    closer than ``rho`` to each centre; inf if never or ``rho`` <= 0."""
    b = wx * ux[:, None] + wy * uy[:, None]
    disc = b * b - c
    ok = (rho > 0.0) & (b > 0.0) & (disc > 0.0)
    with np.errstate(all="ignore"):
        t = np.where(ok, b - np.sqrt(np.where(ok, disc, 0.0)), np.inf)
    return np.asarray(np.maximum(t, 0.0), dtype=np.float64)

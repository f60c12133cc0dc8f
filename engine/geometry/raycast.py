"""Fast exact geometry in plain Python, the open-table kit's fast path (``engine.boards.open``;
an AI may move every model three times an activation, and a game must take milliseconds): how
far a round base slides along a ray before it touches another base, an impassable polygon or
the table edge, how far a point is from a polygon, and whether a sight line crosses a
polygon's interior (G-03). Inches throughout.

A base already touching an obstacle may move away from it or along it, never into it (the
escape rule of ``engine.geometry.collide``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.geometry.angles import Point

TOUCH_IN = 1e-7
"""Gaps this small count as touching."""
DEEP_IN = 1e-9
"""A sight line must pass this far inside a polygon to cross it (G-03: one along an edge is
clear)."""
Edge = tuple[float, float, float, float, float, float, float]
"""(ax, ay, bx, by, ux, uy, length): a polygon edge with its unit direction."""


@dataclass(frozen=True)
class Shape:
    """A polygon prepared for the tests: its edges and bounding box."""

    edges: tuple[Edge, ...]
    bounds: tuple[float, float, float, float]
    points: tuple[Point, ...]


def shape_of(points: Sequence[Point]) -> Shape:
    """Prepare a polygon (inches)."""
    pts = tuple((float(x), float(y)) for x, y in points)
    edges = []
    for (ax, ay), (bx, by) in zip(pts, pts[1:] + pts[:1], strict=True):
        length = math.hypot(bx - ax, by - ay)
        if length > 0:
            edges.append((ax, ay, bx, by, (bx - ax) / length, (by - ay) / length, length))
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return Shape(tuple(edges), (min(xs), min(ys), max(xs), max(ys)), pts)


def inside(poly: Shape, p: Point) -> bool:
    """Whether the point is inside the polygon (even-odd rule)."""
    x, y = p
    hit = False
    pts = poly.points
    j = len(pts) - 1
    for i in range(len(pts)):
        xi, yi = pts[i]
        xj, yj = pts[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            hit = not hit
        j = i
    return hit


def point_polygon_in(poly: Shape, p: Point) -> float:
    """Distance from the point to the polygon (0 inside)."""
    return 0.0 if inside(poly, p) else _boundary_in(poly, p)


def depth_in(poly: Shape, p: Point) -> float:
    """How far inside the polygon the point is, inches (0 on or outside its boundary)."""
    return _boundary_in(poly, p) if inside(poly, p) else 0.0


def _boundary_in(poly: Shape, p: Point) -> float:
    """Distance from the point to the polygon's nearest edge, inches."""
    best = math.inf
    x, y = p
    for ax, ay, _bx, _by, ux, uy, length in poly.edges:
        t = min(max((x - ax) * ux + (y - ay) * uy, 0.0), length)
        best = min(best, math.hypot(x - ax - ux * t, y - ay - uy * t))
    return best


def _ray_circle(
    px: float, py: float, ux: float, uy: float, cx: float, cy: float, reach: float
) -> float:
    """Distance along the ray (unit u) until a point comes within ``reach`` of c; inf: never;
    0: it already touches and moves inward."""
    wx, wy = px - cx, py - cy
    b = wx * ux + wy * uy
    c = wx * wx + wy * wy - reach * reach
    if c <= TOUCH_IN * reach * 2:
        return 0.0 if b < -TOUCH_IN else math.inf
    if b >= 0:
        return math.inf
    disc = b * b - c
    if disc < 0:
        return math.inf
    return -b - math.sqrt(disc)


def _ray_edge(px: float, py: float, ux: float, uy: float, edge: Edge, r: float) -> float:
    """Distance along the ray until a base of radius r touches the edge segment."""
    ax, ay, bx, by, ex, ey, length = edge
    best = min(_ray_circle(px, py, ux, uy, ax, ay, r), _ray_circle(px, py, ux, uy, bx, by, r))
    nx, ny = -ey, ex
    d0 = (px - ax) * nx + (py - ay) * ny
    dn = ux * nx + uy * ny
    if abs(dn) < 1e-12:
        return best
    along0 = (px - ax) * ex + (py - ay) * ey
    if abs(d0) <= r + TOUCH_IN and 0.0 <= along0 <= length:
        return 0.0 if d0 * dn < 0 else best  # touching the side: only away from it
    target = r if d0 > 0 else -r
    t = (target - d0) / dn
    if t < 0:
        return best
    along = along0 + t * (ux * ex + uy * ey)
    if 0.0 <= along <= length:
        best = min(best, t)
    return best


@dataclass(frozen=True)
class Field:
    """What a moving base of radius ``r`` must not touch: other bases (centre, radius) and
    impassable polygons, inside a table ``width`` x ``depth``."""

    r: float
    circles: tuple[tuple[float, float, float], ...]
    shapes: tuple[Shape, ...]
    width: float
    depth: float

    def free_in(self, start: Point, ux: float, uy: float, run: float) -> float:
        """How far (at most ``run``) the base slides from ``start`` along the unit direction."""
        px, py = start
        r = self.r
        best = run
        for cx, cy, cr in self.circles:
            reach = r + cr
            # quick reject: the obstacle is behind or beyond the run
            if (
                min(px, px + ux * best) - reach > cx
                or max(px, px + ux * best) + reach < cx
                or min(py, py + uy * best) - reach > cy
                or max(py, py + uy * best) + reach < cy
            ):
                continue
            best = min(best, _ray_circle(px, py, ux, uy, cx, cy, reach))
        for poly in self.shapes:
            x0, y0, x1, y1 = poly.bounds
            if (
                min(px, px + ux * best) - r > x1
                or max(px, px + ux * best) + r < x0
                or min(py, py + uy * best) - r > y1
                or max(py, py + uy * best) + r < y0
            ):
                continue
            for edge in poly.edges:
                best = min(best, _ray_edge(px, py, ux, uy, edge, r))
        for pos, u, high in ((px, ux, self.width), (py, uy, self.depth)):
            if u > 1e-12:
                best = min(best, max(0.0, (high - r - pos) / u))
            elif u < -1e-12:
                best = min(best, max(0.0, (pos - r) / -u))
        return max(0.0, best)

    def leg_clear(self, a: Point, b: Point) -> bool:
        """Whether the base can slide straight from a to b."""
        length = math.dist(a, b)
        if length <= 1e-12:
            return True
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        return self.free_in(a, ux, uy, length) >= length - 1e-6

    def blocker(self, a: Point, b: Point, names: Sequence[str]) -> str:
        """The name of the first obstacle on the leg a-b (circles first, then shapes, then
        "the table edge"); empty when the leg is clear. ``names`` follow circles then shapes."""
        length = math.dist(a, b)
        if length <= 1e-12:
            return ""
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        if self.free_in(a, ux, uy, length) >= length - 1e-6:
            return ""
        hits: list[tuple[float, str]] = []
        for i, (cx, cy, cr) in enumerate(self.circles):
            t = _ray_circle(a[0], a[1], ux, uy, cx, cy, self.r + cr)
            if t < length - 1e-6:
                hits.append((t, names[i]))
        for j, poly in enumerate(self.shapes):
            t = min(
                (_ray_edge(a[0], a[1], ux, uy, e, self.r) for e in poly.edges), default=math.inf
            )
            if t < length - 1e-6:
                hits.append((t, names[len(self.circles) + j]))
        return min(hits)[1] if hits else "the table edge"


def segment_crosses(poly: Shape, a: Point, b: Point) -> bool:
    """Whether the sight line a-b crosses the polygon's interior (G-03): some stretch of it
    between its ends and its crossings of the edges lies inside (its middle deeper than
    ``DEEP_IN``), so a line that runs along an edge or touches a corner does not cross."""
    x0, y0, x1, y1 = poly.bounds
    if max(a[0], b[0]) < x0 or min(a[0], b[0]) > x1 or max(a[1], b[1]) < y0 or min(a[1], b[1]) > y1:
        return False
    dx, dy = b[0] - a[0], b[1] - a[1]
    ts = [0.0, 1.0]
    for ax, ay, bx, by, _ux, _uy, _length in poly.edges:
        ex, ey = bx - ax, by - ay
        den = dx * ey - dy * ex
        if abs(den) < 1e-12:
            continue
        t = ((ax - a[0]) * ey - (ay - a[1]) * ex) / den
        s = ((ax - a[0]) * dy - (ay - a[1]) * dx) / den
        if 0.0 <= t <= 1.0 and 0.0 <= s <= 1.0:
            ts.append(t)
    ts.sort()
    for t0, t1 in itertools.pairwise(ts):
        tm = (t0 + t1) / 2
        if t1 - t0 > 1e-9 and depth_in(poly, (a[0] + dx * tm, a[1] + dy * tm)) > DEEP_IN:
            return True
    return False

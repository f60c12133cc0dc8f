"""Deployment zones and figure placement for generated scenarios (RULES §5.m), inches.

Zones are simple polygons (a scenario's ``deployment`` is one ring). Figures are placed on a
lattice of candidate spots inside their zone, clear of impassable terrain and of each other,
each picked by a preference key that says what the scenario asks for (spread along the zone,
around a fortress, in a chain in the open, hidden from the targets); no die is rolled.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import Point, Polygon, box

from engine.geometry import bearing_deg

LATTICE_IN = 0.5
"""Spacing of the candidate spots a figure may be placed on, inches."""

BASE_GAP_IN = 0.5
"""Smallest gap left between two placed bases, inches."""

CLEAR_IN = 0.05
"""Extra clearance kept from impassable terrain beyond the base radius, inches."""

Ring = tuple[tuple[float, float], ...]
Floats = npt.NDArray[np.float64]
Key = Callable[[Floats, Floats, list[tuple[float, float]]], Floats]
"""A preference key: (xs, ys, placed centres) -> a score per candidate, lowest best; inf
forbids a candidate."""


def ring_of(shape: Polygon) -> Ring:
    """A polygon's exterior as a ring of rounded points, counter-clockwise, no closing point."""
    oriented = shapely.geometry.polygon.orient(shape, sign=1.0)
    return tuple((round(float(x), 3), round(float(y), 3)) for x, y in oriented.exterior.coords[:-1])


def band(x0: float, y0: float, x1: float, y1: float) -> Polygon:
    """A rectangle zone, inches."""
    return box(x0, y0, x1, y1)


def notch_zone(width_in: float, depth_in: float, x0: float, x1: float, y1: float) -> Polygon:
    """The table with a notch cut from its front edge: a U-shaped zone (one simple ring).
    The notch spans x0..x1 and runs from the front edge to y1, inches."""
    return Polygon(
        [
            (0, 0),
            (x0, 0),
            (x0, y1),
            (x1, y1),
            (x1, 0),
            (width_in, 0),
            (width_in, depth_in),
            (0, depth_in),
        ]
    )


@dataclass
class Field:
    """The table as placement sees it: its size, the impassable terrain, placed bases."""

    width_in: float
    depth_in: float
    radius_in: float
    impassable: Sequence[Polygon]
    placed: list[tuple[float, float]]

    def candidates(self, zone: Polygon) -> tuple[Floats, Floats]:
        """Lattice spots inside the zone where a base lies wholly on the table, clear of
        impassable terrain and of every placed base."""
        x0, y0, x1, y1 = zone.bounds
        r = self.radius_in
        xs = np.arange(
            math.ceil(max(x0, r) / LATTICE_IN) * LATTICE_IN,
            min(x1, self.width_in - r) + 1e-9,
            LATTICE_IN,
        )
        ys = np.arange(
            math.ceil(max(y0, r) / LATTICE_IN) * LATTICE_IN,
            min(y1, self.depth_in - r) + 1e-9,
            LATTICE_IN,
        )
        if xs.size == 0 or ys.size == 0:
            return np.empty(0), np.empty(0)
        gx, gy = np.meshgrid(xs, ys)
        px, py = gx.ravel(), gy.ravel()
        points = shapely.points(px, py)
        keep = shapely.covers(zone.buffer(1e-9), points)
        if self.impassable:
            blockers = shapely.union_all(list(self.impassable))
            keep &= shapely.distance(blockers, points) >= r + CLEAR_IN
        for cx, cy in self.placed:
            keep &= np.hypot(px - cx, py - cy) >= 2 * r + BASE_GAP_IN
        return px[keep], py[keep]

    def place(self, zone: Polygon, key: Key) -> tuple[float, float] | None:
        """The best free spot of the zone by ``key``, taken (None when there is none)."""
        xs, ys = self.candidates(zone)
        if xs.size == 0:
            return None
        scores = key(xs, ys, self.placed)
        best = int(np.argmin(scores))
        if not math.isfinite(float(scores[best])):
            return None
        spot = (round(float(xs[best]), 3), round(float(ys[best]), 3))
        self.placed.append(spot)
        return spot


def toward(point: tuple[float, float]) -> Key:
    """Prefer the spot nearest ``point``."""

    def key(xs: Floats, ys: Floats, _placed: list[tuple[float, float]]) -> Floats:
        out: Floats = np.hypot(xs - point[0], ys - point[1])
        return out

    return key


def spread_points(zone: Polygon, n: int) -> list[tuple[float, float]]:
    """``n`` points evenly spread along the zone's longer side, through its middle."""
    x0, y0, x1, y1 = zone.bounds
    if x1 - x0 >= y1 - y0:
        ym = (y0 + y1) / 2
        return [(x0 + (x1 - x0) * (i + 0.5) / n, ym) for i in range(n)]
    xm = (x0 + x1) / 2
    return [(xm, y0 + (y1 - y0) * (i + 0.5) / n) for i in range(n)]


def around_points(shape: Polygon, distance_in: float, n: int) -> list[tuple[float, float]]:
    """``n`` points evenly spaced round ``shape`` at ``distance_in`` from it, starting at the
    side nearest the front edge."""
    ring = shape.buffer(distance_in, join_style="mitre").exterior
    length = ring.length
    start = ring.project(Point(shape.centroid.x, shape.bounds[1] - distance_in))
    out = []
    for i in range(n):
        p = ring.interpolate((start + length * i / n) % length)
        out.append((float(p.x), float(p.y)))
    return out


def chain_key(
    zone_centre: tuple[float, float], reach_in: float, radius_in: float, open_ground: Polygon | None
) -> Key:
    """Targets of an ambush: in the open where possible, each within ``reach_in`` (edge to
    edge, one Move Unit) of one already placed, the chain starting at the zone's centre."""

    def key(xs: Floats, ys: Floats, placed: list[tuple[float, float]]) -> Floats:
        covered = np.zeros(xs.shape, dtype=bool)
        if open_ground is not None:
            covered = ~shapely.covers(open_ground, shapely.points(xs, ys))
        if not placed:
            score: Floats = np.hypot(xs - zone_centre[0], ys - zone_centre[1])
        else:
            near = np.min([np.hypot(xs - px, ys - py) for px, py in placed], axis=0)
            score = np.where(
                near - 2 * radius_in <= reach_in,
                near + 0.01 * np.hypot(xs - zone_centre[0], ys - zone_centre[1]),
                np.inf,
            )
        return np.where(covered, score + 1000.0, score)

    return key


def hidden_key(
    watcher: tuple[float, float], screens: Sequence[Polygon], cover: Sequence[Polygon]
) -> Key:
    """Ambushers: behind terrain that blocks sight from ``watcher`` (the targets), or else in
    cover, as much as possible; among those, the nearest to the targets."""
    screen = shapely.union_all(list(screens)) if screens else None
    cover_union = shapely.union_all(list(cover)) if cover else None

    def key(xs: Floats, ys: Floats, _placed: list[tuple[float, float]]) -> Floats:
        distance: Floats = np.hypot(xs - watcher[0], ys - watcher[1])
        penalty = np.full(xs.shape, 2000.0)
        if screen is not None:
            coords = np.empty((xs.size, 2, 2))
            coords[:, 0, 0], coords[:, 0, 1] = watcher
            coords[:, 1, 0], coords[:, 1, 1] = xs, ys
            lines = shapely.linestrings(coords)
            penalty = np.where(shapely.intersects(lines, screen), 0.0, penalty)
        if cover_union is not None:
            inside = shapely.covers(cover_union, shapely.points(xs, ys))
            penalty = np.where(inside & (penalty > 0), 1000.0, penalty)
        out: Floats = penalty + distance
        return out

    return key


def facing(from_xy: tuple[float, float], to_xy: tuple[float, float]) -> float:
    """Heading from one point toward another, degrees in [0, 360), rounded to whole degrees."""
    if math.dist(from_xy, to_xy) < 1e-9:
        return 0.0
    return float(round(bearing_deg(from_xy, to_xy)) % 360)


SIGHT_MARGIN_IN = 0.5
"""Kept between a tag and the part of the table a tall piece hides from the camera, inches."""

CAMERA_PENALTY = 5000.0
"""Score added to a spot the overhead camera cannot see: it outweighs every other wish."""


def eye_height_in(width_in: float, depth_in: float) -> float:
    """How high above the table centre an overhead camera (16:9, about 50 degrees across the
    short side) must be to frame the table and its corner tags, inches (DESIGN §1: about 0.8 m
    above a 2 ft table)."""
    span_in = max(depth_in, width_in * 9 / 16) + 5.5
    return max(31.5, span_in / 2 / math.tan(math.radians(25.0)))


def seen_from_above(
    key: Key, tall: Sequence[tuple[Polygon, float]], eye: tuple[float, float, float]
) -> Key:
    """``key``, with a spot whose line to an overhead camera at ``eye`` = (x, y, height), inches,
    passes through a tall piece (footprint, height in inches) ranked below every other."""
    if not tall:
        return key
    ex, ey, eh = eye

    def wrapped(xs: Floats, ys: Floats, placed: list[tuple[float, float]]) -> Floats:
        score = key(xs, ys, placed)
        dx, dy = ex - xs, ey - ys
        reach = np.hypot(dx, dy)
        hidden = np.zeros(xs.shape, dtype=bool)
        for shape, height in tall:
            # The piece's top edge, seen from the eye, covers the table up to
            # height * reach / (eh - height) inches beyond it; a tag is half an inch across.
            span = height * reach / max(eh - height, 1.0) + SIGHT_MARGIN_IN
            s = np.minimum(reach, span) / np.maximum(reach, 1e-9)
            coords = np.empty((xs.size, 2, 2))
            coords[:, 0, 0], coords[:, 0, 1] = xs, ys
            coords[:, 1, 0], coords[:, 1, 1] = xs + dx * s, ys + dy * s
            hidden |= shapely.intersects(shapely.linestrings(coords), shape)
        out: Floats = np.where(hidden, score + CAMERA_PENALTY, score)
        return out

    return wrapped


def hidden_from_above(
    x: float,
    y: float,
    z_in: float,
    tall: Sequence[tuple[Polygon, float]],
    eye: tuple[float, float, float],
) -> bool:
    """Whether a point ``z_in`` inches above the table at (x, y) is hidden from an overhead
    camera at ``eye`` = (x, y, height) by a piece taller than it (footprint, height in inches)."""
    ex, ey, eh = eye
    reach = math.hypot(ex - x, ey - y)
    for shape, height in tall:
        if height <= z_in:
            continue
        span = (height - z_in) * reach / max(eh - height, 1.0) + SIGHT_MARGIN_IN
        s = min(reach, span) / max(reach, 1e-9)
        if shapely.intersects(
            shapely.linestrings([[x, y], [x + (ex - x) * s, y + (ey - y) * s]]), shape
        ):
            return True
    return False

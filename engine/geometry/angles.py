"""Points, headings, bearings, arcs and distances on the table, in inches and degrees.

Conventions (RULES.md §1.1): origin at the player's left front corner, +x right, +y away from
the player. A heading is compass style: 0° points to +y (the far edge), 90° to +x, clockwise
positive seen from above, kept in [0, 360).
"""

from __future__ import annotations

import math

import shapely
from shapely.geometry.base import BaseGeometry

Point = tuple[float, float]
"""A position on the table, (x, y) in inches."""

EPS_IN = 1e-6
"""Length tolerance in inches: touching within this counts as touching, not overlapping."""

ARC_TOL_DEG = 1e-6
"""Angle tolerance in degrees for inclusive arc boundaries (G-02)."""


def normalize_deg(angle_deg: float) -> float:
    """Return the angle in degrees folded into [0, 360)."""
    a = math.fmod(angle_deg, 360.0)
    if a < 0.0:
        a += 360.0
    # fmod of a tiny negative number plus 360 can round up to exactly 360.
    return 0.0 if a >= 360.0 else a


def wrap180(angle_deg: float) -> float:
    """Return the angle in degrees folded into (-180, 180]."""
    a = normalize_deg(angle_deg)
    return a - 360.0 if a > 180.0 else a


def bearing_deg(a: Point, b: Point) -> float:
    """Compass bearing in degrees [0, 360) from point ``a`` to point ``b`` (atan2(dx, dy)).

    The bearing from a point to itself is 0.
    """
    return normalize_deg(math.degrees(math.atan2(b[0] - a[0], b[1] - a[1])))


def relative_bearing_deg(heading_deg: float, a: Point, b: Point) -> float:
    """Bearing from ``a`` to ``b`` seen from a figure at ``a`` facing ``heading_deg``.

    Degrees in (-180, 180]: negative to the figure's left, positive to its right.
    """
    return wrap180(bearing_deg(a, b) - heading_deg)


_AXIS_VECTORS: dict[float, Point] = {
    0.0: (0.0, 1.0),
    90.0: (1.0, 0.0),
    180.0: (0.0, -1.0),
    270.0: (-1.0, 0.0),
}


def heading_vector(heading_deg: float) -> Point:
    """Unit vector (sin h, cos h) pointing along a compass heading in degrees.

    Exact (no rounding noise) for multiples of 90 degrees.
    """
    axis = _AXIS_VECTORS.get(normalize_deg(heading_deg))
    if axis is not None:
        return axis
    h = math.radians(heading_deg)
    return (math.sin(h), math.cos(h))


def advance(p: Point, heading_deg: float, distance_in: float) -> Point:
    """The point ``distance_in`` inches from ``p`` along compass heading ``heading_deg``."""
    ux, uy = heading_vector(heading_deg)
    return (p[0] + ux * distance_in, p[1] + uy * distance_in)


def in_forward_arc(
    origin: Point, heading_deg: float, target: Point, half_angle_deg: float = 90.0
) -> bool:
    """Whether ``target`` lies in the arc of ±``half_angle_deg`` degrees about the heading.

    The boundary is inclusive with a 1e-6 degree tolerance (G-02, T-GEO-02); a target at the
    origin itself is in the arc.
    """
    if math.hypot(target[0] - origin[0], target[1] - origin[1]) == 0.0:
        return True
    rel = relative_bearing_deg(heading_deg, origin, target)
    return abs(rel) <= half_angle_deg + ARC_TOL_DEG


def centre_distance_in(a: Point, b: Point) -> float:
    """Straight-line distance in inches between two points (base centres)."""
    return math.hypot(b[0] - a[0], b[1] - a[1])


def edge_gap_in(c1: Point, r1: float, c2: Point, r2: float) -> float:
    """Edge-to-edge gap in inches between two round bases (G-01): max(0, |c1 - c2| - r1 - r2)."""
    return max(0.0, centre_distance_in(c1, c2) - (r1 + r2))


def point_gap_in(c: Point, r: float, p: Point) -> float:
    """Gap in inches from the edge of a round base (centre ``c``, radius ``r``) to a point."""
    return max(0.0, centre_distance_in(c, p) - r)


def polygon_gap_in(c: Point, r: float, polygon: BaseGeometry) -> float:
    """Gap in inches from the edge of a round base to a polygon; 0 when they overlap."""
    d = float(shapely.distance(shapely.Point(c), polygon))
    return max(0.0, d - r)


def within_in(distance_in: float, limit_in: float) -> bool:
    """Whether a measured distance is at most ``limit_in`` inches, allowing ``EPS_IN`` of rounding.

    The one comparison for every "within X" of the rules: base contact (gap <= tolerance),
    shooting range, "next to" an objective, charge reach. Floating point must not decide: the
    gap between centres 1.0 and 2.1 (0.10000000000000009) and between 5.0 and 6.1
    (0.0999999999999996) are both 0.1.
    """
    return distance_in <= limit_in + EPS_IN


def in_contact(c1: Point, r1: float, c2: Point, r2: float, tol_in: float = 0.1) -> bool:
    """Whether two round bases are in base contact: edge gap <= ``tol_in`` inches (G-04).

    Compared with ``within_in`` (a gap of 1.1 - 1.0 counts as 0.1).
    """
    return within_in(edge_gap_in(c1, r1, c2, r2), tol_in)


def segment_point_distance_in(a: Point, b: Point, p: Point) -> float:
    """Shortest distance in inches from point ``p`` to the segment ``a``-``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    len2 = dx * dx + dy * dy
    if len2 == 0.0:
        return math.hypot(p[0] - a[0], p[1] - a[1])
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2
    t = min(1.0, max(0.0, t))
    return math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy))

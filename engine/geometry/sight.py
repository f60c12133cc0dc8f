"""Obstacles, line of sight (G-03) and cover, in inches.

A line is blocked when it crosses the *interior* of a blocker: a line that touches a boundary,
runs along it or grazes a corner is not blocked. Round bases are handled as exact circles,
a sight blocker that is a simple polygon by the plain-Python crossing test of
:mod:`engine.geometry.raycast` (the one test every system's sight uses), other shapes and cover
areas through shapely (within 1e-6 in).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from engine.geometry.angles import EPS_IN, Point, segment_point_distance_in
from engine.geometry.outline import Outline, outline
from engine.geometry.raycast import Shape, segment_crosses, shape_of

BASE_QUAD_SEGS = 16
"""Segments per quarter circle of a base's polygon (the polygon's vertices lie on the circle)."""


def base_shape(c: Point, r: float) -> Polygon:
    """A round base of radius ``r`` inches at ``c`` as a shapely polygon (prepared)."""
    shape = shapely.Point(c).buffer(r, quad_segs=BASE_QUAD_SEGS)
    shapely.prepare(shape)
    return shape


def _is_areal(shape: BaseGeometry) -> bool:
    return shape.geom_type in ("Polygon", "MultiPolygon") or (
        shape.geom_type == "GeometryCollection" and float(shape.area) > 0.0
    )


def _bounds_of(shape: BaseGeometry) -> tuple[float, float, float, float]:
    minx, miny, maxx, maxy = shape.bounds
    return (float(minx), float(miny), float(maxx), float(maxy))


def _core_of(shape: BaseGeometry, areal: bool) -> BaseGeometry:
    core = shape.buffer(-EPS_IN) if areal else shape
    shapely.prepare(core)
    return core


class _Shaped:
    """Tests shared by obstacles and cover areas (mixed into frozen dataclasses, which set
    ``bounds``, ``areal`` and ``core`` once, when they are made)."""

    shape: BaseGeometry
    bounds: tuple[float, float, float, float]
    """(minx, miny, maxx, maxy) of the shape, inches."""
    areal: bool
    """Whether the shape has an area (polygons) rather than being lines or points."""
    core: BaseGeometry
    """The shape's interior shrunk by 1e-6 in (prepared): what a line must cross to count.
    Lines and points have no area; their core is the shape itself."""

    def crossed_by(self, a: Point, b: Point) -> bool:
        """Whether the segment ``a``-``b`` crosses the interior of the shape (G-03)."""
        minx, miny, maxx, maxy = self.bounds
        if (
            max(a[0], b[0]) < minx
            or min(a[0], b[0]) > maxx
            or max(a[1], b[1]) < miny
            or min(a[1], b[1]) > maxy
        ):
            return False
        line = shapely.Point(a) if a == b else shapely.LineString([a, b])
        if self.areal:
            return bool(shapely.intersects(self.core, line))
        return bool(shapely.relate_pattern(line, self.shape, "T********"))

    def entry_in(self, a: Point, b: Point) -> float:
        """Distance in inches from ``a`` to where the segment ``a``-``b`` first meets the core."""
        line = shapely.Point(a) if a == b else shapely.LineString([a, b])
        hit = shapely.intersection(line, self.core)
        if hit.is_empty:
            return math.inf
        return float(shapely.distance(shapely.Point(a), hit))


@dataclass(frozen=True)
class Obstacle(_Shaped):
    """Something that may block sight or movement: a terrain polygon or a figure's base.

    What the tests read of the shape is worked out once, when the obstacle is made (terrain's
    once a scenario: its games share them). A round base is tested as its circle: its
    ``core`` is its shape and it has no ``outline`` or ``edges``, none of which a test of a
    base reads."""

    name: str
    """What to tell the player ("the ruined tower", "Orc Archer")."""
    shape: BaseGeometry
    """Shapely geometry in inches (bases: a circle polygon, see ``base_shape``)."""
    kind: str = "terrain"
    """Either "terrain" or "base"."""
    centre: Point | None = None
    """For a base: its centre, inches (derived from the shape's bounds when absent)."""
    radius_in: float | None = None
    """For a base: its radius, inches (derived from the shape's bounds when absent)."""
    circle: tuple[Point, float] | None = field(init=False, compare=False, repr=False)
    """(centre, radius in inches) for a round base, else None; bases are tested as circles."""
    outline: Shape | None = field(init=False, compare=False, repr=False)
    """The shape as a plain polygon for the fast crossing test (None: a round base, or not a
    simple polygon)."""
    edges: Outline | None = field(init=False, compare=False, repr=False)
    """The shape's boundary as numpy segments for the ray casters (None: a round base)."""
    bounds: tuple[float, float, float, float] = field(init=False, compare=False, repr=False)
    areal: bool = field(init=False, compare=False, repr=False)
    core: BaseGeometry = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        bounds = _bounds_of(self.shape)
        areal = _is_areal(self.shape)
        circle: tuple[Point, float] | None = None
        if self.centre is not None and self.radius_in is not None:
            circle = (self.centre, self.radius_in)
        elif self.kind == "base":
            minx, miny, maxx, maxy = bounds
            circle = (((minx + maxx) / 2.0, (miny + maxy) / 2.0), (maxx - minx) / 2.0)
        plain: Shape | None = None
        if circle is None and self.shape.geom_type == "Polygon" and not self.shape.interiors:
            plain = shape_of(self.shape.exterior.coords[:-1])
        # Derived once at construction (the frozen-dataclass idiom): never changed afterwards.
        set_ = object.__setattr__
        set_(self, "bounds", bounds)
        set_(self, "areal", areal)
        set_(self, "circle", circle)
        set_(self, "outline", plain)
        set_(self, "edges", None if circle is not None else outline(self.shape))
        set_(self, "core", self.shape if circle is not None else _core_of(self.shape, areal))

    def crossed_by(self, a: Point, b: Point) -> bool:
        """Whether the segment ``a``-``b`` crosses the interior (a base: its circle's)."""
        if self.circle is None:
            return super().crossed_by(a, b)
        return self.blocks_segment(a, b)

    def entry_in(self, a: Point, b: Point) -> float:
        """Distance in inches from ``a`` to where ``a``-``b`` first meets the interior (a base:
        its circle's)."""
        if self.circle is None:
            return super().entry_in(a, b)
        return self.entry_along_in(a, b)

    def blocks_segment(self, a: Point, b: Point) -> bool:
        """Whether the sight line ``a``-``b`` crosses this obstacle's interior (a base as its
        circle, a simple polygon by :func:`engine.geometry.raycast.segment_crosses`)."""
        circle = self.circle
        if circle is None:
            outline = self.outline
            if outline is None:
                return super().crossed_by(a, b)
            return segment_crosses(outline, a, b)
        c, rb = circle
        return segment_point_distance_in(a, b, c) < rb - EPS_IN

    def entry_along_in(self, a: Point, b: Point) -> float:
        """Distance in inches from ``a`` along ``a``-``b`` to where that line enters this."""
        circle = self.circle
        if circle is None:
            return super().entry_in(a, b)
        c, rb = circle
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        if length == 0.0:
            return 0.0
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        proj = (c[0] - a[0]) * ux + (c[1] - a[1]) * uy
        off2 = (c[0] - a[0]) ** 2 + (c[1] - a[1]) ** 2 - proj * proj
        return max(0.0, proj - math.sqrt(max(0.0, rb * rb - off2)))


def base_obstacle(name: str, c: Point, r: float) -> Obstacle:
    """An obstacle for a figure's round base (centre ``c``, radius ``r`` inches)."""
    return Obstacle(name=name, shape=base_shape(c, r), kind="base", centre=c, radius_in=r)


@dataclass(frozen=True)
class Sight:
    """The result of a line-of-sight test between two bases (G-03)."""

    centre_clear: bool
    """The centre-to-centre line is unblocked (the primary test)."""
    lines_clear: tuple[bool, bool, bool]
    """Centre line, left tangent line, right tangent line (left/right seen from the viewer)."""
    blocked_by: tuple[str, ...]
    """Names of the obstacles blocking the centre line, in order along it, no duplicates."""

    @property
    def visible(self) -> bool:
        """At least one of the three lines is clear."""
        return any(self.lines_clear)

    @property
    def fully_clear(self) -> bool:
        """All three lines are clear."""
        return all(self.lines_clear)

    @property
    def obscured(self) -> bool:
        """Visible but not fully clear (partial sight, seed 001A "obscured")."""
        return self.visible and not self.fully_clear


def tangent_lines(a: Point, ra: float, b: Point, rb: float) -> tuple[tuple[Point, Point], ...]:
    """The left and right outer tangent lines between two round bases, inches.

    Each line runs from a point on base ``a``'s edge to a point on base ``b``'s edge; "left" is
    on the left when looking from ``a`` to ``b``. For equal radii these are the centre line
    offset sideways by the radius. When one base lies inside the other (no outer tangents) the
    centre line is offset by each base's own radius instead.
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy)
    if d == 0.0:
        return ((a, b), (a, b))
    ux, uy = dx / d, dy / d
    lx, ly = -uy, ux  # the left-hand normal when looking from a to b
    cos_phi = (ra - rb) / d
    if abs(cos_phi) >= 1.0:
        left = ((a[0] + ra * lx, a[1] + ra * ly), (b[0] + rb * lx, b[1] + rb * ly))
        right = ((a[0] - ra * lx, a[1] - ra * ly), (b[0] - rb * lx, b[1] - rb * ly))
        return (left, right)
    sin_phi = math.sqrt(1.0 - cos_phi * cos_phi)
    lines = []
    for side in (1.0, -1.0):
        nx = cos_phi * ux + side * sin_phi * lx
        ny = cos_phi * uy + side * sin_phi * ly
        lines.append(((a[0] + ra * nx, a[1] + ra * ny), (b[0] + rb * nx, b[1] + rb * ny)))
    return (lines[0], lines[1])


def line_of_sight(a: Point, ra: float, b: Point, rb: float, blockers: Sequence[Obstacle]) -> Sight:
    """Line of sight from the base at ``a`` (radius ``ra``) to the base at ``b`` (radius ``rb``).

    Tests the centre line and the two outer tangent lines against ``blockers``: only the
    obstacles that block for the caller's ruleset, never the viewer's or the target's own base.
    """
    left, right = tangent_lines(a, ra, b, rb)
    blocking = [ob for ob in blockers if ob.blocks_segment(a, b)]
    centre_clear = not blocking
    left_clear = not any(ob.blocks_segment(*left) for ob in blockers)
    right_clear = not any(ob.blocks_segment(*right) for ob in blockers)
    names: list[str] = []
    for ob in sorted(blocking, key=lambda ob: ob.entry_along_in(a, b)):
        if ob.name not in names:
            names.append(ob.name)
    return Sight(
        centre_clear=centre_clear,
        lines_clear=(centre_clear, left_clear, right_clear),
        blocked_by=tuple(names),
    )


class Cover(StrEnum):
    """Cover a target can claim, ordered none < soft < hard."""

    NONE = "none"
    SOFT = "soft"
    HARD = "hard"

    def rank(self) -> int:
        """0 for none, 1 for soft, 2 for hard."""
        return _COVER_RANK[self]


_COVER_RANK = {Cover.NONE: 0, Cover.SOFT: 1, Cover.HARD: 2}


@dataclass(frozen=True)
class CoverArea(_Shaped):
    """A piece of terrain that gives cover (its tests' facts worked out when it is made)."""

    name: str
    """What to tell the player ("the hedge")."""
    shape: BaseGeometry
    """Shapely geometry in inches."""
    cover: Cover
    """The cover it gives."""
    bounds: tuple[float, float, float, float] = field(init=False, compare=False, repr=False)
    areal: bool = field(init=False, compare=False, repr=False)
    core: BaseGeometry = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        areal = _is_areal(self.shape)
        object.__setattr__(self, "bounds", _bounds_of(self.shape))
        object.__setattr__(self, "areal", areal)
        object.__setattr__(self, "core", _core_of(self.shape, areal))


def cover_between(
    shooter: Point, target: Point, rt: float, areas: Sequence[CoverArea]
) -> tuple[Cover, str | None]:
    """The best cover a target (centre ``target``, radius ``rt`` inches) has against a shooter.

    Counts every area that the centre-to-centre line crosses or that overlaps the target's base,
    ignoring areas that contain the shooter's centre (a shooter behind a wall shoots over it).
    Returns the best cover and the name of the (first listed) area giving it; (NONE, None) when
    nothing gives cover.
    """
    best: tuple[Cover, str | None] = (Cover.NONE, None)
    shooter_pt = shapely.Point(shooter)
    target_pt = shapely.Point(target)
    for area in areas:
        if area.cover.rank() <= best[0].rank():
            continue
        if float(shapely.distance(area.shape, shooter_pt)) <= EPS_IN:
            continue
        overlaps = float(shapely.distance(area.shape, target_pt)) < rt - EPS_IN
        if overlaps or area.crossed_by(shooter, target):
            best = (area.cover, area.name)
    return best

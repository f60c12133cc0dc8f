"""Footprints of generated terrain pieces (RULES §5.n, D003-14), in table inches.

A piece's long axis lies across the ray from the table centre through its centre; rectangles
and ellipses (16-gons) are drawn for many candidate centres at once (numpy), a river or road
is a strip from table edge to table edge. Vertices are rounded to COORD_DECIMALS and wound
counter-clockwise.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from shapely.geometry import LineString, Polygon, box
from shapely.geometry.polygon import orient

from engine.generators.terrain_types import Battlefield, TerrainType

COORD_DECIMALS = 3
"""Polygon vertices and centres are rounded to this many decimals of an inch."""

ELLIPSE_SIDES = 16
"""Sides of the polygon drawn for an ellipse."""

Floats = npt.NDArray[np.float64]


def headings(xs: Floats, ys: Floats, width_in: float, depth_in: float) -> Floats:
    """Long-axis directions across the rays from the table centre, degrees in [0, 180).

    At the table centre itself there is no ray: the long axis then runs left to right (90°).
    """
    dx, dy = xs - width_in / 2, ys - depth_in / 2
    bearing = np.degrees(np.arctan2(dx, dy))
    heading = np.round((bearing + 90.0) % 180.0, 9) % 180.0
    return np.where(np.hypot(dx, dy) < 1e-9, 90.0, heading)


def local_ring(
    kind: TerrainType, battlefield: Battlefield, scale: float, inset_in: float = 0.0
) -> Floats:
    """The outline in the piece's own frame: (along the long axis, across it), inches;
    ``inset_in`` draws it that much smaller all round."""
    long_in, short_in = kind.footprint_in(battlefield)
    hl, hs = long_in * scale / 2 - inset_in, short_in * scale / 2 - inset_in
    if kind.shape == "ellipse":
        a = 2 * np.pi * np.arange(ELLIPSE_SIDES) / ELLIPSE_SIDES
        ring = np.stack([hl * np.cos(a), hs * np.sin(a)], axis=1)
    else:
        ring = np.array([[-hl, -hs], [hl, -hs], [hl, hs], [-hl, hs]])
    return ring[::-1].copy()  # the frame is mirrored in table axes: reversed is counter-clockwise


def outlines(ring: Floats, xs: Floats, ys: Floats, headings_deg: Floats) -> Floats:
    """Outlines (n, k, 2) of the ring centred on each (x, y) along each heading, rounded."""
    t = np.radians(headings_deg)
    ax, ay = np.sin(t)[:, None], np.cos(t)[:, None]  # along the long axis
    u, v = ring[None, :, 0], ring[None, :, 1]
    px = xs[:, None] + u * ax + v * ay
    py = ys[:, None] + u * ay - v * ax
    out: Floats = np.round(np.stack([px, py], axis=2), COORD_DECIMALS).astype(np.float64)
    return out


def strip_outline(
    wide_in: float, x: float, y: float, heading_deg: float, width_in: float, depth_in: float
) -> Polygon:
    """A river or road ``wide_in`` wide through (x, y) along ``heading_deg``, from table edge
    to table edge, counter-clockwise, rounded."""
    t = math.radians(heading_deg)
    ax, ay = math.sin(t), math.cos(t)
    reach = math.hypot(width_in, depth_in) * 2
    line = LineString([(x - ax * reach, y - ay * reach), (x + ax * reach, y + ay * reach)])
    band = line.buffer(wide_in / 2, cap_style="flat")
    clipped = band.intersection(box(0, 0, width_in, depth_in))
    coords = np.round(np.asarray(clipped.exterior.coords), COORD_DECIMALS)
    return orient(Polygon(coords), sign=1.0)


def footprint(
    kind: TerrainType,
    x: float,
    y: float,
    heading_deg: float,
    battlefield: Battlefield,
    width_in: float,
    depth_in: float,
    scale: float = 1.0,
) -> tuple[tuple[float, float], ...]:
    """The piece's outline centred on (x, y), long axis along ``heading_deg``, inches,
    counter-clockwise. A strip (river, road) runs through (x, y) from table edge to table edge."""
    if kind.shape == "strip":
        wide_in = kind.footprint_in(battlefield)[1] * scale
        ring = strip_outline(wide_in, x, y, heading_deg, width_in, depth_in)
        return tuple((float(px), float(py)) for px, py in ring.exterior.coords[:-1])
    one = outlines(
        local_ring(kind, battlefield, scale),
        np.array([x]),
        np.array([y]),
        np.array([heading_deg]),
    )[0]
    return tuple((float(px), float(py)) for px, py in one)

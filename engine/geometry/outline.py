"""A shape's boundary as numpy segments, inches: what the ray casters of
:mod:`engine.geometry.collide`, :mod:`engine.geometry.movement` and
:mod:`engine.geometry.vantage` test rays against.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry.base import BaseGeometry

FloatArray = npt.NDArray[np.float64]
A = TypeVar("A", bound=npt.NDArray[Any])


@dataclass(frozen=True)
class Outline:
    """A shape's boundary as segments a[i]-b[i] (inches), plus its isolated points."""

    a: FloatArray
    b: FloatArray
    ring: npt.NDArray[np.bool_]
    """Per segment: part of a polygon ring."""
    points: tuple[tuple[float, float], ...]


def _read_only(array: A) -> A:
    array.flags.writeable = False
    return array


EMPTY_OUTLINE = Outline(
    _read_only(np.zeros((0, 2), dtype=np.float64)),
    _read_only(np.zeros((0, 2), dtype=np.float64)),
    _read_only(np.zeros(0, dtype=np.bool_)),
    (),
)
"""The outline of nothing: no segments, no points (read-only arrays, a constant)."""


def outline(shape: BaseGeometry) -> Outline:
    """The boundary segments of a shape (terrain keeps its own: :attr:`Obstacle.edges
    <engine.geometry.sight.Obstacle.edges>`, :attr:`DifficultGround.edges
    <engine.geometry.movement.DifficultGround.edges>`)."""
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
        return Outline(empty, empty, np.zeros(0, dtype=np.bool_), tuple(points))
    return Outline(
        np.concatenate(seg_a), np.concatenate(seg_b), np.concatenate(ring), tuple(points)
    )

"""Facings on the grid game's squares (seed 004; RULES G-02, D004-02, D004-04): the eight
compass facings (multiples of 45 degrees, north = the top of the map, row 0), bearings between
square centres, and the forward arc a figure sees in.
"""

from __future__ import annotations

import math

from engine.geometry.grid import STEPS, Cell

COMPASS = ("north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west")
"""Facing words (north = the top of the map), clockwise from 0 degrees."""


def facing_step(heading_deg: float) -> Cell:
    """The one-square step straight ahead of a grid facing."""
    return STEPS[round(heading_deg / 45.0) % 8]


def facing_word(heading_deg: float) -> str:
    """The facing in words ("east")."""
    return COMPASS[round(heading_deg / 45.0) % 8]


def bearing_deg(a: Cell, b: Cell) -> float:
    """Compass bearing from the centre of ``a`` to the centre of ``b`` (0 = up the map)."""
    return math.degrees(math.atan2(b[0] - a[0], -(b[1] - a[1]))) % 360.0


def relative_deg(heading_deg: float, a: Cell, b: Cell) -> float:
    """Bearing of ``b`` from ``a`` relative to the heading, in (-180, 180]."""
    rel = (bearing_deg(a, b) - heading_deg) % 360.0
    return rel - 360.0 if rel > 180.0 else rel


def facing_toward(a: Cell, b: Cell) -> float:
    """The grid facing (multiple of 45) nearest the bearing from ``a`` to ``b``."""
    return (round(bearing_deg(a, b) / 45.0) % 8) * 45.0


def in_arc(heading_deg: float, a: Cell, b: Cell, arc_deg: float, inclusive: bool = True) -> bool:
    """Whether ``b`` lies in the forward arc of ``arc_deg`` degrees (G-02: ±arc/2 about the
    facing, boundary inclusive with 1e-6 degree; ``inclusive=False`` only documents T004-03)."""
    if arc_deg >= 360.0:
        return True
    rel = abs(relative_deg(heading_deg, a, b))
    half = arc_deg / 2.0
    return rel <= half + 1e-6 if inclusive else rel < half - 1e-6

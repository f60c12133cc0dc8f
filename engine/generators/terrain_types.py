"""Seed 003's random-terrain tables (RULES §5.n): counts per section, the two 2d6 type tables,
the d8 scatter keypad, and each type's footprint and attributes (RULES §1.1, D003-15, D003-27).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

SECTION_IN = 12.0
"""The table is rolled for in 1 ft x 1 ft sections, inches."""

SMALL_BATTLEFIELD_MAX_IN = 24.0
"""A table no wider and no deeper than this is a small battlefield (RULES §5.f: 2 x 2 ft)."""

SMALL_BATTLEFIELD_SCALE = 0.5
"""D003-15: the seed's sizes are for large battlefields; a small one halves them."""


class PieceSize(StrEnum):
    """Which of the two tables a piece comes from."""

    SMALL = "small"
    LARGE = "large"


class Battlefield(StrEnum):
    """The two battlefield sizes of RULES §5.f; decides the piece sizes (D003-15)."""

    SMALL = "small"
    LARGE = "large"

    @property
    def scale(self) -> float:
        """Footprint scale: 1 on a large battlefield, 1/2 on a small one."""
        return SMALL_BATTLEFIELD_SCALE if self is Battlefield.SMALL else 1.0


def battlefield_for(width_in: float, depth_in: float) -> Battlefield:
    """Small when the table is at most 2 ft each way (our 24 x 24 in table), large otherwise."""
    small = width_in <= SMALL_BATTLEFIELD_MAX_IN and depth_in <= SMALL_BATTLEFIELD_MAX_IN
    return Battlefield.SMALL if small else Battlefield.LARGE


Shape = Literal["rectangle", "ellipse", "strip"]
"""A footprint: a rectangle, an ellipse (16-gon), or a strip from table edge to table edge."""

Cover = Literal["none", "soft", "hard"]


@dataclass(frozen=True)
class TerrainType:
    """One entry of a terrain table, with the footprint and attributes soloscope gives it."""

    id: str
    """Short id, as printed in the ``type`` field ("low-wall")."""
    name: str
    """In words ("low wall")."""
    size: PieceSize
    kind: str
    """The scenario file's terrain ``kind`` ("building", "woods", ...)."""
    shape: Shape
    long_in: float
    """Length of the long axis on a large battlefield, inches (a strip: unused, edge to edge)."""
    short_in: float
    """Width across the long axis on a large battlefield, inches."""
    blocks_los: bool = False
    impassable: bool = False
    difficult: bool = False
    cover: Cover = "none"
    dangerous: bool = False
    height_levels: int | None = None
    """Height levels a figure climbs (hills: the seed's 2 to 4, here 3); None when flat."""
    destructible: bool = False
    is_objective: bool = False
    height_in: float = 0.0
    """How tall the model on the table is, inches (camera occlusion, tag height)."""

    def footprint_in(self, battlefield: Battlefield) -> tuple[float, float]:
        """(long, short) sides on this battlefield, inches (D003-15)."""
        return self.long_in * battlefield.scale, self.short_in * battlefield.scale


_S, _L = PieceSize.SMALL, PieceSize.LARGE

# Sizes: the seed's stated range where it gives one (movable objects 1-2, minor fixed object
# 2-4, pool 2-9, major fixed object 4-8, major building >= 8, minor building 3-7, river 1-2
# wide, road 2-4 wide), otherwise a size of the same order; attributes per D003-27.
TERRAIN_TYPES: dict[str, TerrainType] = {
    t.id: t
    for t in (
        TerrainType("hill", "hill", _S, "hill", "ellipse", 6, 4, height_levels=3, height_in=1.0),
        TerrainType("pit", "pit", _S, "pit", "rectangle", 4, 2, impassable=True),
        TerrainType(
            "light-woods", "light woods", _S, "woods", "ellipse", 6, 4,
            difficult=True, cover="soft", height_in=2.5,
        ),
        TerrainType(
            "movable-objects", "movable objects", _S, "objects", "rectangle", 2, 2,
            impassable=True, cover="soft", height_in=0.75,
        ),
        TerrainType(
            "rubble", "rubble", _S, "rubble", "rectangle", 4, 2,
            blocks_los=True, difficult=True, cover="soft", height_in=1.0,
        ),
        TerrainType(
            "low-wall", "low wall", _S, "wall", "rectangle", 6, 1,
            difficult=True, cover="soft", height_in=0.75,
        ),
        TerrainType(
            "minor-fixed-object", "minor fixed object", _S, "object", "rectangle", 4, 2,
            blocks_los=True, impassable=True, cover="hard", height_in=1.5,
        ),
        TerrainType("pool", "pool", _S, "water", "ellipse", 6, 3, difficult=True),
        TerrainType(
            "major-fixed-object", "major fixed object", _L, "object", "rectangle", 6, 3,
            blocks_los=True, impassable=True, cover="hard", height_in=1.5,
        ),
        TerrainType(
            "major-building", "major building", _L, "building", "rectangle", 8, 8,
            blocks_los=True, impassable=True, cover="hard", height_in=4.0,
        ),
        TerrainType(
            "minor-building", "minor building", _L, "building", "rectangle", 5, 4,
            blocks_los=True, impassable=True, cover="hard", height_in=2.5,
        ),
        TerrainType("river", "river", _L, "river", "strip", 0, 2, difficult=True),
        TerrainType(
            "heavy-woods", "heavy woods", _L, "woods", "ellipse", 8, 6,
            blocks_los=True, difficult=True, cover="hard", height_in=4.0,
        ),
        TerrainType("road", "road", _L, "road", "strip", 0, 4),
    )
}  # fmt: skip
"""Every generated terrain type by id."""

SECTION_COUNTS: dict[int, tuple[int, int]] = {
    1: (1, 0),
    2: (1, 1),
    3: (2, 1),
    4: (2, 1),
    5: (3, 2),
    6: (4, 2),
}
"""d6 per section -> (small pieces, large pieces) (D003-13: one die gives both)."""

SMALL_TABLE: dict[int, str] = {
    2: "hill",
    3: "pit",
    4: "light-woods",
    5: "light-woods",
    6: "movable-objects",
    7: "rubble",
    8: "low-wall",
    9: "minor-fixed-object",
    10: "low-wall",
    11: "pool",
    12: "hill",
}
"""2d6 -> small terrain type."""

LARGE_TABLE: dict[int, str] = {
    2: "major-fixed-object",
    3: "major-building",
    4: "minor-building",
    5: "river",
    6: "minor-building",
    7: "major-building",
    8: "heavy-woods",
    9: "road",
    10: "major-building",
    11: "major-building",
    12: "major-building",
}
"""2d6 -> large terrain type, as printed (D003-12 errata off)."""

LARGE_ERRATA: dict[int, str] = {10: "heavy-woods"}
"""D003-12 errata (``large_terrain_errata``): 2d6 = 10 is heavy woods, matching the seed's
stated percentages."""

SCATTER_KEYPAD: dict[int, tuple[int, int]] = {
    1: (-1, 1),
    2: (0, 1),
    3: (1, 1),
    4: (-1, 0),
    5: (1, 0),
    6: (-1, -1),
    7: (0, -1),
    8: (1, -1),
}
"""d8 -> scatter direction around the section centre; "up" = +y, away from the human (D003-14)."""


def terrain_type(size: PieceSize, two_d6: int, *, errata: bool = False) -> TerrainType:
    """The type a 2d6 total gives on the small or large table."""
    if size is PieceSize.SMALL:
        return TERRAIN_TYPES[SMALL_TABLE[two_d6]]
    name = LARGE_ERRATA.get(two_d6, LARGE_TABLE[two_d6]) if errata else LARGE_TABLE[two_d6]
    return TERRAIN_TYPES[name]


def scatter_offset(direction: int, distance_in: float) -> tuple[float, float]:
    """The (dx, dy) inches of a scatter: ``distance_in`` along the normalised keypad direction."""
    ux, uy = SCATTER_KEYPAD[direction]
    norm = math.hypot(ux, uy)
    return ux / norm * distance_in, uy / norm * distance_in

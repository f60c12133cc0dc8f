"""Seed 003's terrain rolls (RULES §5.n): the table's 1-ft sections and every die of every piece.

The dice are rolled section by section in reading order (row 0 is the far edge, RULES §1.1):
the section's d6 count, then for each small piece and then each large piece its 2d6 type, its
d8 scatter direction and its d6 - 1 inches. Placement (no dice) is :mod:`engine.generators.terrain`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.dice import RandomSource
from engine.errors import EngineError
from engine.generators.terrain_types import (
    SECTION_COUNTS,
    SECTION_IN,
    PieceSize,
    TerrainType,
    terrain_type,
)

MAX_TABLE_IN = 240.0
"""The largest table side a scenario allows (engine.scenario.TableSpec), inches."""


class TerrainError(EngineError, ValueError):
    """The generator was asked for a table it cannot roll (a size out of range)."""


@dataclass(frozen=True)
class Section:
    """A 1 ft x 1 ft section of the table (clipped where the table ends), inches."""

    col: int
    """0 at the left edge."""
    row: int
    """0 at the far edge (RULES §1.1 grid convention)."""
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def centre(self) -> tuple[float, float]:
        """Centre of the section (of its part on the table), inches."""
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2


@dataclass(frozen=True)
class RolledPiece:
    """Every die of one piece, before placement."""

    section: Section
    size: PieceSize
    number: int
    """1-based count of this size within its section."""
    dice_2d6: tuple[int, int]
    type: TerrainType
    scatter: int
    """d8 keypad direction, 1..8."""
    distance_in: int
    """d6 - 1: 0..5 inches from the section centre."""


@dataclass(frozen=True)
class SectionRoll:
    """A section's d6 and the piece counts it gives."""

    section: Section
    roll: int
    small: int
    large: int


@dataclass(frozen=True)
class TerrainRolls:
    """All the dice of a table, in the order rolled."""

    width_in: float
    depth_in: float
    sections: tuple[SectionRoll, ...]
    pieces: tuple[RolledPiece, ...]


def check_table(width_in: float, depth_in: float) -> None:
    """Raise TerrainError unless both sides are more than 0 and at most 240 inches."""
    for what, value in (("width", width_in), ("depth", depth_in)):
        if not (math.isfinite(value) and 0 < value <= MAX_TABLE_IN):
            raise TerrainError(
                f"the table {what} must be more than 0 and at most {MAX_TABLE_IN:g} in, "
                f"got {value:g}"
            )


def sections_of(width_in: float, depth_in: float) -> tuple[Section, ...]:
    """The table's 1-ft sections in reading order (far row first, left to right)."""
    check_table(width_in, depth_in)
    cols = max(1, math.ceil(width_in / SECTION_IN - 1e-9))
    rows = max(1, math.ceil(depth_in / SECTION_IN - 1e-9))
    out = []
    for row in range(rows):
        y1 = depth_in - row * SECTION_IN
        y0 = max(0.0, y1 - SECTION_IN)
        for col in range(cols):
            x0 = col * SECTION_IN
            out.append(Section(col, row, x0, y0, min(width_in, x0 + SECTION_IN), y1))
    return tuple(out)


def _where(section: Section) -> str:
    return f"terrain: section [{section.col}, {section.row}]"


def roll_terrain(
    dice: RandomSource, width_in: float = 24.0, depth_in: float = 24.0, *, errata: bool = False
) -> TerrainRolls:
    """Every roll of §5.n for the table, each logged with its purpose.

    ``errata`` is D003-12's ``large_terrain_errata`` (2d6 = 10 on the large table is heavy
    woods instead of the printed major building).
    """
    section_rolls: list[SectionRoll] = []
    pieces: list[RolledPiece] = []
    for section in sections_of(width_in, depth_in):
        where = _where(section)
        roll = dice.roll(6, f"{where} contents (small and large pieces)")
        small, large = SECTION_COUNTS[roll]
        section_rolls.append(SectionRoll(section, roll, small, large))
        for size, count in ((PieceSize.SMALL, small), (PieceSize.LARGE, large)):
            for number in range(1, count + 1):
                what = f"{where} {size.value} piece {number}"
                a = dice.roll(6, f"{what} type (first d6)")
                b = dice.roll(6, f"{what} type (second d6)")
                scatter = dice.roll(8, f"{what} scatter direction")
                distance = dice.roll(6, f"{what} scatter distance (d6 - 1 in)") - 1
                kind = terrain_type(size, a + b, errata=errata)
                pieces.append(RolledPiece(section, size, number, (a, b), kind, scatter, distance))
    return TerrainRolls(width_in, depth_in, tuple(section_rolls), tuple(pieces))

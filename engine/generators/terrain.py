"""Seed 003's random terrain generator (RULES §5.n): rolled pieces placed on the table, inches.

:func:`generate_terrain` rolls (:mod:`engine.generators.terrain_rolls`) and then places
without another die:

* a piece is centred on its section's centre moved by the scatter (D003-14: the distance runs
  along the normalised keypad direction; a scatter leaving a partial section stops at its edge);
* its long axis lies across the ray from the table centre through that point, so it blocks
  movement and sight from the centre toward the edges and corners as much as it can (D003-14);
* rivers and roads run straight across that point from one table edge to another;
* rivers and roads go down first, then the large pieces, then the small ones (roll order within
  each group). Rivers and roads may cross each other (a ford, a bridge, a crossroads); no other
  two pieces overlap (they may touch), and every piece lies wholly on the table. A piece that
  does not fit where it was rolled goes to the nearest spot of its section where it fits (the
  seed: "adjust as you see fit"), turned a quarter turn if it fits nowhere, then shrunk to 3/4
  and 1/2; one that still does not fit is left out and listed in :attr:`TerrainLayout.unplaced`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import Polygon, box

from engine.dice import RandomSource
from engine.generators.terrain_rolls import (
    RolledPiece,
    Section,
    TerrainError,
    TerrainRolls,
    check_table,
    roll_terrain,
    sections_of,
)
from engine.generators.terrain_shapes import (
    COORD_DECIMALS,
    Floats,
    footprint,
    headings,
    local_ring,
    outlines,
    strip_outline,
)
from engine.generators.terrain_types import (
    SECTION_IN,
    Battlefield,
    PieceSize,
    TerrainType,
    battlefield_for,
    scatter_offset,
)

__all__ = [
    "RolledPiece",
    "Section",
    "TerrainError",
    "TerrainLayout",
    "TerrainPiece",
    "TerrainRolls",
    "check_table",
    "footprint",
    "generate_terrain",
    "place_terrain",
    "roll_terrain",
    "rolled_spot",
    "sections_of",
]

SEARCH_STEP_IN = 0.25
"""Grid of the spots tried when a piece must be moved, inches."""

OVERLAP_EPS_SQ_IN = 1e-6
"""Two pieces may share an edge; sharing more area than this is an overlap, square inches."""

TABLE_TOL_IN = 1e-3
"""A rounded vertex may stand this far past a table edge and still be on the table, inches."""

SHRINK_STEPS = (1.0, 0.75, 0.5)
"""Footprint scales tried in turn before a piece is left out."""

_INSET_IN = 1e-3
"""The fast first pass tests outlines drawn this much smaller, so that touching is no overlap."""
_BATCH = 256
"""Candidate spots tested at once (vectorised) while searching for a fit."""


@dataclass(frozen=True)
class TerrainPiece:
    """A placed piece: where it is and what it is."""

    id: str
    """Unique on the table: type id and a number ("low-wall-2")."""
    rolled: RolledPiece
    x: float
    """Centre (centroid of the footprint), inches."""
    y: float
    heading_deg: float
    """Direction of the long axis, degrees in [0, 180) (RULES §1.1 compass)."""
    polygon: tuple[tuple[float, float], ...]
    """Footprint, counter-clockwise, inches."""
    moved_in: float
    """How far the centre was moved from the rolled spot to make it fit, inches."""
    scale: float
    """1.0, or 0.75 / 0.5 when it had to be shrunk to fit."""
    long_in: float
    """Extent of the footprint along its long axis, inches (a river or road: its length)."""
    short_in: float
    """Extent across the long axis, inches (a river or road: its width)."""

    @property
    def type(self) -> TerrainType:
        """The piece's terrain type and attributes."""
        return self.rolled.type

    @property
    def name(self) -> str:
        """In words, with its number ("low wall 2")."""
        return f"{self.type.name} {self.id.rsplit('-', 1)[1]}"


@dataclass(frozen=True)
class TerrainLayout:
    """A generated table: placed pieces (placement order) and any piece that did not fit."""

    width_in: float
    depth_in: float
    battlefield: Battlefield
    rolls: TerrainRolls
    pieces: tuple[TerrainPiece, ...]
    unplaced: tuple[RolledPiece, ...]


def rolled_spot(piece: RolledPiece) -> tuple[float, float]:
    """Where the scatter puts the piece's centre, kept inside its section, inches."""
    cx, cy = piece.section.centre
    dx, dy = scatter_offset(piece.scatter, piece.distance_in)
    s = piece.section
    return min(max(cx + dx, s.x0), s.x1), min(max(cy + dy, s.y0), s.y1)


def search_offsets() -> Floats:
    """Offsets (m, 2) on a SEARCH_STEP_IN grid across a whole section, nearest first (then by
    x, then by y), inches."""
    n = math.ceil(SECTION_IN / SEARCH_STEP_IN)
    steps = np.arange(-n, n + 1)
    i, j = (a.ravel() for a in np.meshgrid(steps, steps, indexing="ij"))
    order = np.lexsort((j, i, i * i + j * j))
    return np.stack([i[order], j[order]], axis=1).astype(np.float64) * SEARCH_STEP_IN


def _spots(offsets: Floats, section: Section, x: float, y: float) -> tuple[Floats, Floats]:
    """Candidate centres of the section, nearest to (x, y) first (the spot itself first)."""
    xs, ys = x + offsets[:, 0], y + offsets[:, 1]
    inside = (xs >= section.x0) & (xs <= section.x1) & (ys >= section.y0) & (ys <= section.y1)
    return xs[inside], ys[inside]


class _Placer:
    """The pieces placed so far, and the search for where a new one fits."""

    def __init__(self, width_in: float, depth_in: float, battlefield: Battlefield) -> None:
        self.width_in = width_in
        self.depth_in = depth_in
        self.battlefield = battlefield
        self.table = box(0.0, 0.0, width_in, depth_in).buffer(TABLE_TOL_IN, join_style="mitre")
        shapely.prepare(self.table)
        self.solid: list[Polygon] = []
        self.strips: list[Polygon] = []
        self._blockers: dict[bool, object] = {}
        self.offsets = search_offsets()
        """Where to look for room around a piece's rolled spot (once per layout)."""

    def _blocking(self, strip: bool) -> object:
        """The union of what a new piece may not overlap (solid pieces; strips too for a solid)."""
        if strip not in self._blockers:
            shapes = self.solid if strip else self.solid + self.strips
            union = shapely.union_all(shapes) if shapes else None
            if union is not None:
                shapely.prepare(union)
            self._blockers[strip] = union
        return self._blockers[strip]

    def _fits(self, shape: Polygon, strip: bool) -> bool:
        """Whether the footprint lies on the table and overlaps nothing it may not overlap."""
        if not (shape.is_valid and shape.area > 0 and self.table.contains(shape)):
            return False
        blockers = self._blocking(strip)
        return (
            blockers is None
            or not shapely.intersects(blockers, shape)
            or float(shapely.area(shapely.intersection(shape, blockers))) <= OVERLAP_EPS_SQ_IN
        )

    def _maybe_free(self, drawn: Floats, insets: Floats) -> npt.NDArray[np.bool_]:
        """A fast first pass over many outlines (n, k, 2): on the table, and their slightly
        inset copies clear of every solid piece and strip (pieces may touch)."""
        xs, ys = drawn[:, :, 0], drawn[:, :, 1]
        on_table: npt.NDArray[np.bool_] = (
            (xs.min(axis=1) >= -TABLE_TOL_IN)
            & (ys.min(axis=1) >= -TABLE_TOL_IN)
            & (xs.max(axis=1) <= self.width_in + TABLE_TOL_IN)
            & (ys.max(axis=1) <= self.depth_in + TABLE_TOL_IN)
        )
        blockers = self._blocking(False)
        if blockers is None:
            return on_table
        clear: npt.NDArray[np.bool_] = ~shapely.intersects(blockers, shapely.polygons(insets))
        return on_table & clear

    def _add(self, shape: Polygon, strip: bool) -> None:
        (self.strips if strip else self.solid).append(shape)
        self._blockers.clear()

    def place(self, piece: RolledPiece, ident: str) -> TerrainPiece | None:
        x0, y0 = rolled_spot(piece)
        kind = piece.type
        if kind.shape == "strip":
            heading = float(
                headings(np.array([x0]), np.array([y0]), self.width_in, self.depth_in)[0]
            )
            wide_in = kind.footprint_in(self.battlefield)[1]
            shape = strip_outline(wide_in, x0, y0, heading, self.width_in, self.depth_in)
            if not self._fits(shape, True):
                return None
            self._add(shape, True)
            return self._piece(piece, ident, shape, heading, x0, y0, 0.0, 1.0)
        xs, ys = _spots(self.offsets, piece.section, x0, y0)
        base = headings(xs, ys, self.width_in, self.depth_in)
        for scale in SHRINK_STEPS:
            ring = local_ring(kind, self.battlefield, scale)
            inset = local_ring(kind, self.battlefield, scale, _INSET_IN)
            for turn in (0.0, 90.0):
                turned = (base + turn) % 180.0
                for start in range(0, len(xs), _BATCH):
                    part = slice(start, start + _BATCH)
                    px, py, ph = xs[part], ys[part], turned[part]
                    drawn = outlines(ring, px, py, ph)
                    free = self._maybe_free(drawn, outlines(inset, px, py, ph))
                    for k in np.nonzero(free)[0]:
                        shape = Polygon(drawn[k])
                        if not self._fits(shape, False):
                            continue
                        self._add(shape, False)
                        x, y = float(px[k]), float(py[k])
                        moved = math.hypot(x - x0, y - y0)
                        return self._piece(piece, ident, shape, float(ph[k]), x, y, moved, scale)
        return None

    def _piece(
        self,
        piece: RolledPiece,
        ident: str,
        shape: Polygon,
        heading: float,
        x: float,
        y: float,
        moved: float,
        scale: float,
    ) -> TerrainPiece:
        c = shape.centroid
        strip = piece.type.shape == "strip"
        long_in, short_in = (v * scale for v in piece.type.footprint_in(self.battlefield))
        t = math.radians(heading)
        ring = np.asarray(shape.exterior.coords)
        along = ring[:, 0] * math.sin(t) + ring[:, 1] * math.cos(t)
        across = ring[:, 0] * math.cos(t) - ring[:, 1] * math.sin(t)
        return TerrainPiece(
            id=ident,
            rolled=piece,
            x=round(float(c.x), COORD_DECIMALS),
            y=round(float(c.y), COORD_DECIMALS),
            heading_deg=heading,
            polygon=tuple((float(px), float(py)) for px, py in shape.exterior.coords[:-1]),
            moved_in=round(moved, COORD_DECIMALS),
            scale=scale,
            long_in=round(float(along.max() - along.min()) if strip else long_in, COORD_DECIMALS),
            short_in=round(
                float(across.max() - across.min()) if strip else short_in, COORD_DECIMALS
            ),
        )


def _placement_order(piece: RolledPiece) -> int:
    if piece.type.shape == "strip":
        return 0
    return 1 if piece.size is PieceSize.LARGE else 2


def place_terrain(rolls: TerrainRolls, battlefield: Battlefield | None = None) -> TerrainLayout:
    """Place rolled pieces on the table (no dice; see the module notes for the order and rules).

    ``battlefield`` sets the piece sizes (D003-15); by default the table's own size decides.
    """
    width_in, depth_in = rolls.width_in, rolls.depth_in
    field = battlefield if battlefield is not None else battlefield_for(width_in, depth_in)
    placer = _Placer(width_in, depth_in, field)
    counts: dict[str, int] = {}
    placed: list[TerrainPiece] = []
    unplaced: list[RolledPiece] = []
    for piece in sorted(rolls.pieces, key=_placement_order):  # stable: roll order within a group
        number = counts.get(piece.type.id, 0) + 1
        result = placer.place(piece, f"{piece.type.id}-{number}")
        if result is None:
            unplaced.append(piece)
            continue
        counts[piece.type.id] = number
        placed.append(result)
    return TerrainLayout(width_in, depth_in, field, rolls, tuple(placed), tuple(unplaced))


def generate_terrain(
    dice: RandomSource,
    width_in: float = 24.0,
    depth_in: float = 24.0,
    *,
    errata: bool = False,
    battlefield: Battlefield | None = None,
) -> TerrainLayout:
    """Roll and place the terrain of a ``width_in`` x ``depth_in`` table (RULES §5.n).

    ``errata``: D003-12's ``large_terrain_errata``; ``battlefield``: D003-15's piece sizes.
    """
    check_table(width_in, depth_in)
    return place_terrain(roll_terrain(dice, width_in, depth_in, errata=errata), battlefield)

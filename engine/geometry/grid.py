"""Grid mode (RULES.md §1.1, §1.4, G-08): square cells, Chebyshev distance and the cells a
sight line crosses (the moves and sight rules built on them are ``engine.boards.grid``).

A cell is (col, row) with row 0 at the top (the far edge), matching the rule books' diagrams;
cells are ``cell_in`` inches wide. Facings are compass headings in multiples of 45 degrees
(↑ 0, → 90, ↓ 180, ← 270), so the heading functions of ``angles`` apply unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from engine.geometry.angles import Point

Cell = tuple[int, int]
"""A grid square: (column from the left, row from the top)."""

STEPS: tuple[Cell, ...] = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
"""The eight neighbours, clockwise from straight up (facing 0)."""

FILL_THRESHOLD = 0.5
"""A cell counts as an obstacle when at least this fraction of it is covered (seed 003)."""


@dataclass(frozen=True)
class Grid:
    """A grid of ``cols`` x ``rows`` square cells of ``cell_in`` inches over the table."""

    cols: int
    rows: int
    cell_in: float = 1.0
    """Side of a cell, inches."""

    def contains(self, cell: Cell) -> bool:
        """Whether ``cell`` lies on the grid."""
        return 0 <= cell[0] < self.cols and 0 <= cell[1] < self.rows

    def centre(self, cell: Cell) -> Point:
        """The centre of ``cell`` in table inches (x right, y away from the player)."""
        col, row = cell
        return ((col + 0.5) * self.cell_in, (self.rows - row - 0.5) * self.cell_in)

    def cell_at(self, p: Point) -> Cell:
        """The cell containing table point ``p`` (inches); may lie off the grid."""
        col = int(p[0] // self.cell_in)
        row = self.rows - 1 - int(p[1] // self.cell_in)
        return (col, row)

    def square(self, cell: Cell) -> BaseGeometry:
        """The cell as a shapely square in table inches."""
        x, y = self.centre(cell)
        h = self.cell_in / 2.0
        return shapely.box(x - h, y - h, x + h, y + h)

    def cells(self) -> Iterator[Cell]:
        """Every cell, row by row from the top."""
        for row in range(self.rows):
            for col in range(self.cols):
                yield (col, row)

    def coverage(self, shape: BaseGeometry) -> list[tuple[Cell, float]]:
        """The area (square inches) of ``shape`` over each cell within its bounds on the grid,
        row by row from the top (one vectorised intersection: each area is the same number
        as ``shapely.intersection(self.square(cell), shape).area``)."""
        minx, miny, maxx, maxy = shape.bounds
        lo_col, hi_row = self.cell_at((minx, miny))
        hi_col, lo_row = self.cell_at((maxx, maxy))
        rows = range(max(0, lo_row), min(self.rows - 1, hi_row) + 1)
        cols = range(max(0, lo_col), min(self.cols - 1, hi_col) + 1)
        cells = [(col, row) for row in rows for col in cols]
        if not cells:
            return []
        size, h = self.cell_in, self.cell_in / 2.0
        xs = np.array([(c + 0.5) * size for c, _ in cells])
        ys = np.array([(self.rows - r - 0.5) * size for _, r in cells])
        boxes = shapely.box(xs - h, ys - h, xs + h, ys + h)
        areas = shapely.area(shapely.intersection(boxes, shape)).tolist()
        return list(zip(cells, areas, strict=True))

    def filled_cells(self, shape: BaseGeometry) -> frozenset[Cell]:
        """The cells at least half covered by ``shape`` (inches): they count as obstacles."""
        least = FILL_THRESHOLD * self.cell_in * self.cell_in - 1e-12
        return frozenset(c for c, covered in self.coverage(shape) if covered >= least)


def chebyshev(a: Cell, b: Cell) -> int:
    """Grid distance in cells (G-08): a diagonal step counts 1, like a king in chess."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def adjacent(a: Cell, b: Cell) -> bool:
    """Whether two different cells share a side or a corner."""
    return chebyshev(a, b) == 1


def step_facing_deg(step: Cell) -> float:
    """The grid facing in degrees (multiple of 45) of a one-cell step (dcol, drow)."""
    return 45.0 * STEPS.index(step)


@dataclass(frozen=True)
class GridLine:
    """The cells a centre-to-centre line passes through (RULES.md §1.4, supercover)."""

    crossed: tuple[Cell, ...]
    """Cells whose interior the line crosses, in order, both ends included."""
    corners: tuple[tuple[Cell, Cell], ...]
    """For each grid corner the line passes exactly through: the two cells it only touches."""


def grid_line(a: Cell, b: Cell) -> GridLine:
    """The cells between the centres of ``a`` and ``b``, walked exactly (integer arithmetic)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    sx = (dx > 0) - (dx < 0)
    sy = (dy > 0) - (dy < 0)
    ax, ay = abs(dx), abs(dy)
    # In units of half a cell the line runs ax*2 by ay*2 from an odd point; the k-th vertical
    # grid line is crossed at t = (2k + 1) / (2 ax), the m-th horizontal one at (2m + 1) / (2 ay).
    col, row = a
    kx = ky = 0
    crossed = [a]
    corners: list[tuple[Cell, Cell]] = []
    while (col, row) != b:
        # Compare (2kx + 1) / ax with (2ky + 1) / ay without division.
        if ay == 0:
            order = -1
        elif ax == 0:
            order = 1
        else:
            lhs, rhs = (2 * kx + 1) * ay, (2 * ky + 1) * ax
            order = (lhs > rhs) - (lhs < rhs)
        if order == 0:
            corners.append(((col + sx, row), (col, row + sy)))
            col, row, kx, ky = col + sx, row + sy, kx + 1, ky + 1
        elif order < 0:
            col, kx = col + sx, kx + 1
        else:
            row, ky = row + sy, ky + 1
        crossed.append((col, row))
    return GridLine(tuple(crossed), tuple(corners))


@dataclass(frozen=True)
class Walk:
    """A line from square (0, 0) to (col, row) with col >= row >= 0, as the grid board kit
    reads it (``walk_from_origin``)."""

    crossed: tuple[Cell, ...]
    """The squares strictly between the ends."""
    corners: tuple[Cell, ...]
    """The first square (x, y) of each corner pair the line passes (the second is
    (x - 1, y + 1))."""
    near: tuple[Cell, ...]
    """The crossed squares next to the far end."""
    near_start: tuple[Cell, ...]
    """The crossed squares next to (0, 0)."""


def walk_from_origin(ax: int, ay: int) -> Walk:
    """The supercover line from the centre of (0, 0) to that of (``ax``, ``ay``), ``ax`` >=
    ``ay`` >= 0: what ``grid_line`` finds, read column by column. The line leaves column x
    at height ay (2x + 1) / 2ax, in row floor((ay (2x + 1) + ax) / 2ax); when that division
    is exact it leaves through a corner, into the next column one row up."""
    crossed: list[Cell] = []
    corners: list[Cell] = []
    twice, step = 2 * ax, 2 * ay
    row, (up, rest) = 0, divmod(ay + ax, twice or 1)
    for x in range(ax):
        if rest == 0 and ay:
            corners.append((x + 1, row))
        elif up > row:
            crossed.append((x, up))
        crossed.append((x + 1, up))
        row, rest = up, rest + step  # the next column's division, carried (step <= twice)
        if rest >= twice:
            up, rest = up + 1, rest - twice
    inside = tuple(crossed[:-1])
    near = tuple(c for c in inside[-3:] if chebyshev(c, (ax, ay)) <= 1)
    return Walk(inside, tuple(corners), near, tuple(c for c in inside[:3] if max(c) <= 1))

"""Reading squares off the table for a grid game: which square a model stands on, or that it
stands on a line between squares (and the player must centre it), two models on one square,
a model on a wall square.

A model stands on the square under its base centre as the camera reads it (the tag's centre
mapped through the table plane at base-top height, then moved by the tag's offset on its base).
A centre within :data:`LINE_FRACTION` of a square's side from one of its edges is *on the
line*: the assistant never guesses between two squares, it asks for the model to be centred.
Positions in inches; cells are (column, row) with row 0 at the far edge; names like "C4".
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from assistant.session.observation import PieceSeen
from engine.geometry.grid import Cell, Grid
from engine.model import GameState
from engine.scenario import cell_name

LINE_FRACTION = 0.15
"""A centre closer than this fraction of a square's side to one of its edges is on the line."""


@dataclass(frozen=True)
class CellReading:
    """Where a model stands, in squares."""

    cell: Cell | None
    """The square under the model's centre; None when it is off the grid."""
    on_line: bool = False
    """The centre is within LINE_FRACTION of an edge: it is not clearly on one square."""
    between: tuple[Cell, ...] = ()
    """When on the line: the squares of the grid it could be on (2, or 4 at a corner)."""

    @property
    def clear(self) -> bool:
        """On one square of the grid, clear of the lines."""
        return self.cell is not None and not self.on_line


def read_cell(
    grid: Grid, x_in: float, y_in: float, line_fraction: float = LINE_FRACTION
) -> CellReading:
    """The square a model whose base centre is at (x, y) inches stands on, or that it is on
    a line (and which squares it lies between)."""
    s = grid.cell_in
    fx, fy = x_in / s, y_in / s
    col_f, row_f = int(fx // 1), int(fy // 1)  # column from the left, row from the front
    ux, uy = fx - col_f, fy - row_f
    cell = grid.cell_at((x_in, y_in))
    cols = [col_f]
    if ux < line_fraction:
        cols.append(col_f - 1)
    elif ux > 1.0 - line_fraction:
        cols.append(col_f + 1)
    fronts = [row_f]
    if uy < line_fraction:
        fronts.append(row_f - 1)
    elif uy > 1.0 - line_fraction:
        fronts.append(row_f + 1)
    near = [(c, grid.rows - 1 - f) for f in fronts for c in cols]
    on_grid = [c for c in near if grid.contains(c)]
    if not grid.contains(cell):
        if not on_grid:
            return CellReading(None)
        return CellReading(None, True, tuple(sorted(on_grid, key=lambda c: (c[1], c[0]))))
    if len(near) == 1:
        return CellReading(cell)
    return CellReading(cell, True, tuple(sorted(on_grid, key=lambda c: (c[1], c[0]))))


def squares_words(cells: Collection[Cell]) -> str:
    """ "C4 and D4", "C4, D4, C5 and D5"."""
    names = [cell_name(c) for c in cells]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def centre_request(name: str, reading: CellReading) -> str:
    """What to ask of a model on a line (empty when it is clearly on one square)."""
    if reading.clear:
        return ""
    if reading.cell is None and not reading.between:
        return f"The {name} is off the board: put it on a square."
    if reading.cell is None:
        return (
            f"The {name} stands on the board's edge by {squares_words(reading.between)}: "
            "centre it in one square."
        )
    where = "corner" if len(reading.between) > 2 else "line"
    return (
        f"The {name} stands on the {where} between {squares_words(reading.between)}: "
        "centre it in one square."
    )


def board_problems(
    state: GameState,
    pieces: Mapping[str, PieceSeen],
    walls: Collection[Cell],
    names: Mapping[str, str] | None = None,
) -> list[str]:
    """Everything wrong with where the models stand, in squares: a model on a line, off the
    board, on a wall square, or two models on one square. ``names``: how to call each unit
    (default its name)."""
    grid = state.table.grid
    if grid is None:
        return []
    problems: list[str] = []
    by_cell: dict[Cell, list[str]] = {}
    for unit in state.units:
        seen = pieces.get(unit.id)
        if seen is None or not unit.on_table:
            continue
        name = (names or {}).get(unit.id, unit.name)
        reading = read_cell(grid, seen.x_in, seen.y_in)
        if not reading.clear:
            problems.append(centre_request(name, reading))
            continue
        assert reading.cell is not None
        if reading.cell in walls:
            problems.append(f"The {name} stands on a wall square, {cell_name(reading.cell)}.")
        by_cell.setdefault(reading.cell, []).append(name)
    for cell, who in sorted(by_cell.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        if len(who) > 1:
            problems.append(
                f"The {' and the '.join(who)} are both on {cell_name(cell)}: one figure per square."
            )
    return problems

"""The printed board of a grid scenario (the Dungeon Crawl, or any scenario on a square grid):
which squares are walls and which are marked, for ``soloscope markers --scenario NAME``
(:mod:`calibration.kit_grid` draws it) and for the renderer's board (the demo's footage).

Walls are the squares at least half covered by impassable or sight-blocking terrain (RULES
§1.4, as the grid rules read them); every figure's start square is labelled with its name; a
scenario with ``dragon_squares`` (the Arch Foe's d6 start squares, RULES §6.h) gets those three
squares circled with their d6 results.
"""

from __future__ import annotations

import re
from pathlib import Path

from shapely.geometry import Polygon

from assistant.errors import UserError
from calibration.errors import CalibrationError
from calibration.kit_grid import CellMark, GridBoardSpec, append_board_pages, chessboard_words
from calibration.kit_layout import Paper
from engine.geometry.grid import Cell, Grid
from engine.scenario import Scenario, parse_cell
from vision.render.grid_board import PrintedGrid

MM_PER_INCH = 25.4
D6_FACES = ("1-2", "3-4", "5-6")


def _grid(scenario: Scenario) -> Grid | None:
    return scenario.table.grid_shape()


def wall_cells(scenario: Scenario) -> tuple[Cell, ...]:
    """The scenario's wall squares, in reading order."""
    grid = _grid(scenario)
    if grid is None:
        return ()
    walls: set[Cell] = set()
    for piece in scenario.terrain:
        if piece.impassable or piece.blocks_los:
            shape = Polygon(piece.polygon)
            walls |= grid.filled_cells(shape if shape.is_valid else shape.buffer(0))
    return tuple(sorted(walls, key=lambda c: (c[1], c[0])))


def arch_squares(scenario: Scenario) -> tuple[Cell, ...]:
    """The Arch Foe's possible start squares (option ``dragon_squares``: d6 1-2, 3-4, 5-6)."""
    grid = _grid(scenario)
    squares = scenario.options.get("dragon_squares")
    if grid is None or not isinstance(squares, str):
        return ()
    try:
        return tuple(parse_cell(r, grid) for r in re.split(r"[\s,;]+", squares.strip()) if r)
    except ValueError:
        return ()


def board_marks(scenario: Scenario) -> tuple[CellMark, ...]:
    """Each figure's start square with its name; the Arch Foe's possible squares circled,
    with their d6 results."""
    grid = _grid(scenario)
    if grid is None:
        return ()
    names: dict[Cell, str] = {}
    for unit in scenario.units:
        cell = grid.cell_at((unit.x, unit.y))
        if grid.contains(cell):
            names[cell] = unit.name
    arch = arch_squares(scenario)
    who = names.get(arch[0], "Arch Foe") if arch else ""
    marks = [CellMark(c, n) for c, n in names.items() if c not in arch]
    marks += [
        CellMark(c, f"{who}\nd6 {faces}", circled=True)
        for c, faces in zip(arch, D6_FACES, strict=False)
    ]
    return tuple(sorted(marks, key=lambda m: (m.cell[1], m.cell[0])))


def grid_board_spec(scenario: Scenario, cell_mm: float | None = None) -> GridBoardSpec | None:
    """The printed board of a grid scenario (None without a grid); ``cell_mm`` overrides the
    scenario's square size."""
    grid = _grid(scenario)
    if grid is None:
        return None
    return GridBoardSpec(
        grid.cols,
        grid.rows,
        cell_mm=grid.cell_in * MM_PER_INCH if cell_mm is None else cell_mm,
        walls=wall_cells(scenario),
        marks=board_marks(scenario),
        title=scenario.scenario.title or scenario.scenario.name,
    )


def printed_grid(scenario: Scenario) -> PrintedGrid | None:
    """The board as the renderer paints it on the synthetic table (None without a grid)."""
    spec = grid_board_spec(scenario)
    if spec is None:
        return None
    short = tuple((m.cell, m.text.split("\n")[-1]) for m in spec.marks if m.circled)
    return PrintedGrid(spec.cols, spec.rows, spec.cell_mm, spec.walls, short)


def print_grid_board(
    scenario: Scenario, pdf_path: Path, paper: Paper, cell_mm: float | None = None
) -> None:
    """For ``soloscope markers --scenario``: put a grid scenario's board at true scale at the
    start of the kit PDF (nothing for a scenario without a grid), or, with ``cell_mm`` (a real
    board such as a chessboard), say how to lay the corner tags and calibrate."""
    spec = grid_board_spec(scenario)
    if spec is None:
        if cell_mm is not None:
            raise UserError(
                f"--grid-cell-mm: scenario {scenario.scenario.name} is not played on a grid"
            )
        return
    if cell_mm is not None:
        if not 5.0 <= cell_mm <= 120.0:
            raise UserError(f"--grid-cell-mm takes 5 to 120 mm, not {cell_mm:g}")
        for line in chessboard_words(spec.cols, spec.rows, cell_mm):
            print(line)
        if abs(cell_mm - spec.cell_mm) > 0.5:
            print(
                f"Note: {scenario.scenario.name} has squares of {spec.cell_mm:g} mm; for your "
                f"board give its [table.grid] cell_in = {cell_mm / MM_PER_INCH:.3f} and its "
                "[table] width_in and depth_in to match."
            )
        return
    try:
        sheet = append_board_pages(pdf_path, spec, paper)
    except CalibrationError as exc:
        raise UserError(str(exc)) from None
    print(
        f"added the board ({spec.cols} x {spec.rows} squares of {spec.cell_mm:g} mm, "
        f"{len(spec.walls)} wall squares) as the first {len(sheet.tiles)} pages: trim and "
        "tape them crosshair on crosshair"
    )

"""The printed board of a grid scenario (the Dungeon Crawl, or any scenario on a square grid):
which squares are walls and which are marked, for ``soloscope markers --scenario NAME``
(:mod:`calibration.kit_grid` draws it) and for the renderer's board (the demo's footage).

Walls are the squares at least half covered by impassable or sight-blocking terrain (RULES
§1.4, as the grid rules read them); every figure's start square is labelled with its name; a
scenario with ``dragon_squares`` (the Arch Foe's d6 start squares, RULES §6.h) gets those three
squares circled with their d6 results.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from shapely.geometry import Polygon

from assistant.errors import UserError
from calibration.errors import CalibrationError
from calibration.kit_grid import CellMark, GridBoardSpec, append_board_pages, chessboard_words
from calibration.kit_layout import Paper
from calibration.safe_files import write_atomic
from engine.geometry.grid import Cell, Grid
from engine.scenario import Scenario, ScenarioError, parse_cell, parse_scenario
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
        if abs(cell_mm - spec.cell_mm) > 1e-6:
            scaled = pdf_path.with_suffix(".scenario.toml")
            write_scaled_scenario(Path(scenario.source), cell_mm, scaled)
            print(
                f"wrote {scaled}: {scenario.scenario.name} on {cell_mm:g} mm squares (the same "
                f"squares, walls and figures); play it with --scenario {scaled}"
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
    print(chessboard_words(spec.cols, spec.rows, spec.cell_mm)[-1])


# ------------------------------------------------------------------ a scenario on other squares
def scaled_scenario_text(source: Path, cell_mm: float) -> str:
    """The scenario file ``source`` with its squares ``cell_mm`` wide: the table, the grid, the
    positions, deployment zones, terrain polygons and objectives scaled (inches); bases, tags
    and heights stay as they are (they are the player's real pieces)."""
    try:
        raw = tomllib.loads(source.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise UserError(f"cannot read the scenario {source}: {exc}") from None
    table = raw.get("table", {})
    grid = table.get("grid")
    if not isinstance(grid, dict):
        raise UserError(f"{source} has no [table] grid to put on other squares")
    k = cell_mm / MM_PER_INCH / float(grid.get("cell_in", 1.0))

    def pts(points: list[list[float]]) -> list[list[float]]:
        return [[round(x * k, 6), round(y * k, 6)] for x, y in points]

    for key in ("width_in", "depth_in"):
        if key in table:
            table[key] = round(float(table[key]) * k, 6)
    grid["cell_in"] = round(float(grid.get("cell_in", 1.0)) * k, 6)
    for side in raw.get("sides", ()):
        if "deployment" in side:
            side["deployment"] = pts(side["deployment"])
    for item in (*raw.get("units", ()), *raw.get("objectives", ())):
        for key in ("x", "y"):
            if key in item:
                item[key] = round(float(item[key]) * k, 6)
    for piece in raw.get("terrain", ()):
        piece["polygon"] = pts(piece["polygon"])
    header = (
        f"# {source.name} on squares of {cell_mm:g} mm (written by soloscope markers "
        "--grid-cell-mm): the same game, laid on a real board.\n"
    )
    return header + toml_text(raw)


def write_scaled_scenario(source: Path, cell_mm: float, out: Path) -> None:
    """Write the scenario on ``cell_mm`` squares to ``out`` (checked by reading it back)."""
    text = scaled_scenario_text(source, cell_mm)
    try:
        parse_scenario(text, out.name)
    except ScenarioError as exc:
        raise UserError(f"the scenario on {cell_mm:g} mm squares does not load: {exc}") from None
    try:
        write_atomic(out, text)
    except OSError as exc:
        raise UserError(f"cannot write {out}: {exc.strerror}") from None


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    raise UserError(f"cannot write {value!r} to a scenario file")


def toml_text(doc: dict[str, Any]) -> str:
    """A scenario document as TOML: scalars first, then tables, then arrays of tables (inner
    tables inline)."""
    lines: list[str] = []
    tables = {k: v for k, v in doc.items() if isinstance(v, dict)}
    arrays = {k: v for k, v in doc.items() if isinstance(v, list) and v and isinstance(v[0], dict)}
    for key, value in doc.items():
        if key not in tables and key not in arrays:
            lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    for key, table in tables.items():
        lines += ["", f"[{_toml_key(key)}]"]
        lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in table.items()]
    for key, items in arrays.items():
        for item in items:
            lines += ["", f"[[{_toml_key(key)}]]"]
            lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in item.items()]
    return "\n".join(lines) + "\n"

"""Squares read off the table (issue 12): a model is on the square under its centre; within
15 % of a square's side from an edge it is on the line and the player is asked to centre it
(never guessed); a model on a wall square and two models on one square are reported."""

from __future__ import annotations

import pytest

from assistant.scenarios import load_game
from assistant.session.observation import PieceSeen
from assistant.tables.dungeon_cells import (
    LINE_FRACTION,
    board_problems,
    centre_request,
    read_cell,
)
from engine.geometry.grid import Grid

GRID = Grid(8, 8, 1.0)


def test_the_centre_of_c4_reads_c4() -> None:
    x, y = GRID.centre((2, 3))  # "C4": third column, fourth row from the far edge
    reading = read_cell(GRID, x, y)
    assert reading.cell == (2, 3) and reading.clear and not reading.between


@pytest.mark.parametrize(
    ("dx", "on_line"),
    [(0.34, False), (0.349, False), (0.351, True), (0.45, True), (-0.351, True), (-0.34, False)],
)
def test_within_15_percent_of_an_edge_is_on_the_line(dx: float, on_line: bool) -> None:
    assert LINE_FRACTION == 0.15
    x, y = GRID.centre((2, 3))
    reading = read_cell(GRID, x + dx, y)
    assert reading.on_line is on_line
    if on_line:
        side = (3, 3) if dx > 0 else (1, 3)
        assert set(reading.between) == {(2, 3), side}


def test_on_a_corner_it_lies_between_four_squares_and_is_asked_to_centre() -> None:
    reading = read_cell(GRID, 3.02, 4.97)  # the corner of C4, D4, C3 and D3
    assert reading.on_line and reading.between == ((2, 2), (3, 2), (2, 3), (3, 3))
    assert centre_request("Thief", reading) == (
        "The Thief stands on the corner between C3, D3, C4 and D4: centre it in one square."
    )
    line = read_cell(GRID, 2.95, 4.5)
    assert centre_request("Troll", line) == (
        "The Troll stands on the line between C4 and D4: centre it in one square."
    )


def test_off_the_board_and_on_its_edge() -> None:
    assert read_cell(GRID, -0.6, 4.5).cell is None
    assert centre_request("Goblin", read_cell(GRID, -0.6, 4.5)) == (
        "The Goblin is off the board: put it on a square."
    )
    edge = read_cell(GRID, -0.05, 4.5)
    assert edge.cell is None and edge.between == ((0, 3),)
    assert "edge by A4" in centre_request("Goblin", edge)


def test_a_wall_square_and_two_models_on_one_square_are_reported() -> None:
    _, _, state = load_game("dungeon-crawl")
    fm, thief, troll = (state.unit(u) for u in ("fighting-man", "thief", "troll-1"))
    wall = (2, 0)  # C1, a (placeholder) wall of the Dungeon Crawl
    wx, wy = GRID.centre(wall)
    pieces = {u.id: PieceSeen(u.x, u.y, u.heading_deg) for u in state.units}
    pieces[fm.id] = PieceSeen(wx, wy, 0.0)
    pieces[thief.id] = PieceSeen(troll.x + 0.1, troll.y - 0.1, 0.0)
    problems = board_problems(state, pieces, {wall}, {u.id: u.name for u in state.units})
    assert "The Fighting Man stands on a wall square, C1." in problems
    assert "The Thief and the Troll 1 are both on E2: one figure per square." in problems
    assert len(problems) == 2
    nudged = {thief.id: PieceSeen(thief.x + 0.3, thief.y, 0.0)}  # off-centre, clear of lines
    assert board_problems(state, nudged, set()) == []

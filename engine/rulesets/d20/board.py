"""The d20 rules' board (RULES §5.f, §5.g): sight, cover and movement, on a continuous table
and on a grid (spaces and ranges: ``engine.rulesets.d20.ranges``).

On a grid a move is a cheapest 8-connected route (difficult cells cost 2) to a free cell. On a
table without a grid a move is a path whose length (difficult ground counting double) is at
most the Move Unit in spaces times ``space_in`` inches.
Allies never block sight and may be passed through; enemies block both (§5.f, §5.g). On a
grid the squares' mechanics are the grid kit's (``engine.boards.grid``, policy ``POLICY``).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.board import board_memo, per_state
from engine.boards.grid import (
    GridBoard,
    GridFigures,
    GridPolicy,
    grid_board,
    state_figures,
    table_grid,
    terrain_board,
)
from engine.boards.open import OpenPolicy, open_board, open_terrain
from engine.geometry import Cell, MoveArea, Point, centre_distance_in
from engine.model import GameState, Unit
from engine.rulesets.d20.ranges import in_reach, space_in
from engine.rulesets.d20.state import Weapon, card_of

POLICY_OPEN = OpenPolicy(figures_block="enemies")
"""The open-table kit's policy here: enemies block sight, allies never do (§5.g); cover is
the kit's default (a piece crossed or under the base, D003-16)."""
POLICY = GridPolicy()
"""The grid kit's policy here: difficult squares cost 2 (§5.f); allies pass, enemies block
moves and sight; no diagonal step between two squares each walled or holding an enemy."""


def can_attack(
    state: GameState, unit: Unit, weapon: Weapon, target: Unit, at: Point | None = None
) -> bool:
    """Whether the weapon (from ``at``) reaches the target and the attacker sees it: every
    attack, melee and reach included, needs the line of sight of §5.g (a wall between two
    figures, or the corner two diagonal walls pinch on a grid, stops a blow as it stops a
    shot; RULES §1.4)."""
    return in_reach(state, unit, weapon, target, at) and visible(state, unit, target, at)


def grid_squares(state: GameState) -> GridBoard:
    """The terrain's squares in the grid kit (a square at least half filled by a piece takes
    its properties, §1.4), built once per terrain in the game's memo."""
    grid = table_grid(state)
    return grid_board(
        board_memo(state), ("d20", grid), lambda: terrain_board(grid, state.terrain, POLICY)
    )


def grid_figures(state: GameState) -> GridFigures:
    """The figures on the table on the grid kit's squares, each in the cell of its centre
    (enemies block moves and sight, allies pass; once per state, in the game's memo)."""
    return state_figures(state, "d20", _grid_figures, state)


def _grid_figures(state: GameState) -> GridFigures:
    grid = table_grid(state)
    at: dict[Cell, Unit] = {}
    for u in state.units:
        if u.on_table:
            at.setdefault(grid.cell_at(u.position), u)
    return GridFigures(grid_squares(state), at)


def visible(state: GameState, viewer: Unit, target: Unit, at: Point | None = None) -> bool:
    """Line of sight centre to centre (§5.g): blocked by terrain that blocks sight and by the
    viewer's enemies (allies never block); all directions, any distance (D003-05)."""
    origin = viewer.position if at is None else at
    grid = state.table.grid
    if grid is not None:
        return grid_figures(state).sees(viewer, grid.cell_at(origin), grid.cell_at(target.position))
    return open_board(state, POLICY_OPEN).centre_clear(
        viewer, origin, target.position, (target.id,)
    )


def in_cover(state: GameState, target: Unit, shooter: Point, at: Point | None = None) -> bool:
    """Whether the target (standing at ``at``) is in cover from a shot from ``shooter``."""
    spot = target.position if at is None else at
    if not open_terrain(state).cover:
        return False
    return board_memo(state).remember(
        ("d20-cover", shooter, spot, target.radius_in),
        lambda: cover_word(state, target, shooter, spot) != "none",
    )


def cover_word(state: GameState, target: Unit, shooter: Point, at: Point | None = None) -> str:
    """The best cover ("none", "soft", "hard") the target (standing at ``at``) has from a shot
    from ``shooter`` (any of it makes a ranged attack need 16+, D003-16)."""
    spot = target.position if at is None else at
    return open_board(state, POLICY_OPEN).cover(shooter, spot, target.radius_in)[0].value


def move_allowance(state: GameState, unit: Unit) -> float:
    """The Move Unit: in cells on a grid, in inches otherwise."""
    spaces = card_of(unit).move
    return float(spaces) if state.table.grid is not None else spaces * space_in(state)


def move_area(state: GameState, unit: Unit) -> MoveArea:
    """What a moving base avoids when the AI plans: impassable terrain and every other base
    (an ally may be passed, §5.f, but the planner keeps clear of it)."""
    return open_board(state, POLICY_OPEN).move_area(unit)


def occupied(state: GameState, point: Point, unit: Unit) -> str | None:
    """The name of a figure the base at ``point`` would stand on (None: the spot is free)."""
    grid = state.table.grid
    if grid is not None:
        who = grid_figures(state).at.get(grid.cell_at(point))
        return who.name if who is not None and who.id != unit.id else None
    return open_board(state, POLICY_OPEN).overlaps(unit, point)


def move_problem(state: GameState, unit: Unit, path: Sequence[Point]) -> str:
    """Why the path is not a legal move for the unit (empty when it is): within the Move Unit
    (difficult ground doubled), through no enemy and no impassable terrain, on the table,
    ending on no other figure (§5.f). Remembered for the state: the AI checks the path it
    orders and the ruleset checks it again when it validates the order."""
    key = ("d20-move-problem", unit, tuple(tuple(p) for p in path))
    return per_state(state, key, _move_problem, state, unit, path)


def _move_problem(state: GameState, unit: Unit, path: Sequence[Point]) -> str:
    if len(path) < 1:
        return "a move needs a path"
    if centre_distance_in(path[0], unit.position) > 1e-3:
        return f"the path does not start where {unit.name} stands"
    if all(centre_distance_in(p, unit.position) <= 1e-9 for p in path):
        return ""  # a turn on the spot (facing is free, §5.f)
    end = path[-1]
    grid = state.table.grid
    allowance = move_allowance(state, unit)
    if grid is not None:
        start, goal = grid.cell_at(unit.position), grid.cell_at(end)
        if not grid.contains(goal):
            return f"{unit.name} would leave the grid"
        if centre_distance_in(end, grid.centre(goal)) > 1e-3:
            return "a move on the grid ends at the centre of a cell"
        figures = grid_figures(state)
        if goal not in figures.squares.reach(start, card_of(unit).move, figures.closed(unit)):
            return f"{unit.name} cannot reach that cell with a Move Unit of {card_of(unit).move}"
    else:
        fault = open_board(state, POLICY_OPEN).path_fault(unit, path, allowance, "Move Unit")
        if fault:
            return fault
    who = occupied(state, end, unit)
    if who is not None:
        return f"{unit.name} cannot end its move on {who}"
    return ""


def free_cells(state: GameState, unit: Unit) -> list[Cell]:
    """Cells the unit may end a move on (reachable and not occupied), its own included."""
    grid = table_grid(state)
    return list(grid_figures(state).ends(unit, grid.cell_at(unit.position), card_of(unit).move))

"""The d20 rules' spaces and ranges (RULES §5.f, §5.g): how far apart two figures are in
spaces, which battlefield column applies, and which weapons reach.

On a grid a space is a cell: distances are Chebyshev (G-08), "adjacent" is one cell away. On
a table without a grid a space is ``space_in`` inches (option, default 1 in, 25-32 mm figures
§5.g): distances are edge to edge (G-01) in spaces, "adjacent" is an edge gap of at most half
a space, "within N spaces" an edge gap of at most N spaces.
"""

from __future__ import annotations

import math

from engine.geometry import Point, chebyshev, within_in
from engine.model import GameState, Unit
from engine.rulesets.d20.state import RANGES, Weapon

EPS = 1e-6


def large_battlefield(state: GameState) -> bool:
    """The large-battlefield column of §5.f/§5.g (option ``battlefield``; default: large when
    the table is more than 24 in either way)."""
    chosen = state.option_value("battlefield", "")
    if chosen in ("small", "large"):
        return chosen == "large"
    return max(state.table.width_in, state.table.depth_in) > 24.0 + EPS


def space_in(state: GameState) -> float:
    """The size of one space, inches (the grid's cell, or option ``space_in``)."""
    grid = state.table.grid
    return grid.cell_in if grid is not None else state.option("space_in", 1.0)


def weapon_reach(state: GameState, weapon: Weapon) -> int:
    """The weapon's reach in spaces on this battlefield."""
    large, small = RANGES[weapon.kind]
    return large if large_battlefield(state) else small


def spaces_between(state: GameState, a: Unit, b: Unit, at: Point | None = None) -> float:
    """Distance in spaces (grid: Chebyshev cells; else the edge gap over ``space_in``)."""
    pa = a.position if at is None else at
    grid = state.table.grid
    if grid is not None:
        return float(chebyshev(grid.cell_at(pa), grid.cell_at(b.position)))
    # ``edge_gap_in`` inlined (the AI asks this tens of thousands of times a game).
    gap = math.hypot(b.x - pa[0], b.y - pa[1]) - (a.radius_in + b.radius_in)
    return (gap if gap > 0.0 else 0.0) / state.option("space_in", 1.0)


def adjacent(state: GameState, a: Unit, b: Unit, at: Point | None = None) -> bool:
    """Next to each other (melee range): one cell, or an edge gap of at most half a space."""
    return _near(state, spaces_between(state, a, b, at))


def _near(state: GameState, spaces: float) -> bool:
    """Whether a distance in spaces is adjacent: one cell on a grid, half a space off it."""
    return spaces <= 1.0 + EPS if state.table.grid is not None else spaces <= 0.5 + EPS


def in_reach(
    state: GameState, unit: Unit, weapon: Weapon, target: Unit, at: Point | None = None
) -> bool:
    """Whether the weapon reaches the target (§5.g): melee adjacent, reach up to 2 spaces,
    short up to 5 (10), long up to 12 (25) but not adjacent."""
    d = spaces_between(state, unit, target, at)
    near = _near(state, d)  # ``adjacent``, from the one distance
    if weapon.kind == "melee":
        return near
    if weapon.kind == "long" and near:
        return False
    return within_in(d, weapon_reach(state, weapon))

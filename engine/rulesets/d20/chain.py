"""Multi-figure d20 units (RULES §5.e, D003-03): after the first figure moves, every other
figure of the unit is placed touching it or touching a figure already touching it (a chain),
none farther into the battlefield (farther from its own starting edge) than the first.

A figure already in the chain stays where it is; one that is not goes to the free spot
touching the chain that is nearest to where it stood. On a grid "touching" is one cell away;
on an open table it is base contact (G-04). Inches.
"""

from __future__ import annotations

import math

import shapely
from shapely.geometry import Polygon

from engine.actions import Event, event
from engine.geometry import Point, edge_gap_in
from engine.model import GameState, Unit, evolve
from engine.rulesets.d20.board import grid_squares, occupied
from engine.rulesets.d20.state import rules_of
from engine.scenario import cell_name

_DIRECTIONS = 16
EPS = 1e-6


def depth_in(state: GameState, unit: Unit, point: Point) -> float:
    """How far into the battlefield a point is for the unit's side: its distance from the
    side's own starting edge, inches (D003-03)."""
    return state.table.edge_distance_in(point, state.side(unit.side).edge)


def _touching(state: GameState, a: Point, ra: float, b: Point, rb: float) -> bool:
    grid = state.table.grid
    if grid is not None:
        ca, cb = grid.cell_at(a), grid.cell_at(b)
        return max(abs(ca[0] - cb[0]), abs(ca[1] - cb[1])) == 1
    return edge_gap_in(a, ra, b, rb) <= state.option("contact_tol_in", 0.1) + EPS


def _spots(state: GameState, around: Point, r_around: float, r: float) -> list[Point]:
    grid = state.table.grid
    if grid is not None:
        col, row = grid.cell_at(around)
        return [
            grid.centre((col + dc, row + dr))
            for dc in (-1, 0, 1)
            for dr in (-1, 0, 1)
            if (dc or dr) and grid.contains((col + dc, row + dr))
        ]
    reach = r_around + r + state.option("contact_tol_in", 0.1) / 2
    return [
        (
            around[0] + reach * math.sin(2 * math.pi * k / _DIRECTIONS),
            around[1] + reach * math.cos(2 * math.pi * k / _DIRECTIONS),
        )
        for k in range(_DIRECTIONS)
    ]


def _free(state: GameState, unit: Unit, spot: Point) -> bool:
    if not state.table.contains_base(spot, unit.radius_in):
        return False
    if occupied(state, spot, unit) is not None:
        return False
    grid = state.table.grid
    if grid is not None:
        return grid.cell_at(spot) not in grid_squares(state).walls
    disc = shapely.Point(spot).buffer(unit.radius_in - EPS, 16)
    return not any(t.impassable and Polygon(t.polygon).intersects(disc) for t in state.terrain)


def place_chain(state: GameState, leader: Unit) -> tuple[GameState, list[Event]]:
    """Place the rest of ``leader``'s unit in a chain after its move (see the module)."""
    group = rules_of(leader).group
    mates = [
        u for u in state.units_of(leader.side) if u.id != leader.id and rules_of(u).group == group
    ]
    if not mates:
        return state, []
    limit = depth_in(state, leader, leader.position) + EPS
    placed: list[Unit] = [leader]
    events: list[Event] = []
    for mate in mates:
        mate = state.unit(mate.id)
        ok_here = depth_in(state, mate, mate.position) <= limit and any(
            _touching(state, mate.position, mate.radius_in, p.position, p.radius_in) for p in placed
        )
        if ok_here:
            placed.append(mate)
            continue
        best: tuple[float, Point] | None = None
        for anchor in placed:
            for spot in _spots(state, anchor.position, anchor.radius_in, mate.radius_in):
                if depth_in(state, mate, spot) > limit or not _free(state, mate, spot):
                    continue
                d = math.dist(spot, mate.position)
                if best is None or d < best[0] - 1e-9:
                    best = (d, spot)
        if best is None:
            events.append(
                event("chain", state.round, f"{mate.name} finds no place in the chain.", mate.id)
            )
            placed.append(mate)
            continue
        start = mate.position
        mate = evolve(mate, x=best[1][0], y=best[1][1], heading_deg=leader.heading_deg)
        state = state.with_unit(mate)
        placed.append(mate)
        grid = state.table.grid
        where = (
            cell_name(grid.cell_at(mate.position))
            if grid is not None
            else f"({mate.x:.1f}, {mate.y:.1f}) in"
        )
        events.append(
            event(
                "follow",
                state.round,
                f"{mate.name} follows in the chain: put it at {where}.",
                mate.id,
                path=[
                    [round(start[0], 4), round(start[1], 4)],
                    [round(mate.x, 4), round(mate.y, 4)],
                ],
                chain=True,
            )
        )
    return state, events

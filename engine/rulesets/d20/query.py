"""The d20 rules' answers to the controllers' table queries (RULES §5.f, §5.g), plus the
move destinations a status AI weighs. Inches (a grid's cells at their centres)."""

from __future__ import annotations

import math

import numpy as np

from engine.board import MIN_STEP_IN, board_key, remember
from engine.geometry import Point, best_move_toward
from engine.model import GameState, Unit
from engine.query import BoardQuery
from engine.rulesets.d20.board import can_attack, free_cells, move_allowance, move_area, visible
from engine.rulesets.d20.ranges import space_in, spaces_between
from engine.rulesets.d20.state import card_of

RING_DIRECTIONS = 12
"""Directions tried around a figure on an open table when the AI weighs where to stand."""


class D20Query(BoardQuery):
    """Spaces, sight (enemies block, allies do not) and reach of the d20 rules."""

    def movement_allowance_in(self, unit: Unit) -> float:
        """The Move Unit in inches."""
        m = move_allowance(self.state, unit)
        grid = self.state.table.grid
        return m * grid.cell_in if grid is not None else m

    def distance_in(self, a: Unit, b: Unit) -> float:
        """Edge to edge on an open table (G-01); Chebyshev cells times the cell on a grid."""
        return spaces_between(self.state, a, b) * space_in(self.state)

    def visible(self, viewer: Unit, target: Unit) -> bool:
        """Terrain that blocks sight and the viewer's enemies block; allies never do."""
        return visible(self.state, viewer, target)

    def targets(self, unit: Unit, kind: str) -> tuple[Unit, ...]:
        """Enemies one of the unit's weapons reaches now, in sight (§5.g)."""
        weapons = card_of(unit).weapons
        return tuple(
            enemy
            for enemy in self.state.enemies_of(unit)
            if any(can_attack(self.state, unit, w, enemy) for w in weapons)
        )

    def move_toward(self, unit: Unit, point: Point) -> tuple[Point, ...]:
        """The legal move ending nearest ``point`` (a free cell on a grid)."""
        grid = self.state.table.grid
        if grid is not None:
            goal = grid.cell_at(point)
            cells = free_cells(self.state, unit)
            best = min(
                cells,
                key=lambda c: (
                    max(abs(c[0] - goal[0]), abs(c[1] - goal[1])),
                    math.dist(grid.centre(c), point),
                    c,
                ),
            )
            end = grid.centre(best)
            return (
                (unit.position,)
                if end == grid.centre(grid.cell_at(unit.position))
                else (
                    unit.position,
                    end,
                )
            )
        m = move_allowance(self.state, unit)
        return best_move_toward(
            unit.position, point, 0.0, ((m,), (m / 2, m / 2)), move_area(self.state, unit)
        )

    def destinations(self, unit: Unit) -> tuple[tuple[Point, ...], ...]:
        """Moves the AI weighs: every free cell it reaches on a grid; on an open table straight
        runs in 12 directions, full and half length, and staying put."""
        return self._destinations(unit.id)

    def _destinations(self, unit_id: str) -> tuple[tuple[Point, ...], ...]:
        unit = self.state.unit(unit_id)
        grid = self.state.table.grid
        if grid is not None:
            here = grid.cell_at(unit.position)
            return tuple(
                (unit.position,) if c == here else (unit.position, grid.centre(c))
                for c in sorted(free_cells(self.state, unit))
            )
        key = ("d20-ring", *board_key(self.state, unit), card_of(unit).move)
        return remember(self.state, key, lambda: tuple(_ring(self.state, unit)))


def straight_toward(
    state: GameState, unit: Unit, point: Point, stop_in: float
) -> tuple[Point, ...] | None:
    """The straight run toward ``point`` that stops ``stop_in`` short of it (or where the
    Move Unit, an obstacle or the table edge stops it); None when it cannot move that way."""
    toward = _toward(unit, point, stop_in)
    if toward is None:
        return None
    ux, uy, want = toward
    runs = _runs(state, unit, np.array([ux]), np.array([uy]), (want,))
    return runs[0] if runs else None


def ring_and_straight(
    state: GameState, unit: Unit, point: Point, stop_in: float
) -> tuple[tuple[tuple[Point, ...], ...], tuple[Point, ...] | None]:
    """``D20Query(state).destinations(unit)`` and ``straight_toward(state, unit, point,
    stop_in)`` on an open table, the same answers cast in one go when the ring is not
    remembered yet (each ray's length is its own: casting them together changes nothing)."""
    toward = _toward(unit, point, stop_in)
    cast: list[tuple[Point, ...] | None] = []

    def ring_with_straight() -> tuple[tuple[Point, ...], ...]:
        k = RING_DIRECTIONS
        angles = np.arange(k) * (2 * math.pi / k)
        ux, uy = np.sin(angles), np.cos(angles)
        if toward is not None:
            ux, uy = np.append(ux, toward[0]), np.append(uy, toward[1])
        free, room, full = _cast(state, unit, ux, uy)
        m = move_allowance(state, unit)
        ring = _emit(unit, ux, uy, free, room, full, (m, m / 2), range(k))
        if toward is not None:
            runs = _emit(unit, ux, uy, free, room, full, (toward[2],), range(k, k + 1))
            cast.append(runs[0] if runs else None)
        return ((unit.position,), *ring)

    key = ("d20-ring", *board_key(state, unit), card_of(unit).move)
    ring = remember(state, key, ring_with_straight)
    if toward is None:
        return ring, None
    if cast:
        return ring, cast[0]
    return ring, straight_toward(state, unit, point, stop_in)  # the ring was remembered


def _toward(unit: Unit, point: Point, stop_in: float) -> tuple[float, float, float] | None:
    """The unit vector toward ``point`` and the run's wanted length (None: too short)."""
    dx, dy = point[0] - unit.x, point[1] - unit.y
    dist = math.hypot(dx, dy)
    want = dist - stop_in
    if want < MIN_STEP_IN:
        return None
    return dx / dist, dy / dist, want


def _ring(state: GameState, unit: Unit) -> tuple[tuple[Point, ...], ...]:
    """Straight runs in RING_DIRECTIONS directions, full and half Move Unit."""
    k = RING_DIRECTIONS
    angles = np.arange(k) * (2 * math.pi / k)
    m = move_allowance(state, unit)
    return ((unit.position,), *_runs(state, unit, np.sin(angles), np.cos(angles), (m, m / 2)))


def _runs(
    state: GameState, unit: Unit, ux: np.ndarray, uy: np.ndarray, limits: tuple[float, ...]
) -> list[tuple[Point, ...]]:
    """Straight runs along the unit vectors (ux, uy), each up to every limit (inches of
    allowance, at most the Move Unit): one vectorised ray cast against impassable terrain and
    every other base (exact up to rounding: whoever orders one checks it with ``move_problem``)."""
    free, room, full = _cast(state, unit, ux, uy)
    return _emit(unit, ux, uy, free, room, full, limits, range(len(ux)))


def _cast(
    state: GameState, unit: Unit, ux: np.ndarray, uy: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per ray (inches): the free length before an obstacle, the room before the table's edge
    and the reach of a full Move Unit (difficult ground counting double)."""
    m = move_allowance(state, unit)
    area = move_area(state, unit)
    k = len(ux)
    px, py = np.full(k, unit.x), np.full(k, unit.y)
    # Every ray starts at the unit: one origin (what ``free_lengths`` finds with np.unique).
    origin = np.zeros(k, dtype=np.intp)
    free = (
        area.blockers.free_lengths_from(
            np.array([unit.x]), np.array([unit.y]), origin, ux, uy, unit.radius_in
        )
        - 1e-6
    )
    r, w, d = unit.radius_in, state.table.width_in, state.table.depth_in
    with np.errstate(divide="ignore", invalid="ignore"):
        room_x = np.where(
            ux > 0, (w - r - unit.x) / ux, np.where(ux < 0, (r - unit.x) / ux, np.inf)
        )
        room_y = np.where(
            uy > 0, (d - r - unit.y) / uy, np.where(uy < 0, (r - unit.y) / uy, np.inf)
        )
    room = np.maximum(0.0, np.minimum(room_x, room_y) - 1e-6)
    full = area.ground.reach_in(px, py, ux, uy, m)
    return free, room, full


def _emit(
    unit: Unit,
    ux: np.ndarray,
    uy: np.ndarray,
    free: np.ndarray,
    room: np.ndarray,
    full: np.ndarray,
    limits: tuple[float, ...],
    rows: range,
) -> list[tuple[Point, ...]]:
    """The runs of the rays ``rows`` for every limit (limit by limit, ray by ray)."""
    out: list[tuple[Point, ...]] = []
    for limit in limits:
        reach = np.minimum(full, limit)  # difficult ground only shortens a run
        length = np.minimum(np.minimum(free, reach), room)
        for i in rows:
            t = float(length[i])
            if t < MIN_STEP_IN:
                continue
            out.append((unit.position, (unit.x + float(ux[i]) * t, unit.y + float(uy[i]) * t)))
    return out

"""The d20 rules' answers to the controllers' table queries (RULES §5.f, §5.g), plus the
move destinations a status AI weighs. Inches (a grid's cells at their centres)."""

from __future__ import annotations

import math

from engine.geometry import Point, best_move_toward, straight_run
from engine.model import Unit
from engine.query import BoardQuery
from engine.rulesets.d20_board import (
    card_of,
    free_cells,
    in_reach,
    move_allowance,
    move_area,
    space_in,
    spaces_between,
    visible,
)

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
        """Enemies one of the unit's weapons reaches now (ranged ones in sight too)."""
        out = []
        for enemy in self.state.enemies_of(unit):
            for w in card_of(unit).weapons:
                if in_reach(self.state, unit, w, enemy) and (
                    not w.ranged or visible(self.state, unit, enemy)
                ):
                    out.append(enemy)
                    break
        return tuple(out)

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
        m = move_allowance(self.state, unit)
        area = move_area(self.state, unit)
        out: list[tuple[Point, ...]] = [(unit.position,)]
        for k in range(RING_DIRECTIONS):
            heading = 360.0 * k / RING_DIRECTIONS
            for length in (m, m / 2):
                path = straight_run(unit.position, heading, length, area)
                if len(path) > 1:
                    out.append(path)
        return tuple(out)

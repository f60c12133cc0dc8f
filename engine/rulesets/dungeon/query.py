"""The table queries of the grid game (seed 004) for any controller: distances are Chebyshev
squares (G-08) given in inches (squares x cell side), sight is the grid line blocked by walls
and the viewer's enemies (G-03), there is no cover."""

from __future__ import annotations

import math

from engine.geometry import Point
from engine.geometry.grid import chebyshev
from engine.model import Unit
from engine.query import BoardQuery
from engine.rulesets.dungeon.attacks import can_attack
from engine.rulesets.dungeon.board import Board
from engine.rulesets.dungeon.state import card_of, cell_of, heals_left


class DungeonQuery(BoardQuery):
    """Grid answers to :class:`~engine.query.TableQuery`."""

    @property
    def _cell_in(self) -> float:
        grid = self.state.table.grid
        assert grid is not None
        return grid.cell_in

    def movement_allowance_in(self, unit: Unit) -> float:
        """The card's move in squares, as inches."""
        return card_of(unit).move_sq * self._cell_in

    def distance_in(self, a: Unit, b: Unit) -> float:
        """Chebyshev squares between the two, as inches."""
        return chebyshev(cell_of(a), cell_of(b)) * self._cell_in

    def visible(self, viewer: Unit, target: Unit) -> bool:
        """A straight unblocked line of squares (an Alerted figure sees all round)."""
        return Board.of(self.state).line_clear(viewer, cell_of(viewer), target)

    def targets(self, unit: Unit, kind: str) -> tuple[Unit, ...]:
        """``attack``: enemies some weapon can reach now; ``heal``: heroes it may heal now;
        other kinds: every enemy on the board."""
        board = Board.of(self.state)
        if kind == "heal":
            card = card_of(unit)
            if card.heal is None or heals_left(unit) <= 0:
                return ()
            return tuple(
                u
                for u in self.state.units
                if u.on_table
                and u.side == unit.side
                and (u.id != unit.id or card.heal.self_allowed)
                and chebyshev(cell_of(u), cell_of(unit)) <= 1
            )
        foes = tuple(board.enemies(unit))
        if kind != "attack":
            return foes
        return tuple(
            f for f in foes if any(can_attack(board, unit, w, f) for w in card_of(unit).attacks)
        )

    def move_toward(self, unit: Unit, point: Point) -> tuple[Point, ...]:
        """Cell centres of a legal move ending on the reachable square nearest ``point``
        (Chebyshev, then straight distance; the shorter route on a tie)."""
        grid = self.state.table.grid
        assert grid is not None
        goal = grid.cell_at(point)
        routes = Board.of(self.state).reachable(unit)

        def key(item: tuple[tuple[int, int], tuple[tuple[int, int], ...]]) -> tuple[float, ...]:
            c, route = item
            return (chebyshev(c, goal), math.hypot(c[0] - goal[0], c[1] - goal[1]), len(route))

        _, route = min(routes.items(), key=key)
        return tuple(grid.centre(c) for c in (cell_of(unit), *route))

    def cover_at(self, point: Point, against: Unit, radius_in: float = 0.0) -> str:
        """No cover in the grid game."""
        return "none"

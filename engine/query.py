"""The small query surface through which a controller reads the table of any ruleset.

A card AI or a status AI that drives any ruleset (RULES §1.7) asks the ruleset's
:class:`TableQuery` (``ruleset.query(state)``) how far a unit may move, how far apart two units
are, what a unit can see (with the ruleset's own blockers, RULES G-03), whom it could target
with an action of some kind, which path gets it nearest a point, which edge is nearest (G-05)
and what cover a spot has. :class:`BoardQuery` answers what every ruleset shares (edge-to-edge
distance G-01, the G-05 nearest edge, terrain cover); a ruleset subclasses it for the rest.
Inches and degrees throughout.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine.boards.open import OpenBoard, OpenPolicy, open_board
from engine.dice import RandomSource
from engine.errors import EngineError
from engine.geometry import Edge, Obstacle, Point, edge_gap_in
from engine.model import GameState, Unit


class TableQuery(Protocol):
    """What a controller may ask of a ruleset's table (see the module docstring)."""

    def movement_allowance_in(self, unit: Unit) -> float:
        """How far the unit may move in its current action, inches."""
        ...

    def distance_in(self, a: Unit, b: Unit) -> float:
        """The ruleset's distance between two units (edge to edge, G-01; grid: Chebyshev)."""
        ...

    def visible(self, viewer: Unit, target: Unit) -> bool:
        """Line of sight from viewer to target with the ruleset's blockers (G-03)."""
        ...

    def targets(self, unit: Unit, kind: str) -> tuple[Unit, ...]:
        """Units the unit could name as the target of an action of ``kind`` now (a screen:
        ``validate`` still decides)."""
        ...

    def move_toward(self, unit: Unit, point: Point) -> tuple[Point, ...]:
        """A legal path of the ruleset's shape ending as near ``point`` as it can (RULES §1.5);
        ``(start,)`` when the unit cannot get nearer."""
        ...

    def nearest_edge(self, unit: Unit, dice: RandomSource) -> tuple[Edge, int | None]:
        """The nearest table edge (G-05) and the die that broke a tie (None: no roll)."""
        ...

    def cover_at(self, point: Point, against: Unit, radius_in: float = 0.0) -> str:
        """The cover ("none", "soft", "hard") a base of ``radius_in`` at ``point`` has against
        shots from ``against``."""
        ...


class BoardQuery:
    """The parts of :class:`TableQuery` every ruleset shares; subclass for the rest.

    Defaults: distance edge to edge; sight and cover from the open-table kit under
    :attr:`policy` (every other base blocks, the seed-000 policy); targets are the enemies on
    the table; the nearest edge per G-05 (own edge on a tie, then a logged roll).
    """

    policy = OpenPolicy()
    """The ruleset's open-table policy (whose bases block sight, how cover is claimed)."""

    def __init__(self, state: GameState) -> None:
        self.state = state

    def movement_allowance_in(self, unit: Unit) -> float:
        """Override: the base class knows no movement rule."""
        raise EngineError(f"the {self.state.ruleset} ruleset gives no movement allowance")

    def distance_in(self, a: Unit, b: Unit) -> float:
        """Edge-to-edge distance (G-01)."""
        return edge_gap_in(a.position, a.radius_in, b.position, b.radius_in)

    @property
    def board(self) -> OpenBoard:
        """The state's open table under the ruleset's :attr:`policy` (the kit)."""
        return open_board(self.state, self.policy)

    def blockers(self, viewer: Unit, target: Unit) -> tuple[Obstacle, ...]:
        """What blocks sight between the two (G-03): terrain that blocks sight and the bases
        the policy names."""
        return self.board.blockers(viewer, (viewer.id, target.id))

    def visible(self, viewer: Unit, target: Unit) -> bool:
        """The centre line is clear of :meth:`blockers` (G-03's primary test)."""
        ends = (viewer.id, target.id)
        return self.board.centre_clear(viewer, viewer.position, target.position, ends)

    def targets(self, unit: Unit, kind: str) -> tuple[Unit, ...]:
        """Every enemy on the table, in sheet order."""
        return self.state.enemies_of(unit)

    def move_toward(self, unit: Unit, point: Point) -> tuple[Point, ...]:
        """Override: the base class knows no movement rule."""
        raise EngineError(f"the {self.state.ruleset} ruleset gives no movement paths")

    def nearest_edge(self, unit: Unit, dice: RandomSource) -> tuple[Edge, int | None]:
        """G-05: the nearest edge by the base centre; a tie goes to the side's own edge, and
        a tie it does not settle to a logged roll over the tied edges (front, right, back,
        left)."""
        tied = self.state.table.nearest_edges(unit.position)
        own = self.state.side(unit.side).edge
        if len(tied) > 1 and own in tied:
            return own, None
        if len(tied) == 1:
            return tied[0], None
        roll = dice.roll(len(tied), f"nearest-edge tie for {unit.name}")
        return tied[roll - 1], roll

    def cover_at(self, point: Point, against: Unit, radius_in: float = 0.0) -> str:
        """The cover a base at the spot has against shots from ``against`` (the policy's
        rule: by default the best piece crossed or under it, pieces round the shooter aside)."""
        return self.board.cover(against.position, point, radius_in)[0].value


def nearest_first(query: TableQuery, unit: Unit, others: Sequence[Unit]) -> list[Unit]:
    """``others`` nearest first by the query's distance (sheet order on a tie)."""
    return sorted(others, key=lambda o: (query.distance_in(unit, o), o.sheet_order))

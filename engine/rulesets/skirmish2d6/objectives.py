"""Who holds each objective of the 2D6 skirmish (D001B-12): the objective's marker and the
terrain piece it names, and the side with more models within 1 in of it. Inches.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from engine.geometry import EPS_IN, Point, centre_distance_in, within_in
from engine.geometry.raycast import Shape, point_polygon_in, shape_of
from engine.model import GameState, TerrainPiece, Unit

HOLD_REACH_IN = 1.0
"""A model within this edge-to-edge distance of an objective's terrain piece counts for
holding it (D001B-12)."""


@dataclass(frozen=True)
class ObjectiveSite:
    """An objective: its marker and the terrain piece it names (None: the marker alone)."""

    id: str
    name: str
    point: Point
    piece: TerrainPiece | None
    shape: Shape | None = field(init=False, compare=False, repr=False)
    """The terrain piece's outline, inches (None: only the marker)."""

    def __post_init__(self) -> None:
        # Derived once at construction (the frozen-dataclass idiom): never changed afterwards.
        shape = None if self.piece is None else shape_of(self.piece.polygon)
        object.__setattr__(self, "shape", shape)

    def within(self, unit: Unit, reach_in: float) -> bool:
        """Whether the unit's base is within ``reach_in`` of the piece (a bounding-box test
        first)."""
        if self.shape is not None:
            x0, y0, x1, y1 = self.shape.bounds
            dx = max(x0 - unit.x, 0.0, unit.x - x1)
            dy = max(y0 - unit.y, 0.0, unit.y - y1)
            if math.hypot(dx, dy) - unit.radius_in > reach_in + EPS_IN:
                return False
        return within_in(self.gap_in(unit), reach_in)

    def gap_in(self, unit: Unit) -> float:
        """Edge of the unit's base to the piece (or to the marker), inches."""
        if self.shape is None:
            return max(0.0, centre_distance_in(unit.position, self.point) - unit.radius_in)
        return max(0.0, point_polygon_in(self.shape, unit.position) - unit.radius_in)


def objective_sites(state: GameState) -> tuple[ObjectiveSite, ...]:
    """Each objective marker with the terrain piece it stands in, if any (the scenario puts a
    marker inside each objective piece: §3.2.b "choose 3 terrain pieces")."""
    memo = state.memo.for_terrain(state.terrain)
    return memo.remember(("skirmish2d6 sites", state.objectives), lambda: _sites(state))


def _sites(state: GameState) -> tuple[ObjectiveSite, ...]:
    out = []
    for obj in state.objectives:
        piece = next(
            (
                t
                for t in state.terrain
                if point_polygon_in(shape_of(t.polygon), obj.position) <= EPS_IN
            ),
            None,
        )
        out.append(ObjectiveSite(obj.id, obj.name, obj.position, piece))
    return tuple(out)


def holder(state: GameState, site: ObjectiveSite) -> str | None:
    """The side with more models on the table within 1 in of the objective; a tie: nobody
    (D001B-12). Remembered for the game by where the models stand."""
    stands = tuple((u.x, u.y) if u.on_table else None for u in state.units)
    key = ("skirmish2d6 holder", site.id, stands)
    return state.memo.for_terrain(state.terrain).remember(key, lambda: _holder(state, site))


def _holder(state: GameState, site: ObjectiveSite) -> str | None:
    counts: dict[str, int] = {}
    for u in state.units:
        if u.on_table and site.within(u, HOLD_REACH_IN):
            counts[u.side] = counts.get(u.side, 0) + 1
    if not counts:
        return None
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return None
    return ranked[0][0]

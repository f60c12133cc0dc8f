"""Victory in the strike system (D001A-07): seed 003's generic objective game by default (§5.m:
objectives held after the last round, 1 VP for the one nearest a side's own starting edge, 4 VP
for the one nearest the opposing starting edge, 2 VP for any other, 2 VP for removing the
opposing leader; ties in "nearest" all count, D003-11), or the alternative "3 VP per held
objective, 1 VP per kill" (option ``victory = "kills"``). A side with no soldier left on the
table loses at once.
"""

from __future__ import annotations

import math

from engine.geometry import Edge, Point
from engine.model import GameState, Objective, Unit, UnitStatus
from engine.rulesets.strike.state import HOLD_ENEMY_IN, card_of

CONTACT_TOL_IN = 0.1
"""Base contact with a marker (G-04)."""

NEAREST_TIE_IN = 1e-6


def default_objectives(width_in: float, depth_in: float) -> tuple[Objective, ...]:
    """Seed 003's markers: the centre of each whole 12 x 12 in section, plus the table centre
    (on 24 x 24: (6, 6), (18, 6), (6, 18), (18, 18), (12, 12))."""
    cols, rows = max(1, int(width_in // 12)), max(1, int(depth_in // 12))
    points: list[Point] = []
    for j in range(rows):
        for i in range(cols):
            points.append(((i + 0.5) * width_in / cols, (j + 0.5) * depth_in / rows))
    centre = (width_in / 2.0, depth_in / 2.0)
    if all(math.dist(p, centre) > 1e-9 for p in points):
        points.append(centre)
    return tuple(
        Objective(f"objective-{k + 1}", f"objective {k + 1}", x, y)
        for k, (x, y) in enumerate(points)
    )


def edge_centre(state: GameState, edge: Edge) -> Point:
    """The middle of a table edge, inches."""
    w, d = state.table.width_in, state.table.depth_in
    return {
        Edge.FRONT: (w / 2, 0.0),
        Edge.BACK: (w / 2, d),
        Edge.LEFT: (0.0, d / 2),
        Edge.RIGHT: (w, d / 2),
    }[edge]


def _nearest(objectives: tuple[Objective, ...], point: Point) -> set[str]:
    if not objectives:
        return set()
    best = min(math.dist(o.position, point) for o in objectives)
    return {o.id for o in objectives if math.dist(o.position, point) <= best + NEAREST_TIE_IN}


def marker_gap_in(unit: Unit, objective: Objective) -> float:
    """Figure-to-point distance (G-01), inches."""
    return max(0.0, math.dist(unit.position, objective.position) - unit.radius_in)


def holder(state: GameState, objective: Objective) -> str | None:
    """The side holding the marker: a soldier in base contact and no enemy within 2 in."""
    tol = state.option("contact_tol_in", CONTACT_TOL_IN)
    near = [u for u in state.units if u.on_table and marker_gap_in(u, objective) <= HOLD_ENEMY_IN]
    touching = {u.side for u in near if marker_gap_in(u, objective) <= tol + 1e-9}
    for side in sorted(touching):
        if not any(u.side != side for u in near):
            return side
    return None


def objective_value(state: GameState, side: str, objective: Objective) -> int:
    """What holding the marker is worth to ``side`` (D001A-07)."""
    if state.option_value("victory", "objectives") == "kills":
        return 3
    own = state.side(side).edge
    other = state.side(state.other_side(side)).edge
    if objective.id in _nearest(state.objectives, edge_centre(state, other)):
        return 4
    if objective.id in _nearest(state.objectives, edge_centre(state, own)):
        return 1
    return 2


def victory_points(state: GameState) -> dict[str, int]:
    """Each side's victory points now (objectives held, leaders or kills)."""
    kills_mode = state.option_value("victory", "objectives") == "kills"
    vp = {s.name: 0 for s in state.sides}
    for objective in state.objectives:
        side = holder(state, objective)
        if side is not None:
            vp[side] += objective_value(state, side, objective)
    for u in state.units:
        if u.status is not UnitStatus.FALLEN:
            continue
        other = state.other_side(u.side)
        if kills_mode:
            vp[other] += 1
        elif card_of(u).leader:
            vp[other] += 2
    return vp


def points_winner(vp: dict[str, int]) -> str:
    """The side with the most VP, or "draw"."""
    best = max(vp.values())
    top = [s for s, v in vp.items() if v == best]
    return top[0] if len(top) == 1 else "draw"

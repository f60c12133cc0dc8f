"""When a narrative (seed 000) battle can never go on: neither side can ever act again.

RULES D000-16: there is no round limit unless the scenario sets ``max_rounds``; a battle in
which neither side can ever act again is a draw, and says why. A character "can act" when some
action of its own could change the board: it is in melee (it can attack), it can shoot, it can
pick up an objective, it can flee or run off the table, or its base can move at all. Pivots do
not count: with nobody able to move, shoot or fight, turning changes nothing for good. A board
where no character on either side can act stays that way forever.
"""

from __future__ import annotations

from engine.geometry import Edge, point_gap_in, straight_run, toward_edge_path, within_in
from engine.model import GameState, Unit
from engine.rulesets.narrative.board import (
    OBJECTIVE_REACH_IN,
    can_shoot_from,
    card_of,
    contacting_enemies,
    move_area,
)
from engine.rulesets.narrative.state import carrying, is_routing

#: Directions tried (evenly spaced) when asking whether a base can move at all.
STEP_DIRECTIONS = 36


def can_act(state: GameState, unit: Unit) -> bool:
    """Whether the unit has an action that changes the board (more than a pivot)."""
    if contacting_enemies(state, unit):
        return True
    card = card_of(unit)
    area = move_area(state, unit)
    routing = is_routing(state, unit)
    if routing or carrying(unit) is not None:
        # A flight (toward the nearest edge) or a carrier's run may leave the table even where
        # no step stays on it.
        edges = state.table.nearest_edges(unit.position) if routing else tuple(Edge)
        for edge in edges:
            path, leaves = toward_edge_path(unit.position, edge, card.move_in, area)
            if leaves or len(path) > 1:
                return True
        if routing:
            return False
    if any(can_shoot_from(state, unit, e) for e in state.enemies_of(unit)):
        return True
    if carrying(unit) is None and any(
        o.carried_by is None
        and o.scored_by is None
        and within_in(point_gap_in(unit.position, unit.radius_in, o.position), OBJECTIVE_REACH_IN)
        for o in state.objectives
    ):
        return True
    return any(
        len(straight_run(unit.position, k * 360.0 / STEP_DIRECTIONS, card.move_in, area)) > 1
        for k in range(STEP_DIRECTIONS)
    )


def stalemate(state: GameState) -> str:
    """Why neither side can ever act again, or "" when someone still can."""
    if any(can_act(state, u) for u in state.units if u.on_table):
        return ""
    return "neither side can ever act again: no character can move, shoot, fight or flee"

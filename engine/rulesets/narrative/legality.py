"""Seed 000 (RULES.md §2): why an action is illegal now, as plain sentences.

:func:`action_problems` is ``NarrativeRuleset.validate``; the flight edges (G-05) live here
too, since both the check of an announced flight and its resolution need them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.actions import Action, ActionKind
from engine.board import MIN_STEP_IN, clip_to_table, touching
from engine.errors import EngineError
from engine.geometry import (
    Edge,
    Point,
    bearing_deg,
    check_path,
    normalize_deg,
    path_cost_in,
    point_gap_in,
    within_in,
    wrap180,
)
from engine.model import GameState, Unit
from engine.protocols import Pending, PendingKind
from engine.rulesets.narrative.board import (
    OBJECTIVE_REACH_IN,
    board,
    can_shoot_from,
    card_of,
    contacting_enemies,
    gap_between,
    in_shooting_range,
    move_area,
    move_patterns,
)
from engine.rulesets.narrative.state import carrying, is_routing, rules_of
from engine.turns import cannot_act, prologue

#: How far (inches) a path's first point may lie from where the figure stands, and an announced
#: flight's points from the flight path.
POS_TOL_IN = 1e-3
#: A move's stated final heading may differ this much (degrees) from its last leg's direction
#: (rounding of the path's points); any more is a pivot after the leg, which §2.e does not allow.
HEADING_TOL_DEG = 0.1


def flight_edges(state: GameState, unit: Unit) -> tuple[Edge, ...]:
    """The edges a routing or carrying unit may head for (G-05): the nearest, or its own
    edge among tied nearest ones, or every tied one (then a roll chooses)."""
    tied = state.table.nearest_edges(unit.position)
    own = state.side(unit.side).edge
    return (own,) if len(tied) > 1 and own in tied else tied


EDGE_ROLL = "edge_roll"
"""The detail of an announced flight that gives the die rolled for a nearest-edge tie (G-05):
roll r of a d(n) over the n tied edges (front, right, back, left order) picks the r-th."""


def edge_roll_detail(roll: int | None) -> tuple[tuple[str, int], ...]:
    """The detail an announced flight carries for the tie roll that chose its edge (none when
    no tie was rolled)."""
    return () if roll is None else ((EDGE_ROLL, roll),)


def flight_problem(state: GameState, unit: Unit, action: Action) -> str | None:
    """Why an announced flight (one with a path) is refused: not straight at a flight edge,
    or, when the nearest edges tie and the own edge does not settle it (G-05), not toward the
    edge its tie roll (``edge_roll``) picked. A flight announced without a path is fine: the
    ruleset rolls any tie itself."""
    if not action.path:
        return None
    edges = flight_edges(state, unit)
    edge = flight_edge(state, unit, action.path)
    if edge is None:
        names = " or ".join(e.value for e in edges)
        return f"{unit.name} must flee straight toward the nearest edge ({names})"
    if len(edges) == 1:
        return None
    roll = action.get(EDGE_ROLL)
    names = " and ".join(e.value for e in edges)
    if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= len(edges):
        return (
            f"{unit.name} is as near the {names} edges: a d{len(edges)} decides which it "
            "flees toward (announce the flight without a path and it is rolled)"
        )
    if edges[roll - 1] is not edge:
        return (
            f"{unit.name} rolled {roll} for the tie between the {names} edges: it flees "
            f"toward the {edges[roll - 1].value} edge, not the {edge.value} edge"
        )
    return None


def flight_edge(state: GameState, unit: Unit, path: Sequence[Point]) -> Edge | None:
    """The flight edge whose flight path is ``path`` (the one the order announced), if any."""
    for edge in flight_edges(state, unit):
        flight, _ = board(state).flee_path(unit, edge, card_of(unit).move_in)
        if len(flight) == len(path) and all(
            math.dist(a, b) <= POS_TOL_IN for a, b in zip(flight, path, strict=True)
        ):
            return edge
    return None


def _not_ready(state: GameState, unit: Unit, pending: Pending) -> str:
    """Why a character that is not a candidate cannot activate."""
    if not unit.on_table:
        return f"{unit.name} is no longer on the table"
    if unit.activated:
        return f"{unit.name} has already activated this round"
    return cannot_act(state, unit, pending)


def action_problems(
    state: GameState, action: Action, pending: Pending, action_kinds: frozenset[str]
) -> list[str]:
    """Why ``action`` is illegal while the battle waits for ``pending`` (empty: legal)."""
    opening = prologue(state, pending, action, action_kinds, _not_ready, continue_pass=True)
    if opening is not None:
        return opening
    unit = state.unit(action.unit_id or "")
    if action.kind == ActionKind.PASS:
        return []  # a character's pass is its side's (or the bonus activation's end)
    return _unit_action_problems(state, unit, action)


def _unit_action_problems(state: GameState, unit: Unit, action: Action) -> list[str]:
    card = card_of(unit)
    kind = action.kind
    rules = rules_of(state)
    move_in = rules.bonus_move_in if rules.waiting is PendingKind.CONTINUE else card.move_in
    if is_routing(state, unit):
        if kind != ActionKind.FLEE:
            return [f"{unit.name} is routing and must flee"]
        if action.pick_up is not None:
            return [f"{unit.name} is routing and cannot pick anything up"]
        problem = flight_problem(state, unit, action)
        return [problem] if problem else []
    if kind == ActionKind.FLEE:
        return [f"{unit.name} is not routing"]
    engaged = contacting_enemies(state, unit)
    if engaged:
        if kind != ActionKind.CONTINUE_MELEE:
            return [f"{unit.name} is in melee and must continue the melee"]
        if action.pick_up is not None:
            return [f"{unit.name} is in melee and cannot pick anything up"]
        if action.target_id not in {e.id for e in engaged}:
            names = ", ".join(e.name for e in engaged)
            return [f"{unit.name} can only attack an enemy in contact ({names})"]
        return []
    if kind == ActionKind.CONTINUE_MELEE:
        return [f"{unit.name} is not in melee"]
    problems: list[str] = []
    carried = carrying(unit)
    if action.pick_up is not None:
        problems += _pick_up_problems(state, unit, action.pick_up)
        carried = action.pick_up
    target = None
    if action.target_id is not None:
        if not state.has_unit(action.target_id):
            return [f"no character {action.target_id!r} in this battle"]
        target = state.unit(action.target_id)
        if target.side == unit.side or not target.on_table:
            return [f"{target.name} is not an enemy on the table"]
    moving = kind in (
        ActionKind.MOVE,
        ActionKind.MOVE_AND_SHOOT,
        ActionKind.MOVE_INTO_MELEE,
    )
    end = unit.position
    if moving:
        bad_path = path_problem(state, unit, action.path, move_in, carried)
        if bad_path:
            problems.append(bad_path)
        elif action.path:
            end = action.path[-1]
        if not problems:
            problems += _facing_problems(unit, action)
    if kind in (ActionKind.SHOOT, ActionKind.MOVE_AND_SHOOT):
        if card.shoot_range_in is None:
            return [f"{unit.name} has no shooting range"]
        if target is None:
            return [*problems, "a shot needs a target"]
        if not problems:
            if not in_shooting_range(unit, target, end):
                gap = gap_between(unit, target, end)
                problems.append(
                    f"{target.name} is {gap:.1f} in away, beyond the {card.shoot_range_in:g} in range"
                )
            elif not can_shoot_from(state, unit, target, end):
                problems.append(f"{unit.name} cannot see {target.name}")
        if not problems and kind == ActionKind.MOVE_AND_SHOOT:
            problems += _contact_problems(state, unit, end, "shoot")
    elif kind == ActionKind.MOVE_INTO_MELEE:
        if target is None:
            return [*problems, "a charge needs a target"]
        if not problems and not touching(state, unit, target, end):
            problems.append(f"the move does not reach base contact with {target.name}")
    elif kind == ActionKind.MOVE and not problems:
        if state.table.contains_base(end, unit.radius_in):
            problems += _contact_problems(state, unit, end, "move")
    elif kind != ActionKind.MOVE:
        problems.append(f"{kind} is not an action of this ruleset")
    return problems


def _pick_up_problems(state: GameState, unit: Unit, objective_id: str) -> list[str]:
    try:
        objective = state.objective(objective_id)
    except EngineError:
        return [f"no objective {objective_id!r}"]
    if carrying(unit) is not None:
        return [f"{unit.name} already carries an objective"]
    if objective.carried_by is not None or objective.scored_by is not None:
        return [f"{objective.name} is not on the ground"]
    if not within_in(
        point_gap_in(unit.position, unit.radius_in, objective.position), OBJECTIVE_REACH_IN
    ):
        return [f"{unit.name} is not next to {objective.name}"]
    return []


def _contact_problems(state: GameState, unit: Unit, end: Point, what: str) -> list[str]:
    """A Move or a Move-and-shoot may not end in base contact with an enemy (D000-16)."""
    touched = contacting_enemies(state, unit, end)
    if not touched:
        return []
    if what == "move":
        return [
            f"the move ends in contact with {touched[0].name}: declare a move into melee instead"
        ]
    return [
        f"the move ends in contact with {touched[0].name}: a move and shoot may not end "
        "in base contact (only a move into melee may)"
    ]


def _facing_problems(unit: Unit, action: Action) -> list[str]:
    """§2.e: pivots come only before a leg, so a move ends facing along its last leg; a
    different final heading needs a last leg of length zero (a pivot, then no movement)."""
    path = action.path
    if action.heading_deg is None or len(path) < 2:
        return []
    a, b = path[-2], path[-1]
    if math.dist(a, b) < MIN_STEP_IN:
        return []
    along = bearing_deg(a, b)
    if abs(wrap180(action.heading_deg - along)) <= HEADING_TOL_DEG:
        return []
    return [
        f"{unit.name} ends the move facing along its last leg ({round(along) % 360} degrees), "
        f"not {round(normalize_deg(action.heading_deg)) % 360}: a pivot comes only before a leg"
    ]


def path_problem(
    state: GameState,
    unit: Unit,
    path: tuple[Point, ...],
    move_in: float,
    carrying: str | None,
) -> str:
    """Why ``path`` is not a legal seed-000 move of at most ``move_in`` for the unit (one leg
    of up to M or two of up to M/2, §2.e; a carrier may run off the table); empty when legal."""
    if not path:
        return ""
    start = path[0]
    if abs(start[0] - unit.x) > POS_TOL_IN or abs(start[1] - unit.y) > POS_TOL_IN:
        return f"the path must start where {unit.name} stands"
    area = move_area(state, unit)
    leaving = carrying is not None and not state.table.contains_base(path[-1], unit.radius_in)
    checked = path
    if leaving:
        # A carrier may run off an edge: the path up to the edge must be legal.
        if len(path) < 2:
            return f"{unit.name} is not moving"
        checked = (*path[:-1], clip_to_table(path[-2], path[-1], unit.radius_in, state.table))
    reasons = []
    for legs in move_patterns(move_in):
        if len(checked) - 1 > len(legs):
            continue
        limits = legs[: max(1, len(checked) - 1)]
        result = check_path(checked, limits, area)
        if result.legal:
            if leaving and path_cost_in(path) > sum(legs) + 1e-6:
                reasons.append(f"the move is longer than {sum(legs):g} in")
                continue
            return ""
        reasons.append(result.reason)
    # The first pattern that fits the path says it best (one leg: the full-move pattern).
    return reasons[0] if reasons else f"a move has at most two legs for {unit.name}"

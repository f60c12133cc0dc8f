"""The narrative ruleset's moves as the camera sees them: an observed start and end joined by a
legal path (one leg of M, or two of M/2), the player's declaration turned into an action, and
the actions a move in footage could have been. Inches and degrees.
"""

from __future__ import annotations

import math
from dataclasses import replace

from assistant.session.observation import PieceSeen
from assistant.tables.base import ObservedMove, ReplayMove, Tolerances
from engine.actions import Action, ActionKind
from engine.errors import EngineError
from engine.geometry import Edge, Point, bearing_deg, check_path, find_path, wrap180
from engine.model import GameState, Unit
from engine.protocols import Ruleset
from engine.rulesets.narrative.board import card_of, contacting_enemies, move_area, move_patterns
from engine.rulesets.narrative.state import bonus_move_for, carrying, is_routing
from engine.rulesets.narrative.tactics import carry_route, objective_next_to


def move_allowance_in(state: GameState, unit: Unit) -> float:
    """How far the unit may move in this activation, inches."""
    bonus = bonus_move_for(state, unit)
    return card_of(unit).move_in if bonus is None else bonus


def observed_path(
    state: GameState, unit: Unit, seen: PieceSeen
) -> tuple[tuple[Point, ...] | None, str]:
    """A legal path from where the unit stood to where its model now stands, or the reason
    there is none ("the path crosses the farmhouse", "7.2 in is more than its 6 in move")."""
    start, end = unit.position, (seen.x_in, seen.y_in)
    if math.dist(start, end) <= 0.05:
        return (start,), ""
    allowance = move_allowance_in(state, unit)
    area = move_area(state, unit)
    path = find_path(start, end, move_patterns(allowance), area)
    if path is not None:
        return tuple(path), ""
    distance = math.dist(start, end)
    if distance > allowance + 1e-6:
        return (
            None,
            f"{unit.name} moved {distance:.1f} inches, more than its {allowance:g} inch move",
        )
    straight = check_path((start, end), (allowance,), area)
    reason = straight.reason or "no path of at most two legs reaches that spot"
    return None, reason


def declared_heading(path: tuple[Point, ...], seen_deg: float) -> float | None:
    """The final heading to declare for a move the camera saw: None (along the last leg, as
    §2.e has a move end) when the model faces that way within the camera's facing tolerance,
    else the heading seen (a turn after the move, which the rules judge)."""
    if len(path) < 2 or math.dist(path[-2], path[-1]) < 1e-6:
        return seen_deg
    along = bearing_deg(path[-2], path[-1])
    return None if abs(wrap180(seen_deg - along)) <= Tolerances().facing_deg else seen_deg


def _pick_up(state: GameState, unit: Unit) -> str | None:
    """The objective the unit picks up before it acts (a free step, D000-11), if any."""
    pick = objective_next_to(state, unit)
    return pick.id if pick is not None and carrying(unit) is None else None


def observed_action(
    state: GameState,
    ruleset: Ruleset,
    what: str,
    target: str | None,
    move: ObservedMove | None,
    unit_id: str | None,
) -> Action | str:
    """The action the player declared, or a sentence saying what is missing."""
    pending = ruleset.pending(state)
    uid: str | None
    if move is not None:
        uid, path, _, heading = move
    else:
        candidates = list(pending.candidates)
        uid = (
            unit_id if unit_id in candidates else (candidates[0] if len(candidates) == 1 else None)
        )
        if uid is None:
            in_melee = [c for c in candidates if contacting_enemies(state, state.unit(c))]
            if what == "melee" and len(in_melee) == 1:
                uid = in_melee[0]
            else:
                return "Move a character first, or choose on the page which one acts."
        path, heading = None, state.unit(uid).heading_deg
    assert uid is not None
    unit = state.unit(uid)
    moved = path is not None and len(path) > 1
    pick_up = _pick_up(state, unit)
    if what in ("shoot", "melee") and target is None:
        if what == "melee":
            touching = contacting_enemies(state, unit)
            if len(touching) == 1:
                target = touching[0].id
        if target is None:
            return f"Say which enemy {unit.name} should {'shoot' if what == 'shoot' else 'fight'}."
    if target is not None and not state.has_unit(target):
        return f"There is no character {target!r} in this battle."
    if what == "shoot":
        kind = ActionKind.MOVE_AND_SHOOT if moved else ActionKind.SHOOT
        return Action(
            kind, uid, path=path if moved and path else (), target_id=target, pick_up=pick_up
        )
    if what == "melee":
        if moved and path:
            return Action(
                ActionKind.MOVE_INTO_MELEE, uid, path=path, target_id=target, pick_up=pick_up
            )
        return Action(ActionKind.CONTINUE_MELEE, uid, target_id=target)
    if what in ("done", "move", "hold"):
        if moved and path:
            return Action(
                ActionKind.MOVE,
                uid,
                path=path,
                heading_deg=declared_heading(path, heading),
                pick_up=pick_up,
            )
        return Action(ActionKind.MOVE, uid, heading_deg=heading, pick_up=pick_up)
    return f"I don't know the action {what!r}: say shoot, melee, done or pass."


def _legal_path(
    state: GameState, unit: Unit, seen: PieceSeen, slack_in: float
) -> tuple[tuple[Point, ...] | None, str, bool]:
    """A legal path for the observed move, or why there is none; the end may lie up to
    ``slack_in`` beyond a legal spot, as the camera measures. The last item says whether that
    allowance was needed."""
    try:
        path, why = observed_path(state, unit, seen)
        if path is not None:
            return path, "", False
        length = math.dist(unit.position, (seen.x_in, seen.y_in))
        # back along the line by just the overshoot of a straight move, then by the whole slack
        overshoot = length - move_allowance_in(state, unit) + 1e-3
        backs = [b for b in (overshoot, slack_in) if 0 < b <= slack_in] if length > slack_in else []
        for back in backs:
            k = (length - back) / length
            near = PieceSeen(
                unit.x + (seen.x_in - unit.x) * k,
                unit.y + (seen.y_in - unit.y) * k,
                seen.heading_deg,
            )
            nearer, _ = observed_path(state, unit, near)
            if nearer is not None:
                return nearer, "", True
    except EngineError as exc:
        return None, str(exc), False
    return None, why, False


def replay_move(
    state: GameState, ruleset: Ruleset, unit: Unit, seen: PieceSeen, slack_in: float
) -> ReplayMove:
    """The legal actions a move in footage could have been: a flight when its company is
    routing; otherwise a move, a charge into whoever it ends touching, or a move and shoot,
    picking up an objective it stands next to first."""
    if is_routing(state, unit):
        return ReplayMove((Action(ActionKind.FLEE, unit.id),), True)
    path, why, nudged = _legal_path(state, unit, seen, slack_in)
    if path is None:
        return ReplayMove((), False, why)
    pick_up = _pick_up(state, unit)
    options: list[Action] = []
    if len(path) > 1:
        end = path[-1]
        # Facing along the last leg (within the camera's tolerance it is that), or as seen.
        for heading in (None, seen.heading_deg):
            options.append(
                Action(ActionKind.MOVE, unit.id, path=path, heading_deg=heading, pick_up=pick_up)
            )
        there = replace(unit, x=end[0], y=end[1])
        for enemy in contacting_enemies(state.with_unit(there), there):
            options.append(
                Action(
                    ActionKind.MOVE_INTO_MELEE,
                    unit.id,
                    path=path,
                    target_id=enemy.id,
                    pick_up=pick_up,
                )
            )
        if card_of(unit).shoot_range_in:
            options += [
                Action(
                    ActionKind.MOVE_AND_SHOOT, unit.id, path=path, target_id=e.id, pick_up=pick_up
                )
                for e in state.enemies_of(unit)
            ]
    else:
        options.append(
            Action(ActionKind.MOVE, unit.id, heading_deg=seen.heading_deg, pick_up=pick_up)
        )
    problems = [ruleset.validate(state, a) for a in options]
    legal = tuple(a for a, p in zip(options, problems, strict=True) if not p)
    if not legal:
        return ReplayMove((), False, problems[0][0])
    return ReplayMove(legal, True, nudged=nudged)


def stand_in_actions(state: GameState, unit: Unit) -> tuple[Action, ...]:
    """Actions that leave the unit where it stands: fight on against an enemy it touches, a
    shot, or holding its ground; and for a carrier within reach of an edge, the run that
    carries its objective off the table (footage shows it only as the model taken off)."""
    options = [
        Action(ActionKind.CONTINUE_MELEE, unit.id, target_id=enemy.id)
        for enemy in contacting_enemies(state, unit)
    ]
    if card_of(unit).shoot_range_in:
        options += [
            Action(ActionKind.SHOOT, unit.id, target_id=enemy.id)
            for enemy in state.enemies_of(unit)
        ]
    options.append(Action(ActionKind.MOVE, unit.id, heading_deg=unit.heading_deg))
    if carrying(unit) is not None and not is_routing(state, unit):
        allowance = move_allowance_in(state, unit)
        for edge in Edge:
            path, leaves = carry_route(state, unit, edge, allowance)
            if leaves:
                options.append(Action(ActionKind.MOVE, unit.id, path=path))
    if is_routing(state, unit):
        options.append(Action(ActionKind.FLEE, unit.id))
    return tuple(options)

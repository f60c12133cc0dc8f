"""Orders and events in board terms, as the assistant says them at the table.

"Raider Chief: turn left about 40 degrees and move 6 inches toward the standing stones,
into contact with Spearman Brand, and attack. Why: Spearman Brand is the closest enemy
it can reach." Distances in inches, turns in degrees rounded to 5.
"""

from __future__ import annotations

import itertools
import math

from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon

from engine.actions import ActionKind, Event, EventType, Order
from engine.geometry import (
    Cover,
    CoverArea,
    Edge,
    Point,
    bearing_deg,
    cover_between,
    in_forward_arc,
    path_cost_in,
    wrap180,
)
from engine.model import GameState, Unit
from engine.rulesets.narrative_board import card_of, gap_between, sight_between

#: A landmark is named when the destination lies within this many inches of it.
LANDMARK_RADIUS_IN = 3.0
#: Turns smaller than this many degrees are not mentioned.
SMALL_TURN_DEG = 10.0


def _round5(deg: float) -> int:
    return int(5 * round(abs(deg) / 5))


def turn_phrase(from_deg: float, to_deg: float) -> str:
    """ "turn left about 40 degrees" (empty for a small turn)."""
    turn = wrap180(to_deg - from_deg)
    if abs(turn) < SMALL_TURN_DEG:
        return ""
    if abs(turn) > 170:
        return "turn about"
    side = "right" if turn > 0 else "left"
    return f"turn {side} about {_round5(turn)} degrees"


def inches(distance_in: float) -> str:
    """A distance as spoken: "4 and a half inches", "1 inch", "6 inches"."""
    halves = round(distance_in * 2)
    whole, half = divmod(halves, 2)
    if whole == 0 and half:
        return "half an inch"
    text = f"{whole}" + (" and a half" if half else "")
    return f"{text} inch" if (whole == 1 and not half) else f"{text} inches"


def landmark(state: GameState, point: Point, exclude: str | None = None) -> str:
    """The nearest terrain piece, unit or table edge to ``point``, for "toward the ..."."""
    best: tuple[float, str] | None = None
    p = ShapelyPoint(point)
    for piece in state.terrain:
        d = Polygon(piece.polygon).distance(p)
        if d <= LANDMARK_RADIUS_IN and (best is None or d < best[0]):
            best = (d, piece.name)
    if best is not None:
        return best[1]
    for unit in state.units:
        if unit.on_table and unit.id != exclude:
            d = math.dist(unit.position, point) - unit.radius_in
            if d <= LANDMARK_RADIUS_IN and (best is None or d < best[0]):
                best = (d, unit.name)
    if best is not None:
        return best[1]
    edges = {edge: state.table.edge_distance_in(point, edge) for edge in Edge}
    nearest_edge = min(edges, key=lambda e: edges[e])
    names = {
        Edge.FRONT: "your edge",
        Edge.BACK: "the far edge",
        Edge.LEFT: "the left edge",
        Edge.RIGHT: "the right edge",
    }
    return names[nearest_edge]


def order_text(state: GameState, order: Order) -> str:
    """The full spoken order: what to do, then why."""
    return f"{order_instruction(state, order)} Why: {order.reason}."


def order_instruction(state: GameState, order: Order) -> str:
    """What the player does with the AI's piece ("Raider Chief: move 4 inches toward ...")."""
    action = order.action
    unit = state.unit(action.unit_id or "")
    target = state.unit(action.target_id) if action.target_id else None
    parts: list[str] = []
    path = action.path
    heading = unit.heading_deg
    if len(path) > 1 and path_cost_in(path) > 0.05:
        legs = [(a, b) for a, b in itertools.pairwise(path) if math.dist(a, b) > 0.05]
        for i, (a, b) in enumerate(legs):
            leg_heading = bearing_deg(a, b)
            turn = turn_phrase(heading, leg_heading)
            move = f"move {inches(math.dist(a, b))}"
            if i == 0:
                toward = target.name if target else landmark(state, path[-1], unit.id)
                move += f" toward {toward}"
            parts.append(f"{turn}, then {move}" if turn else move)
            heading = leg_heading
        if action.kind is ActionKind.ROUT or (
            action.kind is ActionKind.MOVE
            and not state.table.contains_base(path[-1], unit.radius_in)
        ):
            parts.append("and off the table")
    elif action.heading_deg is not None and action.kind is ActionKind.MOVE:
        turn = turn_phrase(heading, action.heading_deg)
        parts.append(turn or "stay where it is")
    if action.pick_up:
        parts.insert(0, f"pick up {state.objective(action.pick_up).name}")
    if target is not None:
        if action.kind in (ActionKind.SHOOT, ActionKind.MOVE_AND_SHOOT):
            aim = turn_phrase(
                heading, bearing_deg(path[-1] if path else unit.position, target.position)
            )
            shot = f"shoot {target.name}"
            parts.append(f"{aim} and {shot}" if aim and action.kind is ActionKind.SHOOT else shot)
        elif action.kind is ActionKind.MOVE_INTO_MELEE:
            parts.append(f"into contact with {target.name}, and attack")
        elif action.kind is ActionKind.CONTINUE_MELEE:
            parts.append(f"fight on against {target.name}")
    if not parts:
        parts.append("hold its ground")
    body = ", ".join(p for p in parts if p)
    return f"{unit.name}: {body}."


def event_text(event: Event) -> str | None:
    """What to say for an engine event (None for events the order already said)."""
    if event.type in (EventType.ORDER, EventType.ACTIVATION, EventType.MOVE):
        return None
    return event.text


def correction_text(unit: Unit, dx_in: float, dy_in: float, dheading_deg: float) -> str:
    """How to fix a misplaced model, from the player's seat: "Move Raider Chief 0.5 inches
    toward you and 1 inch to the right, and turn it 20 degrees left."
    """
    bits = []
    if abs(dy_in) >= 0.1:
        bits.append(f"{abs(dy_in):.1f} inches " + ("away from you" if dy_in > 0 else "toward you"))
    if abs(dx_in) >= 0.1:
        bits.append(f"{abs(dx_in):.1f} inches to the " + ("right" if dx_in > 0 else "left"))
    text = f"Move {unit.name} " + " and ".join(bits) if bits else f"{unit.name} is in place"
    if abs(dheading_deg) >= 5:
        side = "right" if dheading_deg > 0 else "left"
        text += (
            f", and turn it about {_round5(dheading_deg)} degrees {side}"
            if bits
            else f"; turn it about {_round5(dheading_deg)} degrees {side}"
        )
    return text + "."


def cover_areas(state: GameState) -> tuple[CoverArea, ...]:
    """Terrain that gives cover, as geometry."""
    return tuple(
        CoverArea(piece.name, Polygon(piece.polygon), Cover(piece.cover))
        for piece in state.terrain
        if piece.cover != "none"
    )


def measure_text(state: GameState, unit: Unit, target: Unit, at: Point | None = None) -> str:
    """What the table shows between a shooter and a target: range, arc, sight and cover."""
    origin = at if at is not None else unit.position
    gap = gap_between(unit, target, origin)
    card = card_of(unit)
    bits = [f"{unit.name} to {target.name}: {gap:.1f} inches"]
    if card.shoot_range_in is not None:
        bits.append(
            "in range"
            if gap <= card.shoot_range_in
            else f"out of its {card.shoot_range_in:g} inch range"
        )
    arc = in_forward_arc(origin, unit.heading_deg, target.position)
    bits.append("in its front arc" if arc else "behind it (it turns to shoot)")
    sight = sight_between(state, unit, target, origin)
    bits.append(
        "line of sight clear"
        if sight.centre_clear
        else "line of sight blocked by " + ", ".join(sight.blocked_by)
    )
    cover, giver = cover_between(origin, target.position, target.radius_in, cover_areas(state))
    if cover is not Cover.NONE and giver:
        bits.append(f"{cover.value} cover from {giver}")
    return ", ".join(bits) + "."

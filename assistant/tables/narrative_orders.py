"""The narrative ruleset's orders and declarations in board terms, as said at the table.

"Raider Chief: turn left about 40 degrees and move 6 inches toward the standing stones,
into contact with Spearman Brand, and attack." Distances in inches, turns in degrees.
"""

from __future__ import annotations

import itertools
import math

from assistant.session.announce import cover_areas, inches, landmark, turn_phrase
from assistant.tables.base import Expectation
from engine.actions import Action, ActionKind, Order
from engine.geometry import Cover, bearing_deg, cover_between, in_forward_arc, path_cost_in
from engine.geometry import Point as PointIn
from engine.model import GameState, Unit
from engine.rulesets.firefight_lite.deck import card_name
from engine.rulesets.narrative.board import card_of, gap_between, sight_between

SHOTS = (ActionKind.SHOOT, ActionKind.MOVE_AND_SHOOT)
AIMED = (*SHOTS, ActionKind.REACT_FIRE)
"""Actions whose shooter turns to face its target (a card AI's reaction shot too)."""


def order_instruction(state: GameState, order: Order) -> str:
    """What the player does with the AI's piece ("Raider Chief: move 4 inches toward ..."); a
    card AI's order names its card ("7 of spades for Goblin Archer: ...")."""
    action = order.action
    unit = state.unit(action.unit_id or "")
    drawn = action.get("card")
    if action.kind == "reshuffle":
        return (
            f"Joker for {unit.name}: shuffle the discard pile and both Jokers back into the "
            "deck (the cards set aside stay out), then draw again."
        )
    body = _instruction(state, action, unit)
    return f"{card_name(drawn)} for {unit.name}: {body}." if drawn else f"{unit.name}: {body}."


def _instruction(state: GameState, action: Action, unit: Unit) -> str:
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
        if action.kind == ActionKind.FLEE or (
            action.kind == ActionKind.MOVE
            and not state.table.contains_base(path[-1], unit.radius_in)
        ):
            parts.append("and off the table")
    elif action.heading_deg is not None and action.kind == ActionKind.MOVE:
        turn = turn_phrase(heading, action.heading_deg)
        parts.append(turn or "stay where it is")
    if action.pick_up:
        parts.insert(0, f"pick up {state.objective(action.pick_up).name}")
    if action.kind == ActionKind.OVERWATCH:
        return "stay frosty: hold its ground, ready to shoot the first enemy to act in its sight"
    if action.kind == ActionKind.PASS:
        return "trust its armour"
    if action.kind == ActionKind.REACT_EVADE:
        parts.insert(0, "run for cover")
    if target is not None:
        if action.kind in AIMED:
            aim = turn_phrase(
                heading, bearing_deg(path[-1] if path else unit.position, target.position)
            )
            shot = f"shoot {target.name}"
            if action.kind == ActionKind.REACT_FIRE:
                shot += " at once"
            parts.append(
                f"{aim} and {shot}" if aim and action.kind != ActionKind.MOVE_AND_SHOOT else shot
            )
        elif action.kind == ActionKind.MOVE_INTO_MELEE:
            parts.append(f"into contact with {target.name}, and attack")
        elif action.kind == ActionKind.CONTINUE_MELEE:
            parts.append(f"fight on against {target.name}")
    if not parts:
        parts.append("hold its ground")
    return ", ".join(p for p in parts if p)


def shot_heading(state: GameState, order: Order, expected: Expectation) -> Expectation:
    """A shooter ends facing its target (it turns to shoot)."""
    action = order.action
    if action.target_id and action.kind in AIMED:
        end = (expected.x_in, expected.y_in)
        heading = bearing_deg(end, state.unit(action.target_id).position) % 360.0
        return Expectation(
            expected.unit_id, end[0], end[1], heading, expected.off_table, expected.moves
        )
    return expected


def describe_action(state: GameState, action: Action) -> str:
    """A short description: "Archer Wren shoots Brute Gorm"."""
    unit = state.unit(action.unit_id or "") if action.unit_id else None
    target = state.unit(action.target_id).name if action.target_id else ""
    name = unit.name if unit else (action.side or "")
    kind = action.kind
    verbs = {
        ActionKind.SHOOT: f"shoots {target}",
        ActionKind.MOVE_AND_SHOOT: f"moves and shoots {target}",
        ActionKind.MOVE_INTO_MELEE: f"charges {target}",
        ActionKind.CONTINUE_MELEE: f"fights {target}",
        ActionKind.MOVE: "moves",
        ActionKind.FLEE: "flees",
        ActionKind.PASS: "passes",
    }
    return f"{name} {verbs.get(kind, str(kind))}"


def declared_notes(state: GameState, action: Action) -> tuple[str, ...]:
    """A declared shot: what the table shows between shooter and target, said first."""
    if not (action.target_id and action.kind in SHOTS):
        return ()
    shooter = state.unit(action.unit_id or "")
    aimed = state.unit(action.target_id)
    at = action.path[-1] if action.path else None
    return (measure_text(state, shooter, aimed, at),)


def measure_text(state: GameState, unit: Unit, target: Unit, at: PointIn | None = None) -> str:
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

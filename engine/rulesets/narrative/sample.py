"""A finite sample of the narrative ruleset's (seed 000) legal actions for one character.

The forced action when there is one (a flight, a melee); otherwise shots, firing positions,
charges, a carrier's run for its edge, pivots and random straight and bent moves, each with and
without the pick-up of an objective in reach, and a pass in a bonus activation. Random headings
and lengths are drawn with the dice given (logged), so a seeded sample is reproducible. Only the
actions the ruleset accepts are kept; a pivot on the spot is always among them for a character
free to act. Inches and degrees throughout.
"""

from __future__ import annotations

from engine.actions import Action, ActionKind
from engine.board import contact_tol
from engine.dice import RandomSource
from engine.geometry import Edge, Point, advance, within_in
from engine.model import GameState, Unit
from engine.rulesets.narrative.board import (
    board,
    card_of,
    contacting_enemies,
    gap_between,
    move_toward,
)
from engine.rulesets.narrative.state import bonus_move_for, carrying, is_routing
from engine.rulesets.narrative.tactics import (
    contact_path,
    firing_position,
    loose_objectives,
    objective_next_to,
)

#: Random moves tried per sample (straight legs, then bent paths).
RANDOM_MOVES = 6


def candidate_actions(state: GameState, unit: Unit, dice: RandomSource) -> list[Action]:
    """Actions worth trying for ``unit`` now (not yet checked against the rules)."""
    if is_routing(state, unit):
        return [Action(ActionKind.FLEE, unit.id)]
    engaged = contacting_enemies(state, unit)
    if engaged:
        return [Action(ActionKind.CONTINUE_MELEE, unit.id, target_id=e.id) for e in engaged]
    bonus_move = bonus_move_for(state, unit)
    move_in = card_of(unit).move_in if bonus_move is None else bonus_move
    shoot_in = card_of(unit).shoot_range_in
    out: list[Action] = []
    if bonus_move is not None:
        out.append(Action(ActionKind.PASS, unit.id))
    near = objective_next_to(state, unit) if carrying(unit) is None else None
    pick_ups: list[str | None] = [None] if near is None else [None, near.id]
    paths = _random_paths(state, unit, move_in, dice)
    for pick in pick_ups:
        carries = carrying(unit) is not None or pick is not None
        for e in state.enemies_of(unit):
            out.append(Action(ActionKind.SHOOT, unit.id, target_id=e.id, pick_up=pick))
            gap = gap_between(unit, e)
            shot = None
            if shoot_in is not None and within_in(gap, move_in + shoot_in):
                shot = firing_position(state, unit, e, move_in)
            if shot is not None:
                out.append(
                    Action(
                        ActionKind.MOVE_AND_SHOOT, unit.id, path=shot, target_id=e.id, pick_up=pick
                    )
                )
            charge = None
            if within_in(gap, move_in + contact_tol(state)):
                charge = contact_path(state, unit, e, move_in)
            if charge is not None:
                out.append(
                    Action(
                        ActionKind.MOVE_INTO_MELEE,
                        unit.id,
                        path=charge,
                        target_id=e.id,
                        pick_up=pick,
                    )
                )
        if carries:
            edge = Edge(state.side(unit.side).edge)
            flight, _ = board(state).flee_path(unit, edge, move_in, keep_clear=True)
            out.append(Action(ActionKind.MOVE, unit.id, path=flight, pick_up=pick))
        heading = float(5 * (dice.roll(72, f"random heading for {unit.name}") - 1))
        out.append(Action(ActionKind.MOVE, unit.id, heading_deg=heading, pick_up=pick))
        out += [Action(ActionKind.MOVE, unit.id, path=p, pick_up=pick) for p in paths]
    return out


def _random_paths(
    state: GameState, unit: Unit, move_in: float, dice: RandomSource
) -> list[tuple[Point, ...]]:
    start = unit.position
    out: list[tuple[Point, ...]] = []
    for i in range(RANDOM_MOVES):
        heading = float(5 * (dice.roll(72, f"random move for {unit.name}") - 1))
        length = move_in * dice.roll(4, f"random move length for {unit.name}") / 4
        if i % 2 == 0:
            out.append((start, advance(start, heading, length)))
        else:
            bend = advance(start, heading, length / 2)
            turn = float(5 * (dice.roll(72, f"random bend for {unit.name}") - 1))
            out.append((start, bend, advance(bend, turn, length / 2)))
    goals = [o.position for o in loose_objectives(state)]
    goals += [e.position for e in state.enemies_of(unit)]
    if goals:
        goal = goals[dice.roll(len(goals), f"random goal for {unit.name}") - 1]
        path = move_toward(state, unit, goal, unit.radius_in + 1.0, move_in)
        if len(path) > 1:
            out.append(path)
    return out

"""A controller that plays random legal actions (for the shared random-play test).

Each activation it builds candidate actions from the tactics helpers (shots, firing positions,
charges, objective runs, flights off the table) plus random straight and bent moves and pivots,
keeps those the ruleset accepts (``validate`` returns nothing) and picks one with the injected
dice, so a seeded game is reproducible. Which character activates, and whether to pass, depends
only on the state (``choose_unit`` gets no dice), through a fixed hash of the step number.
Inches and degrees throughout.
"""

from __future__ import annotations

from engine.actions import Action, ActionKind, Order
from engine.controllers.narrative_tactics import (
    contact_path,
    firing_position,
    loose_objectives,
    objective_next_to,
)
from engine.dice import RandomSource
from engine.geometry import Edge, Point, advance, path_cost_in, within_in
from engine.model import GameState, Unit
from engine.protocols import ControllerBase, Pending, PendingKind, Ruleset, register_controller
from engine.rulesets.narrative_board import (
    card_of,
    contact_tol,
    contacting_enemies,
    flee_path,
    gap_between,
    move_toward,
)
from engine.rulesets.narrative_state import bonus_move_for, carrying, in_bonus, is_routing

NAME = "random"
#: Random moves tried per activation (straight legs, then bent paths).
RANDOM_MOVES = 6
#: One activation opportunity in this many is passed (when passing is allowed).
PASS_ONE_IN = 8


def _mix(n: int) -> int:
    """A fixed integer hash (Knuth's multiplicative), the same on every run and platform."""
    return (n * 2654435761) & 0xFFFFFFFF


class RandomPlayer(ControllerBase):
    """Plays uniformly random legal actions, drawn with the game's dice."""

    name: str = NAME
    rulesets: tuple[str, ...] = ("narrative",)

    def choose_unit(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str | None:
        """A candidate picked by a hash of the step number; now and then a pass."""
        if not pending.candidates:
            return None
        h = _mix(state.step + 7919 * state.round)
        if pending.may_pass and pending.kind is PendingKind.CHOOSE_UNIT and h % PASS_ONE_IN == 0:
            return None
        return pending.candidates[(h >> 8) % len(pending.candidates)]

    def decide(self, state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource) -> Order:
        """A random legal action for this character, with the reason "random"."""
        unit = state.unit(unit_id)
        candidates = [
            a for a in self._candidates(state, unit, dice) if not ruleset.validate(state, a)
        ]
        if not candidates:
            # A pivot on the spot is legal for any character that is free to act.
            candidates = [Action(ActionKind.MOVE, unit.id, heading_deg=unit.heading_deg)]
        pick = (
            dice.roll(len(candidates), f"random action for {unit.name}")
            if len(candidates) > 1
            else 1
        )
        action = candidates[pick - 1]
        return Order(
            action,
            "random",
            f"a random choice among {len(candidates)} legal actions",
            distance_in=path_cost_in(action.path) if action.path else 0.0,
        )

    def _candidates(self, state: GameState, unit: Unit, dice: RandomSource) -> list[Action]:
        if is_routing(state, unit):
            return [Action(ActionKind.FLEE, unit.id)]
        engaged = contacting_enemies(state, unit)
        if engaged:
            return [Action(ActionKind.CONTINUE_MELEE, unit.id, target_id=e.id) for e in engaged]
        bonus = in_bonus(state)
        bonus_move = bonus_move_for(state, unit)
        move_in = card_of(unit).move_in if bonus_move is None else bonus_move
        shoot_in = card_of(unit).shoot_range_in
        out: list[Action] = []
        if bonus:
            out.append(Action(ActionKind.PASS, unit.id))
        near = objective_next_to(state, unit) if carrying(unit) is None else None
        pick_ups: list[str | None] = [None] if near is None else [None, near.id]
        paths = self._random_paths(state, unit, move_in, dice)
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
                            ActionKind.MOVE_AND_SHOOT,
                            unit.id,
                            path=shot,
                            target_id=e.id,
                            pick_up=pick,
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
                flight, _ = flee_path(state, unit, edge, move_in, keep_clear=True)
                out.append(Action(ActionKind.MOVE, unit.id, path=flight, pick_up=pick))
            heading = float(5 * (dice.roll(72, f"random heading for {unit.name}") - 1))
            out.append(Action(ActionKind.MOVE, unit.id, heading_deg=heading, pick_up=pick))
            out += [Action(ActionKind.MOVE, unit.id, path=p, pick_up=pick) for p in paths]
        return out

    def _random_paths(
        self, state: GameState, unit: Unit, move_in: float, dice: RandomSource
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


register_controller(NAME, RandomPlayer)

"""The strike system's legality checks (RULES §3.1.c-g, D001A-02/05): who may activate, a
move (up to Speed plus sprint dice, legs clear of bases and impassable terrain, RULES §1.5), a
strike (an enemy seen within the striker's threat range), each free action once."""

from __future__ import annotations

import itertools
import math

from engine.actions import Action, ActionKind
from engine.geometry import path_cost_in
from engine.model import GameState, Unit, evolve
from engine.rulesets.strike.board import StrikeBoard, pose_of
from engine.rulesets.strike.state import STRIKE, card_of, remove_faces, rules_of

START_TOL_IN = 1e-3
"""A move's path must start this near the soldier's base centre, inches."""


def moves_first(action: Action) -> bool:
    """A strike with a path: the soldier moves along it, then strikes (both free actions)."""
    return action.kind == STRIKE and len(action.path) > 1


def moved(state: GameState, unit: Unit, action: Action) -> GameState:
    """The state with the soldier at the end of the action's path (nothing else done)."""
    end = action.path[-1] if action.path else unit.position
    return state.with_unit(evolve(unit, x=end[0], y=end[1]))


def why_not_ready(state: GameState, unit: Unit, side: str | None) -> str:
    """Why the soldier cannot activate now (D001A-02)."""
    if not unit.on_table:
        return f"{unit.name} is no longer on the table"
    if unit.side != side:
        return f"it is {side}'s turn to activate"
    if unit.activated:
        return f"{unit.name} has already activated this round"
    face = card_of(unit).face
    return f"{unit.name} ({card_of(unit).type}) needs a die showing {face} and there is none"


def action_problems(state: GameState, unit: Unit, action: Action, fresh: bool) -> list[str]:
    """Why a soldier's move or strike is not legal (``fresh``: it activates with it)."""
    rules = rules_of(state)
    used = frozenset() if fresh else rules.used
    kind = str(action.kind)
    if kind == ActionKind.INTERACT:
        return ["there is no object to interact with in this scenario"]
    if kind in used:
        return [f"{unit.name} has already used its {kind} this activation"]
    if kind == STRIKE and not moves_first(action):
        return strike_problems(state, unit, action)
    if ActionKind.MOVE in used:
        return [f"{unit.name} has already used its move this activation"]
    problems = move_problems(state, unit, action, fresh)
    if problems or kind != STRIKE:
        return problems
    there = moved(state, unit, action)
    return strike_problems(there, there.unit(unit.id), action)


def strike_problems(state: GameState, unit: Unit, action: Action) -> list[str]:
    """Why the soldier cannot strike the target from where it stands."""
    if not action.target_id or not state.has_unit(action.target_id):
        return ["a strike needs an enemy soldier as its target"]
    target = state.unit(action.target_id)
    if target.side == unit.side or not target.on_table:
        return [f"{target.name} is not an enemy on the table"]
    board = StrikeBoard(state)
    if not board.in_range(unit, pose_of(unit), pose_of(target)):
        gap = board.gap_in(pose_of(unit), pose_of(target))
        return [
            f"{target.name} is {gap:.2f} in away, beyond {unit.name}'s "
            f"{card_of(unit).threat} threat range"
        ]
    if not board.sighting(pose_of(unit), pose_of(target)).visible:
        return [f"{unit.name} cannot see {target.name}"]
    return []


def sprint_dice(action: Action) -> list[int]:
    """The dice faces an action spends on the soldier's sprint skill."""
    raw = action.get("sprint_dice") or []
    return [int(f) for f in raw] if isinstance(raw, list | tuple) else []


def allowance_in(unit: Unit, sprint: int) -> float:
    """How far the soldier may move with ``sprint`` dice on its sprint skill, inches."""
    card = card_of(unit)
    return card.speed_in + sprint * card.sprint_in


def move_problems(state: GameState, unit: Unit, action: Action, fresh: bool) -> list[str]:
    """Why the move part of an action is not legal."""
    rules = rules_of(state)
    path = action.path or (unit.position,)
    if math.dist(path[0], unit.position) > START_TOL_IN:
        return [f"the move must start where {unit.name} stands"]
    raw = action.get("sprint_dice") or []
    if not isinstance(raw, list | tuple) or not all(
        isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 6 for f in raw
    ):
        return ["sprint_dice must be a list of die faces from 1 to 6"]
    sprint = [int(f) for f in raw]
    card = card_of(unit)
    if sprint and card.sprint_in <= 0:
        return [f"{unit.name} has no sprint skill"]
    spent = rules.skill_dice if not fresh else 0
    if spent + len(sprint) > card.initiative:
        return [
            f"{unit.name} may spend at most {card.initiative} dice on skills in an "
            f"activation (Initiative), not {spent + len(sprint)}"
        ]
    pool = rules.pool(unit.side)
    if fresh:
        pool = remove_faces(pool, [card.face]) or ()
    if sprint and remove_faces(pool, sprint) is None:
        return [f"the pool has no dice {sprint} to spend on the sprint"]
    allowed = allowance_in(unit, len(sprint))
    length = path_cost_in(path)
    if length > allowed + 1e-6:
        return [f"the move is {length:.2f} in, more than the {allowed:g} in allowed"]
    board = StrikeBoard(state)
    for a, b in itertools.pairwise(path):
        problem = board.leg_problem(unit, a, b)
        if problem:
            return [problem]
    return []

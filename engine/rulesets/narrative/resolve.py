"""Seed 000 (RULES.md §2): what one character's action does to the table.

Moves and pivots (§2.e), picking up an objective, flight of a routing character (G-05),
leaving the table (a carrier scores, a routing character is lost), attacks and wounds (§2.g)
and the rout check after a loss (§2.i, D000-01). Each function takes the state and the event
list of the activation and returns the new state (and the moved character).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from engine.actions import Action, Event, EventType, event
from engine.board import MIN_STEP_IN
from engine.dice import RandomSource
from engine.geometry import Point, bearing_deg, normalize_deg, path_cost_in
from engine.model import GameState, Unit, UnitStatus, evolve
from engine.rulesets.narrative.board import board, card_of, contacting_enemies
from engine.rulesets.narrative.legality import flight_edge, flight_edges
from engine.rulesets.narrative.query import NarrativeQuery
from engine.rulesets.narrative.state import (
    carrying,
    company_of,
    is_routing,
    rules_of,
    with_carrying,
    with_rules,
)


def rout_threshold(company_size: int) -> int:
    """Losses at which a company of this size first checks for rout: floor(N/2) + 1 (§2.i)."""
    return company_size // 2 + 1


def wound_roll(roll: int, delta: int) -> bool:
    """Whether a d6 result wounds at ATK - DEF - penalty = ``delta`` (§2.g)."""
    if roll == 1:
        return False
    if roll == 6:
        return True
    return roll + delta > 3


def final_heading(start_deg: float, path: Sequence[Point], stated_deg: float | None) -> float:
    """Where a figure faces after moving along ``path`` (§2.e): along its last leg. A last leg of
    length zero is a pivot without movement, so it faces ``stated_deg`` (when given), else along
    the last leg that moved; a figure that did not move faces ``stated_deg`` or ``start_deg``."""
    legs = list(itertools.pairwise(path))
    if legs and math.dist(*legs[-1]) >= MIN_STEP_IN:
        return bearing_deg(*legs[-1])
    if stated_deg is not None:
        return normalize_deg(stated_deg)
    for a, b in reversed(legs):
        if math.dist(a, b) >= MIN_STEP_IN:
            return bearing_deg(a, b)
    return start_deg


def pick_up(
    state: GameState, unit: Unit, objective_id: str, events: list[Event]
) -> tuple[GameState, Unit]:
    """``unit`` picks up the objective (checked next to it and on the ground)."""
    objective = state.objective(objective_id)
    unit = with_carrying(unit, objective.id)
    state = state.with_unit(unit).with_objective(evolve(objective, carried_by=unit.id))
    events.append(
        event(
            EventType.PICK_UP,
            state.round,
            f"{unit.name} picks up {objective.name}.",
            unit.id,
            objective=objective.id,
        )
    )
    return state, unit


def move(
    state: GameState,
    unit: Unit,
    action: Action,
    events: list[Event],
    dice: RandomSource,
) -> tuple[GameState, Unit]:
    """The move (or pivot) of ``action``; a carrier whose path ends off the table leaves it."""
    path = action.path or (unit.position,)
    end = path[-1]
    heading = final_heading(unit.heading_deg, path, action.heading_deg)
    distance = path_cost_in(path)
    if carrying(unit) is not None and not state.table.contains_base(end, unit.radius_in):
        return leave_table(state, unit, end, True, events, dice)
    state, unit = place(state, unit, end, heading)
    events.append(
        event(
            EventType.MOVE,
            state.round,
            f"{unit.name} moves {distance:.1f} in."
            if distance > 0.0
            else f"{unit.name} turns on the spot to face {round(heading) % 360} degrees.",
            unit.id,
            path=[[round(x, 3), round(y, 3)] for x, y in path],
            heading=round(heading, 2),
            distance_in=round(distance, 3),
        )
    )
    return state, unit


def rout(
    state: GameState,
    unit: Unit,
    path: Sequence[Point],
    dice: RandomSource,
    events: list[Event],
) -> tuple[GameState, Unit]:
    """A routing character flees a full move straight toward the nearest edge (G-05)."""
    # An announced flight (the AI's order, which rolled any tie) fixes the edge; otherwise
    # a tie is rolled now.
    edge = flight_edge(state, unit, path) if path else None
    roll = None
    if edge is None:
        edge, roll = NarrativeQuery(state).nearest_edge(unit, dice)
    if roll is not None:
        others = " and ".join(e.value for e in flight_edges(state, unit) if e is not edge)
        events.append(
            event(
                EventType.TIE,
                state.round,
                f"{unit.name} is as near the {others} edge as the {edge.value} edge: "
                f"rolled {roll}, it flees toward the {edge.value} edge.",
                unit.id,
                purpose="nearest-edge tie",
                roll=roll,
                edge=edge.value,
            )
        )
    path, leaves = board(state).flee_path(unit, edge, card_of(unit).move_in)
    if leaves:
        return leave_table(state, unit, path[-1], False, events, dice)
    end = path[-1]
    heading = bearing_deg(path[-2], end) if len(path) > 1 and path[-2] != end else unit.heading_deg
    state, unit = place(state, unit, end, heading)
    events.append(
        event(
            EventType.MOVE,
            state.round,
            f"{unit.name} flees {path_cost_in(path):.1f} in toward the {edge.value} edge.",
            unit.id,
            path=[[round(x, 3), round(y, 3)] for x, y in path],
            heading=round(unit.heading_deg, 2),
            routing=True,
        )
    )
    return state, unit


def place(state: GameState, unit: Unit, end: Point, heading_deg: float) -> tuple[GameState, Unit]:
    """The unit standing at ``end`` facing ``heading_deg``, with any objective it carries."""
    unit = evolve(unit, x=end[0], y=end[1], heading_deg=heading_deg)
    state = state.with_unit(unit)
    carried = carrying(unit)
    if carried is not None:
        state = state.with_objective(evolve(state.objective(carried), x=end[0], y=end[1]))
    return state, unit


def leave_table(
    state: GameState,
    unit: Unit,
    where: Point,
    escaped: bool,
    events: list[Event],
    dice: RandomSource,
) -> tuple[GameState, Unit]:
    """``unit`` leaves the table at ``where``: a carrier scores its objective; a character that
    flees off (routing, or not ``escaped``) is lost and its company may check for rout."""
    rnd = state.round
    routing = is_routing(state, unit)
    status = UnitStatus.ROUTED_OFF if routing or not escaped else UnitStatus.ESCAPED
    carried = carrying(unit)
    if carried is not None:
        objective = state.objective(carried)
        state = state.with_objective(
            evolve(objective, carried_by=None, scored_by=unit.side, x=where[0], y=where[1])
        )
        events.append(
            event(
                EventType.SCORE,
                rnd,
                f"{unit.name} carries {objective.name} off the table: scored for {unit.side}.",
                unit.id,
                objective=objective.id,
                side=unit.side,
            )
        )
    unit = evolve(with_carrying(unit, None), status=status, x=where[0], y=where[1])
    state = state.with_unit(unit)
    events.append(
        event(
            EventType.LEFT_TABLE,
            rnd,
            f"{unit.name} leaves the table.",
            unit.id,
            status=status.value,
        )
    )
    if status is UnitStatus.ROUTED_OFF:
        state = removal(state, unit, events, dice)
    return state, unit


def attack(
    state: GameState,
    attacker: Unit,
    target: Unit,
    moved: bool,
    dice: RandomSource,
    events: list[Event],
) -> tuple[GameState, Unit | None]:
    """One attack (a shot, or a blow in melee; §2.g); returns the target if it fell."""
    rnd = state.round
    acard, tcard = card_of(attacker), card_of(target)
    delta = acard.attack_mod - tcard.defence_mod - (1 if moved else 0)
    in_contact = target.id in {e.id for e in contacting_enemies(state, attacker)}
    verb = "attacks" if in_contact else "shoots"
    roll = dice.roll(6, f"attack: {attacker.name} {verb} {target.name}")
    wounded = wound_roll(roll, delta)
    score = roll + delta
    how = "wounds" if wounded else "misses"
    events.append(
        event(
            EventType.ATTACK,
            rnd,
            f"{attacker.name} {verb} {target.name}: rolled {roll}, score {score}: {how}.",
            attacker.id,
            target=target.id,
            roll=roll,
            delta=delta,
            score=score,
            moved=moved,
            wound=wounded,
        )
    )
    if not wounded:
        return state, None
    return wound(state, target, dice, events)


def wound(
    state: GameState, target: Unit, dice: RandomSource, events: list[Event]
) -> tuple[GameState, Unit | None]:
    """A wound on the target (§2.h): a token in a free wound slot, else it falls; returns the
    target if it fell."""
    tcard = card_of(target)
    if target.wounds < tcard.wound_slots:
        target = evolve(target, wounds=target.wounds + 1)
        events.append(
            event(
                EventType.WOUND,
                state.round,
                f"{target.name} takes a wound ({target.wounds} of {tcard.wound_slots} slots).",
                target.id,
                wounds=target.wounds,
                slots=tcard.wound_slots,
            )
        )
        return state.with_unit(target), None
    return fall(state, target, dice, events), target


def fall(
    state: GameState, target: Unit, dice: RandomSource, events: list[Event], text: str = ""
) -> GameState:
    """The target falls and is removed (``text``: how, else "falls"): it drops what it
    carries, and its company may check for rout (§2.i)."""
    rnd = state.round
    fallen = evolve(with_carrying(target, None), status=UnitStatus.FALLEN)
    state = state.with_unit(fallen)
    said = text or f"{target.name} falls: remove the model."
    events.append(event(EventType.FALL, rnd, said, target.id))
    dropped = carrying(target)
    if dropped is not None:
        objective = state.objective(dropped)
        state = state.with_objective(evolve(objective, carried_by=None, x=target.x, y=target.y))
        events.append(
            event(
                EventType.DROP,
                rnd,
                f"{objective.name} drops where {target.name} fell.",
                target.id,
                objective=objective.id,
            )
        )
    return removal(state, fallen, events, dice)


def company_words(state: GameState, company: str) -> str:
    """The company as the player knows it: its side's name when the side is that one company;
    else the company introduced with its side and members ("Cutthroats of the Goblins (Goblin
    Archer, Goblin Boss and Goblin Spearman)"), since the player never sees company names."""
    members = [u for u in state.units if company_of(u) == company]
    if not members:
        return company
    side = members[0].side
    if all(company_of(u) == company for u in state.units if u.side == side):
        return side
    names = [u.name for u in members]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"{company} of the {side} ({listed})"


def removal(state: GameState, removed: Unit, events: list[Event], dice: RandomSource) -> GameState:
    """Rout check after a loss (§2.i, D000-01)."""
    company = company_of(removed)
    rules = rules_of(state)
    if company in rules.routing_companies:
        return state
    size = dict(rules.company_sizes).get(company, 1)
    lost = sum(
        1
        for u in state.units
        if company_of(u) == company and u.status in (UnitStatus.FALLEN, UnitStatus.ROUTED_OFF)
    )
    if lost * 2 <= size:
        return state
    words = company_words(state, company)
    roll = dice.roll(6, f"rout check: {words} ({lost} of {size} lost; 1-3 routs)")
    routs = roll <= 3
    events.append(
        event(
            EventType.ROUT_CHECK,
            state.round,
            f"{words} have lost {lost} of {size}: rout check {roll}, "
            + ("they rout!" if routs else "they hold."),
            None,
            company=company,
            roll=roll,
            routs=routs,
        )
    )
    if routs:
        state = with_rules(state, routing_companies=rules.routing_companies | {company})
        events.append(
            event(
                EventType.ROUTING,
                state.round,
                f"{words} are routing: they flee toward the nearest edge.",
                None,
                company=company,
            )
        )
    return state

"""What happens in the grid game (seed 004) besides combat: patrol results, moves and turns,
and the status changes after every complete action (detection D004-02, the Arch Foe alerting
everyone, the turn to face the closest hero). Combat is in ``combat``.

Pure functions of a state (and the dice); each returns the new state and its events. Every
status change is an event ``{"type": "status", "unit", "status"}``; every turn of a figure
made by the rules is an event ``{"type": "face", "unit", "heading"}``.
"""

from __future__ import annotations

import math
from collections.abc import Collection

from engine.actions import Event, event
from engine.dice import RandomSource, choice
from engine.geometry.grid import Cell, chebyshev
from engine.model import GameState, Role, Unit, evolve
from engine.rulesets.dungeon.board import Board, label
from engine.rulesets.dungeon.facing import facing_toward, facing_word
from engine.rulesets.dungeon.state import (
    ALERTED,
    PATROLLING,
    STATUSES,
    card_of,
    cell_of,
    rules_of,
)
from engine.scenario import cell_name

PATROL_RESULTS = {
    1: "moves straight ahead its full move",
    2: "moves straight ahead its full move",
    3: "moves straight ahead half its move, then turns",
    4: "does not move",
    5: "does not move",
    6: "turns 90° clockwise",
    7: "turns 180°",
    8: "turns 90° counter-clockwise",
}
"""The d8 patrol table (RULES §6.d)."""
TURNS = {4: 0.0, 5: 0.0, 6: 90.0, 7: 180.0, 8: 270.0}
"""Facing change of a d8 result of 4 to 8 (also the re-roll after a 3, D004-03)."""


def is_enemy_side(state: GameState, side: str) -> bool:
    """The side the statuses apply to: the AI's (the enemies, RULES §6.d)."""
    return any(s.name == side and s.role is Role.AI for s in state.sides)


def heroes(state: GameState) -> list[Unit]:
    """The heroes on the board (the human side), in sheet order."""
    ai = {s.name for s in state.sides if s.role is Role.AI}
    return [u for u in state.units if u.side not in ai and u.on_table]


def monsters(state: GameState) -> list[Unit]:
    """The enemies on the board (the AI side)."""
    ai = {s.name for s in state.sides if s.role is Role.AI}
    return [u for u in state.units if u.side in ai and u.on_table]


def patrol_run(state: GameState, unit: Unit, roll: int) -> list[Cell]:
    """The squares a patrol roll moves the figure through (D004-04: stops before a wall, a
    figure or the board's edge); a half move is rounded up."""
    move = card_of(unit).move_sq
    squares = move if roll in (1, 2) else (move + 1) // 2 if roll == 3 else 0
    return Board.of(state).straight_run(cell_of(unit), unit.heading_deg, squares)


def patrol_turn(roll: int, turn_roll: int | None) -> float:
    """Facing change, degrees clockwise, of a patrol roll (and the re-roll after a 3)."""
    if roll == 3:
        return TURNS[turn_roll or 4]
    return TURNS.get(roll, 0.0)


def patrol_words(
    roll: int, turn_roll: int | None, run: list[Cell], start: Cell, heading_deg: float
) -> str:
    """A patrol's result in words: "patrol roll 3 (half move, then a turn): 1 square ahead to
    A3; re-roll 6: turns 90° clockwise; now facing west"."""
    squares = len(run)
    if roll in (1, 2, 3):
        kind = "full move" if roll != 3 else "half move, then a turn"
        if run:
            moved = f"{squares} square{'s' if squares != 1 else ''} ahead to {cell_name(run[-1])}"
        else:
            moved = f"blocked, it stays on {cell_name(start)}"
        words = f"patrol roll {roll} ({kind}): {moved}"
        if roll == 3:
            turned = PATROL_RESULTS[turn_roll or 4] if turn_roll not in (4, 5) else "no turn"
            words += f"; re-roll {turn_roll}: {turned}"
    else:
        words = f"patrol roll {roll}: {PATROL_RESULTS[roll]}"
    return f"{words}; now facing {facing_word(heading_deg)}"


def set_status(state: GameState, unit: Unit, status: str, why: str) -> tuple[GameState, Event]:
    """The unit with its one status word replaced, and the status event."""
    unit = evolve(unit, statuses=(unit.statuses - set(STATUSES)) | {status})
    text = f"{label(unit)} is {status}{': ' + why if why else ''}."
    ev = event("status", state.round, text, unit.id, status=status, cell=list(cell_of(unit)))
    return state.with_unit(unit), ev


def move_unit(
    state: GameState, unit: Unit, route: list[Cell], heading: float, why: str
) -> tuple[GameState, Unit, Event]:
    """The unit moved along the squares entered (its path in inches, and its cells, in the
    event) and facing ``heading``."""
    grid = state.table.grid
    assert grid is not None
    start = cell_of(unit)
    cells = [start, *route]
    end = cells[-1]
    x, y = grid.centre(end)
    moved = evolve(unit, x=x, y=y, heading_deg=heading % 360.0)
    state = state.with_unit(moved)
    moved = state.unit(unit.id)
    squares = len(route)
    text = (
        f"{label(unit)} {why} {squares} square{'s' if squares != 1 else ''} to "
        f"{cell_name(end)}, facing {facing_word(heading)}."
    )
    ev = event(
        "move",
        state.round,
        text,
        unit.id,
        path=[list(grid.centre(c)) for c in cells],
        cells=[list(c) for c in cells],
        squares=squares,
        heading=moved.heading_deg,
    )
    return state, moved, ev


def face(
    state: GameState, unit: Unit, heading: float, why: str, toward: Unit | None = None
) -> tuple[GameState, Event]:
    """The unit turned to ``heading`` and the face event (``heading``; ``target``: the hero it
    turned toward, when it turned to face one)."""
    turned = evolve(unit, heading_deg=heading % 360.0)
    text = f"{label(unit)} turns to face {facing_word(heading)}{' ' + why if why else ''}."
    extra = {"target": toward.id} if toward is not None else {}
    ev = event("face", state.round, text, unit.id, heading=turned.heading_deg, **extra)
    return state.with_unit(turned), ev


def closest(unit: Unit, others: list[Unit], dice: RandomSource | None, purpose: str) -> Unit | None:
    """The nearest of ``others`` (Chebyshev squares, then centre distance, G-07), a logged roll
    among exact ties (the first when no dice are given: planning only)."""
    if not others:
        return None
    here = cell_of(unit)

    def key(u: Unit) -> tuple[int, float]:
        c = cell_of(u)
        return (chebyshev(here, c), math.hypot(c[0] - here[0], c[1] - here[1]))

    best = min(key(u) for u in others)
    tied = [u for u in others if key(u) == best]
    if len(tied) == 1 or dice is None:
        return tied[0]
    return choice(dice, tied, purpose)


def update_statuses(
    state: GameState,
    dice: RandomSource,
    interacted: tuple[str, ...] = (),
    keep_facing: tuple[str, ...] = (),
    lookers: Collection[str] | None = None,
) -> tuple[GameState, list[Event]]:
    """After a complete action (D004-02): Patrolling enemies that see a hero in their forward
    arc, or that a hero interacted with, become Alerted; once the Arch Foe is Alerted every
    enemy is (RULES §6.d); then every Alerted enemy turns to face the closest hero it sees
    (360°), except those in ``keep_facing`` (a monster that has just retreated keeps the
    retreat direction until the next action, D004-13). Nothing is alerted before the heroes'
    first action.

    ``lookers``: the enemies whose view may have changed (None: all of them). An enemy's view
    is its square and facing, the heroes' squares and the walls (its allies never block its
    sight), so after an enemy's own move only that enemy looks again, after an attack that
    removed nobody none does (``()``); the interactions still alert, and the newly Alerted
    turn."""
    rules = rules_of(state)
    events: list[Event] = []
    if not rules.heroes_have_moved:
        return state, events
    foes = monsters(state)
    before = {m.id for m in foes if ALERTED in m.statuses}
    arc = state.option("detection_arc", 180.0)
    board = Board.of(state)
    team = heroes(state)
    for m in foes:
        if PATROLLING not in m.statuses:
            continue
        why = ""
        if m.id in interacted:
            why = "a hero attacked it"
        elif lookers is None or m.id in lookers:
            seen = next((h for h in team if board.in_view(m, h, arc)), None)
            if seen is not None:
                why = f"it sees the {card_of(seen).title} on {cell_name(cell_of(seen))}"
        if why:
            state, ev = set_status(state, state.unit(m.id), ALERTED, why)
            events.append(ev)
    foes = monsters(state)
    if any(card_of(m).is_arch_foe and ALERTED in m.statuses for m in foes):
        for m in foes:
            if PATROLLING in m.statuses:
                state, ev = set_status(state, m, ALERTED, "the Arch Foe is alerted")
                events.append(ev)
    keep = set(keep_facing)
    if lookers is not None:
        keep |= {i for i in before if i not in lookers}
    state, turned = face_closest_heroes(state, dice, tuple(sorted(keep)))
    return state, events + turned


def face_closest_heroes(
    state: GameState, dice: RandomSource, keep_facing: tuple[str, ...] = ()
) -> tuple[GameState, list[Event]]:
    """Every Alerted enemy turns to face the closest hero in line of sight, at any time
    (RULES §6.d step 1; ties by a logged roll)."""
    events: list[Event] = []
    team = heroes(state)
    board = Board.of(state)  # turning moves nobody: one board for every monster
    for m in monsters(state):
        if ALERTED not in m.statuses or m.id in keep_facing:
            continue
        here = cell_of(m)
        by_distance: dict[tuple[int, float], list[Unit]] = {}
        for h in team:
            c = cell_of(h)
            key = (chebyshev(here, c), math.hypot(c[0] - here[0], c[1] - here[1]))
            by_distance.setdefault(key, []).append(h)
        seen: list[Unit] = []
        for key in sorted(by_distance):
            seen = [h for h in by_distance[key] if board.line_clear(m, here, h)]
            if seen:
                break
        if not seen:
            continue
        facing_now = [h for h in seen if facing_toward(here, cell_of(h)) == m.heading_deg]
        if facing_now:
            continue  # already faces one of the closest heroes it sees: no turn, no roll
        target = closest(m, seen, dice, f"facing tie: {label(m)}")
        if target is None:
            continue
        heading = facing_toward(cell_of(m), cell_of(target))
        if abs(heading - m.heading_deg) > 1e-9:
            why = f"the {card_of(target).title} on {cell_name(cell_of(target))}"
            state, ev = face(state, m, heading, f"toward {why}", target)
            events.append(ev)
    return state, events

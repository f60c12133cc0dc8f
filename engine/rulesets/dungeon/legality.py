"""Legality in the grid rules (seed 004): what the game waits for and why an action is not
allowed, in squares ("the Thief moved 3 squares; heroes move 2")."""

from __future__ import annotations

from engine.actions import Action
from engine.geometry.grid import Cell, chebyshev
from engine.model import GameState, Unit
from engine.protocols import Pending
from engine.rulesets.dungeon.attacks import attack_problem, can_attack
from engine.rulesets.dungeon.board import Board, label
from engine.rulesets.dungeon.resolve import (
    is_enemy_side,
    patrol_run,
)
from engine.rulesets.dungeon.setup import ACTION_KINDS, START_PURPOSE
from engine.rulesets.dungeon.state import (
    ALERTED,
    PATROLLING,
    STATUSES,
    card_of,
    cell_of,
    heals_left,
    rules_of,
)
from engine.scenario import cell_name
from engine.turns import Continuing, TurnOrder, prologue


def _started(state: GameState) -> str | None:
    """The start step, until the game has started."""
    if rules_of(state).started:
        return None
    return START_PURPOSE if state.option_value("dragon_squares", "") else "start"


def _acting(state: GameState) -> Continuing | None:
    acting = rules_of(state).acting
    return None if acting is None else Continuing(acting)


def _sides(state: GameState) -> tuple[str, ...]:
    """The side of the next figure of the round's queue (one figure at a time)."""
    queue = rules_of(state).queue
    return (state.unit(queue[0]).side,) if queue else ()


def _next(state: GameState, side: str) -> tuple[str, ...]:
    return rules_of(state).queue[:1]


TURNS = TurnOrder(
    sides=_sides,
    ready=_next,
    new_round="new round",
    chance=_started,
    acting=_acting,
    remember=True,
)
"""The grid order: the start CHANCE, the acting figure's CONTINUE, the next figure of the
round's queue (CHOOSE_UNIT with that one candidate), or OVER; the round's queue is refilled
as the last figure ends (so the new-round CHANCE is never reached). Kept per state in the
game's memo: a decision, its validation and its resolution ask one state several times."""


def pending(state: GameState) -> Pending:
    """What the game waits for (``TURNS``)."""
    return TURNS.pending(state)


def check_state(state: GameState) -> list[str]:
    """Invariants of every reachable state: one figure per open square at its centre, wounds
    below the maximum, grid facings, one status per enemy (Patrolling or Alerted between
    actions), none on a hero, heals within their uses, a queue of known figures."""
    problems: list[str] = []
    rules = rules_of(state)
    grid = state.table.grid
    assert grid is not None
    seen: dict[Cell, str] = {}
    for u in state.units:
        card = card_of(u)
        if not u.on_table:
            if u.cell is not None or u.statuses:
                problems.append(f"{u.id} is defeated but still on a square or has a status")
            continue
        if u.cell is None or not grid.contains(u.cell) or u.cell in rules.walls:
            problems.append(f"{u.id} is not on an open square ({u.cell})")
            continue
        if u.cell in seen:
            problems.append(f"{u.id} and {seen[u.cell]} share {cell_name(u.cell)}")
        seen[u.cell] = u.id
        if grid.centre(u.cell) != u.position:
            problems.append(f"{u.id} is off the centre of its square")
        if not 0 <= u.wounds < card.max_wounds:
            problems.append(f"{u.id} has {u.wounds} wounds of {card.max_wounds}")
        if abs(u.heading_deg / 45.0 - round(u.heading_deg / 45.0)) > 1e-9:
            problems.append(f"{u.id} faces {u.heading_deg}, not a grid facing")
        marks = u.statuses & set(STATUSES)
        if is_enemy_side(state, u.side):
            if len(marks) != 1 or marks != u.statuses:
                problems.append(f"{u.id} has statuses {sorted(u.statuses)}")
            elif rules.started and marks != {PATROLLING} and marks != {ALERTED}:
                problems.append(f"{u.id} is still {sorted(marks)} between actions")
        elif u.statuses:
            problems.append(f"hero {u.id} has statuses {sorted(u.statuses)}")
        left = heals_left(u)
        if not 0 <= left <= (card.heal.uses if card.heal else 0):
            problems.append(f"{u.id} has {left} heals left")
    for uid in rules.queue:
        if not state.has_unit(uid):
            problems.append(f"{uid} in the queue is not a unit")
    if rules.acting is not None and not state.unit(rules.acting).on_table:
        problems.append(f"{rules.acting} acts but is defeated")
    return problems


def validate(state: GameState, action: Action) -> list[str]:
    """Why the action is not legal now, in plain sentences and squares; empty when it is."""
    opening = prologue(state, pending(state), action, ACTION_KINDS)
    if opening is not None:
        return opening
    kind, unit = str(action.kind), state.unit(action.unit_id or "")
    if kind == "pass":
        return []
    rules = rules_of(state)
    fresh = rules.acting is None
    if PATROLLING in unit.statuses and kind != "patrol":
        return [f"the {label(unit)} is patrolling: it rolls the patrol d8"]
    if kind == "patrol":
        return patrol_problems(state, unit, action, fresh)
    if kind == "move":
        if not fresh or rules.moved:
            return [f"the {label(unit)} moves before it attacks, once a turn"]
        _, problem = route_of(state, unit, action)
        if problem:
            return [problem]
        return heading_problems(action)
    if kind == "heal":
        return heal_problems(state, unit, action)
    return attack_problems(state, unit, action)


def route_of(state: GameState, unit: Unit, action: Action) -> tuple[list[Cell], str]:
    """The squares a move enters (from ``detail.cells``, else from its path), and why they
    are no legal move ("" when they are)."""
    raw = action.get("cells")
    if raw is None:
        cells = [state.table.cell_of(p) for p in action.path]
        if any(c is None for c in cells):
            return [], f"the {label(unit)} would leave the board"
        route = [c for c in cells if c is not None]
        while route and route[0] == unit.cell:
            route.pop(0)
        deduped: list[Cell] = []
        for c in route:
            if not deduped or deduped[-1] != c:
                deduped.append(c)
        route = deduped
    else:
        try:
            route = [(int(c[0]), int(c[1])) for c in raw]
        except (TypeError, ValueError, IndexError):
            return [], "detail.cells must be a list of [col, row] squares"
        if route and route[0] == unit.cell:
            route = route[1:]
    movers = "monsters move" if is_enemy_side(state, unit.side) else "heroes move"
    if card_of(unit).move_sq != 2:
        movers = f"the {card_of(unit).title} moves"
    problem = Board.of(state).route_problem(unit, route, movers)
    return route, problem or ""


def heading_problems(action: Action) -> list[str]:
    """A stated facing must be a grid facing (a multiple of 45 degrees, D004-05)."""
    h = action.heading_deg
    if h is not None and abs(h / 45.0 - round(h / 45.0)) > 1e-6:
        return [f"a facing of {h:g}° is not a grid facing (a multiple of 45°)"]
    return []


def patrol_problems(state: GameState, unit: Unit, action: Action, fresh: bool) -> list[str]:
    """A patrol is a Patrolling figure's whole activation, with its d8 (and the 4-8 re-roll
    after a 3); cells, when given, must be the squares that roll moves it through."""
    if PATROLLING not in unit.statuses:
        return [f"the {label(unit)} is not patrolling"]
    if not fresh:
        return [f"the {label(unit)} has already acted"]
    roll, turn = action.get("roll"), action.get("turn_roll")
    if not isinstance(roll, int) or not 1 <= roll <= 8:
        return ["a patrol needs its d8 roll (1 to 8)"]
    if roll == 3 and (not isinstance(turn, int) or not 4 <= turn <= 8):
        return ["a patrol roll of 3 needs the re-roll for the turn (4 to 8; 1-3 re-rolled)"]
    if roll != 3 and turn is not None:
        return [f"a patrol roll of {roll} has no turn roll"]
    given = action.get("cells")
    if given is not None:
        run = patrol_run(state, unit, roll)
        try:
            route = [(int(c[0]), int(c[1])) for c in given]
        except (TypeError, ValueError, IndexError):
            return ["detail.cells must be a list of [col, row] squares"]
        if route and route[0] == unit.cell:
            route = route[1:]
        if route != run:
            where = cell_name(run[-1]) if run else cell_name(cell_of(unit))
            return [f"a patrol roll of {roll} takes the {label(unit)} to {where}"]
    return []


def attack_problems(state: GameState, unit: Unit, action: Action) -> list[str]:
    """One attack a turn (the dragon: each weapon once, at different heroes, D004-12), with a
    weapon of the card, at an enemy the weapon reaches (``attacks.attack_problem``)."""
    card, rules = card_of(unit), rules_of(state)
    weapon = card.attack(str(action.get("weapon") or ""))
    if weapon is None:
        names = ", ".join(a.name for a in card.attacks) or "none"
        return [f"the {card.title} has no weapon {action.get('weapon')!r} (it has: {names})"]
    if rules.weapons_used and not card.multi_attack_distinct_targets:
        return [f"the {card.title} attacks once a turn"]
    if weapon.name in rules.weapons_used:
        return [f"the {card.title} has already used its {weapon.name} this turn"]
    if not action.target_id or not state.has_unit(action.target_id):
        return [f"the {card.title} needs a target for its {weapon.name}"]
    target = state.unit(action.target_id)
    if not target.on_table or target.side == unit.side:
        return [f"the {card_of(target).title} is not an enemy on the board"]
    if target.id in rules.targets_attacked:
        return [f"the {card.title} must attack a different figure with its {weapon.name}"]
    problem = attack_problem(Board.of(state), unit, weapon, target)
    return [problem] if problem else []


def heal_problems(state: GameState, unit: Unit, action: Action) -> list[str]:
    """A heal instead of an attack, with heals left, on an adjacent other hero (D004-11)."""
    card, rules = card_of(unit), rules_of(state)
    if card.heal is None:
        return [f"the {card.title} cannot heal"]
    if heals_left(unit) <= 0:
        return [f"the {card.title} has no heals left (3 per game)"]
    if rules.weapons_used:
        return [f"the {card.title} heals instead of attacking"]
    if not action.target_id or not state.has_unit(action.target_id):
        return [f"the {card.title} needs a hero to heal"]
    target = state.unit(action.target_id)
    if target.id == unit.id and not card.heal.self_allowed:
        return [f"the {card.title} cannot heal himself"]
    if not target.on_table or target.side != unit.side:
        return [f"the {card_of(target).title} is not a hero on the board"]
    dist = chebyshev(cell_of(unit), cell_of(target))
    if target.id != unit.id and dist != 1:
        return [
            f"the {card.title} heals an adjacent hero; the {card_of(target).title} is "
            f"{dist} squares away"
        ]
    return []


def can_still_act(state: GameState, unit: Unit) -> bool:
    """Whether the acting unit has an attack or a heal left to make this activation."""
    card, rules = card_of(unit), rules_of(state)
    if rules.weapons_used and not card.multi_attack_distinct_targets:
        return False
    board = Board.of(state)
    foes = [f for f in board.enemies(unit) if f.id not in rules.targets_attacked]
    for weapon in card.attacks:
        if weapon.name in rules.weapons_used:
            continue
        if any(can_attack(board, unit, weapon, f) for f in foes):
            return True
    if card.heal is None or heals_left(unit) <= 0 or rules.weapons_used:
        return False
    return any(
        not heal_problems(state, unit, Action("heal", unit.id, target_id=f.id))
        for f in state.units
        if f.on_table and f.side == unit.side
    )

"""The grid game's orders and moves at the table, in squares: what an order says ("Troll at
C4: patrol roll 7: ..."), where the ordered model must stand afterwards, and how a move the
camera saw becomes a move of the rules (or why it is not one, in squares).

The rules are the engine's: an order's outcome is read from the ruleset applying it to a copy
of the state (with a throw-away die for the rare tie the rules settle by a roll; the patrol's
d8 is in the order already), and a move's legality is the ruleset's ``validate``.
"""

from __future__ import annotations

from dataclasses import dataclass

from assistant.session.observation import PieceSeen
from assistant.tables.base import Expectation
from assistant.tables.dungeon_cells import read_cell
from engine.actions import Action, ActionKind, Event, IllegalActionError, Order
from engine.dice import SeededDice
from engine.geometry import Point
from engine.geometry.grid import Cell, chebyshev
from engine.model import GameState, Unit
from engine.protocols import Ruleset
from engine.rulesets.dungeon.board import label
from engine.rulesets.dungeon.state import card_of
from engine.scenario import cell_name

#: Events of the ordered figure that its order already says (not said again once applied).
ORDER_EVENTS = frozenset({"patrol", "move", "face", "status"})
FACING_TOL_DEG = 20.0
"""How far a model may face from its grid facing (the facings are 45 degrees apart)."""

_VERBS = {
    "breath": "breathe fire at",
    "claws": "claw",
    "spear": "throw its spear at",
    "club": "club",
    "axe": "swing its axe at",
    "sword": "strike",
    "fireball": "cast a fireball at",
    "staff": "strike with the staff",
    "dagger": "throw a dagger at",
    "mace": "strike with the mace",
}


@dataclass(frozen=True)
class Foreseen:
    """What an order does, read from the ruleset applying it to a copy of the state."""

    after: GameState
    events: tuple[Event, ...]


def foresee(state: GameState, ruleset: Ruleset, action: Action) -> Foreseen | None:
    """The state and events after ``action``, or None when the rules refuse it."""
    try:
        outcome = ruleset.apply(state, action, SeededDice(0))
    except IllegalActionError:
        return None
    return Foreseen(outcome.state, tuple(outcome.events))


def attack_words(state: GameState, action: Action) -> str:
    """ "breathe fire at the Priest on G7 — roll a d6, 3 or more wounds"."""
    unit = state.unit(action.unit_id or "")
    target = state.unit(action.target_id or "")
    weapon = card_of(unit).attack(str(action.get("weapon") or ""))
    name = str(action.get("weapon") or "weapon")
    verb = _VERBS.get(name, f"attack with the {name}")
    where = f" on {cell_name(target.cell)}" if target.cell is not None else ""
    need = f" — roll a d6, {weapon.wound_on} or more wounds" if weapon is not None else ""
    return f"{verb} the {card_of(target).title}{where}{need}"


def heal_words(state: GameState, action: Action) -> str:
    """ "heal the Thief on F6 — roll a d6, 3 or more heals a wound"."""
    unit = state.unit(action.unit_id or "")
    target = state.unit(action.target_id or "")
    heal = card_of(unit).heal
    where = f" on {cell_name(target.cell)}" if target.cell is not None else ""
    need = f" — roll a d6, {heal.wound_on} or more heals a wound" if heal is not None else ""
    return f"heal the {card_of(target).title}{where}{need}"


def order_sentences(
    state: GameState, ruleset: Ruleset, action: Action
) -> tuple[tuple[str, ...], frozenset[str]]:
    """What the order makes the figure do, sentence by sentence, in squares; and the texts of
    the events of its own that those sentences cover (not said again once it is applied)."""
    kind = str(action.kind)
    unit = state.unit(action.unit_id or "") if action.unit_id else None
    if unit is None:
        return ("Nothing to do.",), frozenset()
    if kind == "attack":
        return (f"{label(unit)}: {attack_words(state, action)}.",), frozenset()
    if kind == "heal":
        return (f"{label(unit)}: {heal_words(state, action)}.",), frozenset()
    if kind == ActionKind.PASS:
        return (f"{label(unit)}: stays where it is this turn.",), frozenset()
    seen = foresee(state, ruleset, action)
    if seen is None:
        return (f"{label(unit)}: {kind}.",), frozenset()
    out: list[str] = []
    covered: set[str] = set()
    for ev in seen.events:
        kind = str(ev.type)
        if ev.unit != unit.id or kind not in ORDER_EVENTS or not ev.text:
            continue
        covered.add(ev.text)
        out.append(ev.text)  # a patrol is said once, by its roll's sentence
    return tuple(out) or (f"{label(unit)}: stays where it is.",), frozenset(covered)


def expectation(state: GameState, ruleset: Ruleset, order: Order) -> Expectation:
    """Where the ordered model must stand, and face, once the player has carried the order
    out: the square and grid facing the rules give it (a move or a patrol, with the turn to
    face a hero it sees); an attack or a heal moves nobody (what follows is said as events)."""
    action = order.action
    unit = state.unit(action.unit_id or "")
    grid = state.table.grid
    assert grid is not None
    # Half a square: with a model on a line asked to be centred first (placement_problem),
    # this accepts exactly the clear part of the ordered square and nothing of its neighbours.
    tol = 0.5 * grid.cell_in
    here = Expectation(
        unit.id,
        unit.x,
        unit.y,
        unit.heading_deg,
        moves=False,
        position_tol_in=tol,
        facing_tol_deg=180.0,
        cell=unit.cell,
    )
    if str(action.kind) not in ("move", "patrol"):
        return here
    seen = foresee(state, ruleset, action)
    if seen is None or not seen.after.has_unit(unit.id):
        return here
    moved = seen.after.unit(unit.id)
    if not moved.on_table or moved.cell is None:
        return here
    x, y = grid.centre(moved.cell)
    return Expectation(
        unit.id,
        x,
        y,
        moved.heading_deg,
        moves=moved.cell != unit.cell,
        position_tol_in=tol,
        facing_tol_deg=FACING_TOL_DEG,
        cell=moved.cell,
    )


def grid_facing(heading_deg: float) -> float:
    """The nearest grid facing (a multiple of 45 degrees)."""
    return round(heading_deg / 45.0) % 8 * 45.0


def _straight_route(start: Cell, end: Cell) -> list[Cell]:
    """Squares from ``start`` to ``end`` stepping diagonally first (to name why a move the
    camera saw is no legal move)."""
    route: list[Cell] = []
    col, row = start
    while (col, row) != end:
        col += (end[0] > col) - (end[0] < col)
        row += (end[1] > row) - (end[1] < row)
        route.append((col, row))
    return route


def move_to(
    state: GameState, ruleset: Ruleset, unit: Unit, cell: Cell, heading_deg: float | None = None
) -> Action | str:
    """The rules' move of ``unit`` to ``cell`` (a shortest legal route), or why there is none,
    in squares ("the Thief moved 3 squares; it moves 2")."""
    if unit.cell is None:
        return f"the {card_of(unit).title} is not on the board"
    facing = None if heading_deg is None else grid_facing(heading_deg)
    if cell == unit.cell:
        turn = Action(
            ActionKind.MOVE,
            unit.id,
            path=(unit.position,),
            heading_deg=facing or unit.heading_deg,
            detail=(("cells", []),),
        )
        problems = ruleset.validate(state, turn)
        return problems[0] if problems else turn
    best: Action | None = None
    for action in ruleset.sample_actions(state, unit.id, SeededDice(0)):
        cells = action.get("cells")
        if str(action.kind) == "move" and cells and tuple(cells[-1]) == cell:
            best = action
            break
    if best is not None:
        if (
            facing is not None
            and abs(((facing - (best.heading_deg or 0.0)) + 180) % 360 - 180) > 22.5
        ):
            best = Action(
                best.kind, best.unit_id, path=best.path, heading_deg=facing, detail=best.detail
            )
        return best
    route = _straight_route(unit.cell, cell)
    grid = state.table.grid
    assert grid is not None
    trial = Action(
        ActionKind.MOVE,
        unit.id,
        path=(unit.position, *(grid.centre(c) for c in route)),
        detail=(("cells", [list(c) for c in route]),),
    )
    problems = ruleset.validate(state, trial)
    if problems:
        return problems[0]
    steps = chebyshev(unit.cell, cell)
    return f"the {card_of(unit).title} cannot reach {cell_name(cell)} in {steps} squares this turn"


def observed_move(state: GameState, ruleset: Ruleset, unit: Unit, seen: PieceSeen) -> Action | str:
    """The move the camera saw the player make with ``unit``, or why it is not legal."""
    grid = state.table.grid
    assert grid is not None
    reading = read_cell(grid, seen.x_in, seen.y_in)
    if reading.cell is None or reading.on_line:
        from assistant.tables.dungeon_cells import centre_request

        return centre_request(card_of(unit).title, reading).rstrip(".")
    return move_to(state, ruleset, unit, reading.cell, seen.heading_deg)


def path_of(action: Action) -> tuple[Point, ...]:
    """The path of a move action, in inches (its start at least)."""
    return tuple(action.path)

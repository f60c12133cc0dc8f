"""How the neutral figures of the random events move (RULES §4.l, §4.k, D002-12/15): monks in
single file to the opposite edge, the addled citizen's direction table, the dispenser bot's
round of visits, the citizen mob's charge, the air mine's approach. The ``cards`` controller
plays the neutral side with these."""

from __future__ import annotations

from engine.actions import Action, Order
from engine.boards.grid import table_grid
from engine.dice import RandomSource
from engine.geometry.grid import STEPS, Cell, chebyshev
from engine.model import GameState, Unit
from engine.protocols import Ruleset
from engine.rulesets.firefight_lite.board import cell, figures, move_path, reach, squares
from engine.rulesets.firefight_lite.state import FFUnit, card, is_combatant
from engine.scenario import cell_name


def _step(heading: float) -> Cell:
    """The one-square step along a grid facing (0, 45, ... 315 degrees)."""
    return STEPS[round(heading / 45.0) % 8]


def _move(state: GameState, unit: Unit, to: Cell, rule: str, reason: str) -> Order:
    action = Action(
        "move", unit.id, path=move_path(state, unit, to), detail=(("cell", [to[0], to[1]]),)
    )
    return Order(action, rule, reason)


def _hold(unit: Unit, rule: str, reason: str) -> Order:
    return Order(Action("hold", unit.id), rule, reason)


def _nearest_combatant(state: GameState, unit: Unit, skip: tuple[str, ...] = ()) -> Unit | None:
    options = [u for u in state.units if u.on_table and is_combatant(u) and u.id not in skip]
    if not options:
        return None
    return min(options, key=lambda u: (chebyshev(cell(unit), cell(u)), u.sheet_order))


def _toward(state: GameState, unit: Unit, goal: Unit) -> Cell:
    """The reachable square next to ``goal`` fewest steps away, else the one nearest it."""
    options = reach(state, unit, card(unit).move)
    options[cell(unit)] = 0
    beside = [(k, c) for c, k in options.items() if chebyshev(c, cell(goal)) == 1]
    if beside:
        return min(beside, key=lambda kc: (kc[0], kc[1][1], kc[1][0]))[1]
    return min(options, key=lambda c: (chebyshev(c, cell(goal)), options[c], c[1], c[0]))


def _walk(
    state: GameState, unit: Unit, heading: float, squares_left: int, stop_at_contact: bool
) -> Cell:
    """Straight steps along ``heading`` until blocked (terrain, a figure, the edge) or, for the
    citizen, in contact with a figure."""
    grid = table_grid(state)
    blocked = squares(state).board.walls | figures(state).taken(unit.id)
    at = cell(unit)
    dc, dr = _step(heading)
    for _ in range(squares_left):
        nxt = (at[0] + dc, at[1] + dr)
        if not grid.contains(nxt) or nxt in blocked:
            break
        at = nxt
        if stop_at_contact and any(chebyshev(at, c) == 1 for c in figures(state).taken(unit.id)):
            break
    return at


def monk(state: GameState, unit: Unit, dice: RandomSource) -> Order:
    """K♥: three squares (General dice) on towards the opposite edge; round an obstacle to the
    right (d6 1-3) or the left (4-6); leaving the table from the far edge costs one die, so a
    monk that reaches the edge square with a die left steps off in the same turn."""
    grid = table_grid(state)
    heading = unit.heading_deg
    dc, dr = _step(heading)
    here = cell(unit)
    if not grid.contains((here[0] + dc, here[1] + dr)):
        return Order(
            Action("leave", unit.id), "procession", "the monk reaches the far edge and leaves"
        )
    blocked = squares(state).board.walls | figures(state).taken(unit.id)
    at = here
    for used in range(card(unit).move):
        ahead = (at[0] + dc, at[1] + dr)
        if not grid.contains(ahead):
            if at in reach(state, unit, used):
                leave = Action(
                    "leave",
                    unit.id,
                    path=move_path(state, unit, at),
                    detail=(("cell", [at[0], at[1]]),),
                )
                why = f"the monk walks to {cell_name(at)} at the far edge and leaves"
                return Order(leave, "procession", why)
            break
        if ahead in blocked:
            roll = dice.roll(6, f"procession: {unit.name} goes round an obstacle")
            side = 45.0 if roll <= 3 else -45.0
            sc, sr = _step(heading + side)
            ahead = (at[0] + sc, at[1] + sr)
            if not grid.contains(ahead) or ahead in blocked:
                break
        at = ahead
    if at == here:
        return _hold(unit, "procession", "the way is blocked")
    if at not in reach(state, unit, card(unit).move):
        return _hold(unit, "procession", "the way is blocked")
    return _move(state, unit, at, "procession", f"the monk walks on to {cell_name(at)}")


def citizen_heading(state: GameState, unit: Unit, dice: RandomSource, first: bool) -> float:
    """Q♥ and D002-15: the first move straight across; then the d6 table (1 same, 2 right, 3
    left, 4 reverse, 5 diagonally towards the nearest edge, 6 straight towards it)."""
    heading = unit.heading_deg
    if first:
        return heading
    roll = dice.roll(6, f"addled citizen: direction for {unit.name}")
    if roll == 1:
        return heading
    if roll in (2, 3, 4):
        return (heading + {2: 90.0, 3: -90.0, 4: 180.0}[roll]) % 360.0
    edge = state.table.nearest_edges(unit.position)[0]
    to_edge = {"back": 0.0, "right": 90.0, "front": 180.0, "left": 270.0}[str(edge)]
    if roll == 6:
        return to_edge
    diff = (heading - to_edge + 540.0) % 360.0 - 180.0
    if abs(diff) < 1e-9 or abs(abs(diff) - 180.0) < 1e-9:
        side = (
            45.0 if dice.roll(2, f"addled citizen: which diagonal for {unit.name}") == 1 else -45.0
        )
    elif abs(abs(diff) - 90.0) < 1e-9:
        side = 45.0 if diff > 0 else -45.0
    else:
        side = 45.0 if diff > 0 else -45.0
    return (to_edge + side) % 360.0


def citizen(state: GameState, unit: Unit, dice: RandomSource, first: bool) -> Order:
    """Q♥: up to three squares in the table's direction, stopping on contact."""
    heading = citizen_heading(state, unit, dice, first)
    at = _walk(state, unit, heading, card(unit).move, stop_at_contact=True)
    if at == cell(unit) or at not in reach(state, unit, card(unit).move):
        return _hold(unit, "addled citizen", "it stops and asks after Princess Tinkle")
    return _move(state, unit, at, "addled citizen", f"it wanders to {cell_name(at)}")


def bot(state: GameState, unit: Unit) -> Order:
    """J♥: it offers a snack to an unserved figure next to it; else it heads for the nearest
    living figure it has not served (all served: anyone) and stops next to it."""
    served = unit.rules.served if isinstance(unit.rules, FFUnit) else ()
    beside = [
        u
        for u in state.units
        if u.on_table
        and is_combatant(u)
        and u.id not in served
        and chebyshev(cell(u), cell(unit)) == 1
    ]
    if beside:
        guest = min(beside, key=lambda u: u.sheet_order)
        return Order(
            Action("serve", unit.id, target_id=guest.id),
            "dispenser bot",
            f"it offers {guest.name} a pie",
        )
    goal = _nearest_combatant(state, unit, served) or _nearest_combatant(state, unit)
    if goal is None:
        return _hold(unit, "dispenser bot", "nobody to serve")
    to = _toward(state, unit, goal)
    if to == cell(unit):
        return _hold(unit, "dispenser bot", "it cannot get nearer")
    return _move(state, unit, to, "dispenser bot", f"it trundles towards {goal.name}")


def mob(state: GameState, ruleset: Ruleset, unit: Unit) -> Order:
    """K♣: towards the nearest living combatant, into melee when it can reach."""
    goal = _nearest_combatant(state, unit)
    if goal is None:
        return _hold(unit, "citizen frenzy", "nobody left")
    to = _toward(state, unit, goal)
    if chebyshev(to, cell(goal)) == 1:
        action = Action(
            "assault",
            unit.id,
            path=move_path(state, unit, to),
            target_id=goal.id,
            detail=(("cell", [to[0], to[1]]),),
        )
        if not ruleset.validate(state, action):
            return Order(action, "citizen frenzy", f"the citizen goes for {goal.name}")
    if to == cell(unit):
        return _hold(unit, "citizen frenzy", "it cannot get nearer")
    return _move(state, unit, to, "citizen frenzy", f"the citizen runs at {goal.name}")


def mine(state: GameState, unit: Unit) -> Order:
    """D002-12: four squares towards the nearest figure; it explodes on contact."""
    goal = _nearest_combatant(state, unit)
    if goal is None:
        return _hold(unit, "air mine", "no figure left")
    to = _toward(state, unit, goal)
    if to == cell(unit):
        return _hold(unit, "air mine", "it hovers")
    return _move(state, unit, to, "air mine", f"it drifts towards {goal.name}")

"""Searches the grid game's controllers share (seed 004): the patrol roll, the squares a
figure could attack from, the best attacks from a square, and walking distances.

The ``patrol-d8`` controller (the enemies' status AI, RULES §6.d) and the ``dungeon-heroes``
autopilot both plan with these; the ruleset still judges every action they order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from engine.actions import Action, Order
from engine.chance import reroll_until
from engine.dice import RandomSource
from engine.geometry.grid import Cell, chebyshev
from engine.model import GameState, Unit
from engine.rulesets.dungeon.board import Board, label
from engine.rulesets.dungeon.cards import Attack
from engine.rulesets.dungeon.resolve import patrol_run, patrol_turn
from engine.rulesets.dungeon.sample import move_action, patrol_detail
from engine.rulesets.dungeon.state import card_of, cell_of, rules_of
from engine.scenario import cell_name


def roll_patrol(
    unit: Unit, dice: RandomSource
) -> tuple[int, int | None, tuple[tuple[str, int], ...]]:
    """The patrol d8 (purpose "patrol: Troll at C4") and, after a 3, the turn re-roll, itself
    re-rolled while it shows 1 to 3 (D004-03); the rolls made, for the order."""
    return patrol_dice(dice, label(unit))


def patrol_dice(
    dice: RandomSource, name: str
) -> tuple[int, int | None, tuple[tuple[str, int], ...]]:
    """:func:`roll_patrol` for a figure called ``name``."""
    purpose = f"patrol: {name}"
    roll = dice.roll(8, purpose)
    rolls = [(purpose, roll)]
    turn: int | None = None
    if roll == 3:
        again = f"patrol turn re-roll: {name}"
        turn, low = reroll_until(dice, lambda d: d.roll(8, again), lambda t: t > 3)
        rolls.extend((again, t) for t in (*low, turn))
    return roll, turn, tuple(rolls)


PATROL_REASON = "it has not noticed the heroes yet"
"""Why a monster patrols (the order itself says the roll and what it does)."""


def patrol_order(state: GameState, unit: Unit, dice: RandomSource) -> Order:
    """A Patrolling enemy's whole activation: roll the d8 table (the order's action), and why
    (it is still Patrolling: it has not noticed the heroes)."""
    roll, turn, rolls = roll_patrol(unit, dice)
    run = patrol_run(state, unit, roll)
    heading = (unit.heading_deg + patrol_turn(roll, turn)) % 360.0
    action = Action(
        "patrol",
        unit.id,
        path=tuple(_centres(state, [cell_of(unit), *run])) if run else (),
        heading_deg=heading,
        side=unit.side,
        detail=(*patrol_detail(roll, turn), ("cells", [list(c) for c in run])),
    )
    grid = state.table.grid
    assert grid is not None
    return Order(
        action,
        "the d8 patrol table",
        PATROL_REASON,
        distance_in=len(run) * grid.cell_in,
        rolls=rolls,
    )


def _centres(state: GameState, cells: list[Cell]) -> list[tuple[float, float]]:
    grid = state.table.grid
    assert grid is not None
    return [grid.centre(c) for c in cells]


def walking_distances(state: GameState, board: Board, goal: Cell) -> Mapping[Cell, int]:
    """Steps from every open square to ``goal`` around the walls (figures ignored: they move),
    remembered with the game's board (do not change the mapping)."""
    return board.squares.distances(goal)


@dataclass(frozen=True)
class Strike:
    """One planned attack (or heal) from a square."""

    weapon: str
    """Weapon name, or "heal"."""
    target: Unit
    value: float


def strikes_from(
    board: Board,
    unit: Unit,
    frm: Cell,
    worth: Callable[[Unit, Attack, Unit], float],
    foes: list[tuple[Unit, Cell]] | None = None,
) -> list[Strike]:
    """The attacks the unit could make from ``frm`` (best first): one, or for a figure with
    several weapons at different targets (the dragon), the best set of them (D004-12).

    The same tests as :func:`engine.rulesets.dungeon.attacks.can_attack`, with the foes and
    whether one is adjacent found once per square (the planners call this for every square a
    figure can reach; ``foes``: the enemies with their squares, when the caller has them)."""
    card = card_of(unit)
    fc, fr = frm
    if foes is None:
        foes = [(f, cell_of(f)) for f in board.enemies(unit)]
    gaps = [max(abs(c - fc), abs(r - fr)) for _, (c, r) in foes]
    enemy_adjacent = 1 in gaps
    # Every strike the squares allow, then the line of each checked (the costly part) only
    # as far as needed: best first for a single attack, every one for several.
    reachable: list[tuple[Strike, bool]] = []
    for weapon in card.attacks:
        if weapon.forbidden_if_enemy_adjacent and enemy_adjacent:
            continue
        reach = 1 if weapon.adjacent_only else weapon.max_range_sq
        for (foe, _), gap in zip(foes, gaps, strict=True):
            if gap == 0 or (reach is not None and gap > reach):
                continue
            if weapon.forbid_adjacent_target and gap == 1:
                continue
            # On equal worth the nearer target (RULES §5.k step 6: the closest hero).
            value = worth(unit, weapon, foe) - 0.001 * gap
            reachable.append((Strike(weapon.name, foe, value), weapon.needs_clear_line or gap == 1))
    reachable.sort(key=lambda sl: (-sl[0].value, sl[0].target.sheet_order))
    options: list[Strike] = []
    for strike, needs_line in reachable:
        if needs_line and not board.line_clear(unit, frm, strike.target):
            continue
        options.append(strike)
        if not card.multi_attack_distinct_targets:
            return options
    if not options:
        return []
    best: list[Strike] = [options[0]]
    for i, a in enumerate(options):
        for b in options[i + 1 :]:
            distinct = a.weapon != b.weapon and a.target.id != b.target.id
            if distinct and a.value + b.value > sum(s.value for s in best):
                best = [a, b]
    return best


def attack_actions(unit: Unit, strikes: list[Strike]) -> list[Action]:
    """The actions of planned strikes."""
    out = []
    for s in strikes:
        if s.weapon == "heal":
            out.append(Action("heal", unit.id, target_id=s.target.id))
        else:
            out.append(
                Action("attack", unit.id, target_id=s.target.id, detail=(("weapon", s.weapon),))
            )
    return out


def plan_order(
    state: GameState,
    unit: Unit,
    goal: Unit | None,
    worth: Callable[[Unit, Attack, Unit], float],
    extra: Callable[[Board, Cell], list[Strike]] | None = None,
    rule: str = "plan",
) -> Order:
    """Move (or stay) to the reachable square with the most valuable attacks, then attack;
    ties: nearer ``goal`` on foot, then in a straight line, then the shorter move. With no attack anywhere, walk toward
    ``goal``. ``extra`` adds other strikes (a heal) from a square."""
    board = Board.of(state)
    routes = board.reachable(unit)
    far = walking_distances(state, board, cell_of(goal)) if goal is not None else {}
    start = cell_of(unit)
    best_key: tuple[float, ...] | None = None
    best: tuple[Cell, list[Strike]] = (start, [])
    foes = [(f, cell_of(f)) for f in board.enemies(unit)]
    for cell, route in sorted(routes.items(), key=lambda kv: (len(kv[1]), kv[0][1], kv[0][0])):
        strikes = strikes_from(board, unit, cell, worth, foes)
        if extra is not None:
            more = extra(board, cell)
            if more and (not strikes or more[0].value > sum(s.value for s in strikes)):
                strikes = more
        value = sum(s.value for s in strikes)
        gap = far.get(cell, 999) if goal is not None else 0
        there = cell_of(goal) if goal is not None else cell
        straight = math.hypot(cell[0] - there[0], cell[1] - there[1])
        key = (-value, gap, straight, len(route))
        if best_key is None or key < best_key:
            best_key, best = key, (cell, strikes)
    cell, strikes = best
    actions: list[Action] = []
    grid = state.table.grid
    assert grid is not None
    if cell != start:
        actions.append(move_action(state, unit.id, routes[cell]))
    actions += attack_actions(unit, strikes)
    if not actions:
        return Order(
            Action("pass", unit.id, side=unit.side), rule, "no move brings it nearer or in reach"
        )
    words = []
    if cell != start:
        words.append(f"moves to {cell_name(cell)}")
    for s in strikes:
        what = "heals" if s.weapon == "heal" else f"{s.weapon} at"
        words.append(f"{what} the {card_of(s.target).title} on {cell_name(cell_of(s.target))}")
    if not strikes and goal is not None:
        words.append(f"toward the {card_of(goal).title} on {cell_name(cell_of(goal))}")
    return Order(
        tuple(actions),
        rule,
        ", ".join(words),
        distance_in=len(routes[cell]) * grid.cell_in,
        target_distance_in=None
        if not strikes
        else chebyshev(cell, cell_of(strikes[0].target)) * grid.cell_in,
    )


def nearest(unit: Unit, others: list[Unit]) -> list[Unit]:
    """``others`` tied nearest to the unit (Chebyshev squares, then centre distance, G-07)."""
    if not others:
        return []
    here = cell_of(unit)

    def key(u: Unit) -> tuple[int, float]:
        c = cell_of(u)
        return (chebyshev(here, c), math.hypot(c[0] - here[0], c[1] - here[1]))

    best = min(key(u) for u in others)
    return [u for u in others if key(u) == best]


def acting_now(state: GameState, unit_id: str) -> bool:
    """Whether the unit is in the middle of its activation (it has moved or attacked)."""
    return rules_of(state).acting == unit_id

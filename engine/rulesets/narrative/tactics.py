"""Movement and targeting searches of the narrative ruleset (seed 000).

Shared by the seed-000 AI, the autopilot and the ruleset's sample of legal actions. Inches and
degrees throughout.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from engine.board import (
    board_key,
    clear_board_memo,
    contact_tol,
    nearest_key,
    remember,
    short_of_contact,
    touching,
)
from engine.dice import RandomSource
from engine.geometry import (
    EPS_IN,
    Edge,
    Point,
    bearing_deg,
    heading_vector,
    in_forward_arc,
    normalize_deg,
    path_cost_in,
    point_gap_in,
    shortest_view_move,
    within_in,
)
from engine.model import GameState, Objective, Unit, evolve
from engine.rulesets.narrative.board import (
    OBJECTIVE_REACH_IN,
    board,
    card_of,
    move_area,
    move_patterns,
    move_toward,
)

T = TypeVar("T")


def clear_memo(state: GameState) -> None:
    """Forget every search remembered for ``state``'s game (for benchmarks that want a cold
    start)."""
    clear_board_memo(state)


def clockwise_from_heading(unit: Unit, others: Sequence[Unit]) -> list[Unit]:
    """Others ordered clockwise starting from the unit's heading (D000-07)."""
    return sorted(
        others,
        key=lambda o: (
            round(normalize_deg(bearing_deg(unit.position, o.position) - unit.heading_deg), 9),
            o.sheet_order,
        ),
    )


def d6_pick(n: int, dice: RandomSource, purpose: str) -> tuple[int, list[int]]:
    """Index (0-based) of one of ``n`` options chosen with a d6 (D000-07), and the rolls made."""
    if n <= 1:
        return 0, []
    if n > 6:
        roll = dice.roll(n, purpose)
        return roll - 1, [roll]
    rolls = []
    while True:
        roll = dice.roll(6, purpose)
        rolls.append(roll)
        if 6 % n == 0:
            return (roll - 1) // (6 // n), rolls
        if roll <= n:
            return roll - 1, rolls


def viewable(state: GameState, viewer: Unit, point: Point, target: Unit | None = None) -> bool:
    """In the viewer's forward 180-degree arc at its current heading, and not blocked (D000-03)."""
    if not in_forward_arc(viewer.position, viewer.heading_deg, point):
        return False
    exclude = (viewer.id,) if target is None else (viewer.id, target.id)
    return board(state).centre_clear(viewer, viewer.position, point, exclude)


def loose_objectives(state: GameState) -> tuple[Objective, ...]:
    """Objectives lying on the table (neither carried nor scored)."""
    return tuple(o for o in state.objectives if o.carried_by is None and o.scored_by is None)


def objective_next_to(state: GameState, unit: Unit) -> Objective | None:
    """The nearest loose objective within reach of the unit's base (D000-11)."""
    near = [
        (point_gap_in(unit.position, unit.radius_in, o.position), o)
        for o in loose_objectives(state)
        if within_in(point_gap_in(unit.position, unit.radius_in, o.position), OBJECTIVE_REACH_IN)
    ]
    return min(near, key=lambda kv: kv[0])[1] if near else None


def carry_route(
    state: GameState, unit: Unit, edge: Edge, move_in: float
) -> tuple[tuple[Point, ...], bool]:
    """A human carrier's run for ``edge`` and whether it leaves the table.

    The AI's carrier must run straight at the edge (G-05); a player may move as they like, so
    when the straight run is blocked short of its full move, a path round the obstacle that
    gets nearer the edge is taken instead (ending past the edge when it reaches it with
    allowance to spare). It never ends in base contact with an enemy.
    """
    path, leaves = board(state).flee_path(unit, edge, move_in, keep_clear=True)
    if leaves or path_cost_in(path) >= move_in - 1e-6:
        return path, leaves
    table = state.table
    c = unit.position
    exit_point = {
        Edge.FRONT: (c[0], 0.0),
        Edge.BACK: (c[0], table.depth_in),
        Edge.LEFT: (0.0, c[1]),
        Edge.RIGHT: (table.width_in, c[1]),
    }[edge]
    around = move_toward(state, unit, exit_point, unit.radius_in, move_in)
    if table.edge_distance_in(around[-1], edge) >= table.edge_distance_in(path[-1], edge) - 1e-6:
        return path, False
    touching_edge = table.edge_distance_in(around[-1], edge) <= unit.radius_in + 1e-3
    if touching_edge and path_cost_in(around) < move_in - 1e-6:
        ox, oy = heading_vector(table.edge_heading_deg(edge))
        end = around[-1]
        return (*around[:-1], (end[0] + ox * 0.05, end[1] + oy * 0.05)), True
    return short_of_contact(state, unit, around), False


def contact_path(
    state: GameState, unit: Unit, enemy: Unit, move_in: float
) -> tuple[Point, ...] | None:
    """A legal move that ends in base contact with ``enemy``, or None (D000-04)."""
    stop = unit.radius_in + enemy.radius_in + min(0.02, contact_tol(state) / 2)
    path = move_toward(state, unit, enemy.position, stop, move_in)
    return path if touching(state, unit, enemy, path[-1]) else None


def firing_position(
    state: GameState, unit: Unit, target: Unit, move_in: float
) -> tuple[Point, ...] | None:
    """The shortest legal move after which ``target`` is in range and sight (D000-09).

    Any path of the seed-000 movement patterns (one leg of up to M, or two of up to M/2) is
    considered; on a tie, a single straight leg at the target. The move may not end in base
    contact with an enemy (D000-16). None when no move gives a shot.
    """
    card = card_of(unit)
    if card.shoot_range_in is None:
        return None
    key = (
        "firing",
        board_key(state, unit),
        target.id,
        card.shoot_range_in,
        move_in,
    )
    return remember(state, key, lambda: _firing_position(state, unit, target, move_in))


def _firing_position(
    state: GameState, unit: Unit, target: Unit, move_in: float
) -> tuple[Point, ...] | None:
    card = card_of(unit)
    assert card.shoot_range_in is not None
    tol = contact_tol(state)
    keep_away = [
        (e.position, unit.radius_in + e.radius_in + tol + 2 * EPS_IN)
        for e in state.enemies_of(unit)
    ]
    return shortest_view_move(
        unit.position,
        target.position,
        card.shoot_range_in + unit.radius_in + target.radius_in,
        move_patterns(move_in),
        move_area(state, unit),
        board(state).blockers(unit, (unit.id, target.id)),
        keep_away,
    )


def pivot_toward(unit: Unit, point: Point) -> Unit:
    """The unit turned to face ``point``."""
    if point == unit.position:
        return unit
    return evolve(unit, heading_deg=bearing_deg(unit.position, point))


def nearest(
    unit: Unit, others: Sequence[Unit], at: Point | None = None
) -> list[tuple[tuple[float, float], Unit]]:
    """(nearest key, unit) pairs for ranking by edge gap then centre distance."""
    return [(nearest_key(unit, o, at), o) for o in others]


def first_legal(
    candidates: Sequence[tuple[Point, ...]], is_legal: Callable[[tuple[Point, ...]], bool]
) -> tuple[Point, ...] | None:
    """The first path the rules accept."""
    for path in candidates:
        if is_legal(path):
            return path
    return None


def shortened(path: tuple[Point, ...]) -> list[tuple[Point, ...]]:
    """The path cut back along its last leg in tenths, longest first (to avoid ending in contact)."""
    if len(path) < 2:
        return []
    a, b = path[-2], path[-1]
    out = []
    for k in range(9, 0, -1):
        f = k / 10
        out.append((*path[:-1], (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)))
    return out

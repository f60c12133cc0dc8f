"""Board queries every ruleset shares, in game terms: distances (G-01), base contact (G-04),
the G-07 ranking with dice for exact ties, a leg cut short of contact, and the game's memo of
board searches. The open table's sight, cover and movement are the kit
:mod:`engine.boards.open`; the grid's are :mod:`engine.boards.grid`. Inches and degrees.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

import shapely

from engine.dice import RandomSource
from engine.geometry import (
    EPS_IN,
    Point,
    Table,
    centre_distance_in,
    edge_gap_in,
    within_in,
)
from engine.memo import BoardMemo
from engine.model import GameState, TerrainPiece, Unit

T = TypeVar("T")

#: Default base-contact tolerance in inches (G-04); scenarios may raise it (camera play).
CONTACT_TOL_IN = 0.1
#: Shorter moves (inches) are not worth announcing: the base stays put instead.
MIN_STEP_IN = 1e-4
#: How far past the edge a leaving base's centre is put, inches (it only marks "off the table").
PAST_EDGE_IN = 0.05


def piece_shape(piece: TerrainPiece) -> shapely.Polygon:
    """A terrain piece's outline as a polygon, repaired (``buffer(0)``) when it crosses itself:
    the shape both board kits read a piece as."""
    shape = shapely.Polygon(piece.polygon)
    return shape if shape.is_valid else shape.buffer(0)


def contact_tol(state: GameState) -> float:
    """Base-contact tolerance of this game, inches (G-04; option ``contact_tol_in``)."""
    return state.option("contact_tol_in", CONTACT_TOL_IN)


# ---------------------------------------------------------------------------- the memo
def board_memo(state: GameState) -> BoardMemo:
    """The game's memo of board searches (emptied if it was filled on other terrain)."""
    return state.memo.for_terrain(state.terrain)


def clear_board_memo(state: GameState) -> None:
    """Forget every board search remembered for the game ``state`` belongs to."""
    state.memo.clear()


def board_key(state: GameState, unit: Unit) -> tuple[object, ...]:
    """What a search for ``unit``'s base reads of the board, as a hashable key: the table, the
    mover and every other base on the table (the terrain is the memo's own)."""
    return (state.table, unit.x, unit.y, unit.base_diameter_in, others_key(state, unit))


def others_key(state: GameState, unit: Unit) -> tuple[object, ...]:
    """Every base on the table but ``unit``'s, as a hashable key (name, centre in inches,
    diameter in inches): what an answer that does not depend on where the mover stands reads."""
    return tuple(
        (u.name, u.x, u.y, u.base_diameter_in)
        for u in state.units
        if u.on_table and u.id != unit.id
    )


def remember(state: GameState, key: tuple[object, ...], compute: Callable[[], T]) -> T:
    """The game's remembered result for ``key`` (which must hold a :func:`board_key`), or
    ``compute()`` remembered under it."""
    return board_memo(state).remember(key, compute)


def per_state(
    state: GameState, key: tuple[object, ...], compute: Callable[..., T], *args: object
) -> T:
    """The answer remembered for this state under ``key`` among its answers in the game's memo
    (a state never changes, so it holds), or ``compute(*args)`` remembered there. Arguments, not
    a closure: a hot caller would make a new function object on every call, found or not."""
    answers = state.memo.answers_for(state)
    found = answers.get(key, answers)  # the dict itself: not an answer
    if found is answers:
        found = answers[key] = compute(*args)
    result: T = found
    return result


# ----------------------------------------------------------------- distance and contact
def gap_between(a: Unit, b: Unit, at: Point | None = None) -> float:
    """Edge-to-edge distance in inches (G-01), with ``a`` optionally standing at ``at``."""
    return edge_gap_in(a.position if at is None else at, a.radius_in, b.position, b.radius_in)


def touching(state: GameState, a: Unit, b: Unit, at: Point | None = None) -> bool:
    """Base contact (G-04): the edge gap is within the game's contact tolerance, with ``a``
    optionally standing at ``at`` (compared with ``within_in``, so rounding never decides)."""
    return within_in(gap_between(a, b, at), contact_tol(state))


def contacting_enemies(state: GameState, unit: Unit, at: Point | None = None) -> tuple[Unit, ...]:
    """Enemies in base contact with the unit (optionally standing at ``at``): :func:`touching`
    with the tolerance read once and the gap inlined (the same arithmetic as ``edge_gap_in``;
    an AI asks this for every unit it weighs)."""
    limit = contact_tol(state) + EPS_IN
    ax, ay = (unit.x, unit.y) if at is None else at
    r = unit.radius_in
    side = unit.side
    out = []
    for e in state.units:
        if e.side != side and e.on_table:
            d = math.hypot(e.x - ax, e.y - ay) - (r + e.radius_in)
            if (d if d > 0.0 else 0.0) <= limit:
                out.append(e)
    return tuple(out)


def in_contact_with_anyone(state: GameState, unit: Unit) -> bool:
    """Whether any other base touches this one."""
    return any(
        touching(state, unit, other)
        for other in state.units
        if other.on_table and other.id != unit.id
    )


def nearest_key(a: Unit, b: Unit, at: Point | None = None) -> tuple[float, float]:
    """Sort key for "nearest": edge gap, then centre distance (G-07)."""
    origin = a.position if at is None else at
    return (round(gap_between(a, b, at), 9), round(centre_distance_in(origin, b.position), 9))


# ---------------------------------------------------------------------------- G-07 ties
def pick_nearest(
    items: Sequence[tuple[tuple[float, float], T]], dice: RandomSource, purpose: str
) -> tuple[T, int | None]:
    """The item with the smallest key; exact ties broken by a logged roll (G-07)."""
    ordered = sorted(items, key=lambda kv: kv[0])
    best = ordered[0][0]
    tied = [item for key, item in ordered if key == best]
    if len(tied) == 1:
        return tied[0], None
    roll = dice.roll(len(tied), purpose)
    return tied[roll - 1], roll


def ranked_with_ties(
    keyed: Sequence[tuple[tuple[float, ...], T]], dice: RandomSource, purpose: str
) -> Iterator[tuple[T, int | None]]:
    """Items by key, smallest first, each with the roll that chose it (None: no tie).

    Items whose keys are exactly equal come out in an order drawn with the dice (G-07), one
    roll per pick among those left of the tie; a roll is made only when the caller reaches
    the tie.
    """
    ordered = sorted(keyed, key=lambda kv: kv[0])
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and ordered[j][0] == ordered[i][0]:
            j += 1
        group = [item for _, item in ordered[i:j]]
        while group:
            if len(group) == 1:
                yield group.pop(), None
            else:
                roll = dice.roll(len(group), purpose)
                yield group.pop(roll - 1), roll
        i = j


# ------------------------------------------------------------------------------ movement
def short_of_contact(state: GameState, unit: Unit, path: tuple[Point, ...]) -> tuple[Point, ...]:
    """``path`` with its last (straight) leg cut back so that it does not end in base contact
    with an enemy; ``path[:-1]`` when no stop on the leg is clear."""
    if len(path) < 2:
        return path
    a, b = path[-2], path[-1]
    length = centre_distance_in(a, b)
    if length == 0.0:
        return path
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    tol = contact_tol(state)
    enemies = state.enemies_of(unit)
    t = length
    for _ in range(len(enemies) + 1):
        end = (a[0] + ux * t, a[1] + uy * t)
        hit = next((e for e in enemies if within_in(gap_between(unit, e, end), tol)), None)
        if hit is None:
            break
        # Back off to where the leg enters the contact disc of ``hit`` (and a hair more).
        reach = unit.radius_in + hit.radius_in + tol + 10 * EPS_IN
        wx, wy = hit.x - a[0], hit.y - a[1]
        proj = wx * ux + wy * uy
        off2 = max(0.0, wx * wx + wy * wy - proj * proj)
        t = proj - math.sqrt(max(0.0, reach * reach - off2))
        if t < MIN_STEP_IN:
            return path[:-1]
    else:
        return path[:-1]
    if t >= length:
        return path
    return (*path[:-1], (a[0] + ux * t, a[1] + uy * t))


def clip_to_table(a: Point, b: Point, radius_in: float, table: Table) -> Point:
    """The last point of the leg a->b at which the base is still wholly on the table."""
    if table.contains_base(b, radius_in):
        return b
    lo, hi = 0.0, 1.0
    for _ in range(30):
        mid = (lo + hi) / 2
        p = (a[0] + (b[0] - a[0]) * mid, a[1] + (b[1] - a[1]) * mid)
        if table.contains_base(p, radius_in):
            lo = mid
        else:
            hi = mid
    return (a[0] + (b[0] - a[0]) * lo, a[1] + (b[1] - a[1]) * lo)

"""Board queries of the narrative ruleset (seed 000) in game terms: who blocks sight, who is
in contact, which paths are legal, which enemies can be shot. Shared by the ruleset and
its AI controllers. Inches and degrees throughout.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar, cast

from shapely.geometry import Polygon

from engine.errors import EngineError
from engine.geometry import (
    EPS_IN,
    Edge,
    MoveArea,
    Obstacle,
    Point,
    Sight,
    Table,
    base_shape,
    best_move_toward,
    centre_distance_in,
    edge_gap_in,
    heading_vector,
    line_of_sight,
    straight_run,
    toward_edge_path,
    within_in,
)
from engine.model import GameState, TerrainPiece, Unit, UnitCard

T = TypeVar("T")

#: Edge gap (inches) within which a base is "next to" an objective marker (D000-11).
OBJECTIVE_REACH_IN = 0.5
#: Default base-contact tolerance in inches (G-04); scenarios may raise it (camera play).
CONTACT_TOL_IN = 0.1
#: Shorter moves (inches) are not worth announcing: the base stays put instead.
MIN_STEP_IN = 1e-4


@dataclass(frozen=True)
class NarrativeCard(UnitCard):
    """A seed-000 character card (RULES §8.1)."""

    move_in: float
    """Full move distance M, inches."""
    attack_mod: int
    defence_mod: int
    wound_slots: int
    shoot_range_in: float | None = None
    """Shooting range in inches (edge to edge); None: cannot shoot."""


def card_of(unit: Unit) -> NarrativeCard:
    """The unit's seed-000 card."""
    if not isinstance(unit.card, NarrativeCard):
        raise EngineError(f"{unit.name} has no narrative-ruleset card")
    return unit.card


def move_patterns(move_in: float) -> tuple[tuple[float, ...], ...]:
    """Seed 000 movement: one leg of up to M, or two legs of up to M/2 each (§2.e)."""
    return ((move_in,), (move_in / 2.0, move_in / 2.0))


def contact_tol(state: GameState) -> float:
    """Base-contact tolerance of this game, inches."""
    return state.option("contact_tol_in", CONTACT_TOL_IN)


@lru_cache(maxsize=64)
def _terrain_geometry(
    terrain: tuple[TerrainPiece, ...],
) -> tuple[tuple[Obstacle, ...], tuple[Obstacle, ...], tuple[Polygon, ...]]:
    sight: list[Obstacle] = []
    impassable: list[Obstacle] = []
    difficult: list[Polygon] = []
    for piece in terrain:
        shape = Polygon(piece.polygon)
        if not shape.is_valid:
            shape = shape.buffer(0)
        if piece.blocks_los:
            sight.append(Obstacle(piece.name, shape, "terrain"))
        if piece.impassable:
            impassable.append(Obstacle(piece.name, shape, "terrain"))
        if piece.difficult:
            difficult.append(shape)
    return tuple(sight), tuple(impassable), tuple(difficult)


@lru_cache(maxsize=4096)
def _base_obstacle(name: str, x: float, y: float, r: float) -> Obstacle:
    return Obstacle(name, base_shape((x, y), r), "base")


def base_obstacle(unit: Unit) -> Obstacle:
    """The unit's base as an obstacle."""
    return _base_obstacle(unit.name, unit.x, unit.y, unit.radius_in)


#: Board searches remembered before the memo is emptied.
MEMO_SIZE = 1024

# Path searches and move areas are pure functions of the board around the mover, and the same
# board is searched several times per activation (a controller plans, the ruleset validates
# and applies; the autopilot weighs every character before it picks one). Results are
# remembered under a key of everything they read: table, terrain, the mover and every other
# base on the table.
_memo: dict[tuple[object, ...], Any] = {}
_terrains: dict[int, tuple[TerrainPiece, ...]] = {}


def clear_board_memo() -> None:
    """Forget every remembered board search."""
    _memo.clear()
    _terrains.clear()


def _terrain_token(terrain: tuple[TerrainPiece, ...]) -> int:
    """A cheap stand-in for the terrain in keys (hashing the polygons each time is slow).

    The terrain is kept alive while it is known, so its id cannot pass to another terrain.
    """
    token = id(terrain)
    if _terrains.get(token) is not terrain:
        if len(_terrains) >= 64 or token in _terrains:
            clear_board_memo()
        _terrains[token] = terrain
    return token


def board_key(state: GameState, unit: Unit) -> tuple[object, ...]:
    """What a search for ``unit``'s base reads of the board, as a hashable key."""
    others = tuple(
        (u.name, u.x, u.y, u.base_diameter_in)
        for u in state.units
        if u.on_table and u.id != unit.id
    )
    terrain = _terrain_token(state.terrain)
    return (state.table, terrain, unit.x, unit.y, unit.base_diameter_in, others)


def remember(key: tuple[object, ...], compute: Callable[[], T]) -> T:
    """The remembered result for ``key`` (which must start from a ``board_key``), or compute it."""
    try:
        return cast(T, _memo[key])
    except KeyError:
        pass
    value = compute()
    if len(_memo) >= MEMO_SIZE:
        _memo.clear()
    _memo[key] = value
    return value


def move_area(state: GameState, unit: Unit) -> MoveArea:
    """What the unit's base must avoid: impassable terrain and every other base (D000-02)."""
    return remember(("area", board_key(state, unit)), lambda: _move_area(state, unit))


def _move_area(state: GameState, unit: Unit) -> MoveArea:
    _, impassable, difficult = _terrain_geometry(state.terrain)
    bases = tuple(base_obstacle(u) for u in state.units if u.on_table and u.id != unit.id)
    return MoveArea(state.table, unit.radius_in, impassable + bases, difficult)


def move_toward(
    state: GameState, unit: Unit, goal: Point, stop_gap_in: float, move_in: float
) -> tuple[Point, ...]:
    """The legal path of the allowed shapes that ends closest to ``goal`` (RULES §1.5)."""
    key = ("toward", board_key(state, unit), goal, stop_gap_in, move_in)
    path = remember(
        key,
        lambda: best_move_toward(
            unit.position, goal, stop_gap_in, move_patterns(move_in), move_area(state, unit)
        ),
    )
    assert path is not None
    return path


def sight_blockers(state: GameState, exclude: Sequence[str]) -> tuple[Obstacle, ...]:
    """Seed 000 blockers: terrain that blocks sight and every character not excluded."""
    sight, _, _ = _terrain_geometry(state.terrain)
    bases = tuple(base_obstacle(u) for u in state.units if u.on_table and u.id not in exclude)
    return sight + bases


def sight_between(state: GameState, viewer: Unit, target: Unit, at: Point | None = None) -> Sight:
    """Line of sight from the viewer (optionally standing at ``at``) to the target."""
    origin = viewer.position if at is None else at
    blockers = sight_blockers(state, (viewer.id, target.id))
    return line_of_sight(origin, viewer.radius_in, target.position, target.radius_in, blockers)


def sight_to_point(state: GameState, viewer: Unit, point: Point) -> Sight:
    """Line of sight from the viewer to a marker on the table."""
    blockers = sight_blockers(state, (viewer.id,))
    return line_of_sight(viewer.position, viewer.radius_in, point, 0.0, blockers)


def centre_line_clear(state: GameState, a: Point, b: Point, exclude: Sequence[str]) -> bool:
    """Whether the centre line a-b is clear of seed-000 blockers (the primary test of G-03).

    The same answer as ``line_of_sight(...).centre_clear`` without the two tangent lines;
    bases (cheap circle tests) are tried before terrain polygons.
    """
    for u in state.units:
        if u.on_table and u.id not in exclude and base_obstacle(u).blocks_segment(a, b):
            return False
    sight, _, _ = _terrain_geometry(state.terrain)
    return not any(ob.blocks_segment(a, b) for ob in sight)


def gap_between(a: Unit, b: Unit, at: Point | None = None) -> float:
    """Edge-to-edge distance in inches (G-01), with ``a`` optionally standing at ``at``."""
    return edge_gap_in(a.position if at is None else at, a.radius_in, b.position, b.radius_in)


def touching(state: GameState, a: Unit, b: Unit, at: Point | None = None) -> bool:
    """Base contact (G-04): the edge gap is within the game's contact tolerance, with ``a``
    optionally standing at ``at`` (compared with ``within_in``, so rounding never decides)."""
    return within_in(gap_between(a, b, at), contact_tol(state))


def contacting_enemies(state: GameState, unit: Unit, at: Point | None = None) -> tuple[Unit, ...]:
    """Enemies in base contact with the unit (optionally standing at ``at``)."""
    return tuple(e for e in state.enemies_of(unit) if touching(state, unit, e, at))


def in_contact_with_anyone(state: GameState, unit: Unit) -> bool:
    """Whether any other base touches this one."""
    return any(
        touching(state, unit, other)
        for other in state.units
        if other.on_table and other.id != unit.id
    )


def in_shooting_range(shooter: Unit, target: Unit, at: Point | None = None) -> bool:
    """Whether the target is within the shooter's range, edge to edge (D000-15), with the
    shooter optionally standing at ``at``; False for a character that cannot shoot."""
    card = card_of(shooter)
    if card.shoot_range_in is None:
        return False
    return within_in(gap_between(shooter, target, at), card.shoot_range_in)


def can_shoot_from(state: GameState, shooter: Unit, target: Unit, at: Point | None = None) -> bool:
    """In range (edge to edge) and with a clear centre line; the pivot makes any arc legal."""
    if not in_shooting_range(shooter, target, at):
        return False
    origin = shooter.position if at is None else at
    return centre_line_clear(state, origin, target.position, (shooter.id, target.id))


def nearest_key(a: Unit, b: Unit, at: Point | None = None) -> tuple[float, float]:
    """Sort key for "nearest": edge gap, then centre distance (G-07)."""
    origin = a.position if at is None else at
    return (round(gap_between(a, b, at), 9), round(centre_distance_in(origin, b.position), 9))


def p_wound(delta: int) -> float:
    """Chance that one seed-000 attack wounds, for ATK - DEF - penalty = ``delta`` (§2.g)."""
    wins = sum(1 for r in range(1, 7) if r == 6 or (r != 1 and r + delta > 3))
    return wins / 6.0


#: How far past the edge a leaving base's centre is put, inches (it only marks "off the table").
_PAST_EDGE_IN = 0.05


def _outward(table_edge_heading_deg: float) -> Point:
    return heading_vector(table_edge_heading_deg)


def flee_path(
    state: GameState, unit: Unit, edge: Edge, move_in: float, *, keep_clear: bool = False
) -> tuple[tuple[Point, ...], bool]:
    """A move of up to ``move_in`` straight toward ``edge`` (G-05) and whether it leaves the table.

    Straight and perpendicular to the edge, never round an obstacle: a blocked flight stops
    where it is blocked. A leaving path ends just past the edge. With ``keep_clear`` (a carrier's
    Move, which may not end in base contact with an enemy) a flight that would stop touching an
    enemy stops short of contact instead.
    """
    key = ("flee", board_key(state, unit), edge, move_in, keep_clear)
    return remember(key, lambda: _flee_path(state, unit, edge, move_in, keep_clear))


def _flee_path(
    state: GameState, unit: Unit, edge: Edge, move_in: float, keep_clear: bool
) -> tuple[tuple[Point, ...], bool]:
    area = move_area(state, unit)
    path, leaves = toward_edge_path(unit.position, edge, move_in, area)
    if leaves:
        ox, oy = _outward(state.table.edge_heading_deg(edge))
        end = path[-1]
        path = (*path[:-1], (end[0] + ox * _PAST_EDGE_IN, end[1] + oy * _PAST_EDGE_IN))
        if len(path) == 1:
            path = (unit.position, path[0])
        return path, True
    if keep_clear:
        path = short_of_contact(state, unit, path)
    return path, False


def forward_path(state: GameState, unit: Unit, move_in: float) -> tuple[Point, ...]:
    """The AI's bonus "forward" move (D000-08): straight along the unit's heading for up to
    ``move_in``, stopping where blocked or at the table edge, and short of base contact with an
    enemy (it is a Move). ``(start,)`` when it cannot move."""

    def compute() -> tuple[Point, ...]:
        path = straight_run(unit.position, unit.heading_deg, move_in, move_area(state, unit))
        return short_of_contact(state, unit, path)

    return remember(("forward", board_key(state, unit), unit.heading_deg, move_in), compute)


def short_of_contact(state: GameState, unit: Unit, path: tuple[Point, ...]) -> tuple[Point, ...]:
    """``path`` with its last (straight) leg cut back so that it does not end in base contact
    with an enemy (a Move may not, RULES D000-16); ``path[:-1]`` when no stop on the leg is clear."""
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

"""The table of the 2D6 skirmish in game terms: sight (terrain and the viewer's own side's
models block, D001B-12), straight-leg movement, a charge's run toward its target, the 1 in and
3 in drive-backs (D001B-07), the Guardian aura and who holds each objective (D001B-12).
Inches throughout; distances between models are edge to edge (G-01).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from engine.board import contact_tol
from engine.boards.open import open_terrain
from engine.geometry import (
    EPS_IN,
    Obstacle,
    Point,
    base_obstacle,
    centre_distance_in,
    segment_point_distance_in,
    within_in,
)
from engine.geometry.raycast import (
    Field,
    Shape,
    point_polygon_in,
    segment_crosses,
    shape_of,
)
from engine.model import GameState, TerrainPiece, Unit
from engine.rulesets.skirmish2d6.fighters import GUARDIAN_REACH_IN, card_of

HOLD_REACH_IN = 1.0
"""A model within this edge-to-edge distance of an objective's terrain piece counts for
holding it (D001B-12)."""
BACK_OFF_IN = 1e-6
"""A move or drive-back stops this short of what it would touch (rounding never overlaps)."""
SEARCH_TURNS_DEG = (0.0, 20.0, -20.0, 45.0, -45.0, 70.0, -70.0, 95.0, -95.0)
"""Headings (relative to straight at the goal) a move toward a point tries, in order."""


@dataclass(frozen=True)
class ObjectiveSite:
    """An objective: its marker and the terrain piece it names (None: the marker alone)."""

    id: str
    name: str
    point: Point
    piece: TerrainPiece | None

    @cached_property
    def shape(self) -> Shape | None:
        """The terrain piece's outline, inches (None: only the marker)."""
        return None if self.piece is None else shape_of(self.piece.polygon)

    def within(self, unit: Unit, reach_in: float) -> bool:
        """Whether the unit's base is within ``reach_in`` of the piece (a bounding-box test
        first)."""
        if self.shape is not None:
            x0, y0, x1, y1 = self.shape.bounds
            dx = max(x0 - unit.x, 0.0, unit.x - x1)
            dy = max(y0 - unit.y, 0.0, unit.y - y1)
            if math.hypot(dx, dy) - unit.radius_in > reach_in + EPS_IN:
                return False
        return within_in(self.gap_in(unit), reach_in)

    def gap_in(self, unit: Unit) -> float:
        """Edge of the unit's base to the piece (or to the marker), inches."""
        if self.shape is None:
            return max(0.0, centre_distance_in(unit.position, self.point) - unit.radius_in)
        return max(0.0, point_polygon_in(self.shape, unit.position) - unit.radius_in)


def objective_sites(state: GameState) -> tuple[ObjectiveSite, ...]:
    """Each objective marker with the terrain piece it stands in, if any (the scenario puts a
    marker inside each objective piece: §3.2.b "choose 3 terrain pieces")."""
    memo = state.memo.for_terrain(state.terrain)
    return memo.remember(("skirmish2d6 sites", state.objectives), lambda: _sites(state))


def _sites(state: GameState) -> tuple[ObjectiveSite, ...]:
    out = []
    for obj in state.objectives:
        piece = next(
            (
                t
                for t in state.terrain
                if point_polygon_in(shape_of(t.polygon), obj.position) <= EPS_IN
            ),
            None,
        )
        out.append(ObjectiveSite(obj.id, obj.name, obj.position, piece))
    return tuple(out)


def holder(state: GameState, site: ObjectiveSite) -> str | None:
    """The side with more models on the table within 1 in of the objective; a tie: nobody
    (D001B-12). Remembered for the game by where the models stand."""
    stands = tuple((u.x, u.y) if u.on_table else None for u in state.units)
    key = ("skirmish2d6 holder", site.id, stands)
    return state.memo.for_terrain(state.terrain).remember(key, lambda: _holder(state, site))


def _holder(state: GameState, site: ObjectiveSite) -> str | None:
    counts: dict[str, int] = {}
    for u in state.units:
        if u.on_table and site.within(u, HOLD_REACH_IN):
            counts[u.side] = counts.get(u.side, 0) + 1
    if not counts:
        return None
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return None
    return ranked[0][0]


def gap(a: Unit, b: Unit, at: Point | None = None) -> float:
    """Edge-to-edge distance, inches (G-01), with ``a`` optionally standing at ``at``
    (``engine.geometry.edge_gap_in``, inlined: the AI asks it thousands of times a game)."""
    ax, ay = (a.x, a.y) if at is None else at
    d = math.hypot(b.x - ax, b.y - ay) - (a.base_diameter_in + b.base_diameter_in) / 2.0
    return d if d > 0.0 else 0.0


def in_contact(state: GameState, a: Unit, b: Unit, at: Point | None = None) -> bool:
    """Base contact (G-04)."""
    return within_in(gap(a, b, at), contact_tol(state))


def contacting_enemies(state: GameState, unit: Unit) -> tuple[Unit, ...]:
    """Enemies in base contact, in sheet order."""
    tol = contact_tol(state)
    return tuple(e for e in state.enemies_of(unit) if within_in(gap(unit, e), tol))


def guarded(state: GameState, unit: Unit) -> bool:
    """Whether a Guardian (itself, or an ally within 2 in) protects the unit (§3.2.h)."""
    for u in state.units:
        if u.side != unit.side or not u.on_table or card_of(u).role != "guardian":
            continue
        if u.id == unit.id or within_in(gap(u, unit), GUARDIAN_REACH_IN):
            return True
    return False


# ---------------------------------------------------------------------------------- sight
def _terrain(state: GameState) -> tuple[tuple[Obstacle, ...], tuple[Obstacle, ...]]:
    """(sight blockers, impassable pieces) of the terrain, built once a game."""
    terrain = open_terrain(state)
    return terrain.sight, terrain.solid


@dataclass(frozen=True)
class _Pieces:
    sight: tuple[Shape, ...]
    solid: tuple[Shape, ...]
    solid_names: tuple[str, ...]
    sight_names: tuple[str, ...] = ()


def _pieces(state: GameState) -> _Pieces:
    """The terrain as plain polygons (sight blockers, impassable pieces), once a game."""
    memo = state.memo.for_terrain(state.terrain)

    def build() -> _Pieces:
        solid = [t for t in state.terrain if t.impassable]
        return _Pieces(
            tuple(shape_of(t.polygon) for t in state.terrain if t.blocks_los),
            tuple(shape_of(t.polygon) for t in solid),
            tuple(t.name for t in solid),
            tuple(t.name for t in state.terrain if t.blocks_los),
        )

    return memo.remember(("skirmish2d6 pieces",), build)


def sight_blockers(state: GameState, viewer: Unit, target: Unit) -> tuple[Obstacle, ...]:
    """What blocks the viewer's sight of the target: terrain that blocks sight and the bases
    of the viewer's own side's other models (enemies do not block, D001B-12)."""
    sight, _ = _terrain(state)
    friends = tuple(
        base_obstacle(u.name, u.position, u.radius_in)
        for u in state.units
        if u.on_table and u.side == viewer.side and u.id not in (viewer.id, target.id)
    )
    return sight + friends


def visible(state: GameState, viewer: Unit, target: Unit) -> bool:
    """The centre line between the two is clear (G-03 primary test): no sight-blocking
    terrain crossed, no base of the viewer's side in the way (D001B-12)."""
    a, b = viewer.position, target.position
    for u in state.units:
        if (
            u.on_table
            and u.side == viewer.side
            and u.id not in (viewer.id, target.id)
            and segment_point_distance_in(a, b, u.position) < u.radius_in - EPS_IN
        ):
            return False
    return not any(segment_crosses(poly, a, b) for poly in _pieces(state).sight)


def sight_blocked_by(state: GameState, viewer: Unit, target: Unit) -> tuple[str, ...]:
    """Names of what blocks the centre line (the tests of :func:`visible`), nearest the viewer
    first."""
    a, b = viewer.position, target.position
    hits: list[tuple[float, str]] = []
    for u in state.units:
        if (
            u.on_table
            and u.side == viewer.side
            and u.id not in (viewer.id, target.id)
            and segment_point_distance_in(a, b, u.position) < u.radius_in - EPS_IN
        ):
            hits.append((centre_distance_in(a, u.position) - u.radius_in, u.name))
    pieces = _pieces(state)
    for poly, name in zip(pieces.sight, pieces.sight_names, strict=True):
        if segment_crosses(poly, a, b):
            hits.append((point_polygon_in(poly, a), name))
    return tuple(dict.fromkeys(name for _, name in sorted(hits)))


# ------------------------------------------------------------------------------- movement
def _field(state: GameState, unit: Unit) -> tuple[Field, tuple[str, ...]]:
    """What the unit's base must avoid (every other base, impassable terrain, the table's
    edges; no difficult ground in these rules), and the obstacles' names, remembered in the
    game's memo for the state object and unit (the AI plans, the rules check, then apply)."""
    answers = state.memo.answers_for(state)
    found: tuple[Field, tuple[str, ...]] | None = answers.get(("skirmish-field", unit.id))
    if found is not None:
        return found
    pieces = _pieces(state)
    others = [u for u in state.units if u.on_table and u.id != unit.id]
    field = Field(
        unit.radius_in,
        tuple((u.x, u.y, u.radius_in) for u in others),
        pieces.solid,
        state.table.width_in,
        state.table.depth_in,
    )
    names = tuple(u.name for u in others) + pieces.solid_names
    answers[("skirmish-field", unit.id)] = (field, names)
    return field, names


def path_length_in(path: Sequence[Point]) -> float:
    """Total length of a polyline, inches."""
    return sum(centre_distance_in(a, b) for a, b in itertools.pairwise(path))


def path_problem(state: GameState, unit: Unit, path: Sequence[Point], limit_in: float) -> str:
    """Why the path is not a legal move of at most ``limit_in`` inches; empty when it is.

    Straight legs, each clear of impassable terrain and other bases, the base wholly on the
    table; the legs together no longer than the limit (RULES §1.5)."""
    if not path or centre_distance_in(path[0], unit.position) > 1e-3:
        return f"a move of {unit.name} must start where it stands"
    length = path_length_in(path)
    if length > limit_in + 1e-6:
        return f"{unit.name} may move {limit_in:g} in, not {length:.2f} in"
    field, names = _field(state, unit)
    for a, b in itertools.pairwise(path):
        hit = field.blocker(a, b, names)
        if hit == "the table edge":
            return f"{unit.name}'s base would leave the table"
        if hit:
            return f"the path runs into {hit}"
    return ""


def _short_of(free_in: float, run_in: float) -> float:
    """The run a base makes: all of it when nothing is in the way, else a hair short of what
    it would touch."""
    return run_in if free_in >= run_in else max(0.0, free_in - BACK_OFF_IN)


def move_toward(
    state: GameState, unit: Unit, goal: Point, stop_gap_in: float, limit_in: float
) -> tuple[Point, ...]:
    """A one-leg path of at most ``limit_in`` that ends as near ``goal`` as it can, stopping
    once the centre is ``stop_gap_in`` from it (RULES §1.5 "move towards X"; straight at the
    goal first, then a few headings either side); ``(start,)`` when no leg gets nearer."""
    start = unit.position
    d0 = centre_distance_in(start, goal)
    want = min(limit_in, d0 - stop_gap_in)
    if want <= 1e-3:
        return (start,)
    field, _ = _field(state, unit)
    base = math.atan2(goal[0] - start[0], goal[1] - start[1])
    best: tuple[float, Point] | None = None
    for turn in SEARCH_TURNS_DEG:
        ang = base + math.radians(turn)
        ux, uy = math.sin(ang), math.cos(ang)
        run = want if turn == 0.0 else limit_in
        if turn != 0.0:
            # Sideways legs run only as far as brings them nearest the goal.
            along = (goal[0] - start[0]) * ux + (goal[1] - start[1]) * uy
            run = min(limit_in, max(0.0, along))
        free = _short_of(field.free_in(start, ux, uy, run), run)
        if turn == 0.0:  # straight at the goal: along the exact line (the goal itself at d0)
            f = free / d0
            end = (start[0] + (goal[0] - start[0]) * f, start[1] + (goal[1] - start[1]) * f)
        else:
            end = (start[0] + ux * free, start[1] + uy * free)
        d = round(centre_distance_in(end, goal), 6)
        if free > 1e-3 and d < d0 - 1e-6 and (best is None or d < best[0]):
            best = (d, end)
            if turn == 0.0 and free >= run - 2 * BACK_OFF_IN:
                break
    return (start,) if best is None else (start, best[1])


def charge_path(state: GameState, unit: Unit, target: Unit, reach_in: float) -> tuple[Point, ...]:
    """The charge's run: up to ``reach_in`` toward the target, stopping in base contact
    (D001B-06); the full distance toward it when the roll is short."""
    stop = unit.radius_in + target.radius_in
    return move_toward(state, unit, target.position, stop, reach_in)


def push_path(
    state: GameState, pushed: Unit, away_from: Unit, distance_in: float
) -> tuple[Point, ...]:
    """The drive-back: ``distance_in`` straight along the centre line away from ``away_from``,
    stopped by impassable terrain, other bases or the table edge with no further effect
    (D001B-07). ``(start,)`` when it cannot move at all."""
    start = pushed.position
    dx, dy = start[0] - away_from.x, start[1] - away_from.y
    d = math.hypot(dx, dy)
    if d == 0.0:
        return (start,)
    ux, uy = dx / d, dy / d
    field, _ = _field(state, pushed)
    free = _short_of(field.free_in(start, ux, uy, distance_in), distance_in)
    if free <= 1e-3:
        return (start,)
    return (start, (start[0] + ux * free, start[1] + uy * free))

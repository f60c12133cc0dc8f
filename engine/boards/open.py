"""The open-table board kit: the mechanics every game on a continuous table shares (RULES §1.2,
§1.4, §1.5, G-01, G-03, G-05), with what the systems do differently as policy parameters.

An :class:`OpenBoard` is one game state's table: the terrain (prepared once a game,
:func:`open_terrain`) and the round bases of the figures on it, as obstacles. It answers
sight (G-03: the centre line, or the three lines of the partial test, blocked by terrain that
blocks sight and by the bases the policy names), cover, the area a base may move in, how far a
base slides along a ray, a move toward a point of the ruleset's leg shapes, a straight flight
toward an edge (G-05) and the edge gap (G-01). :class:`OpenPolicy` holds the differences:
whose bases block sight (seed 000 everyone's, 001B the viewer's own side's, 003/004 its
enemies') and how cover is claimed (crossed-or-under per §1.4, or 001A's "within 0.5 in of a
piece the centre line crosses").

Two fast paths keep a many-figure game quick: :meth:`OpenBoard.lines_blocked` and
:meth:`OpenBoard.leg_hits` test lines against every base at once with numpy (a 100-a-side
strike battle), and :meth:`OpenBoard.field` hands the plain-Python ray geometry of
:mod:`engine.geometry.raycast` to an AI that slides bases thousands of times a game.

Answers live in the game's memo only (:func:`open_board` keeps one board per state object and
policy; terrain once per terrain); nothing is module-level.
"""

from __future__ import annotations

import itertools
import math
import weakref
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Polygon

from engine.board import (
    PAST_EDGE_IN,
    board_key,
    board_memo,
    others_key,
    piece_shape,
    remember,
    short_of_contact,
)
from engine.errors import EngineError
from engine.geometry import (
    EPS_IN,
    Cover,
    CoverArea,
    DifficultGround,
    Edge,
    MoveArea,
    Obstacle,
    Point,
    Sight,
    base_obstacle,
    best_move_toward,
    centre_distance_in,
    cover_between,
    heading_vector,
    line_of_sight,
    segment_point_distance_in,
    straight_run,
    toward_edge_path,
)
from engine.geometry.raycast import Field, Shape
from engine.model import GameState, Unit

Segment = tuple[Point, Point]
SLIDE_TURNS_DEG = (0.0, 20.0, -20.0, 45.0, -45.0, 70.0, -70.0, 95.0, -95.0)
"""Headings (relative to straight at the goal) :meth:`OpenBoard.slide_toward` tries, in order."""
BACK_OFF_IN = 1e-6
"""A slide stops this short of what it would touch (rounding never overlaps)."""
FIGURES_BLOCK = ("all", "friends", "enemies", "none")
"""Whose bases block a sight line (:attr:`OpenPolicy.figures_block`)."""


@dataclass(frozen=True)
class OpenPolicy:
    """How an open-table game's rules differ (the kit's parameters)."""

    figures_block: str = "all"
    """Whose bases (viewer and target aside) block sight, G-03: "all" (seed 000), the
    viewer's "friends" (001B, D001B-12), its "enemies" (003, 004) or "none"."""
    cover_near_in: float | None = None
    """None: a target has the best cover of the pieces the centre line crosses or its base
    overlaps, pieces round the shooter aside (§1.4). A number: the cover of a piece the centre
    line crosses that the target's base comes within this many inches of (001A, D001A-04b)."""

    def __post_init__(self) -> None:
        if self.figures_block not in FIGURES_BLOCK:
            raise ValueError(f"figures_block must be one of {FIGURES_BLOCK}")


@dataclass(frozen=True)
class OpenTerrain:
    """A terrain's pieces as the kit uses them, built once a terrain (:func:`open_terrain`:
    in the scenario's store, so the games on that terrain share it)."""

    sight: tuple[Obstacle, ...]
    """Pieces that block sight."""
    solid: tuple[Obstacle, ...]
    """Impassable pieces."""
    difficult: tuple[Polygon, ...]
    """Difficult ground (each inch costs two, §1.5)."""
    cover: tuple[CoverArea, ...]
    """Pieces that give cover."""
    dangerous: tuple[Polygon, ...] = ()
    """Dangerous ground (a figure that enters it or ends there risks a wound)."""
    ground: DifficultGround = field(init=False, compare=False, repr=False)
    """The difficult ground merged and prepared for cost queries."""
    solid_outlines: tuple[Shape, ...] = field(init=False, compare=False, repr=False)
    """The impassable pieces as plain polygons (the ray geometry's fast path)."""

    def __post_init__(self) -> None:
        outlines = []
        for ob in self.solid:
            assert ob.outline is not None, f"{ob.name} is not a simple polygon"
            outlines.append(ob.outline)
        # Derived once at construction (the frozen-dataclass idiom): never changed afterwards.
        object.__setattr__(self, "ground", DifficultGround(self.difficult))
        object.__setattr__(self, "solid_outlines", tuple(outlines))

    def dangerous_at(self, point: Point) -> bool:
        """Whether the spot is in dangerous ground (its edge included)."""
        spot = shapely.Point(point)
        return any(shape.covers(spot) for shape in self.dangerous)

    def enters_dangerous(self, path: Sequence[Point]) -> bool:
        """Whether a move ends in dangerous ground, or crosses it from a start outside it."""
        if not self.dangerous:
            return False
        if self.dangerous_at(path[-1]):
            return True
        if len(path) < 2 or self.dangerous_at(path[0]):
            return False
        line = shapely.LineString(path)
        return any(line.intersects(shape) for shape in self.dangerous)


def open_terrain(state: GameState) -> OpenTerrain:
    """The game's terrain for the kit, built once per terrain in the game's memo."""
    return board_memo(state).of_terrain(("open-terrain",), lambda: _build_terrain(state))


def _build_terrain(state: GameState) -> OpenTerrain:
    sight, solid, difficult, cover, dangerous = [], [], [], [], []
    for piece in state.terrain:
        shape = piece_shape(piece)
        if piece.blocks_los:
            sight.append(Obstacle(piece.name, shape, "terrain"))
        if piece.impassable:
            solid.append(Obstacle(piece.name, shape, "terrain"))
        if piece.difficult:
            difficult.append(shape)
        if piece.cover != "none":
            cover.append(CoverArea(piece.name, shape, Cover(piece.cover)))
        if piece.dangerous:
            dangerous.append(shape)
    return OpenTerrain(tuple(sight), tuple(solid), tuple(difficult), tuple(cover), tuple(dangerous))


def open_board(state: GameState, policy: OpenPolicy = OpenPolicy()) -> OpenBoard:
    """The state's open board under ``policy``, kept in the game's memo for the state."""
    answers = board_memo(state).answers_for(state)
    key = ("open-board", policy)
    found: OpenBoard | None = answers.get(key)
    if found is None:
        found = answers[key] = OpenBoard(state, policy)
    return found


class OpenBoard:
    """One state's open table under a policy (see the module docstring). Inches."""

    def __init__(self, state: GameState, policy: OpenPolicy = OpenPolicy()) -> None:
        self._state = weakref.ref(state)
        self.policy = policy
        self.terrain = open_terrain(state)
        self.units = tuple([u for u in state.units if u.on_table])
        self._by_side: dict[str, tuple[Unit, ...]] = {}
        self._masks: dict[str, NDArray[np.bool_]] = {}
        self._fields: dict[str, tuple[Field, tuple[str, ...]]] = {}
        self._base_obstacles: dict[str, Obstacle] = {}

    @property
    def state(self) -> GameState:
        """The state this board is of. Held by a weak reference: the board lives in the state's
        own answers (:func:`open_board`), and a strong one would make every game a reference
        cycle that only the cycle collector frees."""
        state = self._state()
        if state is None:
            raise EngineError("an open board outlived the state it was made of")
        return state

    def base(self, unit: Unit) -> Obstacle:
        """The unit's base as an obstacle (kept for the scenario's games by where it stands)."""
        found = self._base_obstacles.get(unit.id)
        if found is None:
            key = ("base obstacle", unit.name, unit.position, unit.radius_in)
            found = self._base_obstacles[unit.id] = self.state.memo.of_scenario(
                key, lambda: base_obstacle(unit.name, unit.position, unit.radius_in)
            )
        return found

    # -- sight ------------------------------------------------------------------------------
    def blocks_sight(self, viewer: Unit, other: Unit) -> bool:
        """Whether ``other``'s base may block the viewer's sight (the policy)."""
        return self._blocks(viewer.side, other)

    def _blocks(self, side: str, other: Unit) -> bool:
        who = self.policy.figures_block
        if who == "all" or who == "none":
            return who == "all"
        return (other.side == side) == (who == "friends")

    def _blocking(self, side: str) -> tuple[Unit, ...]:
        """The figures that may block the sight of a viewer of ``side`` (remembered)."""
        found = self._by_side.get(side)
        if found is None:
            found = self._by_side[side] = tuple(u for u in self.units if self._blocks(side, u))
        return found

    def sight_figures(self, viewer: Unit, exclude: Collection[str]) -> Iterable[Unit]:
        """The figures whose bases block the viewer's sight, ``exclude`` (ids) aside."""
        return (u for u in self._blocking(viewer.side) if u.id not in exclude)

    def blockers(self, viewer: Unit, exclude: Collection[str]) -> tuple[Obstacle, ...]:
        """What blocks the viewer's sight: terrain, then the blocking bases (sheet order)."""
        bases = tuple(self.base(u) for u in self.sight_figures(viewer, exclude))
        return self.terrain.sight + bases

    def sight(self, viewer: Unit, target: Unit, at: Point | None = None) -> Sight:
        """The three lines of G-03 from the viewer (standing at ``at``) to the target."""
        origin = viewer.position if at is None else at
        blockers = self.blockers(viewer, (viewer.id, target.id))
        return line_of_sight(origin, viewer.radius_in, target.position, target.radius_in, blockers)

    def sight_to_point(self, viewer: Unit, point: Point) -> Sight:
        """The viewer's sight of a marker on the table."""
        blockers = self.blockers(viewer, (viewer.id,))
        return line_of_sight(viewer.position, viewer.radius_in, point, 0.0, blockers)

    def centre_clear(self, viewer: Unit, a: Point, b: Point, exclude: Collection[str]) -> bool:
        """The centre line a-b is clear (G-03's primary test): bases (cheap circle tests)
        first, then terrain. The same answer as ``sight(...).centre_clear``."""
        for u in self._blocking(viewer.side):
            if u.id not in exclude and segment_point_distance_in(a, b, u.position) < (
                u.radius_in - EPS_IN
            ):
                return False
        return not any(ob.blocks_segment(a, b) for ob in self.terrain.sight)

    def blocked_by(
        self, viewer: Unit, a: Point, b: Point, exclude: Collection[str]
    ) -> tuple[str, ...]:
        """Names of what blocks the centre line a-b, nearest ``a`` first."""
        hits = [
            (ob.entry_along_in(a, b), ob.name)
            for ob in self.blockers(viewer, exclude)
            if ob.blocks_segment(a, b)
        ]
        return tuple(dict.fromkeys(name for _, name in sorted(hits)))

    def cover(self, shooter: Point, spot: Point, radius_in: float) -> tuple[Cover, str | None]:
        """The cover a base of ``radius_in`` at ``spot`` has against a shot from ``shooter``
        (the policy's rule) and the piece giving it; ``(Cover.NONE, None)`` when none."""
        near = self.policy.cover_near_in
        if near is None:
            return cover_between(shooter, spot, radius_in, self.terrain.cover)
        target = None
        for area in self.terrain.cover:
            if not area.crossed_by(shooter, spot):
                continue
            if target is None:
                target = shapely.Point(spot)
            if float(shapely.distance(area.shape, target)) - radius_in <= near + EPS_IN:
                return area.cover, area.name
        return Cover.NONE, None

    # -- the numpy fast path ----------------------------------------------------------------
    @cached_property
    def _bases(self) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
        xs = np.array([u.x for u in self.units], dtype=np.float64)
        ys = np.array([u.y for u in self.units], dtype=np.float64)
        rs = np.array([u.radius_in for u in self.units], dtype=np.float64)
        return xs, ys, rs

    @cached_property
    def _sight_reach(self) -> NDArray[np.float64]:
        """(1 x figures) how close a sight line may pass a base's centre, inches."""
        return np.maximum(self._bases[2] - EPS_IN, 0.0)[None, :]

    @cached_property
    def _index(self) -> dict[str, int]:
        return {u.id: i for i, u in enumerate(self.units)}

    def lines_blocked(
        self, viewer: Unit, lines: Sequence[Segment], exclude: Collection[str]
    ) -> NDArray[np.bool_]:
        """(lines x figures on the table) whether each line crosses each base that blocks the
        viewer's sight (``exclude`` and non-blocking figures all False), all at once."""
        xs, ys, _ = self._bases
        a = np.array([ln[0] for ln in lines], dtype=np.float64)
        b = np.array([ln[1] for ln in lines], dtype=np.float64)
        dx, dy = (b[:, 0] - a[:, 0])[:, None], (b[:, 1] - a[:, 1])[:, None]
        l2 = dx * dx + dy * dy
        rx, ry = xs[None, :] - a[:, 0:1], ys[None, :] - a[:, 1:2]
        along = np.where(l2 > 0, (rx * dx + ry * dy) / np.where(l2 > 0, l2, 1.0), 0.0)
        t = np.minimum(np.maximum(along, 0.0), 1.0)  # np.clip, without its Python wrapper
        ex, ey = rx - t * dx, ry - t * dy
        reach = self._sight_reach
        hit: NDArray[np.bool_] = (ex * ex + ey * ey) < reach * reach
        mask = self._masks.get(viewer.side)
        if mask is None:
            blocking = {u.id for u in self._blocking(viewer.side)}
            mask = self._masks[viewer.side] = np.array([u.id in blocking for u in self.units])
        hit &= mask[None, :]
        for uid in exclude:
            i = self._index.get(uid)
            if i is not None:
                hit[:, i] = False
        return hit

    def leg_hits(self, mover: Unit, a: Point, b: Point, passes: Collection[str] = ()) -> str | None:
        """The first other base (sheet order) the mover's base would cross sliding from a to
        b, all tested at once; None: none. ``passes``: ids it may pass through."""
        xs, ys, rs = self._bases
        dx, dy = b[0] - a[0], b[1] - a[1]
        l2 = dx * dx + dy * dy
        rx, ry = xs - a[0], ys - a[1]
        t = (
            np.minimum(np.maximum((rx * dx + ry * dy) / l2, 0.0), 1.0)
            if l2 > 0
            else np.zeros_like(rx)
        )
        ex, ey = rx - t * dx, ry - t * dy
        reach = np.maximum(rs + mover.radius_in - EPS_IN, 0.0)
        hit = (ex * ex + ey * ey) < reach * reach
        for uid in (mover.id, *passes):
            i = self._index.get(uid)
            if i is not None:
                hit[i] = False
        found = np.nonzero(hit)[0]
        return self.units[int(found[0])].name if len(found) else None

    # -- movement ---------------------------------------------------------------------------
    def overlaps(self, unit: Unit, point: Point) -> str | None:
        """The first other base (sheet order) the unit's base would overlap standing at
        ``point`` (touching is not overlapping); None: none. Plain Python: asked of one spot
        at a time, where building the numpy arrays of :meth:`leg_hits` costs more."""
        x, y, r = point[0], point[1], unit.radius_in
        for u in self.units:
            if u.id != unit.id and math.hypot(u.x - x, u.y - y) < u.radius_in + r - EPS_IN:
                return u.name
        return None

    def path_fault(self, unit: Unit, path: Sequence[Point], allowance_in: float, word: str) -> str:
        """Why ``path`` is not a move of the unit (empty when it is): its base ends on the table,
        the legs cost at most ``allowance_in`` (difficult ground counts double, RULES §1.5;
        ``word`` names the allowance) and cross no impassable terrain and no enemy base."""
        if not self.state.table.contains_base(path[-1], unit.radius_in):
            return f"{unit.name} would leave the table"
        area = self.move_area(unit, allies_pass=True)
        legs = list(itertools.pairwise(path))
        cost = sum(area.ground.leg_cost_in(a, b) for a, b in legs)
        if cost > allowance_in + 1e-6:
            doubled = cost > sum(centre_distance_in(a, b) for a, b in legs) + 1e-6
            why = " (difficult ground counts double)" if doubled else ""
            return f"the move costs {cost:.2f} in{why}, more than the {allowance_in:g} in {word}"
        for a, b in legs:
            hits = area.blockers.leg_blockers(a, b, unit.radius_in)
            if hits:
                return f"the path crosses {hits[0][1]}"
        return ""

    def move_area(self, unit: Unit, *, allies_pass: bool = False) -> MoveArea:
        """What the unit's base must avoid: impassable terrain and every other base (only the
        enemies' with ``allies_pass``), with the difficult ground (RULES §1.5), remembered for
        the game by the bases around it."""
        state = self.state

        def build() -> MoveArea:
            bases = tuple(
                self.base(u)
                for u in self.units
                if u.id != unit.id and not (allies_pass and u.side == unit.side)
            )
            t = self.terrain
            return MoveArea(state.table, unit.radius_in, t.solid + bases, t.difficult, t.ground)

        # The area does not depend on where the mover stands: keyed by its base and the others.
        mover = (state.table, unit.base_diameter_in, others_key(state, unit))
        key = ("area", *mover, unit.side if allies_pass else None)
        return remember(state, key, build)

    def field(self, unit: Unit) -> tuple[Field, tuple[str, ...]]:
        """The plain-Python ray field of the unit's base (every other base, impassable terrain,
        the table's edges; no difficult ground) and its obstacles' names, bases first."""
        found = self._fields.get(unit.id)
        if found is None:
            others = [u for u in self.units if u.id != unit.id]
            table = self.state.table
            found = self._fields[unit.id] = (
                Field(
                    unit.radius_in,
                    tuple((u.x, u.y, u.radius_in) for u in others),
                    self.terrain.solid_outlines,
                    table.width_in,
                    table.depth_in,
                ),
                tuple(u.name for u in others) + tuple(ob.name for ob in self.terrain.solid),
            )
        return found

    def slide(self, unit: Unit, ux: float, uy: float, run_in: float) -> tuple[Point, ...]:
        """Up to ``run_in`` straight along the unit direction (ux, uy), stopped a hair short of
        another base, impassable terrain or the table edge; ``(start,)`` when it cannot move."""
        start = unit.position
        free = _short_of(self.field(unit)[0].free_in(start, ux, uy, run_in), run_in)
        if free <= 1e-3:
            return (start,)
        return (start, (start[0] + ux * free, start[1] + uy * free))

    def slide_toward(
        self, unit: Unit, goal: Point, stop_gap_in: float, limit_in: float
    ) -> tuple[Point, ...]:
        """A one-leg path of at most ``limit_in`` that ends as near ``goal`` as it can,
        stopping once the centre is ``stop_gap_in`` from it (RULES §1.5 "move towards X" for
        one straight leg: straight at the goal first, then the :data:`SLIDE_TURNS_DEG` either
        side, on the plain-Python fast path); ``(start,)`` when no leg gets nearer."""
        start = unit.position
        d0 = centre_distance_in(start, goal)
        want = min(limit_in, d0 - stop_gap_in)
        if want <= 1e-3:
            return (start,)
        field, _ = self.field(unit)
        base = math.atan2(goal[0] - start[0], goal[1] - start[1])
        best: tuple[float, Point] | None = None
        for turn in SLIDE_TURNS_DEG:
            ang = base + math.radians(turn)
            ux, uy = math.sin(ang), math.cos(ang)
            run = want
            if turn != 0.0:  # sideways legs run only as far as brings them nearest the goal
                along = (goal[0] - start[0]) * ux + (goal[1] - start[1]) * uy
                run = min(limit_in, max(0.0, along))
            free = _short_of(field.free_in(start, ux, uy, run), run)
            if turn == 0.0:  # straight at the goal: along the exact line (the goal at d0)
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

    def move_toward(
        self, unit: Unit, goal: Point, stop_gap_in: float, legs: Sequence[Sequence[float]]
    ) -> tuple[Point, ...]:
        """The legal path of the leg shapes ``legs`` (inches per leg) that ends closest to
        ``goal``, stopping ``stop_gap_in`` from it (RULES §1.5); ``(start,)`` when none gets
        nearer."""
        state = self.state
        shapes = tuple(tuple(p) for p in legs)
        key = ("toward", board_key(state, unit), goal, stop_gap_in, shapes)
        return remember(
            state,
            key,
            lambda: best_move_toward(
                unit.position, goal, stop_gap_in, shapes, self.move_area(unit)
            ),
        )

    def straight_run(self, unit: Unit, heading_deg: float, run_in: float) -> tuple[Point, ...]:
        """Up to ``run_in`` straight along ``heading_deg``, stopping where blocked or at the
        table edge and short of base contact with an enemy; ``(start,)`` when it cannot."""
        state = self.state

        def compute() -> tuple[Point, ...]:
            path = straight_run(unit.position, heading_deg, run_in, self.move_area(unit))
            return short_of_contact(state, unit, path)

        return remember(state, ("forward", board_key(state, unit), heading_deg, run_in), compute)

    def flee_path(
        self, unit: Unit, edge: Edge, move_in: float, *, keep_clear: bool = False
    ) -> tuple[tuple[Point, ...], bool]:
        """A move of up to ``move_in`` straight toward ``edge`` (G-05) and whether it leaves.

        Straight and perpendicular to the edge, never round an obstacle: a blocked flight stops
        where it is blocked. A leaving path ends just past the edge. With ``keep_clear`` (a
        move that may not end in base contact with an enemy) a flight that would stop touching
        an enemy stops short of contact instead.
        """
        state = self.state
        key = ("flee", board_key(state, unit), edge, move_in, keep_clear)
        return remember(state, key, lambda: self._flee(unit, edge, move_in, keep_clear))

    def _flee(
        self, unit: Unit, edge: Edge, move_in: float, keep_clear: bool
    ) -> tuple[tuple[Point, ...], bool]:
        state = self.state
        path, leaves = toward_edge_path(unit.position, edge, move_in, self.move_area(unit))
        if leaves:
            ox, oy = heading_vector(state.table.edge_heading_deg(edge))
            end = path[-1]
            path = (*path[:-1], (end[0] + ox * PAST_EDGE_IN, end[1] + oy * PAST_EDGE_IN))
            if len(path) == 1:
                path = (unit.position, path[0])
            return path, True
        if keep_clear:
            path = short_of_contact(state, unit, path)
        return path, False

    @staticmethod
    def gap_in(a: Unit, b: Unit, at: Point | None = None) -> float:
        """Edge-to-edge distance (G-01), with ``a`` optionally standing at ``at``
        (``engine.geometry.edge_gap_in`` inlined: an AI asks it thousands of times a game)."""
        ax, ay = (a.x, a.y) if at is None else at
        d = math.hypot(b.x - ax, b.y - ay) - (a.base_diameter_in + b.base_diameter_in) / 2.0
        return d if d > 0.0 else 0.0

    @staticmethod
    def path_length_in(path: Sequence[Point]) -> float:
        """Total length of a polyline, inches."""
        return sum(centre_distance_in(path[i], path[i + 1]) for i in range(len(path) - 1))


def _short_of(free_in: float, run_in: float) -> float:
    """The run a base makes: all of it when nothing is in the way, else a hair short of what
    it would touch."""
    return run_in if free_in >= run_in else max(0.0, free_in - BACK_OFF_IN)

"""The grid board kit: the mechanics every square-grid game shares (RULES §1.2, §1.4, §1.5,
G-03, G-08, T-GEO-06, T-GEO-07), with what the systems do differently as policy parameters.

A :class:`GridBoard` is one terrain's squares: walls (impassable), sight walls (squares that
block sight), difficult squares and the cover level of each square. Figures are not part of
it: its questions take the squares figures close to a mover (``closed``), the squares a mover
may not end on (``taken``) and the squares whose figures block a sight line (``blockers``);
a :class:`GridFigures` (one moment's figures on the board) works them out under the policy
("allies pass or block", "which figures block sight") and a ruleset's ``hostile`` hook.

Movement (G-08): 8-connected steps, a step into a difficult square costs
``GridPolicy.difficult_cost`` moves, others 1; a diagonal step never cuts between two
orthogonally adjacent walls, nor between two closed squares unless
``GridPolicy.figures_cut_corners``. Sight (§1.4): the supercover line between centres is
blocked by a sight wall or blocker square it crosses (ends excluded), or by a corner it passes
exactly through between two diagonal squares that are each a sight wall or a blocker; grazing
one alone does not block.

Answers are remembered in the board itself, and a board lives in the game's memo among its
terrain answers (:func:`grid_board`): shared by the games of one scenario, never module-level.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import TypeVar

from engine.board import piece_shape
from engine.geometry.grid import (
    FILL_THRESHOLD,
    STEPS,
    Cell,
    Grid,
    Walk,
    chebyshev,
    grid_line,
    walk_from_origin,
)
from engine.memo import BoardMemo
from engine.model import GameState, TerrainPiece, Unit

Line = tuple[tuple[Cell, ...], tuple[tuple[Cell, Cell], ...]]
"""A sight line: the squares strictly between its ends, and the corner pairs it passes."""

_KEPT = 4096
"""Searches remembered per board before they are forgotten (searches go in ``STEPS`` order:
clockwise from straight up)."""
_PAIRS_KEPT = 1 << 16
"""Terrain covers (one per shooter and target square) remembered per board."""


@dataclass(frozen=True)
class GridPolicy:
    """How a grid game's rules differ (the kit's parameters)."""

    difficult_cost: int = 2
    """Moves a step into a difficult square costs (T-GEO-07)."""
    figures_cut_corners: bool = False
    """Whether a diagonal step may pass between two closed (figure) squares; walls always stop it."""
    adjacent_sight_walls_only: bool = False
    """Whether sight to a neighbouring square is stopped only by two walls at the corner
    (figures there do not pinch it), as for a blow along a diagonal."""
    allies_pass: bool = True
    """Whether a mover passes through figures that are not hostile to it (:class:`GridFigures`)."""
    figures_block_sight: str = "hostile"
    """Which figures block sight (:class:`GridFigures`): "hostile", "all" or "none"."""


@dataclass(frozen=True)
class RouteFault:
    """Why a route of squares is not a legal move: ``kind`` is one of "too-long" (``at`` is the
    last square), "off-board", "wall", "not-a-step", "corner" (``at`` is the square stepped
    from), "closed" (a square it may not pass), "taken" (the end is occupied)."""

    kind: str
    at: Cell
    frm: Cell


@dataclass(frozen=True)
class GridBoard:
    """One terrain's squares and the grid questions asked of them (answers remembered here)."""

    grid: Grid
    walls: frozenset[Cell] = frozenset()
    """Impassable squares."""
    sight_walls: frozenset[Cell] = frozenset()
    """Squares that block sight."""
    difficult: frozenset[Cell] = frozenset()
    """Squares that cost ``policy.difficult_cost`` to enter."""
    cover: Mapping[Cell, int] = field(default_factory=dict)
    """The cover level of each square that has some (0 open; higher is better)."""
    policy: GridPolicy = GridPolicy()
    _costs: dict[tuple[Cell, int, frozenset[Cell]], dict[Cell, int]] = field(
        default_factory=dict, init=False, compare=False, hash=False, repr=False
    )
    _floods: dict[Cell, dict[Cell, int]] = field(
        default_factory=dict, init=False, compare=False, hash=False, repr=False
    )
    _rays: dict[Cell, _Ray] = field(
        default_factory=dict, init=False, compare=False, hash=False, repr=False
    )
    _walks: dict[Cell, Walk] = field(
        default_factory=dict, init=False, compare=False, hash=False, repr=False
    )
    _covers: dict[tuple[Cell, Cell], int] = field(
        default_factory=dict, init=False, compare=False, hash=False, repr=False
    )
    _figure_masks: dict[frozenset[Cell], int] = field(
        default_factory=dict, init=False, compare=False, hash=False, repr=False
    )
    _wall_pinch: dict[int, int] = field(
        default_factory=dict, init=False, compare=False, hash=False, repr=False
    )
    _origin: int = field(init=False, compare=False, repr=False)
    _wall_mask: int = field(init=False, compare=False, repr=False)
    _wall_view: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        # Derived once from the fields above (a board is built once per terrain).
        origin = self.grid.rows * self.grid.cols + self.grid.cols
        walls = self._bits(self.sight_walls)
        object.__setattr__(self, "_origin", origin)
        object.__setattr__(self, "_wall_mask", walls)
        object.__setattr__(self, "_wall_view", walls << origin)

    # -- movement ---------------------------------------------------------------------------

    def open(self, cell: Cell) -> bool:
        """On the board and not a wall."""
        return self.grid.contains(cell) and cell not in self.walls

    def step_ok(self, a: Cell, b: Cell, closed: Collection[Cell] = frozenset()) -> bool:
        """A one-square step from ``a`` into an open, unclosed ``b`` that cuts no corner."""
        dc, dr = b[0] - a[0], b[1] - a[1]
        if max(abs(dc), abs(dr)) != 1 or not self.open(b) or b in closed:
            return False
        return not (dc and dr and self._pinched((a[0] + dc, a[1]), (a[0], a[1] + dr), closed))

    def _pinched(self, p: Cell, q: Cell, closed: Collection[Cell]) -> bool:
        """Whether the two squares beside a diagonal step stop it (no corner cutting)."""
        if p in self.walls and q in self.walls:
            return True
        if self.policy.figures_cut_corners:
            return False
        return (p in self.walls or p in closed) and (q in self.walls or q in closed)

    def reach(
        self, start: Cell, allowance: int, closed: frozenset[Cell] = frozenset()
    ) -> dict[Cell, int]:
        """The cheapest cost in moves of every square within ``allowance`` of ``start`` (start
        included at 0), never entering a wall or a ``closed`` square. Occupancy at the end is
        the caller's filter (a figure may pass where it may not stop). The result is shared:
        do not change it."""
        key = (start, allowance, closed)
        found = self._costs.get(key)
        if found is None:
            found = (
                self._costs_weighted(start, allowance, closed)
                if self.difficult and self.policy.difficult_cost != 1
                else self._layers(start, allowance, closed)[0]
            )
            if len(self._costs) >= _KEPT:
                self._costs.clear()
            self._costs[key] = found
        return found

    def distances(self, goal: Cell) -> Mapping[Cell, int]:
        """Steps from ``goal`` to every square it connects to, figures ignored: the costs of
        ``reach(goal, cols * rows)`` (in no fixed order), remembered: do not change them."""
        if self.difficult and self.policy.difficult_cost != 1:
            return self.reach(goal, self.grid.cols * self.grid.rows)
        found = self._floods.get(goal)
        if found is None:
            found = self._floods[goal] = _flood(self, goal)
        return found

    def routes(
        self, start: Cell, allowance: int, closed: frozenset[Cell] = frozenset()
    ) -> dict[Cell, tuple[Cell, ...]]:
        """A shortest route (the squares entered, in order; ``start`` maps to ``()``) to every
        square within ``allowance`` steps, found breadth first in ``STEPS`` order (the first
        route found is kept). Every step counts one: difficult squares are not weighed."""
        routes: dict[Cell, tuple[Cell, ...]] = {start: ()}
        for here, nxt, _ in self._spread(start, allowance, closed):
            routes[nxt] = (*routes[here], nxt)
        return routes

    def _layers(
        self, start: Cell, allowance: int, closed: frozenset[Cell]
    ) -> tuple[dict[Cell, int], dict[Cell, Cell]]:
        """Breadth-first steps (every step counts one): each square's step count and the
        square it was first reached from."""
        dist = {start: 0}
        came: dict[Cell, Cell] = {}
        for here, nxt, d in self._spread(start, allowance, closed):
            dist[nxt] = d
            came[nxt] = here
        return dist, came

    def _spread(
        self, start: Cell, allowance: int, closed: frozenset[Cell]
    ) -> Iterator[tuple[Cell, Cell, int]]:
        """Breadth-first steps in ``STEPS`` order (every step counts one): each square within
        ``allowance`` reached once, with the square it was first reached from and its steps."""
        walls = self.walls
        corners = walls if self.policy.figures_cut_corners or not closed else walls | closed
        cols, rows = self.grid.cols, self.grid.rows
        seen = {start}
        frontier = [start]
        for d in range(1, allowance + 1):
            if not frontier:
                break
            nxt_frontier = []
            for here in frontier:
                c, r = here
                for dc, dr in STEPS:
                    nc, nr = c + dc, r + dr
                    nxt = (nc, nr)
                    if (
                        nxt in seen
                        or nxt in walls
                        or nxt in closed
                        or not (0 <= nc < cols and 0 <= nr < rows)
                        or (dc and dr and (nc, r) in corners and (c, nr) in corners)
                    ):
                        continue
                    seen.add(nxt)
                    nxt_frontier.append(nxt)
                    yield here, nxt, d
            frontier = nxt_frontier

    def _weighted_steps(self, here: Cell, closed: Collection[Cell]) -> Iterator[tuple[Cell, int]]:
        """The squares one legal step from ``here`` (``STEPS`` order) and what entering costs."""
        heavy, difficult = self.policy.difficult_cost, self.difficult
        for dc, dr in STEPS:
            nxt = (here[0] + dc, here[1] + dr)
            if self.step_ok(here, nxt, closed):
                yield nxt, (heavy if nxt in difficult else 1)

    def _costs_weighted(
        self, start: Cell, allowance: int, closed: frozenset[Cell]
    ) -> dict[Cell, int]:
        """Dijkstra over the steps of ``step_ok`` with difficult squares weighed."""
        best: dict[Cell, int] = {start: 0}
        heap: list[tuple[int, Cell]] = [(0, start)]
        while heap:
            cost, here = heapq.heappop(heap)
            if cost > best.get(here, cost):
                continue
            for nxt, step in self._weighted_steps(here, closed):
                new = cost + step
                if new <= allowance and new < best.get(nxt, allowance + 1):
                    best[nxt] = new
                    heapq.heappush(heap, (new, nxt))
        return best

    def path(
        self,
        start: Cell,
        goal: Cell,
        closed: Collection[Cell] = frozenset(),
        taken: Collection[Cell] = frozenset(),
    ) -> tuple[tuple[Cell, ...], int] | None:
        """A cheapest path (squares from ``start`` to ``goal``, both included) and its cost in
        moves, or None: the steps of ``step_ok``, difficult squares weighed; the path may pass
        ``taken`` squares but not end on one (A* on the Chebyshev distance)."""
        if goal in taken or goal in closed or not self.open(goal):
            return None
        best: dict[Cell, int] = {start: 0}
        came: dict[Cell, Cell] = {}
        heap: list[tuple[int, int, Cell]] = [(chebyshev(start, goal), 0, start)]
        while heap:
            _, cost, here = heapq.heappop(heap)
            if here == goal:
                path = [here]
                while path[-1] != start:
                    path.append(came[path[-1]])
                return tuple(reversed(path)), cost
            if cost > best.get(here, cost):
                continue
            for nxt, step in self._weighted_steps(here, closed):
                new = cost + step
                if new < best.get(nxt, new + 1):
                    best[nxt] = new
                    came[nxt] = here
                    heapq.heappush(heap, (new + chebyshev(nxt, goal), new, nxt))
        return None

    def route_fault(
        self,
        start: Cell,
        route: Iterable[Cell],
        allowance: int,
        closed: Collection[Cell] = frozenset(),
        taken: Collection[Cell] = frozenset(),
    ) -> RouteFault | None:
        """The first reason the squares entered one by one from ``start`` are not a legal move
        (each step counts one; the end may not be ``taken``), or None when they are."""
        cells = list(route)
        if len(cells) > allowance:
            return RouteFault("too-long", cells[-1], start)
        here = start
        for i, nxt in enumerate(cells):
            if not self.grid.contains(nxt):
                return RouteFault("off-board", nxt, here)
            if nxt in self.walls:
                return RouteFault("wall", nxt, here)
            if chebyshev(here, nxt) != 1:
                return RouteFault("not-a-step", nxt, here)
            if not self.step_ok(here, nxt):
                return RouteFault("corner", here, here)
            if nxt in closed and i < len(cells) - 1:
                return RouteFault("closed", nxt, here)
            here = nxt
        if cells and here in taken:
            return RouteFault("taken", here, start)
        return None

    # -- sight and cover --------------------------------------------------------------------
    # Sight is answered on bit masks: square (c, r) is bit ``r * cols + c``; a line's shape
    # from its start (a ``_Ray``, one per displacement, from the exact ``grid_line``) holds
    # its squares at bit ``_ORIGIN + offset``, so a board mask shifted left by ``_ORIGIN`` and
    # right by the start's bit lines up with it: a few integer operations per question.

    def _bits(self, cells: Iterable[Cell]) -> int:
        """The mask of ``cells``."""
        cols = self.grid.cols
        out = 0
        for c, r in cells:
            out |= 1 << (r * cols + c)
        return out

    def _oriented(self, a: Cell, b: Cell) -> tuple[Cell, _Ray, bool]:
        """The line between ``a`` and ``b`` as a ray from one of them: a line and its reverse
        cross the same squares, so only rays going down (or right along a row) are built.
        Whether the ray starts at ``b``."""
        dx, dy = b[0] - a[0], b[1] - a[1]
        back = dy < 0 or (dy == 0 and dx < 0)
        if back:
            a, dx, dy = b, -dx, -dy
        return a, self._rays.get((dx, dy)) or self._ray(dx, dy), back

    def _ray(self, dx: int, dy: int) -> _Ray:
        """The shape of a sight line of displacement (dx, dy), remembered (its mirror images
        and its transpose share one walk)."""
        ray = self._rays.get((dx, dy))
        if ray is not None:
            return ray
        ax, ay = abs(dx), abs(dy)
        swap = ay > ax
        walk = self._walk((ay, ax) if swap else (ax, ay))
        sx, sy, cols = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0), self.grid.cols
        # A walk square (x, y) is offset (sx * x, sy * y), or (sx * y, sy * x) when swapped:
        # its bit lies kx * x + ky * y from the start's.
        kx, ky = (sy * cols, sx) if swap else (sx, sy * cols)
        origin = self._origin
        crossed = 0
        for x, y in walk.crossed:
            crossed |= 1 << (origin + kx * x + ky * y)
        corners = 0
        for x, y in walk.corners:
            corners |= 1 << (origin + kx * x + ky * y)

        def place(cells: tuple[Cell, ...]) -> tuple[Cell, ...]:
            if swap:
                return tuple((sx * y, sy * x) for x, y in cells)
            return tuple((sx * x, sy * y) for x, y in cells)

        far = ax if ax > ay else ay
        ray = _Ray(crossed, corners, ky - kx, place(walk.near), place(walk.near_start), far)
        self._rays[(dx, dy)] = ray
        return ray

    def _walk(self, key: Cell) -> Walk:
        """The squares of a line from (0, 0) to ``key`` (col >= row >= 0), remembered."""
        walk = self._walks.get(key)
        if walk is None:
            walk = walk_from_origin(*key)
            self._walks[key] = walk
        return walk

    def _pinches(self, blocks: int, turn: int) -> int:
        """The squares of ``blocks`` whose partner square ``turn`` bits on is also in it."""
        return blocks & (blocks >> turn) if turn > 0 else blocks & (blocks << -turn)

    def _walls_block(self, at: int, ray: _Ray) -> bool:
        """Whether the sight walls stop ``ray`` from the square of bit ``at``."""
        if (self._wall_view >> at) & ray.crossed:
            return True
        if not ray.corners:
            return False
        pinch = self._wall_pinch.get(ray.turn)
        if pinch is None:
            pinch = self._pinches(self._wall_mask, ray.turn) << self._origin
            self._wall_pinch[ray.turn] = pinch
        return bool((pinch >> at) & ray.corners)

    def _figure_bits(self, blockers: AbstractSet[Cell]) -> int:
        """The mask of ``blockers`` (remembered for frozen sets: a state asks with the same
        set many times)."""
        if not isinstance(blockers, frozenset):
            return self._bits(blockers)
        found = self._figure_masks.get(blockers)
        if found is None:
            if len(self._figure_masks) >= _KEPT:
                self._figure_masks.clear()
            found = self._bits(blockers)
            self._figure_masks[blockers] = found
        return found

    def line(self, a: Cell, b: Cell) -> Line:
        """The squares strictly between ``a`` and ``b`` and the corner pairs the line passes."""
        gl = grid_line(a, b)
        return gl.crossed[1:-1], gl.corners

    def terrain_clear(self, a: Cell, b: Cell) -> bool:
        """Whether the sight walls leave the line from ``a`` to ``b`` clear (§1.4)."""
        start, ray, _ = self._oriented(a, b)
        return a == b or not self._walls_block(start[1] * self.grid.cols + start[0], ray)

    def sight_clear(
        self,
        a: Cell,
        b: Cell,
        blockers: AbstractSet[Cell] = frozenset(),
        moved_from: Cell | None = None,
    ) -> bool:
        """Whether the line from ``a`` to ``b`` is clear of sight walls and of the figures in
        ``blockers`` (``moved_from``, a square its figure has left, excepted): the corner rule
        pinches between any two of them (T-GEO-06); to a neighbouring square only walls count
        when ``policy.adjacent_sight_walls_only``."""
        if a == b:
            return True
        dx, dy = b[0] - a[0], b[1] - a[1]
        if dy < 0 or (dy == 0 and dx < 0):  # as ``_oriented``, inline
            a, dx, dy = b, -dx, -dy
        ray = self._rays.get((dx, dy)) or self._ray(dx, dy)
        cols = self.grid.cols
        at = a[1] * cols + a[0]
        corners = ray.corners
        if (self._wall_view >> at) & ray.crossed:  # ``_walls_block``, inline: asked very often
            return False
        if corners:
            pinch = self._wall_pinch.get(ray.turn)
            if (pinch is None or (pinch >> at) & corners) and self._walls_block(at, ray):
                return False
        if not blockers or not (ray.crossed or corners):
            return True
        if ray.far <= 1 and self.policy.adjacent_sight_walls_only:
            return True
        figures = self._figure_bits(blockers)
        if moved_from is not None:
            figures &= ~(1 << (moved_from[1] * cols + moved_from[0]))
        origin = self._origin
        if ((figures << origin) >> at) & ray.crossed:
            return False
        if not ray.corners:
            return True
        pinch = self._pinches(self._wall_mask | figures, ray.turn)
        return not ((pinch << origin) >> at) & ray.corners

    def _beside_target(self, shooter: Cell, target: Cell) -> Iterator[Cell]:
        """The squares the line from ``shooter`` crosses next to ``target``."""
        start, ray, back = self._oriented(shooter, target)
        x, y = start
        for dx, dy in ray.near_start if back else ray.near:
            yield (x + dx, y + dy)

    def cover_of(
        self, shooter: Cell, target: Cell, screens: Collection[Cell] = (), screen: int = 1
    ) -> int:
        """The cover of a figure in ``target`` against a shot from ``shooter``: the best level
        of its own square and of the squares next to it the line crosses, or ``screen`` when
        one of those holds a figure of ``screens`` (figures usable as cover) and is better."""
        key = (shooter, target)
        best = self._covers.get(key)
        if best is None:
            levels = self.cover
            best = levels.get(target, 0)
            for c in self._beside_target(shooter, target):
                level = levels.get(c, 0)
                if level > best:
                    best = level
            if len(self._covers) >= _PAIRS_KEPT:
                self._covers.clear()
            self._covers[key] = best
        if best < screen and screens and self.screened(shooter, target, screens):
            return screen
        return best

    def screened(self, shooter: Cell, target: Cell, screens: Collection[Cell]) -> bool:
        """Whether a square of ``screens`` (figures usable as cover) lies on the line next to
        the target."""
        return any(c in screens for c in self._beside_target(shooter, target))


def _flood(board: GridBoard, goal: Cell) -> dict[Cell, int]:
    """The step counts from ``goal`` over a whole board (8-connected, no corner cut between two
    walls), flooded as bit masks a ring at a time and read out once into a dict (a planner
    asks it of every square a figure can reach)."""
    cols, rows = board.grid.cols, board.grid.rows
    full = (1 << (cols * rows)) - 1
    walls = board._bits(board.walls)
    free = full & ~walls
    left = sum(1 << (r * cols) for r in range(rows))
    not_left, not_right = full & ~left, full & ~(left << (cols - 1))
    # Bit s of each: the square beside s in that direction is a wall.
    east, west = (walls >> 1) & not_right, (walls << 1) & not_left
    north, south = (walls << cols) & full, walls >> cols
    steps = {goal: 0}
    reached = 1 << (goal[1] * cols + goal[0])
    front = reached
    ring = 0
    while front:
        ne, se = front & ~(east & north), front & ~(east & south)
        sw, nw = front & ~(west & south), front & ~(west & north)
        step = (
            ((front << 1) & not_left)
            | ((front >> 1) & not_right)
            | (front >> cols)
            | (front << cols)
            | ((ne >> (cols - 1)) & not_left)
            | ((se << (cols + 1)) & not_left)
            | ((sw << (cols - 1)) & not_right)
            | ((nw >> (cols + 1)) & not_right)
        )
        front = step & free & ~reached
        reached |= front
        ring += 1
        bits = front
        while bits:
            low = bits & -bits
            square = low.bit_length() - 1
            steps[(square % cols, square // cols)] = ring
            bits ^= low
    return steps


@dataclass(frozen=True, slots=True)
class _Ray:
    """A sight line's shape from its start square (see ``GridBoard._ray``)."""

    crossed: int
    """Mask of the squares strictly between the ends (offset bits)."""
    corners: int
    """Mask of the first square of each corner pair the line passes."""
    turn: int
    """Bits from a corner pair's first square to its second (the same for every pair)."""
    near: tuple[Cell, ...]
    """Offsets of the crossed squares next to the far end (where cover is)."""
    near_start: tuple[Cell, ...]
    """Offsets of the crossed squares next to the start."""
    far: int
    """Chebyshev length in squares."""


def table_grid(state: GameState) -> Grid:
    """The grid of a gridded table (a grid game plays on nothing else)."""
    grid = state.table.grid
    assert grid is not None, f"{state.ruleset} needs a gridded table here"
    return grid


def unit_cell(unit: Unit) -> Cell:
    """The square a figure stands in (it must be on the grid)."""
    assert unit.cell is not None, f"{unit.id} is not on the grid"
    return unit.cell


def piece_squares(
    grid: Grid, piece: TerrainPiece
) -> tuple[list[tuple[Cell, float]], frozenset[Cell]]:
    """The area (square inches) of a terrain piece over each square within its bounds, and the
    squares it fills (at least half: they take its properties, RULES §1.4)."""
    covered = grid.coverage(piece_shape(piece))
    least = FILL_THRESHOLD * grid.cell_in * grid.cell_in - 1e-12
    return covered, frozenset(c for c, part in covered if part >= least)


def terrain_board(
    grid: Grid,
    terrain: Iterable[TerrainPiece],
    policy: GridPolicy,
    cover: Mapping[Cell, int] | None = None,
    difficult: bool = True,
) -> GridBoard:
    """The board of terrain pieces: the squares a piece fills are walls when it is impassable,
    sight walls when it blocks sight, difficult when it is (and ``difficult``); ``cover`` is
    the game's cover level of each square."""
    walls: set[Cell] = set()
    sight: set[Cell] = set()
    heavy: set[Cell] = set()
    for piece in terrain:
        if piece.impassable or piece.blocks_los or (difficult and piece.difficult):
            filled = piece_squares(grid, piece)[1]
            for wanted, into in ((piece.impassable, walls), (piece.blocks_los, sight)):
                if wanted:
                    into |= filled
            if difficult and piece.difficult:
                heavy |= filled
    return GridBoard(
        grid, frozenset(walls), frozenset(sight), frozenset(heavy), cover or {}, policy
    )


def grid_board(
    memo: BoardMemo, key: tuple[object, ...], build: Callable[[], GridBoard]
) -> GridBoard:
    """The game's board for ``key`` (what it is built from, besides the memo's terrain), built
    once per terrain among the memo's terrain answers (shared by the scenario's games)."""
    return memo.of_terrain(("grid-board", *key), build)


F = TypeVar("F", bound="GridFigures")


def state_figures(state: GameState, name: str, build: Callable[..., F], *args: object) -> F:
    """The state's figures on its grid (``name``: the ruleset's), ``build(*args)`` once per
    state (as :func:`engine.board.per_state`, written out: it is asked very often)."""
    answers = state.memo.answers_for(state)
    found: F | None = answers.get(("grid-figures", name))
    if found is None:
        found = answers[("grid-figures", name)] = build(*args)
    return found


def hostile_sides(a: Unit, b: Unit) -> bool:
    """The usual hostility: figures of different sides."""
    return a.side != b.side


def by_side(unit: Unit) -> object:
    """The usual grouping of hostility: every figure of a side has the same enemies."""
    return unit.side


class GridFigures:
    """One moment's figures on a :class:`GridBoard` (at most one per square, RULES §1.5) and
    the questions that read them: the squares a figure may not pass (its enemies', and every
    other figure's unless ``policy.allies_pass``), those that block its sight
    (``policy.figures_block_sight``), where it can end a move, what it sees. ``hostile`` says
    who fights whom; figures alike under ``group`` have the same enemies (answers are kept per
    group). Holds no game state, so a state's answers may keep it."""

    def __init__(
        self,
        squares: GridBoard,
        at: Mapping[Cell, Unit],
        hostile: Callable[[Unit, Unit], bool] = hostile_sides,
        group: Callable[[Unit], object] = by_side,
    ) -> None:
        self.squares = squares
        """The terrain's squares."""
        self.at = at
        """The figure on each occupied square."""
        self.hostile = hostile
        self.group = group
        self._enemies: dict[object, tuple[tuple[Unit, ...], frozenset[Cell]]] = {}
        self._taken: dict[str | None, frozenset[Cell]] = {}

    def free(self, cell: Cell, ignore: str | None = None) -> bool:
        """Open and empty (``ignore``: a figure that does not count, the mover itself)."""
        if not self.squares.open(cell):
            return False
        who = self.at.get(cell)
        return who is None or who.id == ignore

    def enemies(self, unit: Unit) -> tuple[Unit, ...]:
        """The figures hostile to ``unit``, in board order."""
        return self._hostile_to(unit)[0]

    def enemy_cells(self, unit: Unit) -> frozenset[Cell]:
        """The squares of the figures hostile to ``unit``."""
        return self._hostile_to(unit)[1]

    def _hostile_to(self, unit: Unit) -> tuple[tuple[Unit, ...], frozenset[Cell]]:
        key = unit.side if self.group is by_side else self.group(unit)  # asked per sight line
        found = self._enemies.get(key)
        if found is None:
            if self.hostile is hostile_sides:  # the usual rule, without a call per figure
                side = unit.side
                pairs = [(c, u) for c, u in self.at.items() if u.side != side]
            else:
                hostile = self.hostile
                pairs = [(c, u) for c, u in self.at.items() if hostile(unit, u)]
            found = (tuple(u for _, u in pairs), frozenset(c for c, _ in pairs))
            self._enemies[key] = found
        return found

    def taken(self, but: str | None = None) -> frozenset[Cell]:
        """The squares holding a figure (``but``, a figure's id, excepted)."""
        found = self._taken.get(but)
        if found is None:
            found = self._taken[but] = frozenset(c for c, u in self.at.items() if u.id != but)
        return found

    def closed(self, unit: Unit) -> frozenset[Cell]:
        """The squares ``unit`` may not pass."""
        if self.squares.policy.allies_pass:
            return self.enemy_cells(unit)
        return self.taken(unit.id)

    def blockers(self, viewer: Unit) -> frozenset[Cell]:
        """The squares whose figures block the viewer's sight."""
        rule = self.squares.policy.figures_block_sight
        if rule == "hostile":
            return self.enemy_cells(viewer)
        if rule == "none":
            return frozenset()
        return self.taken(viewer.id)

    def sees(self, viewer: Unit, frm: Cell, to: Cell, moved_from: Cell | None = None) -> bool:
        """Whether the viewer standing in ``frm`` sees square ``to`` (its blockers, but one
        that has left ``moved_from``, and the sight walls)."""
        return self.squares.sight_clear(frm, to, self.blockers(viewer), moved_from)

    def ends(self, unit: Unit, start: Cell, allowance: int, stay: bool = True) -> dict[Cell, int]:
        """Every square the unit can end a move from ``start`` on within ``allowance`` (with
        ``stay``, ``start`` too, at 0), with its cost: through no closed square, onto no other
        figure."""
        taken = self.taken(unit.id)
        found = self.squares.reach(start, allowance, self.closed(unit))
        if stay:
            return {c: k for c, k in found.items() if c not in taken}
        return {c: k for c, k in found.items() if c not in taken and c != start}

    def routes(self, unit: Unit, start: Cell, allowance: int) -> dict[Cell, tuple[Cell, ...]]:
        """A shortest route (:meth:`GridBoard.routes`) to each square of :meth:`ends`."""
        found = self.squares.routes(start, allowance, self.closed(unit))
        at, me, squares = self.at, unit.id, self.squares
        # :meth:`free` written out: a square the search entered is open; the start is asked.
        return {
            c: r
            for c, r in found.items()
            if ((who := at.get(c)) is None or who.id == me) and (r or squares.open(c))
        }

    def route_fault(
        self, unit: Unit, start: Cell, route: Iterable[Cell], allowance: int
    ) -> RouteFault | None:
        """Why the squares entered one by one are not a legal move of the unit
        (:meth:`GridBoard.route_fault`), or None."""
        return self.squares.route_fault(
            start, route, allowance, self.closed(unit), self.taken(unit.id)
        )

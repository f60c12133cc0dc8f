"""The firefight-lite board on its square grid: which squares block sight or movement, what
cover a square has against a shooter, sight between figures, and the squares a figure can
reach (RULES §1.4 grid sight, G-08 Chebyshev, D002-02, D002-10).

Terrain polygons become squares once per terrain (remembered in the game's memo): a square at
least half filled by a piece that blocks sight or movement blocks it; any square a cover
piece (wall, hedge, building) touches gives that piece's cover to a figure just behind it.
Sight is blocked by terrain and by hostile figures of the viewer (G-03: seed 002 as 003).
The squares' mechanics (reach, sight with the corner rule, cover) are the grid kit's
(``engine.boards.grid``, policy ``POLICY``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from engine.board import board_memo, per_state
from engine.boards.grid import (
    GridBoard,
    GridFigures,
    GridPolicy,
    piece_squares,
    state_figures,
    table_grid,
    terrain_board,
    unit_cell,
)
from engine.geometry.grid import Cell, Grid, chebyshev
from engine.model import GameState, TerrainPiece, Unit
from engine.rulesets.firefight_lite.state import (
    COVER_FIGURES,
    card,
    hostile,
)

COVER_ORDER = {"none": 0, "soft": 1, "hard": 2}
"""Open < soft < hard (D002-10)."""
COVER_NAMES = ("none", "soft", "hard")
_TOUCH = 0.05
"""A cover piece gives cover to the squares it covers at least this fraction of."""
cell = unit_cell
"""The unit's square."""
POLICY = GridPolicy()
"""The grid kit's policy here: a figure passes friends and neutrals, never a hostile figure,
nor a diagonal between two squares that each hold terrain or a hostile figure; hostile
figures block sight (G-03 as for seed 003)."""


@dataclass(frozen=True)
class Squares:
    """What the terrain makes of the squares: the grid kit's board (walls, sight walls, cover)
    and what this game adds."""

    roads: frozenset[Cell]
    names: dict[Cell, str]
    """The terrain piece in each square that has one (for order lines: "the hedge")."""
    board: GridBoard
    """The same squares in the grid kit (its answers remembered there)."""


def _squares(grid: Grid, terrain: tuple[TerrainPiece, ...]) -> Squares:
    roads: set[Cell] = set()
    cover: dict[Cell, int] = {}
    names: dict[Cell, str] = {}
    area = grid.cell_in * grid.cell_in
    for piece in terrain:
        covered, filled = piece_squares(grid, piece)
        if piece.kind == "road":
            roads |= filled
        level = COVER_ORDER.get(piece.cover, 0)
        if level:
            for c, part in covered:
                if part >= _TOUCH * area:
                    cover[c] = max(cover.get(c, 0), level)
                    names.setdefault(c, piece.name)
        for c in filled:
            names.setdefault(c, piece.name)
    board = terrain_board(grid, terrain, POLICY, cover, difficult=False)
    return Squares(frozenset(roads), names, board)


def squares(state: GameState) -> Squares:
    """The terrain's squares, computed once per terrain in the game's memo."""
    answers = state.memo.answers_for(state)
    found: Squares | None = answers.get(("squares",))
    if found is None:
        grid = table_grid(state)
        found = answers[("squares",)] = board_memo(state).of_terrain(
            ("ff-squares", grid), lambda: _squares(grid, state.terrain)
        )
    return found


def figures(state: GameState) -> GridFigures:
    """The figures standing in a square on the terrain's squares, with this game's hostility
    (the grid kit's answers about them; once per state)."""
    return state_figures(state, "firefight-lite", _figures, state)


def _figures(state: GameState) -> GridFigures:
    at = {cell(u): u for u in state.units if u.on_table and u.cell}
    return GridFigures(squares(state).board, at, hostile, _itself)


def _itself(unit: Unit) -> object:
    """Hostility here is a figure's own (its card), not its side's."""
    return unit.id


def sees(state: GameState, viewer: Unit, target: Unit) -> bool:
    """Line of sight between two figures on the table: terrain and figures hostile to the
    viewer block (G-03 as for seed 003)."""
    return figures(state).sees(viewer, cell(viewer), cell(target))


def cover_between(state: GameState, shooter_cell: Cell, target_cell: Cell) -> int:
    """Cover (0 open, 1 soft, 2 hard) of a figure in ``target_cell`` against a shot from
    ``shooter_cell``: the best cover square the line crosses next to the target (a wall or
    hedge in front of it, the target's own hedge square, a figure usable as cover)."""
    return squares(state).board.cover_of(shooter_cell, target_cell, _shields(state))


def _shields(state: GameState) -> frozenset[Cell]:
    """The squares of the figures usable as cover (once per state)."""
    return per_state(state, ("shields",), _neutrals, state, COVER_FIGURES)


def _neutrals(state: GameState, kinds: Collection[str]) -> frozenset[Cell]:
    return frozenset(c for c, u in figures(state).at.items() if card(u).neutral in kinds)


def monk_shielded(state: GameState, shooter_cell: Cell, target_cell: Cell) -> bool:
    """Whether a monk could serve the target as cover against this shot (K♥: no attack may
    target such a figure)."""
    monks = per_state(state, ("monks",), _neutrals, state, ("monk",))
    return bool(monks) and squares(state).board.screened(shooter_cell, target_cell, monks)


def reach(state: GameState, unit: Unit, squares_allowed: int) -> dict[Cell, int]:
    """Every free square the unit can end in within ``squares_allowed`` steps, with its cost:
    8-connected steps, no corner cutting, never through impassable terrain or a hostile
    figure; it may pass friends and neutrals but never end on a figure (RULES §1.5 grid)."""
    here = cell(unit)
    key = ("reach", unit.id, here, squares_allowed)
    return dict(per_state(state, key, _reach, state, unit, here, squares_allowed))


def _reach(state: GameState, unit: Unit, here: Cell, allowed: int) -> dict[Cell, int]:
    return figures(state).ends(unit, here, allowed, stay=False)


def free_near(state: GameState, wanted: Iterable[Cell]) -> Cell | None:
    """The first of ``wanted`` that is on the grid, passable and free, else the nearest such
    square to the first wanted one (row-major order on a tie)."""
    grid = table_grid(state)
    bad = squares(state).board.walls | figures(state).taken()
    wanted = list(wanted)
    for c in wanted:
        if grid.contains(c) and c not in bad:
            return c
    if not wanted:
        return None
    anchor = wanted[0]
    spare = [c for c in grid.cells() if c not in bad]
    if not spare:
        return None
    return min(spare, key=lambda c: (chebyshev(c, anchor), c[1], c[0]))


HIDDEN = 3
"""``square_cover`` of a square no hostile figure can see (better than hard cover)."""


def square_cover(state: GameState, unit: Unit, at: Cell) -> int:
    """The cover the unit would have in square ``at`` (D002-09): the worst of its cover
    against every hostile figure that could see it there (0 open, 1 soft, 2 hard), or
    ``HIDDEN`` (3) when none could (its sight, then ``cover_between``, for each)."""
    return per_state(state, ("square-cover", unit.id, at), _square_cover, state, unit, at)


def _square_cover(state: GameState, unit: Unit, at: Cell) -> int:
    board = squares(state).board
    shield = _shields(state)
    moved_from = unit.cell
    worst = HIDDEN
    for ec, blockers in _watchers(state, unit):
        if not board.sight_clear(ec, at, blockers, moved_from):
            continue
        cover = board.cover_of(ec, at, shield)
        if cover < worst:
            worst = cover
            if worst == 0:
                break
    return worst


def _watchers(state: GameState, unit: Unit) -> tuple[tuple[Cell, frozenset[Cell]], ...]:
    """Each figure hostile to the unit: its square and the squares that block its sight."""
    return per_state(state, ("watchers", unit.id, unit.side), _watching, state, unit)


def _watching(state: GameState, unit: Unit) -> tuple[tuple[Cell, frozenset[Cell]], ...]:
    found = figures(state)
    return tuple((cell(e), found.blockers(e)) for e in found.enemies(unit))


def run_for_cover_square(state: GameState, unit: Unit, avoid: Cell | None = None) -> Cell:
    """Where a figure runs for cover when the rules move it (J♣, J♦): the best-covered square
    within half its move (D002-01), then the nearest, then row-major; ``avoid`` never."""
    half = max(1, card(unit).move // 2)
    options = [(c, k) for c, k in reach(state, unit, half).items() if c != avoid]
    here = cell(unit)
    if not options:
        return here
    best = max(
        options, key=lambda ck: (square_cover(state, unit, ck[0]), -ck[1], -ck[0][1], -ck[0][0])
    )
    return best[0]


def move_path(state: GameState, unit: Unit, to: Cell) -> tuple[tuple[float, float], ...]:
    """The straight path (inches) from the unit's base centre to the centre of square ``to``,
    as actions carry it for the table (the rules read ``detail.cell``)."""
    if to == unit.cell:
        return ()
    return (unit.position, table_grid(state).centre(to))

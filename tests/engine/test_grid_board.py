"""The grid board kit (engine/boards/grid.py): reach under each policy, the corner rule, walls,
the route check, paths, sight and cover (RULES §1.4, §1.5, G-08, T-GEO-06, T-GEO-07)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.board import per_state
from engine.boards.grid import (
    GridBoard,
    GridFigures,
    GridPolicy,
    RouteFault,
    grid_board,
    piece_squares,
    table_grid,
    terrain_board,
)
from engine.geometry.grid import Grid, grid_line, walk_from_origin
from engine.memo import BoardMemo
from engine.model import GameState, Table, TerrainPiece, Unit, UnitCard

GRID = Grid(cols=6, rows=6)
PINCH = frozenset({(1, 0), (0, 1)})
"""Two squares touching at the corner between (0, 0) and (1, 1)."""


def test_t_geo_07_reach_costs_chebyshev_and_doubles_on_difficult_squares() -> None:
    open_board = GridBoard(GRID)
    assert open_board.reach((0, 0), 3)[(3, 2)] == 3
    assert (3, 4) not in open_board.reach((0, 0), 3)
    rough = GridBoard(GRID, difficult=frozenset(GRID.cells()))
    assert rough.reach((0, 0), 6)[(3, 2)] == 6
    assert (3, 2) not in rough.reach((0, 0), 5)
    cheap = GridBoard(GRID, difficult=frozenset(GRID.cells()), policy=GridPolicy(difficult_cost=3))
    assert cheap.reach((0, 0), 9)[(3, 2)] == 9
    assert (3, 2) not in cheap.reach((0, 0), 8)


def test_reach_never_enters_walls_nor_cuts_between_two() -> None:
    board = GridBoard(GRID, walls=PINCH)
    found = board.reach((0, 0), 4)
    assert found == {(0, 0): 0}  # boxed into the corner: no diagonal between the two walls
    one = GridBoard(GRID, walls=frozenset({(1, 0)}))
    assert one.reach((0, 0), 1)[(1, 1)] == 1  # grazing one wall is allowed
    assert (1, 0) not in one.reach((0, 0), 3)


def test_closed_squares_pinch_a_diagonal_unless_figures_cut_corners() -> None:
    strict = GridBoard(GRID)
    assert (1, 1) not in strict.reach((0, 0), 1, PINCH)
    assert strict.reach((0, 0), 3, PINCH) == {(0, 0): 0}
    loose = GridBoard(GRID, policy=GridPolicy(figures_cut_corners=True))
    assert loose.reach((0, 0), 1, PINCH)[(1, 1)] == 1
    # A wall beside a figure pinches only under the strict policy; two walls always do.
    mixed = frozenset({(1, 0)})
    assert (1, 1) not in GridBoard(GRID, walls=mixed).reach((0, 0), 1, frozenset({(0, 1)}))
    assert (1, 1) in replace(loose, walls=mixed).reach((0, 0), 1, frozenset({(0, 1)}))
    assert (1, 1) not in replace(loose, walls=PINCH).reach((0, 0), 1)


def test_routes_are_breadth_first_in_step_order() -> None:
    board = GridBoard(GRID, walls=frozenset({(1, 1)}))
    routes = board.routes((0, 0), 2)
    assert routes[(0, 0)] == ()
    assert routes[(2, 0)] == ((1, 0), (2, 0))
    assert routes[(2, 1)] == ((1, 0), (2, 1))  # found from (1, 0) first: it is entered first
    assert routes[(1, 2)] == ((0, 1), (1, 2))
    assert (2, 2) not in routes  # both two-step routes go through the wall
    assert board.reach((0, 0), 3)[(2, 2)] == 3
    assert all(len(r) <= 2 for r in routes.values())
    assert (1, 1) not in routes
    assert {c: len(r) for c, r in routes.items()} == board.reach((0, 0), 2)


def test_route_fault_names_the_first_problem() -> None:
    board = GridBoard(GRID, walls=PINCH | {(3, 3)})
    assert board.route_fault((2, 2), [(2, 1), (2, 0)], 2) is None
    assert board.route_fault((2, 2), [(2, 1), (2, 0), (3, 0)], 2) == RouteFault(
        "too-long", (3, 0), (2, 2)
    )
    assert board.route_fault((5, 5), [(6, 5)], 2) == RouteFault("off-board", (6, 5), (5, 5))
    assert board.route_fault((2, 2), [(3, 3)], 2) == RouteFault("wall", (3, 3), (2, 2))
    assert board.route_fault((2, 2), [(2, 4)], 2) == RouteFault("not-a-step", (2, 4), (2, 2))
    assert board.route_fault((0, 0), [(1, 1)], 2) == RouteFault("corner", (0, 0), (0, 0))
    enemy = frozenset({(2, 1)})
    assert board.route_fault((2, 2), [(2, 1), (2, 0)], 2, closed=enemy) == RouteFault(
        "closed", (2, 1), (2, 2)
    )
    taken = frozenset({(2, 0)})
    assert board.route_fault((2, 2), [(2, 1), (2, 0)], 2, taken=taken) == RouteFault(
        "taken", (2, 0), (2, 2)
    )
    assert board.route_fault((2, 2), [(2, 1), (2, 0)], 2, taken=frozenset({(2, 1)})) is None


def test_path_is_cheapest_passes_taken_squares_and_never_ends_on_one() -> None:
    board = GridBoard(Grid(cols=3, rows=3))
    assert board.path((0, 0), (1, 1), closed=PINCH) is None
    assert board.path((0, 0), (1, 1), closed=frozenset({(1, 0)})) == (((0, 0), (1, 1)), 1)
    assert board.path((0, 0), (2, 0), taken=frozenset({(2, 0)})) is None
    through = board.path((0, 0), (2, 0), taken=frozenset({(1, 0)}))
    assert through is not None and through[1] == 2
    rough = GridBoard(GRID, difficult=frozenset(GRID.cells())).path((0, 0), (3, 2))
    assert rough is not None and rough[1] == 6 and len(rough[0]) == 4


def test_t_geo_06_sight_corner_rule_for_walls() -> None:
    def clear(a: tuple[int, int], b: tuple[int, int], walls: set[tuple[int, int]]) -> bool:
        return GridBoard(GRID, sight_walls=frozenset(walls)).sight_clear(a, b)

    assert not clear((0, 0), (2, 2), {(1, 0), (0, 1)})  # through their shared corner
    assert clear((0, 0), (2, 2), {(1, 0)})  # grazing one wall's corner
    assert not clear((0, 0), (2, 1), {(1, 1)})
    assert clear((0, 0), (2, 1), {(0, 1), (2, 0)})
    assert not clear((0, 0), (3, 1), {(2, 0), (1, 1)})
    assert clear((0, 0), (3, 1), {(2, 0)})
    assert clear((0, 0), (1, 0), {(1, 0)})  # the ends never block
    # Impassable squares that do not block sight leave the line clear.
    assert GridBoard(GRID, walls=frozenset({(1, 1)})).sight_clear((0, 0), (2, 2))


def test_sight_blockers_pinch_with_walls_and_moved_figures_do_not_block() -> None:
    board = GridBoard(GRID, walls=frozenset({(1, 0)}), sight_walls=frozenset({(1, 0)}))
    assert board.sight_clear((0, 0), (2, 2))
    assert not board.sight_clear((0, 0), (2, 2), frozenset({(0, 1)}))  # wall + figure pinch
    assert board.sight_clear((0, 0), (2, 2), frozenset({(0, 1)}), moved_from=(0, 1))
    assert not board.sight_clear((0, 0), (3, 3), frozenset({(2, 2)}))  # a figure on the line
    assert board.sight_clear((0, 0), (3, 3), frozenset({(2, 2)}), moved_from=(2, 2))


def test_adjacent_sight_reads_only_walls_under_that_policy() -> None:
    strict = GridBoard(GRID)
    assert not strict.sight_clear((0, 0), (1, 1), PINCH)  # two figures at the corner
    loose = GridBoard(GRID, policy=GridPolicy(adjacent_sight_walls_only=True))
    assert loose.sight_clear((0, 0), (1, 1), PINCH)
    assert not replace(loose, sight_walls=PINCH).sight_clear((0, 0), (1, 1))
    assert not loose.sight_clear((0, 0), (2, 2), frozenset({(1, 1)}))  # farther: figures block


def test_cover_is_the_best_of_the_target_square_and_the_crossed_squares_beside_it() -> None:
    board = GridBoard(GRID, cover={(3, 2): 1, (1, 0): 2, (5, 5): 2})
    assert board.cover_of((0, 0), (4, 0)) == 0  # (1, 0) is on the line but not beside the target
    assert board.cover_of((0, 2), (4, 2)) == 1  # the hedge in front of it
    assert board.cover_of((0, 0), (5, 5)) == 2  # its own square
    assert board.cover_of((5, 2), (4, 2)) == 0  # the hedge is behind it
    assert board.screened((0, 2), (4, 2), frozenset({(3, 2)}))
    assert not board.screened((0, 2), (4, 2), frozenset({(2, 2)}))
    beside = frozenset({(3, 0), (4, 4)})  # figures beside targets (4, 0) and (5, 5)
    assert board.cover_of((0, 0), (4, 0), beside) == 1  # the figure screens it
    assert board.cover_of((0, 0), (4, 0), beside, screen=2) == 2
    assert board.cover_of((0, 0), (5, 5), beside) == 2  # hard cover beats a screen
    assert board.cover_of((0, 0), (4, 0)) == 0  # a remembered cover keeps no screen


def _unit(uid: str, side: str, cell: tuple[int, int]) -> Unit:
    return Unit(uid, uid, side, 0, 0.0, 0.0, 0.0, UnitCard(), cell=cell)


def test_closed_and_blocking_figures_follow_the_policy() -> None:
    me = _unit("me", "a", (0, 0))
    friend, foe = _unit("f", "a", (1, 1)), _unit("e", "b", (2, 2))
    at = {u.cell: u for u in (me, friend, foe) if u.cell is not None}

    def figures(**policy: object) -> GridFigures:
        return GridFigures(GridBoard(GRID, policy=GridPolicy(**policy)), at)  # type: ignore[arg-type]

    assert figures().closed(me) == {(2, 2)}
    assert figures(allies_pass=False).closed(me) == {(1, 1), (2, 2)}
    assert figures().blockers(me) == {(2, 2)}
    assert figures(figures_block_sight="all").blockers(me) == {(1, 1), (2, 2)}
    assert figures(figures_block_sight="none").blockers(me) == frozenset()
    everyone = GridFigures(GridBoard(GRID), at, hostile=lambda a, b: a.id != b.id)
    assert everyone.closed(me) == {(1, 1), (2, 2)}


def test_figures_end_a_move_on_free_squares_and_pass_only_allies() -> None:
    me = _unit("me", "a", (0, 0))
    friend, foe = _unit("f", "a", (1, 0)), _unit("e", "b", (0, 1))
    at = {u.cell: u for u in (me, friend, foe) if u.cell is not None}
    figures = GridFigures(GridBoard(GRID), at)
    assert figures.enemies(me) == (foe,) and figures.enemies(foe) == (me, friend)
    ends = figures.ends(me, (0, 0), 2)
    assert ends[(0, 0)] == 0 and (1, 0) not in ends and (0, 1) not in ends
    assert ends[(2, 0)] == 2  # through the friend
    assert (0, 2) in ends and ends[(0, 2)] == 2  # round the foe: (1, 1) then (0, 2)
    assert figures.routes(me, (0, 0), 2)[(2, 0)] in (((1, 0), (2, 0)), ((1, 1), (2, 0)))
    fault = figures.route_fault(me, (0, 0), [(0, 1), (0, 2)], 2)
    assert fault is not None and fault.kind == "closed"
    fault = figures.route_fault(me, (0, 0), [(1, 0)], 2)
    assert fault is not None and fault.kind == "taken"
    assert not figures.free((1, 0)) and figures.free((0, 0), ignore="me")
    assert figures.sees(me, (0, 0), (2, 0)) and not figures.sees(me, (0, 0), (0, 2))
    assert figures.sees(me, (0, 0), (0, 2), moved_from=(0, 1))


def test_taken_squares_are_every_figure_but_the_one_named() -> None:
    me, foe = _unit("me", "a", (0, 0)), _unit("e", "b", (2, 2))
    figures = GridFigures(GridBoard(GRID), {(0, 0): me, (2, 2): foe})
    assert figures.taken() == {(0, 0), (2, 2)}
    assert figures.taken("me") == {(2, 2)} and figures.taken("e") == {(0, 0)}
    assert figures.taken("me") is figures.taken("me")  # remembered on the figures


def test_terrain_squares_are_those_a_piece_fills_at_least_half() -> None:
    def piece(name: str, x0: float, x1: float, **rules: object) -> TerrainPiece:
        outline = ((x0, 0.0), (x1, 0.0), (x1, 1.0), (x0, 1.0))
        return TerrainPiece(name, name, "rock", outline, **rules)  # type: ignore[arg-type]

    wall = piece("wall", 0.0, 1.5, impassable=True)  # all of one square, half of the next
    smoke = piece("smoke", 3.0, 3.4, blocks_los=True)  # under half a square: fills none
    mud = piece("mud", 4.0, 5.0, difficult=True)
    covered, filled = piece_squares(GRID, wall)
    row = GRID.cell_at((0.5, 0.5))[1]
    assert filled == {(0, row), (1, row)} and dict(covered)[(1, row)] == 0.5
    board = terrain_board(GRID, (wall, smoke, mud), GridPolicy(), {(5, row): 2})
    assert board.walls == {(0, row), (1, row)} and board.sight_walls == frozenset()
    assert board.difficult == {(4, row)} and board.cover == {(5, row): 2}
    assert terrain_board(GRID, (mud,), GridPolicy(), difficult=False).difficult == frozenset()


def test_per_state_answers_are_computed_once_per_state() -> None:
    state = GameState("test", "test", Table(), (), (), ())
    calls: list[int] = []
    assert per_state(state, ("k",), lambda: calls.append(1) or None) is None
    assert per_state(state, ("k",), lambda: calls.append(1) or None) is None
    assert calls == [1]  # None is an answer too
    other = replace(state, scenario="other")
    assert per_state(other, ("k",), lambda: 5) == 5


def test_table_grid_is_the_gridded_tables_grid_and_refuses_an_open_table() -> None:
    state = GameState("test", "test", Table(grid=GRID), (), (), ())
    assert table_grid(state) is GRID
    with pytest.raises(AssertionError, match="gridded table"):
        table_grid(replace(state, table=Table()))


def test_a_board_lives_in_the_game_memo() -> None:
    memo = BoardMemo()
    memo.for_terrain(())
    built = []

    def build() -> GridBoard:
        built.append(1)
        return GridBoard(GRID)

    first = grid_board(memo, ("test", GRID), build)
    assert grid_board(memo, ("test", GRID), build) is first and built == [1]
    memo.for_terrain((1,))  # other terrain: the board is built again
    assert grid_board(memo, ("test", GRID), build) is not first and built == [1, 1]
    assert grid_board(BoardMemo(), ("test", GRID), build) is not first  # another game


def test_a_changed_board_forgets_the_answers_of_the_old_one() -> None:
    board = GridBoard(GRID)
    assert board.sight_clear((0, 0), (2, 2)) and board.reach((0, 0), 2)[(1, 1)] == 1
    walled = replace(board, walls=frozenset({(1, 1)}), sight_walls=frozenset({(1, 1)}))
    assert not walled.sight_clear((0, 0), (2, 2))
    assert (1, 1) not in walled.reach((0, 0), 2)


def _sight_by_walking(
    board: GridBoard, a: tuple[int, int], b: tuple[int, int], blockers: frozenset[tuple[int, int]]
) -> bool:
    """§1.4 read straight off ``grid_line``: a sight wall or blocker crossed, or a corner
    between two of them, blocks (the ends never do)."""
    line = grid_line(a, b)
    walls = board.sight_walls
    if any(c in walls for c in line.crossed[1:-1]):
        return False
    if any(p in walls and q in walls for p, q in line.corners):
        return False
    stops = walls | blockers
    return not any(c in blockers for c in line.crossed[1:-1]) and not any(
        p in stops and q in stops for p, q in line.corners
    )


def _cover_by_walking(board: GridBoard, a: tuple[int, int], b: tuple[int, int]) -> int:
    near = [
        c for c in grid_line(a, b).crossed[1:-1] if max(abs(c[0] - b[0]), abs(c[1] - b[1])) <= 1
    ]
    return max([board.cover.get(b, 0), *(board.cover.get(c, 0) for c in near)])


def test_sight_and_cover_match_the_walked_line_in_every_direction() -> None:
    rng = random.Random(25)
    grid = Grid(cols=9, rows=7)
    cells = list(grid.cells())
    for _ in range(12):
        walls = frozenset(rng.sample(cells, 10))
        cover = {c: rng.randint(1, 2) for c in rng.sample(cells, 12)}
        board = GridBoard(grid, sight_walls=walls, cover=cover)
        blockers = frozenset(rng.sample(cells, 5))
        for a in rng.sample(cells, 8):
            for b in cells:
                assert board.terrain_clear(a, b) == _sight_by_walking(board, a, b, frozenset())
                expected = a == b or _sight_by_walking(board, a, b, blockers)
                assert board.sight_clear(a, b, blockers) == expected, (a, b)
                assert board.cover_of(a, b) == _cover_by_walking(board, a, b)


def test_the_walk_from_the_origin_is_grid_line_column_by_column() -> None:
    for ax in range(30):
        for ay in range(ax + 1):
            line = grid_line((0, 0), (ax, ay))
            walk = walk_from_origin(ax, ay)
            assert walk.crossed == line.crossed[1:-1]
            assert walk.corners == tuple(p for p, _ in line.corners)
            assert all(q == (p[0] - 1, p[1] + 1) for p, q in line.corners)


def test_distances_over_the_whole_board_are_the_reach_of_the_board() -> None:
    rng = random.Random(12)
    grid = Grid(cols=11, rows=8)
    cells = list(grid.cells())
    for _ in range(20):
        board = GridBoard(grid, walls=frozenset(rng.sample(cells, 25)))
        goal = rng.choice(cells)
        far = board.distances(goal)
        near = board.reach(goal, grid.cols * grid.rows)
        assert dict(far) == near and len(far) == len(near)
        assert all(far.get(c) == near.get(c) for c in [*cells, (-1, 0), (11, 3)])

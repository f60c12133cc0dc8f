"""The open-table board kit (engine/boards/open.py): sight under each blocker policy (G-03),
the three-line partial test, both cover rules, move area, move toward, flight to an edge, the
fast paths and the memo (RULES §1.4, §1.5, G-01, G-05)."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from engine.boards.open import OpenPolicy, open_board, open_terrain
from engine.geometry import Cover, Edge, Table
from engine.geometry.raycast import segment_crosses, shape_of
from engine.model import GameState, Role, Side, TerrainPiece, Unit, UnitCard

WALL = TerrainPiece(
    "wall",
    "the wall",
    "building",
    ((10, 10), (14, 10), (14, 12), (10, 12)),
    blocks_los=True,
    impassable=True,
    cover="hard",
)
HEDGE = TerrainPiece(
    "hedge", "the hedge", "hedge", ((2, 15), (22, 15), (22, 15.4), (2, 15.4)), cover="soft"
)


def unit(uid: str, side: str, x: float, y: float) -> Unit:
    return Unit(uid, uid.title(), side, 0, x, y, 0.0, UnitCard())


def game(*units: Unit, terrain: tuple[TerrainPiece, ...] = (WALL, HEDGE)) -> GameState:
    sides = (Side("A", Role.HUMAN, Edge.FRONT), Side("B", Role.AI, Edge.BACK))
    return GameState("test", "test", Table(), sides, units, terrain)


ME, PAL, FOE = unit("me", "A", 4, 4), unit("pal", "A", 4, 8), unit("foe", "B", 4, 20)


def test_g03_whose_bases_block_is_the_policy() -> None:
    state = game(ME, PAL, FOE)
    ends = ("me", "foe")
    verdicts = {
        who: open_board(state, OpenPolicy(figures_block=who)).centre_clear(
            ME, ME.position, FOE.position, ends
        )
        for who in ("all", "friends", "enemies", "none")
    }
    assert verdicts == {"all": False, "friends": False, "enemies": True, "none": True}
    # Seen from the other side the ally is an enemy of the viewer.
    enemies = open_board(state, OpenPolicy(figures_block="enemies"))
    assert not enemies.centre_clear(FOE, FOE.position, ME.position, ends)
    with pytest.raises(ValueError):
        OpenPolicy(figures_block="allies")


def test_g03_terrain_blocks_and_the_three_line_partial_test() -> None:
    state = game(unit("a", "A", 12, 4), unit("b", "B", 12, 20))
    board = open_board(state)
    a, b = state.units
    assert not board.sight(a, b).centre_clear
    assert board.blocked_by(a, a.position, b.position, ("a", "b")) == ("the wall",)
    # Past the wall's end the centre line is clear but one tangent line is not: obscured.
    edge = open_board(game(unit("a", "A", 14.3, 4), unit("b", "B", 14.3, 20)))
    a2, b2 = edge.units
    sight = edge.sight(a2, b2)
    assert sight.centre_clear and sight.obscured


def test_g03_a_line_along_an_edge_or_touching_a_corner_is_clear() -> None:
    square = shape_of(((10, 10), (14, 10), (14, 12), (10, 12)))
    assert not segment_crosses(square, (10, 4), (10, 20))  # along the left edge
    assert not segment_crosses(square, (10, 6), (18, 14))  # touches the corner (14, 10)
    assert not segment_crosses(square, (6, 6), (10, 10))  # ends on a corner
    assert segment_crosses(square, (9, 11), (15, 11))
    assert segment_crosses(square, (12, 11), (12, 30))  # starts inside


def test_cover_crossed_or_under_and_the_strike_rule() -> None:
    shooter = (12.0, 2.0)
    board = open_board(game(ME))
    assert board.cover(shooter, (12.0, 20.0), 0.5) == (Cover.HARD, "the wall")
    assert board.cover((4.0, 2.0), (4.0, 20.0), 0.5) == (Cover.SOFT, "the hedge")
    assert board.cover((4.0, 2.0), (4.0, 8.0), 0.5) == (Cover.NONE, None)
    near = open_board(game(ME), OpenPolicy(cover_near_in=0.5))
    # D001A-04b: the crossed piece must come within 0.5 in of the target's base.
    assert near.cover((4.0, 2.0), (4.0, 16.3), 0.5) == (Cover.SOFT, "the hedge")
    assert near.cover((4.0, 2.0), (4.0, 20.0), 0.5) == (Cover.NONE, None)
    assert board.cover((4.0, 2.0), (4.0, 20.0), 0.5) == (Cover.SOFT, "the hedge")


def test_move_area_move_toward_and_flight() -> None:
    state = game(unit("a", "A", 12, 6), unit("b", "B", 12, 16))
    board = open_board(state)
    a = state.units[0]
    area = board.move_area(a)
    assert area.blockers.leg_blockers((12, 6), (12, 14), 0.5)  # through the wall
    path = board.move_toward(a, (12.0, 16.0), 1.0, ((6.0,), (3.0, 3.0)))
    assert path[0] == a.position and len(path) > 1
    assert not any(area.blockers.leg_blockers(p, q, 0.5) for p, q in itertools.pairwise(path))
    flight, leaves = board.flee_path(a, Edge.FRONT, 8.0)
    assert leaves and flight[-1][1] < 0.5
    blocked, out = board.flee_path(state.units[1], Edge.FRONT, 8.0)
    assert not out and blocked[-1][1] == pytest.approx(12.5)  # stopped by the wall


def test_fast_paths_agree_with_the_exact_tests() -> None:
    state = game(ME, PAL, FOE, unit("foe2", "B", 6, 12))
    board = open_board(state)
    lines = (((4.0, 4.0), (4.0, 20.0)), ((4.0, 4.0), (8.0, 20.0)), ((1.0, 1.0), (1.0, 2.0)))
    hits = board.lines_blocked(ME, lines, ("me",))
    assert hits[0].any() and not hits[2].any()
    for k, (a, b) in enumerate(lines):
        for i, u in enumerate(board.units):
            exact = u.id != "me" and any(
                ob.blocks_segment(a, b)
                for ob in board.blockers(ME, ("me",))[len(board.terrain.sight) :]
                if ob.name == u.name
            )
            assert bool(hits[k, i]) == exact
    assert board.leg_hits(ME, (4.0, 4.0), (4.0, 12.0)) == "Pal"
    assert board.leg_hits(ME, (4.0, 4.0), (4.0, 12.0), passes=("pal",)) is None
    field, names = board.field(ME)
    assert names[:3] == ("Pal", "Foe", "Foe2") and names[3:] == ("the wall",)
    assert field.free_in((4.0, 4.0), 0.0, 1.0, 10.0) == pytest.approx(3.0)


def test_answers_live_in_the_game_memo_only() -> None:
    state = game(ME, FOE)
    assert open_board(state) is open_board(state)
    assert open_board(state) is not open_board(state, OpenPolicy(figures_block="none"))
    moved = replace(state, units=(replace(ME, x=5.0), FOE))
    assert open_board(moved) is not open_board(state)
    assert open_terrain(moved) is open_terrain(state)  # same game, same terrain
    other = game(ME, FOE)
    assert open_terrain(other) is not open_terrain(state)


def test_the_move_area_is_shared_between_the_spots_the_mover_stands_on() -> None:
    """The area reads the other bases and the mover's base, never where the mover stands: a
    move of the mover alone finds the area already built; a move of another base does not."""
    state = game(unit("a", "A", 12, 6), unit("b", "B", 12, 16))
    area = open_board(state).move_area(state.units[0])
    moved = state.with_unit(replace(state.units[0], x=16.0, y=5.0))
    assert open_board(moved).move_area(moved.unit("a")) is area
    assert not area.blockers.leg_blockers((16, 5), (17, 5), 0.5)
    other = moved.with_unit(replace(moved.unit("b"), x=16.0, y=7.0))
    fresh = open_board(other).move_area(other.unit("a"))
    assert fresh is not area and fresh.blockers.leg_blockers((16, 5), (16, 7), 0.5)

"""Geometry tests: RULES.md §7 T-GEO-01..05 and T000-08, sight, cover and movement."""

from __future__ import annotations

import math
from itertools import pairwise

import pytest
import shapely

from engine.errors import EngineError
from engine.geometry import (
    EPS_IN,
    Cover,
    CoverArea,
    Edge,
    GeometryError,
    Grid,
    MoveArea,
    Obstacle,
    Table,
    adjacent,
    advance,
    base_obstacle,
    base_overlaps,
    base_shape,
    bearing_deg,
    best_move_toward,
    centre_distance_in,
    chebyshev,
    check_path,
    check_path_any,
    cover_between,
    edge_gap_in,
    find_path,
    grid_line,
    heading_vector,
    in_contact,
    in_forward_arc,
    leg_blockers,
    leg_cost_in,
    line_of_sight,
    normalize_deg,
    path_cost_in,
    point_gap_in,
    polygon_gap_in,
    relative_bearing_deg,
    step_facing_deg,
    swept_base,
    toward_edge_path,
    wrap180,
)

R = 0.5  # a 1-in base
TABLE = Table()


def legs_of(points: tuple[tuple[float, float], ...]) -> list[float]:
    return [centre_distance_in(a, b) for a, b in pairwise(points)]


# --------------------------------------------------------------------------- T-GEO-01


def test_t_geo_01_edge_to_edge_range() -> None:
    a, b = (0.0, 0.0), (12.8, 0.0)
    assert edge_gap_in(a, R, b, R) == pytest.approx(11.8)
    assert edge_gap_in(a, R, b, R) <= 12.0  # in a 12-in range, edge to edge (G-01)
    assert centre_distance_in(a, b) > 12.0  # out of range centre to centre


def test_t_geo_01_mixed_base_sizes_change_the_nearest() -> None:
    a = (0.0, 0.0)
    b, rb = (5.9, 0.0), 0.5  # a 1-in base
    c, rc = (0.0, 6.3), 1.0  # a 2-in base
    by_centre = min([("B", b), ("C", c)], key=lambda kv: centre_distance_in(a, kv[1]))[0]
    by_edge = min([("B", b, rb), ("C", c, rc)], key=lambda kv: edge_gap_in(a, R, kv[1], kv[2]))[0]
    assert by_centre == "B"
    assert by_edge == "C"
    assert edge_gap_in(a, R, b, rb) == pytest.approx(4.9)
    assert edge_gap_in(a, R, c, rc) == pytest.approx(4.8)


def test_gaps_to_points_and_polygons() -> None:
    assert point_gap_in((0.0, 0.0), R, (3.0, 4.0)) == pytest.approx(4.5)
    assert point_gap_in((0.0, 0.0), R, (0.2, 0.0)) == 0.0
    square = shapely.box(2.0, -1.0, 4.0, 1.0)
    assert polygon_gap_in((0.0, 0.0), R, square) == pytest.approx(1.5)
    assert polygon_gap_in((1.8, 0.0), R, square) == 0.0
    assert edge_gap_in((0.0, 0.0), R, (0.5, 0.0), R) == 0.0


def test_contact_tolerance() -> None:
    assert in_contact((0.0, 0.0), R, (1.1, 0.0), R)
    assert not in_contact((0.0, 0.0), R, (1.11, 0.0), R)
    assert in_contact((0.0, 0.0), R, (1.2, 0.0), R, tol_in=0.25)


# --------------------------------------------------------------------------- T-GEO-02


def test_t_geo_02_forward_arc_is_inclusive() -> None:
    o = (12.0, 12.0)
    assert in_forward_arc(o, 0.0, advance(o, 90.0, 5.0))
    assert in_forward_arc(o, 0.0, advance(o, 270.0, 5.0))
    assert not in_forward_arc(o, 0.0, advance(o, 90.001, 5.0))
    assert not in_forward_arc(o, 0.0, advance(o, 269.999, 5.0))
    assert in_forward_arc(o, 0.0, o)
    assert in_forward_arc(o, 350.0, advance(o, 10.0, 3.0))
    assert not in_forward_arc(o, 0.0, advance(o, 180.0, 3.0))
    assert in_forward_arc(o, 0.0, advance(o, 30.0, 3.0), half_angle_deg=45.0)
    assert not in_forward_arc(o, 0.0, advance(o, 50.0, 3.0), half_angle_deg=45.0)


# --------------------------------------------------------------------------- T-GEO-03


def test_t_geo_03_heading_arithmetic() -> None:
    assert normalize_deg(180.0 + 90.0) == 270.0  # turn right from 180
    assert normalize_deg(0.0 - 90.0) == 270.0  # turn left from 0
    down, left = 180.0, 270.0  # grid ↓ and ←
    assert normalize_deg(down + 90.0) == left
    assert normalize_deg(720.0) == 0.0
    assert normalize_deg(-1e-18) == 0.0
    assert wrap180(180.0) == 180.0
    assert wrap180(-180.0) == 180.0
    assert wrap180(190.0) == -170.0


def test_bearings_and_vectors() -> None:
    o = (0.0, 0.0)
    assert bearing_deg(o, (0.0, 1.0)) == 0.0
    assert bearing_deg(o, (1.0, 0.0)) == 90.0
    assert bearing_deg(o, (0.0, -1.0)) == 180.0
    assert bearing_deg(o, (-1.0, 0.0)) == 270.0
    assert relative_bearing_deg(90.0, o, (0.0, 1.0)) == -90.0  # on the left
    assert relative_bearing_deg(270.0, o, (0.0, 1.0)) == 90.0  # on the right
    hx, hy = heading_vector(90.0)
    assert hx == pytest.approx(1.0)
    assert hy == pytest.approx(0.0, abs=1e-12)
    x, y = advance((1.0, 1.0), 45.0, math.sqrt(2.0))
    assert (x, y) == (pytest.approx(2.0), pytest.approx(2.0))


# --------------------------------------------------------------------------- T-GEO-04


def test_t_geo_04_nearest_edge() -> None:
    assert TABLE.nearest_edge((3.0, 12.0)) is Edge.LEFT
    assert TABLE.nearest_edges((3.0, 3.0)) == (Edge.FRONT, Edge.LEFT)
    # Exact tie -> the figure's own deployment edge (the human side deploys at the front).
    assert TABLE.nearest_edge((3.0, 3.0), own_edge=Edge.FRONT) is Edge.FRONT
    assert TABLE.nearest_edge((3.0, 3.0), own_edge=Edge.LEFT) is Edge.LEFT
    # Own edge not among the tied -> the caller's (logged) random choice.
    seen: list[tuple[Edge, ...]] = []

    def pick_last(tied: object) -> Edge:
        seen.append(tuple(tied))  # type: ignore[arg-type]
        return Edge.LEFT

    assert TABLE.nearest_edge((3.0, 3.0), own_edge=Edge.BACK, tiebreak=pick_last) is Edge.LEFT
    assert seen == [(Edge.FRONT, Edge.LEFT)]
    assert TABLE.nearest_edge((12.0, 12.0), own_edge=Edge.BACK) is Edge.BACK  # all four tied


def test_g05_a_tie_without_the_own_edge_is_never_settled_by_a_fixed_order() -> None:
    """G-05: own edge, else a roll; without a roll to make, a tie is an error, not FRONT."""
    with pytest.raises(EngineError, match="front and left edges are equally near"):
        TABLE.nearest_edge((3.0, 3.0))
    with pytest.raises(EngineError, match="a roll must choose"):
        TABLE.nearest_edge((3.0, 3.0), own_edge=Edge.BACK)


def test_table_edges_on_a_rectangle() -> None:
    table = Table(width_in=36.0, depth_in=24.0)
    assert table.nearest_edge((30.0, 12.0)) is Edge.RIGHT
    assert table.nearest_edge((18.0, 22.0)) is Edge.BACK
    assert table.edge_distance_in((30.0, 12.0), Edge.RIGHT) == 6.0
    assert [table.edge_heading_deg(e) for e in Edge] == [180.0, 90.0, 0.0, 270.0]
    assert table.contains_base((0.5, 23.5), R)
    assert not table.contains_base((0.49, 12.0), R)
    assert table.polygon().area == 36.0 * 24.0


# --------------------------------------------------------------------------- T-GEO-05


def test_t_geo_05_two_leg_limits() -> None:
    area = MoveArea(TABLE, R, ())
    half = (3.0, 3.0)  # M = 6
    bad = check_path([(5.0, 5.0), (5.0, 9.0), (5.0, 9.0)], half, area)
    assert not bad.legal
    assert bad.reason == "the first leg is 4 in, more than the 3 in allowed"
    assert check_path([(5.0, 5.0), (5.0, 8.0), (8.0, 8.0)], half, area).legal
    second = check_path([(5.0, 5.0), (5.0, 8.0), (8.4, 8.0)], half, area)
    assert second.reason == "the second leg is 3.4 in, more than the 3 in allowed"
    assert check_path([(5.0, 5.0), (5.0, 11.0)], (6.0,), area).legal
    assert check_path([(5.0, 5.0), (5.0, 11.0 + 1e-7)], (6.0,), area).legal  # rounding
    assert not check_path([(5.0, 5.0), (5.0, 11.001)], (6.0,), area).legal
    assert check_path([(5.0, 5.0)], (6.0,), area).legal  # staying put
    too_many = check_path([(5.0, 5.0), (5.0, 6.0), (6.0, 6.0)], (6.0,), area)
    assert too_many.reason == "the path has 2 legs, more than the 1 allowed"
    with pytest.raises(GeometryError):
        check_path([], (6.0,), area)


# --------------------------------------------------------------------------- T000-08

START, GOAL = (5.0, 5.0), (5.0, 10.5)  # 5.5 in apart
FENCE = Obstacle("the fence", shapely.box(2.0, 7.4, 5.4, 7.6))


def test_t000_08_point_behind_a_corner_needs_one_bend() -> None:
    area = MoveArea(TABLE, R, (FENCE,))
    assert centre_distance_in(START, GOAL) == pytest.approx(5.5)
    straight = check_path([START, GOAL], (6.0,), area)
    assert straight.reason == "the path crosses the fence"
    # Round the fence's end: legal iff both legs are at most M/2 = 3.
    bend = (5.0 + math.sqrt(9.0 - 2.75**2), 7.75)  # 3 in from both ends
    assert legs_of((START, bend, GOAL)) == [pytest.approx(3.0), pytest.approx(3.0)]
    assert check_path([START, bend, GOAL], (3.0, 3.0), area).legal
    over = check_path([START, (6.2, 7.75), GOAL], (3.0, 3.0), area)
    assert over.reason == "the first leg is 3.0004 in, more than the 3 in allowed"
    assert check_path([START, bend, GOAL], (3.0, 3.0), area).legal
    long_second = check_path([START, (6.6, 7.5), GOAL], (3.0, 3.0), area)
    assert long_second.reason == "the second leg is 3.4 in, more than the 3 in allowed"
    path = find_path(START, GOAL, [[6.0], [3.0, 3.0]], area)
    assert path is not None and len(path) == 3
    assert max(legs_of(path)) <= 3.0 + 1e-6
    assert check_path(path, (3.0, 3.0), area).legal
    # The best one-bend path needs legs of 2.953 in (found by a fine grid search), so a
    # move of 5.8 cannot get there although the point is only 5.5 in away.
    assert find_path(START, GOAL, [[5.8], [2.9, 2.9]], area) is None


def test_find_path_straight_and_split() -> None:
    area = MoveArea(TABLE, R, ())
    assert find_path((2.0, 2.0), (2.0, 7.0), [[6.0], [3.0, 3.0]], area) == ((2.0, 2.0), (2.0, 7.0))
    split = find_path((2.0, 2.0), (2.0, 7.0), [[3.0, 3.0]], area)
    assert split == ((2.0, 2.0), (2.0, 4.5), (2.0, 7.0))
    assert find_path((2.0, 2.0), (2.0, 9.0), [[6.0], [3.0, 3.0]], area) is None
    assert find_path((2.0, 2.0), (2.0, 2.0), [[6.0]], area) == ((2.0, 2.0),)


# --------------------------------------------------------------------------- sight

TOWER = Obstacle("the ruined tower", shapely.box(10.0, 10.0, 14.0, 14.0))


def test_sight_blocked_by_terrain() -> None:
    sight = line_of_sight((12.0, 4.0), R, (12.0, 20.0), R, [TOWER])
    assert not sight.centre_clear and not sight.visible
    assert sight.blocked_by == ("the ruined tower",)


def test_sight_grazing_a_boundary_is_clear() -> None:
    along_edge = line_of_sight((10.0, 4.0), R, (10.0, 20.0), R, [TOWER])
    assert along_edge.centre_clear
    assert along_edge.lines_clear == (True, True, False)  # the right tangent cuts the tower
    assert along_edge.obscured
    corner = line_of_sight((6.0, 6.0), 0.0, (16.0, 16.0 - 1e-9), 0.0, [TOWER])
    assert not corner.centre_clear  # the diagonal runs through the tower
    touch_corner = line_of_sight((4.0, 16.0), R, (16.0, 4.0), R, [TOWER])
    assert touch_corner.centre_clear  # the centre line only touches the corner (10, 10)
    assert touch_corner.obscured  # the tangent on the tower's side cuts it
    beside = line_of_sight((9.5, 4.0), R, (9.5, 20.0), R, [TOWER])
    assert beside.fully_clear  # the right tangent line runs along the tower's side


FLANKS = [base_obstacle("Orc Spearman", (11.4, 14.0), R), base_obstacle("Orc", (12.6, 10.0), R)]


def test_sight_blocked_by_another_base() -> None:
    orc = base_obstacle("Orc Archer", (12.0, 12.0), R)
    sight = line_of_sight((12.0, 4.0), R, (12.0, 20.0), R, [orc])
    assert not sight.centre_clear
    assert sight.blocked_by == ("Orc Archer",)
    # Between equal bases the tangent lines only graze the middle base: obscured, not hidden.
    assert sight.lines_clear == (False, True, True)
    assert sight.obscured
    assert not line_of_sight((12.0, 4.0), R, (12.0, 20.0), R, [orc, *FLANKS]).visible
    # Bases from plain shapes (no centre given) are read as circles too.
    plain = Obstacle("Orc Archer", base_shape((12.0, 12.0), R), "base")
    assert line_of_sight((12.0, 4.0), R, (12.0, 20.0), R, [plain]) == sight
    side = line_of_sight((12.6, 4.0), R, (12.6, 20.0), R, [orc])
    assert side.centre_clear and side.obscured
    assert side.lines_clear == (True, False, True)
    clear = line_of_sight((12.9, 4.0), R, (12.9, 20.0), R, [orc])
    assert clear.centre_clear and not clear.lines_clear[1]  # left tangent at x = 12.4 cuts it
    touching = line_of_sight((13.0, 4.0), R, (13.0, 20.0), R, [orc])
    assert touching.fully_clear  # the left tangent at x = 12.5 just touches the base


def test_sight_order_along_the_line_and_no_duplicates() -> None:
    near = base_obstacle("Goblin", (12.0, 18.0), R)
    far = Obstacle("the wall", shapely.box(11.0, 8.0, 13.0, 8.5))
    twin = Obstacle("the wall", shapely.box(11.0, 15.0, 13.0, 15.5))
    sight = line_of_sight((12.0, 20.0), R, (12.0, 2.0), R, [far, near, twin])
    assert sight.blocked_by == ("Goblin", "the wall")


def test_tangent_lines_for_unequal_bases() -> None:
    # Outer tangents from a 1-in base to a 3-in base widen from 0.5 to 1.5 in off the centre
    # line: about 1.0 in halfway, so they pass a 1.6-in base there but not a 2.4-in one.
    troll = base_obstacle("Troll", (12.0, 12.0), 0.8)
    sight = line_of_sight((12.0, 2.0), R, (12.0, 22.0), 1.5, [troll])
    assert sight.lines_clear == (False, True, True)
    giant = base_obstacle("Giant", (12.0, 12.0), 1.2)
    assert not line_of_sight((12.0, 2.0), R, (12.0, 22.0), 1.5, [giant]).visible


# --------------------------------------------------------------------------- cover

HEDGE = CoverArea("the hedge", shapely.box(0.0, 11.0, 24.0, 11.5), Cover.SOFT)
WALL = CoverArea("the wall", shapely.box(10.0, 13.4, 14.0, 13.6), Cover.HARD)
WOOD = CoverArea("the wood", shapely.box(16.0, 16.0, 20.0, 20.0), Cover.SOFT)


def test_cover_best_of_crossed_and_overlapping() -> None:
    assert cover_between((12.0, 2.0), (12.0, 20.0), R, [HEDGE, WALL]) == (Cover.HARD, "the wall")
    assert cover_between((2.0, 2.0), (2.0, 20.0), R, [HEDGE, WALL]) == (Cover.SOFT, "the hedge")
    assert cover_between((2.0, 2.0), (2.0, 8.0), R, [HEDGE, WALL]) == (Cover.NONE, None)
    # The target's base overlaps the wood although the line from the south-west misses it.
    assert cover_between((15.0, 2.0), (15.7, 17.0), R, [WOOD]) == (Cover.SOFT, "the wood")
    assert cover_between((15.0, 2.0), (15.4, 17.0), R, [WOOD]) == (Cover.NONE, None)
    # A shooter standing in the hedge ignores it.
    assert cover_between((5.0, 11.2), (5.0, 20.0), R, [HEDGE]) == (Cover.NONE, None)
    assert Cover.NONE.rank() < Cover.SOFT.rank() < Cover.HARD.rank()


# --------------------------------------------------------------------------- movement

RIVER = Obstacle("the river", shapely.box(0.0, 10.0, 24.0, 11.0))
ORC = base_obstacle("Orc Archer", (6.0, 6.0), R)


def test_paths_rejected_with_the_right_reason() -> None:
    area = MoveArea(TABLE, R, (RIVER, ORC))
    assert (
        check_path([(3.0, 8.0), (3.0, 13.0)], (6.0,), area).reason == "the path crosses the river"
    )
    assert check_path([(3.0, 8.0), (3.0, 9.5)], (6.0,), area).legal  # touching the bank is fine
    assert not check_path([(3.0, 8.0), (3.0, 9.51)], (6.0,), area).legal
    through = check_path([(3.0, 6.0), (9.0, 6.0)], (6.0,), area)
    assert through.reason == "the path runs through Orc Archer"
    assert check_path([(3.0, 6.0), (5.0, 6.0)], (6.0,), area).legal  # base contact is fine
    grazing = check_path([(3.0, 5.0), (9.0, 5.0)], (6.0,), area)  # passes 1.0 from the centre
    assert grazing.legal
    off = check_path([(3.0, 3.0), (0.3, 3.0)], (6.0,), area)
    assert off.reason == "the base would leave the table"
    assert leg_blockers((3.0, 6.0), (9.0, 6.0), R, [RIVER, ORC]) == ("Orc Archer",)
    assert leg_blockers((6.0, 3.0), (6.0, 14.0), R, [RIVER, ORC]) == ("Orc Archer", "the river")


def test_a_base_that_already_overlaps_may_move_away_only() -> None:
    # A camera-measured position 0.05 in into the Orc's base.
    start = (6.95, 6.0)
    area = MoveArea(TABLE, R, (ORC,))
    assert base_overlaps(start, R, [ORC]) == ("Orc Archer",)
    assert check_path([start, (10.0, 6.0)], (6.0,), area).legal
    assert check_path([start, (6.95, 9.0)], (6.0,), area).legal
    deeper = check_path([start, (6.8, 6.0)], (6.0,), area)
    assert deeper.reason == "the path runs through Orc Archer"
    assert base_overlaps((7.0, 6.0), R, [ORC]) == ()


def test_difficult_ground_costs_double() -> None:
    mud = shapely.box(0.0, 10.0, 24.0, 12.0)
    assert leg_cost_in((5.0, 8.0), (5.0, 14.0), [mud]) == pytest.approx(8.0)
    assert leg_cost_in((5.0, 8.0), (5.0, 9.0), [mud]) == pytest.approx(1.0)
    overlapping = [mud, shapely.box(0.0, 11.0, 24.0, 13.0)]
    assert leg_cost_in((5.0, 8.0), (5.0, 14.0), overlapping) == pytest.approx(9.0)
    assert path_cost_in([(5.0, 8.0), (5.0, 11.0), (8.0, 11.0)], [mud]) == pytest.approx(10.0)
    area = MoveArea(TABLE, R, (), (mud,))
    costly = check_path([(5.0, 8.0), (5.0, 13.0)], (6.0,), area)
    assert costly.reason == (
        "the first leg costs 7 in (difficult ground counts double), more than the 6 in allowed"
    )
    assert check_path([(5.0, 8.0), (5.0, 12.0)], (6.0,), area).legal
    # Moving into the mud: 2 in to reach it, then 4 in of allowance buys 2 in of mud.
    path = best_move_toward((5.0, 8.0), (5.0, 20.0), 0.0, [[6.0]], area)
    assert path[-1][1] == pytest.approx(12.0, abs=1e-6)


def test_swept_base_is_a_capsule() -> None:
    capsule = swept_base((0.0, 0.0), (4.0, 0.0), R)
    assert capsule.area == pytest.approx(4.0 * 1.0 + math.pi * R * R, rel=1e-2)
    assert swept_base((1.0, 1.0), (1.0, 1.0), R).area == pytest.approx(math.pi * R * R, rel=1e-2)


def test_check_path_any_pattern() -> None:
    area = MoveArea(TABLE, R, ())
    patterns = [[6.0], [3.0, 3.0]]
    assert check_path_any([(5.0, 5.0), (5.0, 10.0)], patterns, area).legal
    assert check_path_any([(5.0, 5.0), (5.0, 8.0), (8.0, 8.0)], patterns, area).legal
    bad = check_path_any([(5.0, 5.0), (5.0, 9.0), (8.0, 9.0)], patterns, area)
    assert bad.reason == "the first leg is 4 in, more than the 3 in allowed"


# --------------------------------------------------------------------------- steering


def test_best_move_toward_straight_and_stopping_at_contact() -> None:
    area = MoveArea(TABLE, R, ())
    assert best_move_toward((5.0, 5.0), (5.0, 9.0), 0.0, [[6.0]], area) == ((5.0, 5.0), (5.0, 9.0))
    far = best_move_toward((5.0, 5.0), (5.0, 20.0), 0.0, [[6.0], [3.0, 3.0]], area)
    assert far[-1] == (5.0, pytest.approx(11.0))
    assert len(far) == 2  # one leg beats two equally long ones
    enemy = base_obstacle("Goblin", (5.0, 9.0), R)
    area = MoveArea(TABLE, R, (enemy,))
    path = best_move_toward((5.0, 5.0), (5.0, 9.0), 2 * R + 0.02, [[6.0], [3.0, 3.0]], area)
    assert edge_gap_in(path[-1], R, (5.0, 9.0), R) == pytest.approx(0.02)
    assert best_move_toward((5.0, 7.99), (5.0, 9.0), 1.02, [[6.0]], area) == ((5.0, 7.99),)


def test_best_move_toward_goes_round_a_wall() -> None:
    area = MoveArea(TABLE, R, (FENCE,))
    path = best_move_toward(START, GOAL, 0.0, [[6.0], [3.0, 3.0]], area)
    assert check_path(path, (3.0, 3.0), area).legal
    assert centre_distance_in(path[-1], GOAL) < 0.3  # the bend search gets (nearly) there
    blocked = best_move_toward(START, GOAL, 0.0, [[6.0]], area)  # no bend allowed
    assert check_path(blocked, (6.0,), area).legal
    assert centre_distance_in(blocked[-1], GOAL) < centre_distance_in(START, GOAL)


def test_best_move_toward_full_distance() -> None:
    wall = Obstacle("the wall", shapely.box(0.0, 9.0, 24.0, 10.0))
    area = MoveArea(TABLE, R, (wall,))
    short = best_move_toward((5.0, 5.0), (5.0, 20.0), 0.0, [[6.0]], area)
    assert short == ((5.0, 5.0), (5.0, pytest.approx(8.5)))
    # Aimed past the goal's side, the full-distance move runs on to the wall.
    full = best_move_toward((5.0, 5.0), (9.0, 20.0), 0.0, [[6.0]], area, full_distance=True)
    assert check_path(full, (6.0,), area).legal
    assert full[-1][1] == pytest.approx(8.5)
    open_area = MoveArea(TABLE, R, ())
    run = best_move_toward((5.0, 5.0), (9.0, 20.0), 0.0, [[6.0]], open_area, full_distance=True)
    assert centre_distance_in(run[0], run[-1]) == pytest.approx(6.0)
    near = best_move_toward((5.0, 5.0), (5.0, 8.0), 1.0, [[6.0]], open_area, full_distance=True)
    assert near[-1] == (5.0, pytest.approx(7.0))  # still stops at the gap


def test_toward_edge_path() -> None:
    area = MoveArea(TABLE, R, ())
    assert toward_edge_path((3.0, 12.0), Edge.LEFT, 6.0, area) == (
        ((3.0, 12.0), (R, 12.0)),
        True,
    )
    path, leaves = toward_edge_path((8.0, 12.0), Edge.LEFT, 6.0, area)
    assert path == ((8.0, 12.0), (pytest.approx(2.0), 12.0)) and not leaves
    exact, leaves = toward_edge_path((6.5, 12.0), Edge.LEFT, 6.0, area)
    assert exact[-1][0] == pytest.approx(R) and not leaves  # touching the edge is still on
    rock = Obstacle("the rock", shapely.box(0.0, 10.0, 2.0, 14.0))
    area = MoveArea(TABLE, R, (rock,))
    path, leaves = toward_edge_path((5.0, 12.0), Edge.LEFT, 6.0, area)
    assert path[-1][0] == pytest.approx(2.5) and not leaves
    stuck, leaves = toward_edge_path((2.5, 12.0), Edge.LEFT, 6.0, area)
    assert stuck == ((2.5, 12.0),) and not leaves
    path, leaves = toward_edge_path((5.0, 20.0), Edge.BACK, 6.0, area)
    assert leaves and path[-1] == (5.0, pytest.approx(24.0 - R))


def test_eps_is_a_hair() -> None:
    assert 0.0 < EPS_IN < 1e-3


# --------------------------------------------------------------------------- grid mode


def test_t_geo_03_grid_facing_turns() -> None:
    down = step_facing_deg((0, 1))
    assert down == 180.0
    assert normalize_deg(down + 90.0) == step_facing_deg((-1, 0))  # ↓ turned clockwise = ←
    assert step_facing_deg((1, -1)) == 45.0  # ↗


def test_t_geo_06_grid_line_of_sight_corners() -> None:
    assert grid_line((0, 0), (2, 2)).crossed == ((0, 0), (1, 1), (2, 2))
    line = grid_line((0, 0), (2, 1))
    assert line.crossed == ((0, 0), (1, 0), (1, 1), (2, 1))
    assert line.corners == ()
    # (0, 0) -> (3, 1) passes exactly through the corner at the top right of cell (1, 0).
    line = grid_line((0, 0), (3, 1))
    assert line.crossed == ((0, 0), (1, 0), (2, 1), (3, 1))
    assert line.corners == (((2, 0), (1, 1)),)
    # Sight along those lines (the corner rule) is the grid kit's: tests/engine/test_grid_board.py.


def test_t_geo_07_chebyshev_distance() -> None:
    assert chebyshev((0, 0), (3, 2)) == 3
    assert adjacent((2, 2), (3, 3)) and not adjacent((2, 2), (2, 2))


def test_grid_cells_and_table_inches() -> None:
    grid = Grid(cols=8, rows=8, cell_in=3.0)
    assert grid.centre((0, 0)) == (1.5, 22.5)  # row 0 is the far edge
    assert grid.centre((7, 7)) == (22.5, 1.5)
    assert grid.cell_at((22.9, 1.0)) == (7, 7)
    assert all(grid.cell_at(grid.centre(c)) == c for c in grid.cells())
    pond = shapely.box(0.0, 0.0, 4.5, 3.0)  # cell (0, 7) full, cell (1, 7) half, (2, 7) none
    assert grid.filled_cells(pond) == {(0, 7), (1, 7)}
    assert grid.filled_cells(shapely.box(0.0, 0.0, 4.4, 3.0)) == {(0, 7)}


# --------------------------------------------------------------------------- odd shapes


def test_polygon_with_a_hole_and_a_line_wall() -> None:
    yard = shapely.box(4.0, 4.0, 12.0, 12.0).difference(shapely.box(6.0, 6.0, 10.0, 10.0))
    walls = Obstacle("the courtyard walls", yard)
    area = MoveArea(TABLE, R, (walls,))
    inside = (8.0, 8.0)
    assert check_path([inside, (9.5, 8.0)], (6.0,), area).legal
    assert check_path([inside, (13.0, 8.0)], (6.0,), area).reason == (
        "the path crosses the courtyard walls"
    )
    path = best_move_toward(inside, (20.0, 8.0), 0.0, [[6.0], [3.0, 3.0]], area)
    assert check_path_any(path, [[6.0], [3.0, 3.0]], area).legal
    assert path[-1][0] == pytest.approx(9.5)  # pressed against the inner wall
    fence = Obstacle("the fence", shapely.LineString([(2.0, 15.0), (10.0, 15.0)]))
    area = MoveArea(TABLE, R, (fence,))
    assert (
        check_path([(5.0, 13.0), (5.0, 17.0)], (6.0,), area).reason == "the path crosses the fence"
    )
    assert check_path([(11.0, 13.0), (11.0, 17.0)], (6.0,), area).legal  # round its end
    sight = line_of_sight((5.0, 13.0), R, (5.0, 17.0), R, [fence])
    assert not sight.visible
    assert line_of_sight((10.0, 13.0), 0.0, (10.0, 17.0), 0.0, [fence]).centre_clear  # its tip
    pressed = best_move_toward((5.0, 13.0), (5.0, 17.0), 0.0, [[6.0], [3.0, 3.0]], area)
    assert pressed[-1] == (5.0, pytest.approx(14.5))  # too far from the end to go round
    path = best_move_toward((9.0, 13.0), (9.0, 17.0), 0.0, [[6.0], [3.0, 3.0]], area)
    assert len(path) == 3  # round the end with one bend
    assert check_path(path, (3.0, 3.0), area).legal
    assert centre_distance_in(path[-1], (9.0, 17.0)) < 1e-6

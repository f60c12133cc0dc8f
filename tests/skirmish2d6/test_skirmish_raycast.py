"""The skirmish's plain-Python geometry agrees with the shared shapely-based one: how far a base
slides before it touches a base, a polygon or the table edge (against the exact leg test of
``engine.geometry``), point-to-polygon distances and sight lines through polygons."""

from __future__ import annotations

import math
import random

import pytest
import shapely
from shapely.geometry import LineString, Polygon

from engine.geometry import MoveArea, Obstacle, Table, base_obstacle
from engine.geometry.raycast import (
    Field,
    point_polygon_in,
    segment_crosses,
    shape_of,
)

POLYS = (
    ((10.0, 10.0), (14.0, 10.0), (14.0, 12.0), (10.0, 12.0)),
    ((20.0, 5.0), (24.0, 6.0), (22.0, 9.0)),
    ((5.0, 20.0), (9.0, 20.0), (9.0, 21.0), (6.0, 21.0), (6.0, 25.0), (5.0, 25.0)),
)


def _bases(rng: random.Random) -> list[tuple[float, float, float]]:
    return [(rng.uniform(2, 34), rng.uniform(2, 34), 0.5) for _ in range(6)]


def _free_by_bisection(
    area: MoveArea, start: tuple[float, float], ux: float, uy: float, run: float
) -> float:
    def clear(t: float) -> bool:
        end = (start[0] + ux * t, start[1] + uy * t)
        return not area.blockers.leg_blockers(
            start, end, area.radius_in
        ) and area.table.contains_base(end, area.radius_in)

    if clear(run):
        return run
    lo, hi = 0.0, run
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if clear(mid) else (lo, mid)
    return lo


@pytest.mark.parametrize("seed", range(6))
def test_free_run_matches_the_shared_exact_leg_test(seed: int) -> None:
    rng = random.Random(seed)
    bases = _bases(rng)
    field = Field(0.5, tuple(bases), tuple(shape_of(p) for p in POLYS), 36.0, 36.0)
    obstacles = [base_obstacle(f"b{i}", (x, y), r) for i, (x, y, r) in enumerate(bases)]
    obstacles += [Obstacle(f"p{i}", Polygon(p), "terrain") for i, p in enumerate(POLYS)]
    area = MoveArea(Table(36.0, 36.0), 0.5, tuple(obstacles))
    checked = 0
    while checked < 25:
        start = (rng.uniform(1, 35), rng.uniform(1, 35))
        if area.blockers.leg_blockers(start, start, 0.5) or any(
            math.dist(start, (x, y)) < 1.0 for x, y, _ in bases
        ):
            continue
        if any(Polygon(p).distance(shapely.Point(start)) < 0.5 for p in POLYS):
            continue
        ang = rng.uniform(0, 2 * math.pi)
        ux, uy = math.sin(ang), math.cos(ang)
        run = rng.uniform(1, 12)
        assert field.free_in(start, ux, uy, run) == pytest.approx(
            _free_by_bisection(area, start, ux, uy, run), abs=1e-4
        )
        checked += 1


def test_a_touching_base_may_move_away_or_along_but_not_in() -> None:
    field = Field(0.5, ((11.0, 10.0, 0.5),), (), 36.0, 36.0)
    assert field.free_in((10.0, 10.0), -1.0, 0.0, 3.0) == 3.0
    assert field.free_in((10.0, 10.0), 0.0, 1.0, 3.0) == 3.0
    assert field.free_in((10.0, 10.0), 1.0, 0.0, 3.0) == 0.0


def test_point_polygon_distance_and_sight_lines() -> None:
    rng = random.Random(7)
    for poly in POLYS:
        prepared, exact = shape_of(poly), Polygon(poly)
        for _ in range(50):
            p = (rng.uniform(0, 30), rng.uniform(0, 30))
            q = (rng.uniform(0, 30), rng.uniform(0, 30))
            assert point_polygon_in(prepared, p) == pytest.approx(
                exact.distance(shapely.Point(p)), abs=1e-9
            )
            crosses = LineString([p, q]).crosses(exact) or exact.contains(LineString([p, q]))
            assert segment_crosses(prepared, p, q) == crosses

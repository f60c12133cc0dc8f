"""engine.geometry.vantage: the shortest legal move after which a target is in reach and sight
(RULES D000-09), checked exactly and against a dense brute-force search.

Measured when written, against the dense search below on 60 random layouts for each of seeds 1,
2, 3 (8 rectangles that block sight and movement, 10 other bases, the target within 16 in):
no position the dense search found was missed; the path was within 0.05 in of the dense search's
length in 95-100 % of layouts, worst 0.5 in.
"""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import shapely

from engine.geometry import (
    MoveArea,
    Obstacle,
    Table,
    base_obstacle,
    centre_distance_in,
    check_path_any,
    shortest_view_move,
    sight_map,
)
from engine.geometry.raysearch import clear_ranges

R = 0.5
PATTERNS = [[6.0], [3.0, 3.0]]
CONTACT = 2 * R + 0.1 + 2e-6

Layout = tuple[
    MoveArea,
    tuple[float, float],
    tuple[float, float],
    tuple[Obstacle, ...],
    list[tuple[tuple[float, float], float]],
    float,
]


def layout(rng: random.Random) -> Layout:
    """Random terrain and bases; the mover, a target 3-16 in away, three enemies to keep off."""
    terrain = []
    for i in range(8):
        x, y = rng.uniform(2, 19), rng.uniform(2, 19)
        w, h = rng.uniform(0.5, 4), rng.uniform(0.5, 4)
        terrain.append(Obstacle(f"terrain {i}", shapely.box(x, y, x + w, y + h)))
    centres: list[tuple[float, float]] = []
    while len(centres) < 12:
        c = (rng.uniform(1, 23), rng.uniform(1, 23))
        if any(shapely.Point(c).distance(t.shape) < 0.55 for t in terrain):
            continue
        if any(centre_distance_in(c, o) < 1.05 for o in centres):
            continue
        if len(centres) == 1 and not 3 < centre_distance_in(c, centres[0]) < 16:
            continue
        centres.append(c)
    start, target = centres[0], centres[1]
    bases = [base_obstacle(f"base {i}", c, R) for i, c in enumerate(centres[2:])]
    area = MoveArea(Table(), R, (*terrain, *bases, base_obstacle("target", target, R)))
    keep = [(target, CONTACT)] + [(c, CONTACT) for c in centres[2:5]]
    return area, start, target, (*terrain, *bases), keep, rng.uniform(3, 12) + 2 * R


def _exactly_good(lay: Layout, p: tuple[float, float]) -> bool:
    _, _, target, sight, keep, reach = lay
    if centre_distance_in(p, target) > reach + 1e-6:
        return False
    if any(centre_distance_in(p, c) <= r for c, r in keep):
        return False
    return not any(ob.blocks_segment(p, target) for ob in sight)


def _first_good(
    lay: Layout, px: np.ndarray, py: np.ndarray, ux: np.ndarray, uy: np.ndarray, limit: float
) -> np.ndarray:
    """Per ray, the first point (every 0.03 in) where the goal holds by a fine sight map."""
    area, _, target, sight, keep, reach = lay
    smap = sight_map(target, sight, rays=5760)
    lo, hi = clear_ranges(area, px, py, np.arange(len(px)), ux, uy)
    hi = np.minimum(hi, limit)
    ts = np.arange(0.0, limit + 1e-9, 0.03)[None, :].repeat(len(px), 0)
    ok = (ts >= np.maximum(lo, 1e-4)[:, None]) & (ts <= hi[:, None])
    xs, ys = px[:, None] + ux[:, None] * ts, py[:, None] + uy[:, None] * ts
    good = ok & (np.hypot(xs - target[0], ys - target[1]) <= reach)
    for (cx, cy), r in keep:
        good &= np.hypot(xs - cx, ys - cy) > r
    good[good] = smap.visible(xs[good], ys[good])
    return np.where(good.any(1), ts[np.arange(len(px)), good.argmax(1)], np.inf)


def dense_shortest(lay: Layout) -> float:
    """Brute force: one leg over 720 directions; two legs bending at 4 points along each of 120
    directions, second legs every 4 degrees."""
    area, start, *_ = lay
    n = 720
    ang = np.arange(n) * (2 * math.pi / n)
    px, py = np.full(n, start[0]), np.full(n, start[1])
    best = float(_first_good(lay, px, py, np.sin(ang), np.cos(ang), 6.0).min())
    n = 120
    ang = np.arange(n) * (2 * math.pi / n)
    ux, uy = np.sin(ang), np.cos(ang)
    lo, hi = clear_ranges(area, px[:n], py[:n], np.arange(n), ux, uy)
    hi = np.minimum(hi, 3.0)
    ok = hi >= np.maximum(lo, 1e-4)
    fr = np.array([0.25, 0.5, 0.75, 1.0])
    t1 = (hi[ok][:, None] * fr[None, :]).reshape(-1)
    bx = start[0] + np.repeat(ux[ok], len(fr)) * t1
    by = start[1] + np.repeat(uy[ok], len(fr)) * t1
    for deg in range(0, 360, 4):
        a = math.radians(deg)
        vx, vy = np.full(len(bx), math.sin(a)), np.full(len(bx), math.cos(a))
        best = min(best, float((t1 + _first_good(lay, bx, by, vx, vy, 3.0)).min()))
    return best


def _length(path: tuple[tuple[float, float], ...]) -> float:
    return sum(centre_distance_in(a, b) for a, b in itertools.pairwise(path))


def test_shortest_view_move_is_legal_and_near_the_dense_search() -> None:
    rng = random.Random(7)
    gaps = []
    for _ in range(10):
        lay = layout(rng)
        area, start, target, sight, keep, reach = lay
        path = shortest_view_move(start, target, reach, PATTERNS, area, sight, keep)
        dense = dense_shortest(lay)
        if path is None:
            assert not math.isfinite(dense), f"missed a position {dense:.2f} in away"
            continue
        assert check_path_any(path, PATTERNS, area).legal
        assert _exactly_good(lay, path[-1])
        if math.isfinite(dense):
            gaps.append(_length(path) - dense)
    gap = np.array(gaps)
    print(f"gaps (in): {np.round(gap, 3).tolist()}")
    assert len(gap) >= 5
    assert float(np.mean(gap <= 0.05)) >= 0.8
    assert float(gap.max()) <= 0.6


def test_the_sight_map_agrees_with_exact_line_of_sight_away_from_its_edges() -> None:
    rng = random.Random(3)
    lay = layout(rng)
    _, _, target, sight, _, _ = lay
    smap = sight_map(target, sight)
    xs = np.array([rng.uniform(0.5, 23.5) for _ in range(400)])
    ys = np.array([rng.uniform(0.5, 23.5) for _ in range(400)])
    seen = smap.visible(xs, ys)

    def clear(x: float, y: float) -> bool:
        return not any(ob.blocks_segment((x, y), target) for ob in sight)

    wrong = 0
    for x, y, v in zip(xs.tolist(), ys.tolist(), seen.tolist(), strict=True):
        exact = clear(x, y)
        if v and not exact:
            wrong += 1  # the map may never see through a blocker...
        elif exact and not v:
            # ... and is cautious only within a ray's width of a shadow's edge.
            offsets = ((0.1, 0.0), (-0.1, 0.0), (0.0, 0.1), (0.0, -0.1))
            wrong += 0 if any(not clear(x + dx, y + dy) for dx, dy in offsets) else 1
    assert wrong == 0


def test_straight_at_the_target_when_only_range_is_missing() -> None:
    area = MoveArea(Table(), R, ())
    path = shortest_view_move((12.0, 20.0), (12.0, 6.0), 11.0, PATTERNS, area, ())
    assert path == ((12.0, 20.0), (12.0, 17.0))


def test_no_move_when_the_target_is_walled_in() -> None:
    box = [
        Obstacle("north", shapely.box(10, 13, 14, 14)),
        Obstacle("south", shapely.box(10, 6, 14, 7)),
        Obstacle("west", shapely.box(10, 7, 11, 13)),
        Obstacle("east", shapely.box(13, 7, 14, 13)),
    ]
    area = MoveArea(Table(), R, tuple(box))
    assert shortest_view_move((12.0, 20.0), (12.0, 10.0), 13.0, PATTERNS, area, box) is None


def test_the_end_keeps_out_of_base_contact() -> None:
    area = MoveArea(Table(), R, (base_obstacle("target", (12.0, 10.0), R),))
    keep = [((12.0, 10.0), CONTACT)]
    path = shortest_view_move((12.0, 16.0), (12.0, 10.0), 1.0, PATTERNS, area, (), keep)
    assert path is None  # in reach only when touching the target
    path = shortest_view_move((12.0, 16.0), (12.0, 10.0), 1.5, PATTERNS, area, (), keep)
    assert path is not None and centre_distance_in(path[-1], (12.0, 10.0)) > CONTACT

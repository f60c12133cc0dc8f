"""Moving toward something: the generic "move towards X" (RULES.md §1.5) and the straight run
toward a table edge (G-05), in inches.

``best_move_toward`` is on the AI's hot path, so it searches with the numpy ray caster
(``raysearch``) and only checks its best few candidates exactly with ``check_path``; the path
it returns always passes ``check_path``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from engine.geometry.angles import EPS_IN, Point, centre_distance_in, heading_vector
from engine.geometry.movement import MoveArea, check_path, straight_split
from engine.geometry.outline import FloatArray
from engine.geometry.raysearch import MIN_MOVE_IN, Batch, search
from engine.geometry.table import Edge

MAX_CHECKS = 40
"""How many candidate paths at most are checked exactly before giving up (stay put)."""
IMPROVE_IN = 1e-6
"""A move must bring the base at least this much closer (inches) to be worth making."""
_PULL_BACK_IN = 1e-9


def best_move_toward(
    start: Point,
    goal: Point,
    stop_gap_in: float,
    leg_patterns: Sequence[Sequence[float]],
    area: MoveArea,
    full_distance: bool = False,
) -> tuple[Point, ...]:
    """The legal path that brings a base closest to ``goal`` (RULES.md §1.5 "move towards X").

    Among paths of the shapes in ``leg_patterns`` (leg limits in inches, e.g. seed 000:
    ``[[M], [M/2, M/2]]``), picks the one whose end minimises
    ``max(0, distance(end, goal) - stop_gap_in)``; ties go to the shorter path, then to fewer
    legs. The path stops as soon as the gap is reached (to move into base contact pass the
    enemy's centre and ``stop_gap_in = r_mover + r_enemy``). With ``full_distance`` each leg
    runs on to the end of its allowance (or until blocked) instead of stopping where it passes
    closest to the goal, but still stops at the gap. Returns points start, bends..., end; just
    ``(start,)`` when no legal move gets closer. The end is never further from the goal than
    the start.
    """
    start = (float(start[0]), float(start[1]))
    goal = (float(goal[0]), float(goal[1]))
    d_start = centre_distance_in(start, goal)
    if d_start <= stop_gap_in + 1e-9:
        return (start,)
    straight = _straight_if_best(start, goal, d_start, stop_gap_in, leg_patterns, area)
    if straight is not None:
        return straight
    cache: dict[str, tuple[FloatArray, ...]] = {}
    first_reach = max((float(p[0]) for p in leg_patterns if p), default=0.0)
    batches: list[tuple[int, Batch]] = []
    for k, pattern in enumerate(leg_patterns):
        found = search(start, goal, stop_gap_in, pattern, area, full_distance, cache, first_reach)
        batches.extend((k, batch) for batch in found)
    if not batches:
        return (start,)
    scores, lengths, n_points, which, index = [], [], [], [], []
    for b, (_, batch) in enumerate(batches):
        d_end = np.hypot(batch.ex - goal[0], batch.ey - goal[1])
        keep = np.nonzero(d_end <= d_start)[0]
        scores.append(np.round(np.maximum(0.0, d_end[keep] - stop_gap_in), 9))
        lengths.append(batch.length[keep])
        n_points.append(np.full(len(keep), len(batch.frontier[0][0]) + 1))
        which.append(np.full(len(keep), b))
        index.append(keep)
    score = np.concatenate(scores)
    order = np.lexsort((np.concatenate(n_points), np.concatenate(lengths), score))
    which_all, index_all = np.concatenate(which), np.concatenate(index)
    stay_score = round(d_start - stop_gap_in, 9)
    seen: set[tuple[Point, ...]] = set()
    checks = 0
    for o in order.tolist():
        if score[o] > stay_score - IMPROVE_IN or checks >= MAX_CHECKS:
            break
        k, batch = batches[int(which_all[o])]
        pts = batch.path(int(index_all[o]))
        if pts in seen:
            continue
        seen.add(pts)
        checks += 1
        if check_path(pts, leg_patterns[k], area).legal:
            return pts
    return (start,)


def _straight_if_best(
    start: Point,
    goal: Point,
    d_start: float,
    stop_gap_in: float,
    leg_patterns: Sequence[Sequence[float]],
    area: MoveArea,
) -> tuple[Point, ...] | None:
    """The straight path at the goal when it is legal and nothing can beat it, else None.

    No path of total length L ends closer than ``d_start - L``; the straight line of the longest
    allowance (or up to the gap) reaches that bound with the shortest length, so when it is
    legal under some pattern (fewest legs first) it is the answer.
    """
    best_total = max((sum(p) for p in leg_patterns), default=0.0)
    run = min(best_total, d_start - stop_gap_in)
    if run < MIN_MOVE_IN:
        return None
    f = run / d_start
    end = (start[0] + f * (goal[0] - start[0]), start[1] + f * (goal[1] - start[1]))
    for pattern in sorted(leg_patterns, key=len):
        if not pattern or sum(pattern) < run - 1e-12:
            continue
        pts = straight_split(start, end, pattern)
        if check_path(pts, pattern, area).legal:
            return pts
    return None


def _table_room_in(
    start: Point, ux: float, uy: float, r: float, table_w: float, table_d: float
) -> float:
    """How far (inches) a base of radius ``r`` can go from ``start`` along (ux, uy) and stay
    wholly on the table."""
    room = math.inf
    for p, u, size in ((start[0], ux, table_w), (start[1], uy, table_d)):
        if u > 0.0:
            room = min(room, (size - r - p) / u)
        elif u < 0.0:
            room = min(room, (r - p) / u)
    return max(0.0, room)


def _clear_straight(
    start: Point, ux: float, uy: float, t: float, distance_in: float, area: MoveArea
) -> tuple[Point, ...]:
    """The leg ``start`` -> ``start + t (ux, uy)``, backed off a hair until ``check_path``
    agrees (the ray caster is exact up to rounding); ``(start,)`` when too short to announce."""
    if t < MIN_MOVE_IN:
        return (start,)
    end = (start[0] + ux * t, start[1] + uy * t)
    for _ in range(3):
        if check_path((start, end), [distance_in], area).legal:
            return (start, end)
        t = max(0.0, t - 1e-6)
        end = (start[0] + ux * t, start[1] + uy * t)
    return (start,)


def straight_run(
    start: Point, heading_deg: float, distance_in: float, area: MoveArea
) -> tuple[Point, ...]:
    """A straight leg along ``heading_deg`` using up to ``distance_in`` inches of allowance.

    The leg never bends: it stops at the last clear point when an obstacle is in the way, and
    where the base would start to leave the table. Returns ``(start, end)``, or ``(start,)``
    when the base cannot move at all.
    """
    start = (float(start[0]), float(start[1]))
    ux, uy = heading_vector(heading_deg)
    r = area.radius_in
    px, py = np.array([start[0]]), np.array([start[1]])
    uxa, uya = np.array([ux]), np.array([uy])
    free = float(area.blockers.free_lengths(px, py, uxa, uya, r)[0]) - _PULL_BACK_IN
    reach = float(area.ground.reach_in(px, py, uxa, uya, distance_in)[0])
    room = _table_room_in(start, ux, uy, r, area.table.width_in, area.table.depth_in)
    return _clear_straight(start, ux, uy, max(0.0, min(free, reach, room)), distance_in, area)


def toward_edge_path(
    start: Point, edge: Edge, distance_in: float, area: MoveArea
) -> tuple[tuple[Point, ...], bool]:
    """A straight move of up to ``distance_in`` inches of allowance perpendicular to ``edge``.

    G-05: the base runs straight at the edge and stops early, at the last clear point, if
    something is in the way; it never bends round the obstacle. Returns
    ``(path, leaves_table)``: ``leaves_table`` is True when the move would carry any part of the
    base past the edge; the path then ends with the base touching the edge (the caller takes
    the figure off). ``path`` is ``(start,)`` when the base cannot move at all.
    """
    start = (float(start[0]), float(start[1]))
    r = area.radius_in
    ux, uy = heading_vector(area.table.edge_heading_deg(edge))
    room = max(0.0, area.table.edge_distance_in(start, edge) - r)
    px, py = np.array([start[0]]), np.array([start[1]])
    uxa, uya = np.array([ux]), np.array([uy])
    free = float(area.blockers.free_lengths(px, py, uxa, uya, r)[0]) - _PULL_BACK_IN
    reach = float(area.ground.reach_in(px, py, uxa, uya, distance_in)[0])
    leaves = reach > room + EPS_IN and free >= room - EPS_IN
    if leaves:
        if room < MIN_MOVE_IN:
            return ((start,), True)
        return ((start, (start[0] + ux * room, start[1] + uy * room)), True)
    path = _clear_straight(start, ux, uy, max(0.0, min(reach, free, room)), distance_in, area)
    return (path, False)

"""Moving toward something: the generic "move towards X" (RULES.md §1.5) and the straight run
toward a table edge (G-05), in inches.

``best_move_toward`` is on the AI's hot path, so it searches with the numpy ray caster of
``collide`` (a fan of directions per leg, a beam of bend points) and only checks its best few
candidates exactly with ``check_path``; the path it returns always passes ``check_path``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from engine.geometry.angles import EPS_IN, Point, centre_distance_in, heading_vector
from engine.geometry.collide import FloatArray
from engine.geometry.movement import MoveArea, check_path
from engine.geometry.table import Edge

FIRST_FAN = 32
"""Directions tried for the first leg (every 11.25 degrees), besides straight at the goal."""
LATER_FAN = 16
"""Directions tried for a later leg from each of the best few bend points."""
FAN_NODES = 6
"""How many of the best bend points get a full fan for their next leg."""
BEAM = 48
"""How many bend points are carried from one leg to the next."""
MAX_CHECKS = 40
"""How many candidate paths at most are checked exactly before giving up (stay put)."""
MIN_MOVE_IN = 1e-4
"""Legs shorter than this (inches) are not worth announcing: the base stays put instead."""
IMPROVE_IN = 1e-6
"""A move must bring the base at least this much closer (inches) to be worth making."""
_PULL_BACK_IN = 1e-9

_Node = tuple[tuple[Point, ...], float]


def _fan(n: int) -> tuple[FloatArray, FloatArray]:
    ang = np.arange(n, dtype=np.float64) * (2.0 * math.pi / n)
    return np.sin(ang), np.cos(ang)


def _clear_ranges(
    area: MoveArea, px: FloatArray, py: FloatArray, ux: FloatArray, uy: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """(lo, hi): the distances along each ray where a leg may end with the base clear of
    obstacles and on the table (the allowance not counted); empty when lo > hi."""
    r = area.radius_in
    w, d = area.table.width_in, area.table.depth_in
    lo = np.zeros(len(px))
    hi = area.blockers.free_lengths(px, py, ux, uy, r) - _PULL_BACK_IN
    with np.errstate(divide="ignore", invalid="ignore"):
        for p, u, size in ((px, ux, w), (py, uy, d)):
            t_a = (r - p) / u
            t_b = (size - r - p) / u
            inside = (p >= r - EPS_IN) & (p <= size - r + EPS_IN)
            enter = np.where(u != 0.0, np.minimum(t_a, t_b), np.where(inside, -np.inf, np.inf))
            leave = np.where(u != 0.0, np.maximum(t_a, t_b), np.where(inside, np.inf, -np.inf))
            lo = np.maximum(lo, enter)
            hi = np.minimum(hi, leave)
    return lo, hi


def _goal_stops(
    px: FloatArray,
    py: FloatArray,
    ux: FloatArray,
    uy: FloatArray,
    lo: FloatArray,
    hi: FloatArray,
    goal: Point,
    stop_gap_in: float,
    full_distance: bool,
) -> FloatArray:
    """Where along each ray to stop: on reaching the stop gap, else at the closest approach to
    the goal (or, with ``full_distance``, at the end of the allowance)."""
    wx, wy = goal[0] - px, goal[1] - py
    proj = wx * ux + wy * uy
    perp2 = np.maximum(0.0, wx * wx + wy * wy - proj * proj)
    gap2 = stop_gap_in * stop_gap_in
    reaches = perp2 <= gap2 + 1e-12
    t_in = proj - np.sqrt(np.maximum(0.0, gap2 - perp2))
    t_out = proj + np.sqrt(np.maximum(0.0, gap2 - perp2))
    # The ray meets the stop circle inside [lo, hi]: stop at the first point inside it.
    meets = reaches & (t_out >= lo) & (t_in <= hi)
    t_meet = np.clip(t_in, lo, hi)
    fallback = hi if full_distance else np.clip(proj, lo, hi)
    return np.where(meets, t_meet, fallback)


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
    found: list[tuple[float, float, int, tuple[Point, ...], int]] = []
    cache: dict[str, tuple[FloatArray, FloatArray]] = {}
    for k, pattern in enumerate(leg_patterns):
        for pts, length in _search(start, goal, stop_gap_in, pattern, area, full_distance, cache):
            end = pts[-1]
            d_end = centre_distance_in(end, goal)
            if d_end > d_start:
                continue
            score = round(max(0.0, d_end - stop_gap_in), 9)
            found.append((score, length, len(pts), pts, k))
    found.sort(key=lambda c: (c[0], c[1], c[2]))
    stay_score = round(d_start - stop_gap_in, 9)
    seen: set[tuple[Point, ...]] = set()
    checks = 0
    for score, _, _, pts, k in found:
        if score > stay_score - IMPROVE_IN or checks >= MAX_CHECKS:
            break
        if pts in seen:
            continue
        seen.add(pts)
        checks += 1
        if check_path(pts, leg_patterns[k], area).legal:
            return pts
    return (start,)


def _search(
    start: Point,
    goal: Point,
    stop_gap_in: float,
    pattern: Sequence[float],
    area: MoveArea,
    full_distance: bool,
    first_leg_cache: dict[str, tuple[FloatArray, FloatArray]],
) -> list[_Node]:
    """Beam search over the legs of one pattern; every node reached is a candidate path.

    The first leg's rays are the same for every pattern: their clear ranges are kept in
    ``first_leg_cache``.
    """
    frontier: list[_Node] = [((start,), 0.0)]
    results: list[_Node] = []
    for leg, limit in enumerate(pattern):
        if not frontier or limit <= 0.0:
            break
        last = leg == len(pattern) - 1
        fan_n = FIRST_FAN if leg == 0 else LATER_FAN
        origins: list[int] = []
        dirs: list[tuple[float, float]] = []
        fx, fy = _fan(fan_n)
        for i, (pts, _) in enumerate(frontier):
            p = pts[-1]
            d = centre_distance_in(p, goal)
            if d > 0.0:
                origins.append(i)
                dirs.append(((goal[0] - p[0]) / d, (goal[1] - p[1]) / d))
            if i < FAN_NODES or leg == 0:
                origins.extend([i] * fan_n)
                dirs.extend(zip(fx.tolist(), fy.tolist(), strict=True))
        if not origins:
            break
        px = np.array([frontier[i][0][-1][0] for i in origins])
        py = np.array([frontier[i][0][-1][1] for i in origins])
        ux = np.array([u[0] for u in dirs])
        uy = np.array([u[1] for u in dirs])
        if leg == 0 and "first" in first_leg_cache:
            lo, hi = first_leg_cache["first"]
        else:
            lo, hi = _clear_ranges(area, px, py, ux, uy)
            if leg == 0:
                first_leg_cache["first"] = (lo, hi)
        hi = np.minimum(hi, area.ground.reach_in(px, py, ux, uy, float(limit)))
        t_goal = _goal_stops(px, py, ux, uy, lo, hi, goal, stop_gap_in, full_distance)
        valid = (hi >= lo) & (hi >= MIN_MOVE_IN)
        new_nodes: list[_Node] = []
        uxl, uyl, hil, tgl = ux.tolist(), uy.tolist(), hi.tolist(), t_goal.tolist()
        for j in np.nonzero(valid)[0].tolist():
            pts, length = frontier[origins[j]]
            p = pts[-1]
            stops = {tgl[j]} if last else {tgl[j], hil[j]}
            for t in stops:
                if t < MIN_MOVE_IN:
                    continue
                end = (p[0] + uxl[j] * t, p[1] + uyl[j] * t)
                new_nodes.append(((*pts, end), length + t))
        results.extend(new_nodes)
        if last:
            break
        # Carry on only from bends that have not yet reached the stop gap, best first.
        open_nodes = [n for n in new_nodes if centre_distance_in(n[0][-1], goal) > stop_gap_in]
        open_nodes.sort(key=lambda n: centre_distance_in(n[0][-1], goal))
        frontier = open_nodes[:BEAM]
    return results


def toward_edge_path(
    start: Point, edge: Edge, distance_in: float, area: MoveArea
) -> tuple[tuple[Point, ...], bool]:
    """A straight move of up to ``distance_in`` inches of allowance perpendicular to ``edge``.

    G-05: the base runs straight at the edge and stops early, at the last clear point, if
    something is in the way. Returns ``(path, leaves_table)``: ``leaves_table`` is True when the
    move would carry any part of the base past the edge; the path then ends with the base
    touching the edge (the caller takes the figure off). ``path`` is ``(start,)`` when the base
    cannot move at all.
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
    t = room if leaves else max(0.0, min(reach, free, room))
    if t < MIN_MOVE_IN:
        return ((start,), leaves)
    end = (start[0] + ux * t, start[1] + uy * t)
    if not leaves:
        # The ray caster is exact up to rounding; make sure, and back off a hair if needed.
        for _ in range(3):
            if check_path((start, end), [distance_in], area).legal:
                break
            t = max(0.0, t - 1e-6)
            end = (start[0] + ux * t, start[1] + uy * t)
        else:
            return ((start,), False)
    return ((start, end), leaves)

"""The search behind ``best_move_toward``: rays from a point, a beam over the legs, inches.

For each leg, rays leave every bend point of the beam: straight at the goal, and from the best
few points also a fan of directions and the directions that just graze each nearby obstacle
(where the free length of a ray jumps, so where the best ray often lies). Along each ray the leg
may stop at its closest approach to the goal (or at the stop gap), at the end of its clear
range, or, for a bend, where it passes the obstacle it grazes. The best few final legs are then
refined by turning them a little either way. All of it runs on the numpy ray caster of
``collide``; the caller checks the winners exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.geometry.angles import EPS_IN, Point
from engine.geometry.movement import MoveArea
from engine.geometry.outline import FloatArray

IntArray = npt.NDArray[np.intp]

FIRST_FAN = 48
"""Directions tried for the first leg (every 7.5 degrees), besides the goal and tangents."""
LATER_FAN = 16
"""Directions tried for a later leg from each of the best few bend points."""
FAN_NODES = 6
"""How many of the best bend points get a fan and tangents for their next leg."""
BEAM = 48
"""How many bend points are carried from one leg to the next..."""
BEAM_SPACING_IN = 0.2
"""... nearest to the goal first, at least this far apart (inches)."""
FAN_SPACING = 1.0 / 3.0
"""The bend points that get fans and tangents are at least this fraction of the leg apart."""
BEND_FRACTIONS = (1.0, 0.5)
"""Besides its closest approach and where it grazes, a first leg may bend at these fractions
of its clear range."""
REFINE = 6
"""How many of the best final legs are refined by turning them."""
REFINE_COARSE_DEG = (4.0, 2.0, 1.0, 0.5, 0.25, 0.12)
REFINE_FINE_DEG = (0.06, 0.03, 0.015)
"""The turns tried, either way, when refining a final leg (two rounds)."""
BEND_REFINE = 2
"""How many of the best paths get their last bend moved."""
BEND_STEPS = ((3.0, 0.25), (1.0, 0.08))
"""The moves tried for a bend: turn the leg before it (degrees), change its length (inches)."""
MIN_MOVE_IN = 1e-4
"""Legs shorter than this (inches) are not worth announcing: the base stays put instead."""
_PULL_BACK_IN = 1e-9

Node = tuple[tuple[Point, ...], float]
"""A partial path (start, bends..., end) and its length in inches."""


@dataclass(frozen=True)
class Batch:
    """Candidate paths that each add one leg to a node of ``frontier`` (arrays, inches)."""

    frontier: list[Node]
    parent: IntArray
    """Per candidate: index of the node it extends."""
    ex: FloatArray
    ey: FloatArray
    """Per candidate: end point."""
    length: FloatArray
    """Per candidate: total path length."""

    def path(self, i: int) -> tuple[Point, ...]:
        """Candidate ``i`` as points start, bends..., end."""
        pts, _ = self.frontier[int(self.parent[i])]
        return (*pts, (float(self.ex[i]), float(self.ey[i])))


def clear_ranges(
    area: MoveArea,
    ox: FloatArray,
    oy: FloatArray,
    inv: IntArray,
    ux: FloatArray,
    uy: FloatArray,
) -> tuple[FloatArray, FloatArray]:
    """(lo, hi): the distances along each ray (from origin ``inv[i]`` of ``ox``/``oy``) where a
    leg may end with the base clear of obstacles and on the table (the allowance not counted);
    empty when lo > hi."""
    r = area.radius_in
    w, d = area.table.width_in, area.table.depth_in
    px, py = ox[inv], oy[inv]
    lo = np.zeros(len(ux))
    hi = area.blockers.free_lengths_from(ox, oy, inv, ux, uy, r) - _PULL_BACK_IN
    with np.errstate(all="ignore"):
        for p, u, size in ((px, ux, w), (py, uy, d)):
            t_a = (r - p) / u
            t_b = (size - r - p) / u
            inside = (p >= r - EPS_IN) & (p <= size - r + EPS_IN)
            enter = np.where(u != 0.0, np.minimum(t_a, t_b), np.where(inside, -np.inf, np.inf))
            leave = np.where(u != 0.0, np.maximum(t_a, t_b), np.where(inside, np.inf, -np.inf))
            lo = np.maximum(lo, enter)
            hi = np.minimum(hi, leave)
    return lo, hi


def goal_stops(
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
    the goal (or, with ``full_distance``, at the end of the range)."""
    wx, wy = goal[0] - px, goal[1] - py
    proj = wx * ux + wy * uy
    perp2 = np.maximum(0.0, wx * wx + wy * wy - proj * proj)
    gap2 = stop_gap_in * stop_gap_in
    reaches = perp2 <= gap2 + 1e-12
    t_in = proj - np.sqrt(np.maximum(0.0, gap2 - perp2))
    t_out = proj + np.sqrt(np.maximum(0.0, gap2 - perp2))
    meets = reaches & (t_out >= lo) & (t_in <= hi)
    t_meet = np.clip(t_in, lo, hi)
    fallback = hi if full_distance else np.clip(proj, lo, hi)
    return np.asarray(np.where(meets, t_meet, fallback), dtype=np.float64)


def graze_rays(
    p: Point, area: MoveArea, reach_in: float
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """(ux, uy, graze): rays from ``p`` that just graze each obstacle feature (a base, a corner)
    within ``reach_in`` inches, and how far along each the grazing happens."""
    data = area.blockers.rays
    r = area.radius_in
    fx = np.concatenate([data.cx, data.vx])
    fy = np.concatenate([data.cy, data.vy])
    fr = np.concatenate([data.cr + r, np.full(len(data.vx), r)])
    dx, dy = fx - p[0], fy - p[1]
    d = np.hypot(dx, dy)
    near = (d > fr + 1e-9) & (d <= reach_in + fr)
    dx, dy, d, fr = dx[near], dy[near], d[near], fr[near]
    base = np.arctan2(dx, dy)
    half = np.arcsin(fr / d) + 2e-6 / d
    graze = np.sqrt(d * d - fr * fr)
    ang = np.concatenate([base + half, base - half])
    return np.sin(ang), np.cos(ang), np.concatenate([graze, graze])


def search(
    start: Point,
    goal: Point,
    stop_gap_in: float,
    pattern: Sequence[float],
    area: MoveArea,
    full_distance: bool,
    first_leg_cache: dict[str, tuple[FloatArray, ...]],
    first_reach_in: float,
) -> list[Batch]:
    """Beam search over the legs of one pattern of leg limits; every node reached is returned
    as a candidate path. The first leg's rays are the same for every pattern (tangents up to
    ``first_reach_in``, the longest first leg of all patterns): they are kept in
    ``first_leg_cache``."""
    frontier: list[Node] = [((start,), 0.0)]
    batches: list[Batch] = []
    gx, gy = goal
    fan_x = {n: np.sin(np.arange(n) * (2 * math.pi / n)) for n in (FIRST_FAN, LATER_FAN)}
    fan_y = {n: np.cos(np.arange(n) * (2 * math.pi / n)) for n in (FIRST_FAN, LATER_FAN)}
    for leg, limit in enumerate(pattern):
        if not frontier or limit <= 0.0:
            break
        last = leg == len(pattern) - 1
        ox = np.array([pts[-1][0] for pts, _ in frontier])
        oy = np.array([pts[-1][1] for pts, _ in frontier])
        if leg == 0 and "first" in first_leg_cache:
            node, ux, uy, graze, lo, hi = first_leg_cache["first"]
        elif leg == 0:
            node, ux, uy, graze = _leg_rays(
                frontier,
                ox,
                oy,
                goal,
                area,
                [0],
                first_reach_in,
                fan_x[FIRST_FAN],
                fan_y[FIRST_FAN],
                aim=True,
            )
            lo, hi = clear_ranges(area, ox, oy, node.astype(np.intp), ux, uy)
            first_leg_cache["first"] = (node, ux, uy, graze, lo, hi)
        else:
            node, ux, uy, graze, lo, hi = _later_leg_rays(
                frontier, ox, oy, goal, area, float(limit), sum(pattern[leg:]), fan_x, fan_y
            )
        inv = node.astype(np.intp)
        px, py = ox[inv], oy[inv]
        hi = np.minimum(hi, area.ground.reach_in(px, py, ux, uy, float(limit)))
        t_goal = goal_stops(px, py, ux, uy, lo, hi, goal, stop_gap_in, full_distance)
        valid = (hi >= lo) & (hi >= MIN_MOVE_IN)
        js = [np.nonzero(valid)[0]]
        ts = [t_goal[valid]]
        if not last:
            for frac in BEND_FRACTIONS:
                js.append(js[0])
                ts.append(lo[valid] + frac * (hi[valid] - lo[valid]))
            grazing = valid & (graze >= lo) & (graze <= hi)
            js.append(np.nonzero(grazing)[0])
            ts.append(graze[grazing])
        j = np.concatenate(js)
        t = np.concatenate(ts)
        keep = t >= MIN_MOVE_IN
        j, t = j[keep], t[keep]
        lengths = np.array([length for _, length in frontier])
        parent = inv[j]
        ex, ey = px[j] + ux[j] * t, py[j] + uy[j] * t
        batch = Batch(frontier, parent, ex, ey, lengths[parent] + t)
        batches.append(batch)
        dist = np.hypot(ex - gx, ey - gy)
        if last:
            refined = _refine(
                batch, dist, ux[j], uy[j], goal, stop_gap_in, float(limit), area, full_distance
            )
            if refined is not None:
                batches.append(refined)
            if leg >= 1:
                final = [batch] if refined is None else [batch, refined]
                limits = (float(pattern[leg - 1]), float(limit))
                bent = _refine_bends(final, limits, goal, stop_gap_in, area, full_distance)
                if bent is not None:
                    batches.append(bent)
            break
        # Carry on only from bends that have not yet reached the stop gap: the nearest to the
        # goal, at most one per small square so that they do not all crowd one spot.
        open_idx = np.nonzero(dist > stop_gap_in)[0]
        order = open_idx[np.argsort(dist[open_idx], kind="stable")]
        chosen = _apart(order, ex, ey, BEAM_SPACING_IN, BEAM)
        frontier = [(batch.path(i), float(batch.length[i])) for i in chosen]
    return batches


def _apart(order: IntArray, x: FloatArray, y: FloatArray, spacing: float, k: int) -> list[int]:
    """Up to ``k`` indices taken in ``order``, at most one per square of side ``spacing``
    inches (so that the picks spread out instead of crowding one spot; quick, for many)."""
    if len(order) == 0:
        return []
    cell = max(spacing, 1e-9)
    gx = np.floor(x[order] / cell).astype(np.int64)
    gy = np.floor(y[order] / cell).astype(np.int64)
    _, first = np.unique(gx * 1_000_003 + gy, return_index=True)
    return [int(i) for i in order[np.sort(first)[:k]]]


def _apart_exact(
    order: IntArray, x: FloatArray, y: FloatArray, spacing: float, k: int
) -> list[int]:
    """Up to ``k`` indices taken in ``order``, skipping any within ``spacing`` inches of one
    already taken (exact, for a few)."""
    cell = max(spacing, 1e-9)
    grid: dict[tuple[int, int], list[tuple[float, float]]] = {}
    picked: list[int] = []
    lim2 = spacing * spacing
    for i in order.tolist():
        px, py = float(x[i]), float(y[i])
        cx, cy = int(px // cell), int(py // cell)
        crowded = any(
            (qx - px) ** 2 + (qy - py) ** 2 < lim2
            for gx in (cx - 1, cx, cx + 1)
            for gy in (cy - 1, cy, cy + 1)
            for qx, qy in grid.get((gx, gy), ())
        )
        if crowded:
            continue
        grid.setdefault((cx, cy), []).append((px, py))
        picked.append(i)
        if len(picked) >= k:
            break
    return picked


def _leg_rays(
    frontier: list[Node],
    ox: FloatArray,
    oy: FloatArray,
    goal: Point,
    area: MoveArea,
    fan_nodes: Sequence[int],
    reach_in: float,
    fan_x: FloatArray,
    fan_y: FloatArray,
    aim: bool,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """(node, ux, uy, graze) for rays of one leg: with ``aim``, straight at the goal from every
    node; a fan and the grazing tangents from each of ``fan_nodes`` (node indices as floats)."""
    nodes: list[FloatArray] = []
    uxs: list[FloatArray] = []
    uys: list[FloatArray] = []
    grazes: list[FloatArray] = []
    if aim:
        dx, dy = goal[0] - ox, goal[1] - oy
        d = np.hypot(dx, dy)
        ok = d > 0.0
        nodes.append(np.nonzero(ok)[0].astype(np.float64))
        uxs.append(dx[ok] / d[ok])
        uys.append(dy[ok] / d[ok])
        grazes.append(np.full(int(ok.sum()), np.nan))
    for i in fan_nodes:
        nodes.append(np.full(len(fan_x), float(i)))
        uxs.append(fan_x)
        uys.append(fan_y)
        grazes.append(np.full(len(fan_x), np.nan))
        tx, ty, tg = graze_rays(frontier[i][0][-1], area, reach_in)
        nodes.append(np.full(len(tx), float(i)))
        uxs.append(tx)
        uys.append(ty)
        grazes.append(tg)
    if not nodes:
        empty = np.zeros(0)
        return empty, empty, empty, empty
    return np.concatenate(nodes), np.concatenate(uxs), np.concatenate(uys), np.concatenate(grazes)


def _later_leg_rays(
    frontier: list[Node],
    ox: FloatArray,
    oy: FloatArray,
    goal: Point,
    area: MoveArea,
    limit: float,
    remaining: float,
    fan_x: dict[int, FloatArray],
    fan_y: dict[int, FloatArray],
) -> tuple[FloatArray, ...]:
    """Rays for a leg after a bend, in two passes: straight at the goal from every node; then
    fans and tangents from the nodes that could still do better than the best so far (branch
    and bound: a node can at best end ``remaining`` inches closer to the goal)."""
    node_a, ux_a, uy_a, graze_a = _leg_rays(
        frontier, ox, oy, goal, area, [], limit, fan_x[LATER_FAN], fan_y[LATER_FAN], aim=True
    )
    inv_a = node_a.astype(np.intp)
    lo_a, hi_a = clear_ranges(area, ox, oy, inv_a, ux_a, uy_a)
    hi_lim = np.minimum(hi_a, limit)
    px, py = ox[inv_a], oy[inv_a]
    t = np.clip(goal_stops(px, py, ux_a, uy_a, lo_a, hi_lim, goal, 0.0, False), 0.0, None)
    ok = hi_lim >= lo_a
    achieved = np.hypot(goal[0] - ox, goal[1] - oy)
    reached = np.where(ok, np.hypot(px + ux_a * t - goal[0], py + uy_a * t - goal[1]), np.inf)
    np.minimum.at(achieved, inv_a, reached)
    bound = np.maximum(0.0, np.hypot(goal[0] - ox, goal[1] - oy) - remaining)
    best = float(achieved.min()) if len(achieved) else math.inf
    open_nodes = np.nonzero((bound < best - 1e-6) & (achieved > bound + 1e-6))[0]
    order = open_nodes[np.argsort(bound[open_nodes], kind="stable")]
    chosen = _apart_exact(order, ox, oy, limit * FAN_SPACING, FAN_NODES)
    node_b, ux_b, uy_b, graze_b = _leg_rays(
        frontier, ox, oy, goal, area, chosen, limit, fan_x[LATER_FAN], fan_y[LATER_FAN], aim=False
    )
    lo_b, hi_b = clear_ranges(area, ox, oy, node_b.astype(np.intp), ux_b, uy_b)
    return (
        np.concatenate([node_a, node_b]),
        np.concatenate([ux_a, ux_b]),
        np.concatenate([uy_a, uy_b]),
        np.concatenate([graze_a, graze_b]),
        np.concatenate([lo_a, lo_b]),
        np.concatenate([hi_a, hi_b]),
    )


def _refine(
    batch: Batch,
    dist: FloatArray,
    ux: FloatArray,
    uy: FloatArray,
    goal: Point,
    stop_gap_in: float,
    limit_in: float,
    area: MoveArea,
    full_distance: bool,
) -> Batch | None:
    """Turn the best few final legs a little either way (two rounds) and keep what is closer."""
    if len(dist) == 0 or float(dist.min()) <= stop_gap_in + 1e-9:
        return None  # nothing to refine, or the gap is already reached
    order = np.argsort(dist, kind="stable")[: REFINE * 4]
    picked: list[int] = []
    for i in order.tolist():
        if all(
            batch.parent[i] != batch.parent[k] or abs(ux[i] - ux[k]) + abs(uy[i] - uy[k]) > 1e-9
            for k in picked
        ):
            picked.append(i)
        if len(picked) >= REFINE:
            break
    sel = np.array(picked, dtype=np.intp)
    parent = batch.parent[sel]
    ang = np.arctan2(ux[sel], uy[sel])
    best = dist[sel].copy()
    frontier_x = np.array([pts[-1][0] for pts, _ in batch.frontier])
    frontier_y = np.array([pts[-1][1] for pts, _ in batch.frontier])
    lengths = np.array([length for _, length in batch.frontier])
    out_p: list[IntArray] = []
    out_x: list[FloatArray] = []
    out_y: list[FloatArray] = []
    out_len: list[FloatArray] = []
    for steps in (REFINE_COARSE_DEG, REFINE_FINE_DEG):
        offs = np.radians(np.array([s * k for s in steps for k in (1.0, -1.0)]))
        angs = (ang[:, None] + offs[None, :]).reshape(-1)
        par = np.repeat(parent, len(offs))
        rx, ry = np.sin(angs), np.cos(angs)
        lo, hi = clear_ranges(area, frontier_x, frontier_y, par, rx, ry)
        px, py = frontier_x[par], frontier_y[par]
        hi = np.minimum(hi, area.ground.reach_in(px, py, rx, ry, limit_in))
        t = goal_stops(px, py, rx, ry, lo, hi, goal, stop_gap_in, full_distance)
        ok = (hi >= lo) & (t >= MIN_MOVE_IN)
        ex, ey = px + rx * t, py + ry * t
        d = np.where(ok, np.hypot(ex - goal[0], ey - goal[1]), np.inf).reshape(len(sel), -1)
        k_best = d.argmin(axis=1)
        d_best = d[np.arange(len(sel)), k_best]
        better = d_best < best
        flat = np.arange(len(sel)) * len(offs) + k_best
        ang = np.where(better, angs[flat], ang)
        best = np.where(better, d_best, best)
        good = ok.copy()
        out_p.append(par[good])
        out_x.append(ex[good])
        out_y.append(ey[good])
        out_len.append(lengths[par[good]] + t[good])
    return Batch(
        batch.frontier,
        np.concatenate(out_p),
        np.concatenate(out_x),
        np.concatenate(out_y),
        np.concatenate(out_len),
    )


def _refine_bends(
    batches: list[Batch],
    limits: tuple[float, float],
    goal: Point,
    stop_gap_in: float,
    area: MoveArea,
    full_distance: bool,
) -> Batch | None:
    """Move the last bend of the best few paths a little (turn and lengthen or shorten the leg
    before it, then aim the final leg again) while that brings their ends closer to the goal.

    ``batches`` hold the candidates for the final leg; ``limits`` are the limits of the leg
    into the bend and of the final leg.
    """
    cands: list[tuple[float, int, int]] = []
    for b, batch in enumerate(batches):
        dist = np.hypot(batch.ex - goal[0], batch.ey - goal[1])
        for i in np.argsort(dist, kind="stable")[: BEND_REFINE * 4].tolist():
            cands.append((float(dist[i]), b, i))
    cands.sort()
    if not cands or cands[0][0] <= stop_gap_in + 1e-9:
        return None
    picked: list[tuple[float, int, int]] = []
    seen: set[tuple[Point, ...]] = set()
    for d, b, i in cands:
        node = batches[b].frontier[int(batches[b].parent[i])]
        if node[0] in seen or len(node[0]) < 2:
            continue
        seen.add(node[0])
        picked.append((d, b, i))
        if len(picked) >= BEND_REFINE:
            break
    if not picked:
        return None
    n = len(picked)
    nodes = [batches[b].frontier[int(batches[b].parent[i])] for _, b, i in picked]
    p_x = np.array([pts[-2][0] for pts, _ in nodes])
    p_y = np.array([pts[-2][1] for pts, _ in nodes])
    b_x = np.array([pts[-1][0] for pts, _ in nodes])
    b_y = np.array([pts[-1][1] for pts, _ in nodes])
    a1 = np.arctan2(b_x - p_x, b_y - p_y)
    t1 = np.hypot(b_x - p_x, b_y - p_y)
    e_x = np.array([batches[b].ex[i] for _, b, i in picked])
    e_y = np.array([batches[b].ey[i] for _, b, i in picked])
    a2 = np.arctan2(e_x - b_x, e_y - b_y)
    best = np.array([d for d, _, _ in picked])
    grid = [(i, j) for i in (-1.0, 0.0, 1.0) for j in (-1.0, 0.0, 1.0) if (i, j) != (0.0, 0.0)]
    gi = np.array([g[0] for g in grid])
    gj = np.array([g[1] for g in grid])
    for step_deg, step_in in BEND_STEPS:
        da = math.radians(step_deg)
        a1v = (a1[:, None] + gi[None, :] * da).reshape(-1)
        t1v = np.maximum(MIN_MOVE_IN, (t1[:, None] + gj[None, :] * step_in).reshape(-1))
        owner = np.repeat(np.arange(n), len(grid))
        vx, vy = np.sin(a1v), np.cos(a1v)
        lo, hi = clear_ranges(area, p_x, p_y, owner, vx, vy)
        hi = np.minimum(hi, area.ground.reach_in(p_x[owner], p_y[owner], vx, vy, limits[0]))
        ok1 = (t1v >= lo) & (t1v <= hi)
        if not ok1.any():
            continue
        keep = np.nonzero(ok1)[0]
        bx2 = p_x[owner[keep]] + vx[keep] * t1v[keep]
        by2 = p_y[owner[keep]] + vy[keep] * t1v[keep]
        # Final legs from each moved bend: at the goal, as before, and turned either way.
        gx, gy = goal[0] - bx2, goal[1] - by2
        aims = [np.arctan2(gx, gy), a2[owner[keep]], a2[owner[keep]] + da, a2[owner[keep]] - da]
        m = len(keep)
        a2v = np.concatenate(aims)
        src = np.tile(np.arange(m), len(aims))
        wx, wy = np.sin(a2v), np.cos(a2v)
        lo2, hi2 = clear_ranges(area, bx2, by2, src, wx, wy)
        hi2 = np.minimum(hi2, area.ground.reach_in(bx2[src], by2[src], wx, wy, limits[1]))
        t2 = goal_stops(bx2[src], by2[src], wx, wy, lo2, hi2, goal, stop_gap_in, full_distance)
        ok2 = (hi2 >= lo2) & (t2 >= MIN_MOVE_IN)
        ex2, ey2 = bx2[src] + wx * t2, by2[src] + wy * t2
        d2 = np.where(ok2, np.hypot(ex2 - goal[0], ey2 - goal[1]), np.inf)
        for k in np.argsort(d2, kind="stable").tolist():
            c = int(owner[keep[src[k]]])
            if d2[k] < best[c] - 1e-12:
                v = keep[src[k]]
                best[c] = d2[k]
                a1[c], t1[c], a2[c] = a1v[v], t1v[v], a2v[k]
                b_x[c], b_y[c] = bx2[src[k]], by2[src[k]]
                e_x[c], e_y[c] = ex2[k], ey2[k]
    frontier: list[Node] = []
    for c, (pts, length) in enumerate(nodes):
        moved = (float(b_x[c]), float(b_y[c]))
        old_leg = math.dist(pts[-2], pts[-1])
        frontier.append(((*pts[:-1], moved), length - old_leg + float(t1[c])))
    final_len = np.array([ln for _, ln in frontier]) + np.hypot(e_x - b_x, e_y - b_y)
    return Batch(frontier, np.arange(n, dtype=np.intp), e_x, e_y, final_len)

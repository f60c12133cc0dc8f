"""The strike system's board (RULES §3.1.f-g, G-01, G-03, D001A-04) on the open-table kit
(:mod:`engine.boards.open`): who sees whom and how (clear, obscured, in cover), threat ranges,
the strike count, and legal movement legs.

The kit tests a sight line against every base at once (a 100-a-side battle has 200 bases).
Poses are ``(unit id, x, y, radius)`` in inches, so the AI can ask about a spot a soldier is
not on yet.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import LineString

from engine.boards.open import OpenPolicy, open_board
from engine.geometry import (
    EPS_IN,
    Point,
    centre_distance_in,
    tangent_lines,
)
from engine.model import GameState, Unit
from engine.rulesets.strike.count import (
    CLEAR,
    COVER,
    OBSCURED,
    Counted,
    Segment,
    Sighting,
    StrikeCount,
    apply_disregard,
)
from engine.rulesets.strike.state import RANGE_TOL_IN, card_of

Pose = tuple[str, float, float, float]
"""(unit id, x, y, base radius), inches."""

COVER_NEAR_IN = 0.5
"""A target is in cover from terrain its base touches or comes within this of (D001A-04b)."""


def pose_of(unit: Unit) -> Pose:
    """The unit's pose."""
    return (unit.id, unit.x, unit.y, unit.radius_in)


POLICY = OpenPolicy(figures_block="all", cover_near_in=COVER_NEAR_IN)
"""The kit's policy here: terrain and every intervening model block a line (D001A-04a); cover
is a crossed piece within 0.5 in of the target's base (D001A-04b)."""


class StrikeBoard:
    """Sight, ranges and strike counts on one state's table (the open-table kit's board
    under :data:`POLICY`, its numpy fast path testing a line against every base at once)."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.kit = open_board(state, POLICY)
        self.units = list(self.kit.units)

    # ---------------------------------------------------------------- sight
    def sighting(self, viewer: Pose, target: Pose, detail: bool = False) -> Sighting:
        """How ``viewer`` sees ``target`` (D001A-04): visible when a line is clear; in cover
        when the centre line crosses cover terrain that the target's base is within 0.5 in
        of; else obscured when any line is blocked; cover wins. With ``detail`` the blockers
        are named."""
        vid, vx, vy, vr = viewer
        tid, tx, ty, tr = target
        a, b = (vx, vy), (tx, ty)
        left, right = tangent_lines(a, vr, b, tr)
        lines: tuple[Segment, Segment, Segment] = ((a, b), left, right)
        hit = self.kit.lines_blocked(self.state.unit(vid), lines, (vid, tid))
        clear = [not bool(hit[k].any()) for k in range(3)]
        names: list[str] = []
        xs, ys = [p[0] for ln in lines for p in ln], [p[1] for ln in lines for p in ln]
        lo_x, hi_x, lo_y, hi_y = min(xs), max(xs), min(ys), max(ys)
        for ob in self.kit.terrain.sight:
            x0, y0, x1, y1 = ob.bounds
            if x1 < lo_x or x0 > hi_x or y1 < lo_y or y0 > hi_y:
                continue  # no line comes near the piece
            for k in range(3):
                if ob.blocks_segment(*lines[k]):
                    clear[k] = False
                    if ob.name not in names:
                        names.append(ob.name)
        if detail:
            for i in np.nonzero(hit.any(axis=0))[0]:
                names.append(self.units[int(i)].name)
        flags = (clear[0], clear[1], clear[2])
        if not any(flags):
            return Sighting(vid, tid, lines, flags, None, tuple(names))
        # The viewer's own place does not matter: a target keeps the cover of the piece it
        # stands in when the viewer stands in that same piece (a wood both are in).
        cover_by = self.kit.cover(a, b, tr)[1]
        cls = COVER if cover_by else CLEAR if all(flags) else OBSCURED
        return Sighting(vid, tid, lines, flags, cls, tuple(names), cover_by)

    # ---------------------------------------------------------------- ranges
    @staticmethod
    def gap_in(a: Pose, b: Pose) -> float:
        """Edge-to-edge distance, inches (G-01)."""
        return max(0.0, math.hypot(a[1] - b[1], a[2] - b[2]) - a[3] - b[3])

    def in_range(self, viewer: Unit, viewer_pose: Pose, target: Pose) -> bool:
        """The target lies within the viewer's threat range (edge to edge, T001A-05)."""
        return self.gap_in(viewer_pose, target) <= card_of(viewer).threat_in + RANGE_TOL_IN

    def can_strike(self, striker: Unit, target: Unit, at: Pose | None = None) -> bool:
        """The striker (at its pose, or ``at``) sees the target within its threat range."""
        pose = at or pose_of(striker)
        tpose = pose_of(target)
        return self.in_range(striker, pose, tpose) and self.sighting(pose, tpose).visible

    # ---------------------------------------------------------------- the count
    def count(
        self, striker: Unit, target: Unit, moved: Pose | None = None, detail: bool = False
    ) -> StrikeCount:
        """§3.1.g with D001A-04: every allied soldier on the table (the striker included,
        activated or not) that sees the target within its own threat range counts with its
        weight, less the disregarded ones. ``moved`` puts the striker at another spot."""
        tpose = pose_of(target)
        entries: list[Counted] = []
        sightings: list[Sighting] = []
        for ally in self.units:
            if ally.side != striker.side:
                continue
            pose = moved if moved is not None and ally.id == striker.id else pose_of(ally)
            gap = self.gap_in(pose, tpose)
            card = card_of(ally)
            if gap > card.threat_in + RANGE_TOL_IN:
                continue
            seen = self.sighting(pose, tpose, detail)
            if seen.cls is None:
                continue
            sightings.append(seen)
            entries.append(Counted(ally.id, card.weight, seen.cls, gap))
        counted, dropped = apply_disregard(entries)
        return StrikeCount(
            striker.id, target.id, card_of(target).toughness, counted, dropped, tuple(sightings)
        )

    # ---------------------------------------------------------------- movement
    def leg_problem(self, mover: Unit, a: Point, b: Point) -> str | None:
        """Why the straight leg a-b is not legal for the mover (RULES §1.5), else None: the
        base stays on the table and crosses no other base and no impassable terrain."""
        r = mover.radius_in
        if not self.state.table.contains_base(b, r):
            return "the base would leave the table"
        hit = self.kit.leg_hits(mover, a, b)
        if hit is not None:
            return f"the path runs through {hit}"
        path = None
        lo_x, hi_x, lo_y, hi_y = min(a[0], b[0]), max(a[0], b[0]), min(a[1], b[1]), max(a[1], b[1])
        for ob in self.kit.terrain.solid:
            x0, y0, x1, y1 = ob.bounds
            if math.hypot(max(x0 - hi_x, 0.0, lo_x - x1), max(y0 - hi_y, 0.0, lo_y - y1)) > r:
                continue  # the boxes are farther apart than the radius: so are the shapes
            if path is None:
                path = LineString([a, b]) if centre_distance_in(a, b) > 0 else shapely.Point(b)
            if float(shapely.distance(ob.shape, path)) < r - EPS_IN:
                return (
                    f"the path crosses {ob.name}"
                    if path.length
                    else f"the base would stand in {ob.name}"
                )
        return None

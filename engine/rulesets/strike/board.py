"""The strike system's board (RULES §3.1.f-g, G-01, G-03, D001A-04): who sees whom and how
(clear, obscured, in cover), threat ranges, the strike count, and legal movement legs.

Every base on the table is held in numpy arrays, so a sight line is tested against all of
them at once (a 100-a-side battle has 200 bases); terrain goes through shapely. Poses are
``(unit id, x, y, radius)`` in inches, so the AI can ask about a spot a soldier is not on yet.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import LineString, Polygon

from engine.board import board_memo
from engine.geometry import (
    EPS_IN,
    Cover,
    CoverArea,
    Obstacle,
    Point,
    centre_distance_in,
    tangent_lines,
)
from engine.model import GameState, Unit
from engine.rulesets.strike.state import RANGE_TOL_IN, card_of

Pose = tuple[str, float, float, float]
"""(unit id, x, y, base radius), inches."""

COVER_NEAR_IN = 0.5
"""A target is in cover from terrain its base touches or comes within this of (D001A-04b)."""

CLEAR, OBSCURED, COVER = "clear", "obscured", "cover"
"""The three ways an ally may see the target (D001A-04)."""

Segment = tuple[Point, Point]


def pose_of(unit: Unit) -> Pose:
    """The unit's pose."""
    return (unit.id, unit.x, unit.y, unit.radius_in)


@dataclass(frozen=True)
class Sighting:
    """How one soldier sees a target: the three sight lines (centre, left, right), which are
    clear, the class, and what blocked or covered."""

    viewer: str
    target: str
    lines: tuple[Segment, Segment, Segment]
    clear: tuple[bool, bool, bool]
    cls: str | None
    """clear, obscured or cover; None: not visible (every line blocked)."""
    blocked_by: tuple[str, ...] = ()
    """What blocks any of the lines (bases and terrain, by name)."""
    cover_by: str | None = None
    """The terrain piece giving cover, if any."""

    @property
    def visible(self) -> bool:
        """At least one line is clear (G-03)."""
        return self.cls is not None


@dataclass(frozen=True)
class Counted:
    """One ally in a strike count."""

    unit: str
    weight: int
    cls: str
    gap_in: float
    """Edge-to-edge distance to the target, inches."""
    reason: str = ""
    """Why it was disregarded (empty when it counts)."""

    def to_json(self) -> dict[str, object]:
        """The ``counted`` / ``disregarded`` entry of a strike line."""
        out: dict[str, object] = {"unit": self.unit, "weight": self.weight, "class": self.cls}
        if self.reason:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True)
class StrikeCount:
    """The result of §3.1.g for one strike."""

    striker: str
    target: str
    toughness: int
    counted: tuple[Counted, ...]
    disregarded: tuple[Counted, ...]
    sightings: tuple[Sighting, ...]
    """Every ally's sight lines to the target (counted or disregarded), for the picture."""

    @property
    def total(self) -> int:
        """The summed weight of the allies that count."""
        return sum(c.weight for c in self.counted)

    @property
    def removed(self) -> bool:
        """The count reaches the target's Toughness."""
        return self.total >= self.toughness


def disregard_order(entry: Counted) -> tuple[float, float]:
    """D001A-04c: the "first" ally of a class is the lowest weight, ties to the farthest from
    the target (the order most favourable to the counting player)."""
    return (entry.weight, -entry.gap_in)


def apply_disregard(entries: Sequence[Counted]) -> tuple[tuple[Counted, ...], tuple[Counted, ...]]:
    """Steps 5-6 of §3.1.g: (counted, disregarded): the first obscured ally and the first two
    in-cover allies lose their weight (D001A-04c ordering); the rest count, in given order."""
    dropped: list[Counted] = []
    for cls, how_many, why in (
        (OBSCURED, 1, "the first ally it is obscured to"),
        (COVER, 2, "one of the first two allies it is in cover from"),
    ):
        same = sorted((e for e in entries if e.cls == cls), key=disregard_order)
        dropped += [Counted(e.unit, e.weight, e.cls, e.gap_in, why) for e in same[:how_many]]
    gone = {d.unit for d in dropped}
    kept = tuple(e for e in entries if e.unit not in gone)
    return kept, tuple(dropped)


def _terrain(
    state: GameState,
) -> tuple[tuple[Obstacle, ...], tuple[CoverArea, ...], tuple[Obstacle, ...]]:
    def build() -> tuple[tuple[Obstacle, ...], tuple[CoverArea, ...], tuple[Obstacle, ...]]:
        sight, cover, solid = [], [], []
        for piece in state.terrain:
            shape = Polygon(piece.polygon)
            shape = shape if shape.is_valid else shape.buffer(0)
            if piece.blocks_los:
                sight.append(Obstacle(piece.name, shape))
            if piece.cover != "none":
                cover.append(CoverArea(piece.name, shape, Cover(piece.cover)))
            if piece.impassable:
                solid.append(Obstacle(piece.name, shape))
        return tuple(sight), tuple(cover), tuple(solid)

    result: tuple[tuple[Obstacle, ...], tuple[CoverArea, ...], tuple[Obstacle, ...]] = board_memo(
        state
    ).remember(("strike-terrain",), build)
    return result


class StrikeBoard:
    """Sight, ranges and strike counts on one state's table."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        units = [u for u in state.units if u.on_table]
        self.units = units
        self.ids = [u.id for u in units]
        self.names = [u.name for u in units]
        self.index = {u.id: i for i, u in enumerate(units)}
        self.x: NDArray[np.float64] = np.array([u.x for u in units], dtype=np.float64)
        self.y: NDArray[np.float64] = np.array([u.y for u in units], dtype=np.float64)
        self.r: NDArray[np.float64] = np.array([u.radius_in for u in units], dtype=np.float64)
        self.sight_terrain, self.cover_areas, self.solid = _terrain(state)

    # ---------------------------------------------------------------- sight
    def _bases_blocking(self, lines: Sequence[Segment], skip: Iterable[str]) -> NDArray[np.bool_]:
        """(lines x bases) whether each line crosses each base's interior (G-03)."""
        a = np.array([ln[0] for ln in lines], dtype=np.float64)
        b = np.array([ln[1] for ln in lines], dtype=np.float64)
        dx, dy = (b[:, 0] - a[:, 0])[:, None], (b[:, 1] - a[:, 1])[:, None]
        l2 = dx * dx + dy * dy
        rx, ry = self.x[None, :] - a[:, 0:1], self.y[None, :] - a[:, 1:2]
        t = np.clip(np.where(l2 > 0, (rx * dx + ry * dy) / np.where(l2 > 0, l2, 1.0), 0.0), 0, 1)
        ex, ey = rx - t * dx, ry - t * dy
        reach = np.maximum(self.r - EPS_IN, 0.0)[None, :]
        hit: NDArray[np.bool_] = (ex * ex + ey * ey) < reach * reach
        for uid in skip:
            i = self.index.get(uid)
            if i is not None:
                hit[:, i] = False
        return hit

    def _terrain_blocking(self, lines: Sequence[Segment]) -> list[list[bool]]:
        """(terrain pieces x lines) whether each line crosses each sight-blocking piece's
        interior (G-03; the same test as ``Obstacle.blocks_segment``, all lines at once)."""
        if not self.sight_terrain:
            return []
        xs = [min(a[0], b[0]) for a, b in lines], [max(a[0], b[0]) for a, b in lines]
        ys = [min(a[1], b[1]) for a, b in lines], [max(a[1], b[1]) for a, b in lines]
        out: list[list[bool]] = []
        shapes = None
        for ob in self.sight_terrain:
            minx, miny, maxx, maxy = ob.bounds
            near = [
                not (xs[1][k] < minx or xs[0][k] > maxx or ys[1][k] < miny or ys[0][k] > maxy)
                for k in range(len(lines))
            ]
            if not any(near) or not ob.areal:
                out.append([near[k] and ob.blocks_segment(*lines[k]) for k in range(len(lines))])
                continue
            if shapes is None:
                shapes = shapely.linestrings(np.array(lines, dtype=np.float64))
            hits = shapely.intersects(ob.core, shapes)
            out.append([bool(near[k] and hits[k]) for k in range(len(lines))])
        return out

    def sighting(self, viewer: Pose, target: Pose, detail: bool = False) -> Sighting:
        """How ``viewer`` sees ``target`` (D001A-04): visible when a line is clear; in cover
        when the centre line crosses cover terrain that the target's base is within 0.5 in of; else obscured when any line is blocked; cover wins.
        With ``detail`` the blockers are named."""
        vid, vx, vy, vr = viewer
        tid, tx, ty, tr = target
        a, b = (vx, vy), (tx, ty)
        left, right = tangent_lines(a, vr, b, tr)
        lines: tuple[Segment, Segment, Segment] = ((a, b), left, right)
        hit = self._bases_blocking(lines, (vid, tid))
        clear = [not bool(hit[k].any()) for k in range(3)]
        names: list[str] = []
        for j, row in enumerate(self._terrain_blocking(lines)):
            for k in range(3):
                if row[k]:
                    clear[k] = False
                    if self.sight_terrain[j].name not in names:
                        names.append(self.sight_terrain[j].name)
        if detail:
            for i in np.nonzero(hit.any(axis=0))[0]:
                names.append(self.names[int(i)])
        flags = (clear[0], clear[1], clear[2])
        if not any(flags):
            return Sighting(vid, tid, lines, flags, None, tuple(names))
        cover_by = self.cover_from(a, target)
        cls = COVER if cover_by else CLEAR if all(flags) else OBSCURED
        return Sighting(vid, tid, lines, flags, cls, tuple(names), cover_by)

    def cover_from(self, viewer_xy: Point, target: Pose) -> str | None:
        """The cover terrain the target is in against a viewer there (D001A-04b), or None: a
        piece the centre line crosses that the target's base touches or comes within 0.5 in
        of. The viewer's own place does not matter: a target keeps the cover of the piece it
        stands in when the viewer stands in that same piece (a wood both are in)."""
        _, tx, ty, tr = target
        for area in self.cover_areas:
            if not area.crossed_by(viewer_xy, (tx, ty)):
                continue
            gap = float(shapely.distance(area.shape, shapely.Point(tx, ty))) - tr
            if gap <= COVER_NEAR_IN + EPS_IN:
                return area.name
        return None

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
        if self.units:
            hit = self._capsule_hits(mover, a, b)
            if hit is not None:
                return f"the path runs through {hit}"
        if self.solid and centre_distance_in(a, b) > 0:
            line = LineString([a, b])
            for ob in self.solid:
                if float(shapely.distance(ob.shape, line)) < r - EPS_IN:
                    return f"the path crosses {ob.name}"
        elif self.solid:
            for ob in self.solid:
                if float(shapely.distance(ob.shape, shapely.Point(b))) < r - EPS_IN:
                    return f"the base would stand in {ob.name}"
        return None

    def _capsule_hits(self, mover: Unit, a: Point, b: Point) -> str | None:
        dx, dy = b[0] - a[0], b[1] - a[1]
        l2 = dx * dx + dy * dy
        rx, ry = self.x - a[0], self.y - a[1]
        t = np.clip((rx * dx + ry * dy) / l2, 0.0, 1.0) if l2 > 0 else np.zeros_like(rx)
        ex, ey = rx - t * dx, ry - t * dy
        reach = np.maximum(self.r + mover.radius_in - EPS_IN, 0.0)
        hit = (ex * ex + ey * ey) < reach * reach
        i = self.index.get(mover.id)
        if i is not None:
            hit[i] = False
        found = np.nonzero(hit)[0]
        return self.names[int(found[0])] if len(found) else None

"""Where a piece is when its tags are not seen: hidden, moved out of sight, or taken off.

A piece is a rigid body with one or more tags (a tag no scenario names is a piece of its own).
Between two settled boards the timeline asks, for every piece none of whose tags is seen on the
later board, what the picture says (:class:`assistant.replay.span_view.SpanView`):

- its place looks as it did, or something still stands there (it stands out from the table
  around it as the figure did, and its colours moved less than that contrast): it is
  *hidden* (its figure or something else covers its tag) and keeps its last pose;
- the hand was over it and its place is empty after: it *left*. If a figure now stands where the
  board was empty, where the hand went, and no seen piece explains it, the piece was set down
  there out of sight (an *inferred* move); otherwise it was taken off the table.

Also here: the pose of a piece from whichever of its tags are known, the tags of a piece set at
a pose, and the dating of a lift and a set-down from the hand's path. Inches, degrees, seconds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from assistant.replay.poses import MM_PER_IN, piece_centre_in, tag_on_piece_in
from assistant.replay.records import INFERRED, SEEN, TagRest, TimelineSettings
from assistant.replay.span_view import Blob, Cover, SpanView
from vision.types import PieceSpec, TagId, TagMount

HIDDEN = "hidden"
LEFT = "left"


@dataclass(frozen=True)
class PieceGroup:
    """The tags of one piece and the size of its base."""

    name: str
    mounts: tuple[TagMount, ...]
    radius_mm: float
    """Half the base diameter, millimetres."""

    @property
    def tag_ids(self) -> tuple[int, ...]:
        """The piece's tag ids."""
        return tuple(int(m.tag_id) for m in self.mounts)

    def mount(self, tag_id: int) -> TagMount:
        """Where a tag of this piece sits on it."""
        return next(m for m in self.mounts if int(m.tag_id) == tag_id)


def piece_groups(pieces: Sequence[PieceSpec], settings: TimelineSettings) -> dict[int, PieceGroup]:
    """Tag id -> its piece (scenario pieces; terrain and bases of 0 mm count as 25 mm)."""
    out: dict[int, PieceGroup] = {}
    for spec in pieces:
        diameter = spec.base_diameter_mm or settings.default_base_mm
        group = PieceGroup(spec.name, tuple(spec.tags), diameter / 2.0)
        for mount in spec.tags:
            out[int(mount.tag_id)] = group
    return out


def lone_group(tag_id: int, settings: TimelineSettings) -> PieceGroup:
    """A tag no piece names: a piece of its own, the tag at its centre."""
    mount = TagMount(TagId(tag_id), forward_mm=0.0)
    return PieceGroup(f"tag {tag_id}", (mount,), settings.default_base_mm / 2.0)


def piece_pose(group: PieceGroup, rests: Iterable[TagRest]) -> tuple[float, float, float]:
    """Base centre (inches) and facing (degrees) from the given tags of the piece (seen ones
    first: when any is seen, the hidden ones are left out)."""
    rests = list(rests)
    use = [r for r in rests if r.seen] or rests
    fits = [piece_centre_in(r.x_in, r.y_in, r.heading_deg, group.mount(r.tag_id)) for r in use]
    x = sum(f[0] for f in fits) / len(fits)
    y = sum(f[1] for f in fits) / len(fits)
    return x, y, fits[0][2]


def tags_at(
    group: PieceGroup,
    x_in: float,
    y_in: float,
    facing_deg: float,
    tag_ids: Iterable[int],
    pose: str = SEEN,
) -> list[TagRest]:
    """Hidden rests of the given tags of a piece standing at (x, y) facing ``facing_deg``."""
    out = []
    for tid in tag_ids:
        tx, ty, th = tag_on_piece_in(x_in, y_in, facing_deg, group.mount(tid))
        out.append(TagRest(tid, tx, ty, th, False, pose))
    return out


@dataclass(frozen=True)
class Missing:
    """What the picture says of a piece whose tags are not seen on the later board."""

    verdict: str
    """HIDDEN (it stands where it was) or LEFT (its place is empty)."""
    known: str
    how: str
    cover: Cover | None
    """When the hand covered its place."""


def judge_missing(
    span: SpanView, x_in: float, y_in: float, radius_mm: float, settings: TimelineSettings
) -> Missing:
    """Hidden or left, for a piece last standing at (x, y) with a base of ``radius_mm``."""
    cover = span.cover(x_in, y_in, radius_mm + settings.cover_margin_mm)
    if span.changed_share(x_in, y_in, radius_mm) < settings.vacated_share:
        how = (
            "no hand came near it and its place looks as it did"
            if cover is None
            else "the hand passed over it, and its place looks as it did"
        )
        return Missing(HIDDEN, INFERRED, how, cover)
    before, after = span.stands_out(x_in, y_in, radius_mm)
    # a figure turned or set back keeps its base's colours; the test against the table
    # around it alone fails where that is no plain mat (a dungeon cell among figures and
    # walls: the empty cell stands out from them more than the figure did)
    kept = span.colour_shift(x_in, y_in, radius_mm) <= before
    if after >= settings.empty_ratio * before and kept:
        how = "its place changed, but a figure still stands there (turned, or set back)"
        return Missing(HIDDEN, INFERRED, how, cover)
    return Missing(LEFT, SEEN, "the hand was over it and its place is empty after", cover)


@dataclass(frozen=True)
class Gone:
    """A piece that left its place: where it stood and when the hand covered it."""

    key: str
    x_in: float
    y_in: float
    radius_mm: float
    cover: Cover | None


def find_destinations(
    span: SpanView,
    gone: Sequence[Gone],
    occupied_in: Sequence[tuple[float, float]],
    settings: TimelineSettings,
) -> dict[str, Blob]:
    """Where pieces that left their place were set down out of sight: a changed region that
    no known piece explains (``occupied_in``: where seen pieces stand and stood), where a figure
    now stands out from the mat, of about a base's size, that the hand went over. Each such
    region goes to the nearest piece that left (key -> region)."""
    if not gone:
        return {}
    radius_mm = min(g.radius_mm for g in gone)
    base_mm2 = math.pi * radius_mm**2
    explained = [*occupied_in, *((g.x_in, g.y_in) for g in gone)]
    candidates: list[Blob] = []
    for blob in span.blobs():
        if not 0.15 * base_mm2 <= blob.area_mm2 <= 3.0 * base_mm2:
            continue
        reach = max(0.5, 0.8 * blob.radius_in)
        near = [p for p in explained if math.dist((blob.x_in, blob.y_in), p) < reach]
        if not near:
            candidates.append(blob)
            continue
        # a piece set down in base contact with one that stands there: one region of about
        # two bases, centred between them; the new figure lies beyond the centre
        twin = _beside(blob, near, explained, base_mm2)
        if twin is not None:
            candidates.append(twin)
    for g in gone:  # a short move: its old and new places make one region
        blob = span.blob_at(g.x_in, g.y_in, g.radius_mm)
        if blob is None or blob.area_mm2 < 1.3 * math.pi * g.radius_mm**2:
            continue
        dx, dy = blob.x_in - g.x_in, blob.y_in - g.y_in
        if math.hypot(dx, dy) > 0.35:
            x, y = g.x_in + 2 * dx, g.y_in + 2 * dy
            candidates.append(Blob(x, y, blob.area_mm2 / 2, g.radius_mm / MM_PER_IN))
    standing = []
    for blob in candidates:
        before, after = span.stands_out(blob.x_in, blob.y_in, radius_mm)
        if after < 1.5 * before + 3.0:
            continue  # nothing new stands out there
        if span.cover(blob.x_in, blob.y_in, radius_mm + settings.cover_margin_mm) is None:
            continue  # the hand never went there
        standing.append(blob)
    pairs = sorted(
        (
            (math.dist((g.x_in, g.y_in), (b.x_in, b.y_in)), i, j)
            for i, g in enumerate(gone)
            for j, b in enumerate(standing)
        ),
    )
    out: dict[str, Blob] = {}
    used: set[int] = set()
    for _, i, j in pairs:
        if gone[i].key in out or j in used:
            continue
        out[gone[i].key] = standing[j]
        used.add(j)
    return out


def _beside(
    blob: Blob,
    near: Sequence[tuple[float, float]],
    explained: Sequence[tuple[float, float]],
    base_mm2: float,
) -> Blob | None:
    """The unexplained half of a changed region that also holds a known piece (``near``: the
    known places close to its centre): the mirror of that place through the region's centre,
    when the region is about two bases and the mirror is no known place either."""
    if len(near) != 1 or not 1.6 * base_mm2 <= blob.area_mm2 <= 3.0 * base_mm2:
        return None
    (px, py) = near[0]
    dx, dy = blob.x_in - px, blob.y_in - py
    if math.hypot(dx, dy) < 0.35:
        return None
    x, y = px + 2 * dx, py + 2 * dy
    r_in = math.sqrt(base_mm2 / math.pi) / MM_PER_IN
    if any(math.dist((x, y), p) < max(0.5, r_in) for p in explained):
        return None
    return Blob(x, y, blob.area_mm2 / 2, r_in)


def lift_time(
    span: SpanView,
    x_in: float,
    y_in: float,
    radius_mm: float,
    settings: TimelineSettings,
    fallback_s: float,
    after_t: float | None = None,
) -> float:
    """When a piece standing at (x, y) was taken away (seconds): in the middle of the longest
    stretch in which the hand stayed still over it (it stops to grasp); without one, a reach
    after the hand first covered it; without that, ``fallback_s``."""
    reach_mm = radius_mm + settings.cover_margin_mm
    dwells = span.dwells(x_in, y_in, reach_mm, after_t)
    if dwells and span.frame_rate >= settings.dwell_fps:
        return max(dwells, key=lambda d: d.t1 - d.t0).middle_t
    t_start, _ = cover_times(
        span, (x_in, y_in), None, radius_mm, settings, (fallback_s, fallback_s), after_t
    )
    return t_start


def move_times(
    span: SpanView,
    old_in: tuple[float, float],
    new_in: tuple[float, float],
    radius_mm: float,
    settings: TimelineSettings,
    fallback: tuple[float, float],
    after_t: float | None = None,
) -> tuple[float, float]:
    """When a piece was lifted at ``old_in`` and set down at ``new_in`` (seconds).

    A hand stops to grasp and stops to let go: the set-down is in the middle of the last
    stretch in which the hand stayed still over the new place, the lift in the middle of the
    longest one over the old place before it (a hand also slows down as it arrives; it is
    stillest as it grasps), and the set-down then in the longest one after the lift. The arm
    may rest still over the old place while the hand lets go further on: the lift's stretch
    ends where the set-down's begins. One stretch for both (a turn in place, a short shift)
    holds both, a third of it from each end. What has no stretch (a hand that never stopped,
    footage of under ``dwell_fps`` frames a second) keeps its ``fallback`` (lift, set-down).
    """
    if span.frame_rate < settings.dwell_fps:
        return fallback
    reach_mm = radius_mm + settings.cover_margin_mm
    lifts = span.dwells(*old_in, reach_mm, after_t)
    sets = span.dwells(*new_in, reach_mm, after_t)
    t_start, t_end = fallback
    if lifts and sets:
        put = sets[-1]
        before = [d for d in lifts if d.t1 <= put.t0 + 1e-6]
        if before:
            lift = max(before, key=lambda d: d.t1 - d.t0)
            after = [d for d in sets if d.t0 >= lift.t1 - 1e-6]
            put = max(after, key=lambda d: d.t1 - d.t0)
            return ordered(lift.middle_t, put.middle_t)
        lift = lifts[0]
        if put.t0 > lift.t0 + 0.2:
            return ordered((lift.t0 + put.t0) / 2.0, put.middle_t)
        t0, t1 = min(lift.t0, put.t0), max(lift.t1, put.t1)
        return ordered(t0 + (t1 - t0) / 3.0, t1 - (t1 - t0) / 3.0)
    if lifts:
        t_start = lifts[0].middle_t
    if sets:
        t_end = sets[-1].middle_t
    return ordered(t_start, t_end)


def cover_times(
    span: SpanView,
    old_in: tuple[float, float],
    new_in: tuple[float, float] | None,
    radius_mm: float,
    settings: TimelineSettings,
    fallback: tuple[float, float],
    after_t: float | None = None,
) -> tuple[float, float]:
    """Lift and set-down (seconds) from when the hand covered the places, for a piece with no
    tag to date it: a reach after the hand first covered the old place, a withdrawal before
    it last covered the new one (``new_in`` None: taken off, no set-down)."""
    reach_mm = radius_mm + settings.cover_margin_mm
    t_start, t_end = fallback
    cover = span.cover(*old_in, reach_mm, after_t)
    if cover is not None:
        t_start = min(cover.first_t + settings.reach_s, cover.last_t)
    cover = span.cover(*new_in, reach_mm, after_t) if new_in is not None else None
    if cover is not None:
        t_end = max(cover.last_t - settings.withdraw_s, cover.first_t)
    return ordered(t_start, t_end)


def ordered(t_start: float, t_end: float) -> tuple[float, float]:
    """A lift and a set-down in order (their midpoint twice when they cross)."""
    if t_start <= t_end:
        return t_start, t_end
    mid = (t_start + t_end) / 2.0
    return mid, mid


def first_known(tag_ids: Iterable[int], *sources: Mapping[int, TagRest]) -> dict[int, TagRest]:
    """For each tag, its rest in the first source that has it."""
    out: dict[int, TagRest] = {}
    for tid in tag_ids:
        for source in sources:
            rest = source.get(tid)
            if rest is not None:
                out[tid] = rest
                break
    return out

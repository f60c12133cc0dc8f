"""The hand watch and the judgement of vanished pieces, on drawn top-down views (no rendering).

Views are drawn as the settle judge makes them (4 mm a pixel, the table and 3.5 in around it,
levelled grey): a piece is a bright disc, the hand a dark bar from the player's edge to the
palm. Table inches, seconds.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from assistant.replay.hands import HandWatch
from assistant.replay.presence import (
    HIDDEN,
    LEFT,
    Gone,
    _beside,
    find_destinations,
    judge_missing,
    move_times,
)
from assistant.replay.records import INFERRED, SEEN, TimelineSettings
from assistant.replay.span_view import Blob
from assistant.replay.timeline import TimelineBuilder, with_fall
from vision.types import BoardSnapshot, PieceSpec, TagId, TagMount, TagPose, TagState

MM_PX = 4.0
MARGIN_IN = 3.5
TABLE_IN = 24.0
PX_IN = MM_PX / 25.4
SIZE = math.ceil((TABLE_IN + 2 * MARGIN_IN) / PX_IN)
V2T = np.array([[PX_IN, 0.0, -MARGIN_IN], [0.0, -PX_IN, TABLE_IN + MARGIN_IN], [0.0, 0.0, 1.0]])
FPS = 10.0
BASE_MM = 32.0


def _uv(x_in: float, y_in: float) -> tuple[int, int]:
    u, v, _ = np.linalg.inv(V2T) @ np.array([x_in, y_in, 1.0])
    return round(u), round(v)


def _draw(
    pieces: list[tuple[float, float]], hand: tuple[float, float] | None
) -> npt.NDArray[np.float32]:
    view = np.zeros((SIZE, SIZE), np.float32)
    for x, y in pieces:
        cv2.circle(view, _uv(x, y), round(BASE_MM / 2 / MM_PX), 70.0, -1)
    if hand is not None:
        u, v = _uv(*hand)
        cv2.rectangle(view, (u - 14, v - 14), (u + 14, SIZE - 1), -60.0, -1)  # palm and arm
    return view


def _colour(view: npt.NDArray[np.float32]) -> npt.NDArray[np.uint8]:
    grey = np.clip(view + 110.0, 0, 255).astype(np.uint8)
    return np.dstack([grey, grey, grey])


def _feed(
    watch: HandWatch,
    t0: float,
    t1: float,
    pieces_at: object,
    hand_at: object,
    settled_at: object,
) -> None:
    """Feed frames from t0 to t1: pieces_at(t), hand_at(t) and settled_at(t) say what is seen."""
    for i in range(round(t0 * FPS), round(t1 * FPS)):
        t = i / FPS
        view = _draw(pieces_at(t), hand_at(t))  # type: ignore[operator]
        settled = settled_at(t)  # type: ignore[operator]
        watch.feed(t, settled, view, lambda v=view: _colour(v))


def _carry(
    a: tuple[float, float], b: tuple[float, float], t_lift: float, t_set: float
) -> tuple[object, object]:
    """A hand that reaches a at t_lift - 0.8, stops over it 0.6 s (lifts at t_lift), carries to
    b, stops over it 0.6 s (sets down at t_set) and leaves 0.8 s later."""
    edge = (a[0], -3.0)

    def hand(t: float) -> tuple[float, float] | None:
        if t < t_lift - 1.1 or t > t_set + 1.1:
            return None
        if t < t_lift - 0.3:
            k = (t - (t_lift - 1.1)) / 0.8
            return edge[0] + (a[0] - edge[0]) * k, edge[1] + (a[1] - edge[1]) * k
        if t < t_lift + 0.3:
            return a
        if t < t_set - 0.3:
            k = (t - (t_lift + 0.3)) / max(t_set - t_lift - 0.6, 1e-6)
            return a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k
        if t < t_set + 0.3:
            return b
        k = (t - (t_set + 0.3)) / 0.8
        return b[0], b[1] + (-3.0 - b[1]) * k

    def settled(t: float) -> bool:
        return hand(t) is None

    return hand, settled


def test_the_hand_path_and_its_stops_date_a_move() -> None:
    watch = HandWatch(V2T, MM_PX)
    a, b, other = (8.0, 10.0), (14.0, 14.0), (18.0, 4.0)
    hand, settled = _carry(a, b, 3.0, 5.0)

    def pieces(t: float) -> list[tuple[float, float]]:
        return [other, a if t < 3.0 else b] if t < 3.0 or t >= 5.0 else [other]

    _feed(watch, 0.0, 8.0, pieces, hand, settled)
    span = watch.span(1.8, 6.2)
    assert span is not None and span.watched
    cover = span.cover(*a, BASE_MM / 2 + 10)
    assert cover is not None and cover.first_t < 3.0 < cover.last_t
    assert span.cover(*other, BASE_MM / 2 + 10) is None  # the hand never went there
    t_lift, t_set = move_times(span, a, b, BASE_MM / 2, TimelineSettings(), (0.0, 0.0))
    assert abs(t_lift - 3.0) <= 0.2 and abs(t_set - 5.0) <= 0.2
    # the old place is empty after, the new one holds a figure that was not there
    blobs = span.blobs()
    assert sorted(round(math.dist((bl.x_in, bl.y_in), b)) for bl in blobs)[0] == 0
    before, after = span.stands_out(*b, BASE_MM / 2)
    assert after > 3 * before + 10


def test_vanished_pieces_are_hidden_unless_their_place_emptied_under_the_hand() -> None:
    """A piece whose figure hides its tag (its place looks the same, with or without a hand
    passing) is hidden; one the hand took away is gone; a figure now standing where the board
    was empty, where the hand went, is where it was set down."""
    s = TimelineSettings()
    watch = HandWatch(V2T, MM_PX)
    hidden, taken, moved, dest = (4.0, 20.0), (10.0, 6.0), (16.0, 8.0), (16.0, 16.0)

    def hand(t: float) -> tuple[float, float] | None:
        if 1.0 <= t < 3.0:
            return taken  # reaches the one taken off...
        if 3.0 <= t < 5.0:
            return moved
        if 5.0 <= t < 7.0:
            return dest
        return None

    def pieces(t: float) -> list[tuple[float, float]]:
        out = [hidden]
        if t < 2.0:
            out.append(taken)
        out.append(moved if t < 4.0 else dest) if t < 4.0 or t >= 6.0 else None
        return out

    _feed(watch, 0.0, 9.0, pieces, hand, lambda t: hand(t) is None)
    span = watch.span(0.9, 7.0)
    assert span is not None
    r = BASE_MM / 2
    assert judge_missing(span, *hidden, r, s).verdict == HIDDEN
    assert "no hand" in judge_missing(span, *hidden, r, s).how
    gone_taken = judge_missing(span, *taken, r, s)
    gone_moved = judge_missing(span, *moved, r, s)
    assert gone_taken.verdict == LEFT and gone_moved.verdict == LEFT
    found = find_destinations(
        span,
        [Gone("taken", *taken, r, gone_taken.cover), Gone("moved", *moved, r, gone_moved.cover)],
        [],
        s,
    )
    assert set(found) == {"moved"}  # the nearer one takes the new figure; the other is gone
    assert math.dist((found["moved"].x_in, found["moved"].y_in), dest) < 0.2


def test_a_hand_hovering_over_a_hidden_piece_leaves_it_hidden() -> None:
    s = TimelineSettings()
    watch = HandWatch(V2T, MM_PX)
    piece = (12.0, 12.0)

    def hand(t: float) -> tuple[float, float] | None:
        return piece if 1.0 <= t < 6.0 else None

    _feed(watch, 0.0, 8.0, lambda t: [piece], hand, lambda t: hand(t) is None)
    span = watch.span(0.9, 6.0)
    assert span is not None
    verdict = judge_missing(span, *piece, BASE_MM / 2, s)
    assert verdict.verdict == HIDDEN and verdict.cover is not None
    assert "passed over it" in verdict.how


def _snapshots(
    plan: dict[int, list[tuple[float, float, float, float]]],
    hidden: dict[int, list[tuple[float, float]]],
    unsettled: list[tuple[float, float]],
    duration_s: float,
) -> list[BoardSnapshot]:
    """Snapshots as the tracker gives them (tag -> [(t_from, x, y, heading)])."""
    out = []
    last: dict[int, tuple[float, float, float, float]] = {}
    for i in range(round(duration_s * FPS)):
        t = i / FPS
        tags = []
        for tid, poses in plan.items():
            pose = [p for p in poses if p[0] <= t][-1]
            if any(a <= t < b for a, b in hidden.get(tid, [])):
                if tid in last:
                    state = TagState.HELD if t - last[tid][0] <= 0.4 else TagState.LIFTED
                    tags.append(TagPose(TagId(tid), *last[tid][1:], state))
                continue
            last[tid] = (t, pose[1], pose[2], pose[3])
            tags.append(TagPose(TagId(tid), pose[1], pose[2], pose[3], TagState.SEEN))
        settled = not any(a <= t < b for a, b in unsettled)
        out.append(BoardSnapshot(t, i, tuple(tags), settled))
    return out


def _piece(name: str, tag: int) -> PieceSpec:
    return PieceSpec(name, (TagMount(TagId(tag), forward_mm=0.0),), BASE_MM)


def test_the_timeline_infers_a_move_withdraws_a_wrong_removal_and_keeps_hidden_pieces() -> None:
    """Tag 16 is set down where its figure hides it (an inferred move); tag 17 is hidden by its
    figure with no hand near (hidden); tag 18 is lifted and put back later, out of sight at
    first (taken for removed, then seen again: the removal is withdrawn, the move inferred)."""
    a16, b16, p17, a18, b18 = (6.0, 6.0), (10.0, 14.0), (20.0, 20.0), (18.0, 6.0), (20.0, 10.0)
    watch = HandWatch(V2T, MM_PX)
    builder = TimelineBuilder(
        TimelineSettings(),
        pieces=(_piece("a", 16), _piece("b", 17), _piece("c", 18)),
        watch=watch,
    )
    hand16, _ = _carry(a16, b16, 3.0, 5.0)

    def hand(t: float) -> tuple[float, float] | None:
        if t < 8.0:
            return hand16(t)  # type: ignore[operator, no-any-return]
        if 10.0 <= t < 11.5:
            return a18  # lifted and carried off the table (out of view)
        if 14.0 <= t < 15.5:
            return b18  # set down elsewhere: its tag is seen there
        return None

    def pieces(t: float) -> list[tuple[float, float]]:
        out = [p17]
        out += [a16] if t < 3.0 else [b16] if t >= 5.0 else []
        out += [a18] if t < 10.7 else [b18] if t >= 14.7 else []
        return out

    plan = {
        16: [(0.0, *a16, 0.0), (5.0, *b16, 0.0)],
        17: [(0.0, *p17, 90.0)],
        18: [(0.0, *a18, 180.0), (14.7, *b18, 180.0)],
    }
    hidden = {16: [(1.9, 99.0)], 17: [(8.5, 99.0)], 18: [(9.9, 15.5)]}
    unsettled = [(1.9, 6.2), (9.9, 11.6), (13.9, 15.6)]
    snaps = _snapshots(plan, hidden, unsettled, 18.0)
    for snap in snaps:
        view = _draw(pieces(snap.t), hand(snap.t))
        watch.feed(snap.t, snap.settled, view, lambda v=view: _colour(v))
        builder.add(snap)
    timeline = builder.timeline()
    moves = {m.tag_id: m for m in timeline.moves}
    assert set(moves) == {16, 18}
    assert moves[16].known == INFERRED and not moves[16].facing_known
    assert math.dist(moves[16].to_in, b16) < 0.3
    assert abs(moves[16].t_start - 3.0) <= 0.3 and abs(moves[16].t_end - 5.0) <= 0.3
    assert moves[18].known == INFERRED and "removed" in moves[18].how
    assert math.dist(moves[18].to_in, b18) < 0.05
    assert not [e for e in timeline.events if e.kind == "removed"]  # withdrawn
    hidden_events = [e for e in timeline.events if e.kind == "hidden"]
    assert [e.tag_id for e in hidden_events] == [17]
    assert hidden_events[0].known == INFERRED
    last = timeline.states[-1]
    r16, r17 = last.tag(16), last.tag(17)
    assert r16 is not None and not r16.seen and r16.pose == INFERRED
    assert r17 is not None and not r17.seen and r17.pose == SEEN
    counts = timeline.known_counts()
    assert counts == {"seen": 0, "inferred": 3, "rules": 0, "unknown": 0}


def test_a_fall_from_the_rules_removes_a_hidden_piece_and_says_so() -> None:
    """The hook for the game from the moves: a piece the engine says fell leaves the board
    where its tags are hidden, with a removal known from the rules; a seen tag stays."""
    plan = {16: [(0.0, 6.0, 6.0, 0.0)], 17: [(0.0, 12.0, 12.0, 0.0)]}
    snaps = _snapshots(plan, {16: [(3.0, 99.0)]}, [(2.0, 2.6), (5.0, 5.6)], 8.0)
    builder = TimelineBuilder(TimelineSettings())
    for snap in snaps:
        builder.add(snap)
    timeline = builder.timeline()
    assert [s.tag(16) is not None for s in timeline.states] == [True, True, True]
    fallen = with_fall(timeline, [16, 17], 4.0, "tag 16 falls")
    assert [s.tag(16) is not None for s in fallen.states] == [True, True, False]
    assert all(s.tag(17) is not None for s in fallen.states)  # seen: still there
    removed = [e for e in fallen.events if e.kind == "removed"]
    assert {e.tag_id for e in removed} == {16, 17} and all(e.known == "rules" for e in removed)
    assert fallen.known_counts()["rules"] == 2


def test_a_piece_set_down_against_another_is_found_beyond_their_shared_region() -> None:
    """Two bases in contact change the picture as one region of about two bases, centred
    between them; with one of them known, the other lies at the known one's mirror through
    the region's centre (once, a Goblin Boss charging into contact was read as taken off)."""
    base_mm2 = math.pi * 15.875**2
    known = (7.67, 11.42)
    region = Blob(7.01, 11.73, 2.0 * base_mm2, 1.18)
    found = _beside(region, [known], [known, (9.3, 11.8)], base_mm2)
    assert found is not None
    assert math.dist((found.x_in, found.y_in), (6.35, 12.04)) < 0.01
    # one base's worth of change is the known piece alone; a mirror on a known place is none
    assert _beside(Blob(7.5, 11.5, 1.1 * base_mm2, 0.7), [known], [known], base_mm2) is None
    assert _beside(region, [known], [known, (6.4, 12.0)], base_mm2) is None

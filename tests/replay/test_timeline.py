"""Timeline logic on snapshot sequences shaped like the tracker's output."""

from __future__ import annotations

import math
import random

import pytest

from assistant.replay.timeline import (
    TimelineBuilder,
    TimelineSettings,
    angle_diff_deg,
    build_timeline,
)
from vision.types import BoardSnapshot, TagId, TagPose, TagState

FPS = 10.0


def _stream(
    poses: dict[int, list[tuple[float, float, float, float]]],
    hidden: dict[int, list[tuple[float, float]]],
    unsettled: list[tuple[float, float]],
    duration_s: float,
    hold_s: float = 0.4,
    jitter_in: float = 0.01,
    seed: int = 1,
) -> list[BoardSnapshot]:
    """Snapshots as a tracker gives them.

    poses: tag -> [(t_from, x, y, heading)], the tag lies there from t_from on.
    hidden: tag -> [(t0, t1)] intervals where its tag cannot be seen (hand, figure, carried).
    unsettled: [(t0, t1)] intervals where a hand is over the table.
    """
    rng = random.Random(seed)
    last: dict[int, tuple[float, float, float, float]] = {}
    out = []
    for i in range(int(duration_s * FPS) + 1):
        t = i / FPS
        tags = []
        for tid, plan in poses.items():
            current = [p for p in plan if p[0] <= t][-1]
            is_hidden = any(a <= t < b for a, b in hidden.get(tid, []))
            if not is_hidden:
                x = current[1] + rng.gauss(0, jitter_in)
                y = current[2] + rng.gauss(0, jitter_in)
                h = (current[3] + rng.gauss(0, 0.3)) % 360
                last[tid] = (t, x, y, h)
                tags.append(TagPose(TagId(tid), x, y, h, TagState.SEEN))
            elif tid in last:
                t_seen, x, y, h = last[tid]
                state = TagState.HELD if t - t_seen <= hold_s else TagState.LIFTED
                tags.append(TagPose(TagId(tid), x, y, h, state))
        settled = not any(a <= t < b for a, b in unsettled)
        out.append(BoardSnapshot(t, i, tuple(tags), settled))
    return out


def test_moves_found_and_hover_and_covered_tag_are_not_moves() -> None:
    poses = {
        10: [(0.0, 5.0, 5.0, 0.0), (3.6, 9.0, 7.5, 45.0)],
        11: [(0.0, 12.0, 12.0, 90.0)],
        12: [(0.0, 20.0, 3.0, 180.0)],
        13: [(0.0, 3.0, 20.0, 270.0), (9.2, 3.5, 16.0, 270.0)],
    }
    hidden = {
        10: [(2.4, 3.6)],  # lifted at 2.4, set down at 3.6
        11: [(5.2, 6.0)],  # a hand hovers over it
        12: [(7.0, 99.0)],  # its own figure covers it from 7 s on, board at rest
        13: [(8.1, 9.2)],
    }
    unsettled = [(2.0, 4.2), (5.0, 6.3), (7.8, 9.9)]
    # tags hidden exactly from lift to set-down here: no hand reach to allow for
    timeline = build_timeline(
        _stream(poses, hidden, unsettled, 12.0), TimelineSettings(reach_share=0.0)
    )
    assert len(timeline.moves) == 2, timeline.moves
    m10, m13 = timeline.moves
    assert m10.tag_id == 10 and m13.tag_id == 13
    assert math.dist(m10.from_in, (5.0, 5.0)) < 0.05
    assert math.dist(m10.to_in, (9.0, 7.5)) < 0.05
    assert angle_diff_deg(m10.heading_to_deg, 45.0) < 1.0
    assert abs(m10.t_start - 2.4) <= 0.15 and abs(m10.t_end - 3.6) <= 0.15
    assert abs(m13.t_start - 8.1) <= 0.15 and abs(m13.t_end - 9.2) <= 0.15
    # Tag 12 is covered, not removed: it keeps its place in every later state.
    assert not [e for e in timeline.events if e.kind == "removed"]
    last = timeline.states[-1].tag(12)
    assert last is not None and not last.seen and math.dist((last.x_in, last.y_in), (20, 3)) < 0.1
    assert len(timeline.states) == 4


def test_turn_in_place_is_a_move_and_small_jitter_is_not() -> None:
    poses = {20: [(0.0, 10.0, 10.0, 0.0), (2.5, 10.05, 10.0, 90.0)]}
    hidden = {20: [(2.1, 2.5)]}
    timeline = build_timeline(_stream(poses, hidden, [(2.0, 3.0)], 5.0, jitter_in=0.03))
    assert len(timeline.moves) == 1
    assert timeline.moves[0].distance_in < 0.2
    assert angle_diff_deg(timeline.moves[0].heading_to_deg, 90.0) < 1.0


def test_piece_taken_off_the_table_is_removed_not_moved() -> None:
    poses = {30: [(0.0, 4.0, 4.0, 0.0)], 31: [(0.0, 8.0, 8.0, 0.0)]}
    hidden = {30: [(2.2, 99.0)]}
    timeline = build_timeline(_stream(poses, hidden, [(2.0, 3.0)], 5.0))
    assert not timeline.moves
    removed = [e for e in timeline.events if e.kind == "removed"]
    assert [e.tag_id for e in removed] == [30]
    assert timeline.states[-1].tag(30) is None


def test_short_settled_blip_mid_move_is_not_a_state() -> None:
    poses = {40: [(0.0, 4.0, 4.0, 0.0), (4.0, 10.0, 4.0, 0.0)]}
    hidden = {40: [(2.2, 4.0)]}
    # the tracker thinks the board is settled for 0.2 s while the piece is in the hand
    unsettled = [(2.0, 3.0), (3.2, 4.5)]
    timeline = build_timeline(
        _stream(poses, hidden, unsettled, 7.0), TimelineSettings(settle_min_s=0.5)
    )
    assert len(timeline.states) == 2
    assert len(timeline.moves) == 1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_many_hovers_give_no_phantom_moves(seed: int) -> None:
    rng = random.Random(seed)
    poses = {
        tid: [(0.0, rng.uniform(1, 23), rng.uniform(1, 23), rng.uniform(0, 360))]
        for tid in range(16, 30)
    }
    hidden = {}
    unsettled = []
    t = 1.0
    for _ in range(6):
        unsettled.append((t, t + 1.5))
        for tid in rng.sample(sorted(poses), 4):
            hidden.setdefault(tid, []).append((t + 0.2, t + 1.2))
        t += 3.0
    timeline = build_timeline(_stream(poses, hidden, unsettled, t + 1.0, jitter_in=0.04, seed=seed))
    assert timeline.moves == ()
    assert len(timeline.states) == 7


def test_lift_and_set_down_lie_inside_the_span_the_hand_hides_the_tag() -> None:
    # the hand reaches over the piece at 2.0 s, lifts it at 2.6, sets it down at 3.8 and
    # has left it by 4.4: the tag is hidden from 2.0 to 4.4
    poses = {10: [(0.0, 5.0, 5.0, 0.0), (3.8, 9.0, 7.5, 45.0)]}
    timeline = build_timeline(_stream(poses, {10: [(2.0, 4.4)]}, [(1.8, 4.8)], 7.0))
    (move,) = timeline.moves
    assert abs(move.t_start - 2.6) <= 0.15 and abs(move.t_end - 3.8) <= 0.15


def test_asking_for_the_timeline_midway_changes_nothing() -> None:
    poses = {
        10: [(0.0, 5.0, 5.0, 0.0), (3.6, 9.0, 7.5, 45.0)],
        12: [(0.0, 20.0, 3.0, 180.0)],
    }
    hidden = {10: [(2.4, 3.6)], 12: [(1.0, 99.0)]}
    stream = _stream(poses, hidden, [(2.0, 4.2)], 9.0)
    once = build_timeline(stream)
    builder = TimelineBuilder()
    for i, snap in enumerate(stream):
        builder.add(snap)
        if i % 7 == 0:
            builder.timeline()  # a checkpoint, as the replay writes every 20 s
    again = builder.timeline()
    assert again.moves == once.moves
    assert [s.tags for s in again.states] == [s.tags for s in once.states]
    assert again.states[-1].tag(12) is not None  # hidden by its figure, still on the table


def test_footage_that_ends_on_a_still_board_not_yet_judged_settled_gives_its_last_board() -> None:
    """A model whose tag was hidden is taken off at the very end: the change no tag explains
    keeps the board from being judged settled for seconds the footage no longer has. When
    nothing has moved since, the footage's last frames are its final board (with a picture,
    the removal is read from it); while something still moves, or for less than the settling
    time, they are not."""
    poses = {10: [(0.0, 5.0, 5.0, 0.0)], 12: [(0.0, 20.0, 3.0, 180.0)]}
    hidden = {12: [(2.0, 99.0)]}
    stream = _stream(poses, hidden, [(2.0, 99.0)], 4.0)  # a hand over it, then stillness
    for still_since, states in ((3.0, 2), (3.8, 1), (None, 1)):
        builder = TimelineBuilder()
        for snap in stream:
            builder.add(snap)
        builder.end_still(still_since)
        timeline = builder.timeline()
        assert len(timeline.states) == states, still_since
        if states == 2:
            last = timeline.states[-1]
            assert last.t >= still_since and last.tag(10) is not None
            twelve = last.tag(12)
            assert twelve is None or not twelve.seen

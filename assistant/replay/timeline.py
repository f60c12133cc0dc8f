"""Settled board states and moves from a stream of tracker snapshots.

The timeline compares *settled* boards, never single frames: a tag hidden for a while by a
hovering hand keeps its place, and only a tag seen somewhere else once the board has come to
rest again is a move. Between two settled boards, a piece none of whose tags is seen any more is
judged with the picture (:mod:`assistant.replay.presence`): hidden where it stood, set down out
of sight somewhere else (an inferred move), or taken off the table. Without the picture (a
builder given no :class:`~assistant.replay.hands.HandWatch`), a tag that vanished while the board
was at rest is hidden and one that vanished while it was moving is taken off.

Positions are table inches, headings degrees clockwise from +y, times seconds from the start of
the footage. The records (states, moves, events, settings) live in
:mod:`assistant.replay.records` and are exported here too.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from assistant.replay.hands import HandWatch
from assistant.replay.presence import (
    LEFT,
    Gone,
    PieceGroup,
    first_known,
    judge_missing,
    lone_group,
    piece_groups,
    piece_pose,
    tags_at,
)
from assistant.replay.records import (
    INFERRED,
    KNOWN,
    RULES,
    SEEN,
    UNKNOWN,
    Move,
    SettledState,
    TagRest,
    Timeline,
    TimelineEvent,
    TimelineSettings,
)
from assistant.replay.span_view import SpanView
from assistant.replay.timeline_dates import Sighting, angle_diff_deg, dated_move
from assistant.replay.timeline_missing import MissingPieces, Removal
from vision.types import BoardSnapshot, PieceSpec, TagState

__all__ = [
    "INFERRED",
    "KNOWN",
    "RULES",
    "SEEN",
    "UNKNOWN",
    "Move",
    "SettledState",
    "TagRest",
    "Timeline",
    "TimelineBuilder",
    "TimelineEvent",
    "TimelineSettings",
    "angle_diff_deg",
    "build_timeline",
    "with_fall",
]


def _circular_mean_deg(values: list[float]) -> float:
    s = sum(math.sin(math.radians(v)) for v in values)
    c = sum(math.cos(math.radians(v)) for v in values)
    return math.degrees(math.atan2(s, c)) % 360.0


TAIL_S = 10.0
"""How much unsettled footage the builder keeps for the end of the footage, seconds."""


@dataclass
class TimelineBuilder(MissingPieces):
    """Feed snapshots in time order with ``add``; ``timeline()`` gives the result so far.

    ``pieces``: the pieces whose tags move together (a tag no piece names is a piece of its
    own). ``watch``: the picture between settled boards, fed by the caller with the same
    frames (without it, vanished tags are judged from the tags alone).
    """

    settings: TimelineSettings = field(default_factory=TimelineSettings)
    pieces: tuple[PieceSpec, ...] = ()
    watch: HandWatch | None = None
    _states: list[SettledState] = field(default_factory=list)
    _moves: list[Move] = field(default_factory=list)
    _events: list[TimelineEvent] = field(default_factory=list)
    _run: list[BoardSnapshot] = field(default_factory=list)
    _tail: list[BoardSnapshot] = field(default_factory=list)
    """Unsettled snapshots of the last few seconds (for :meth:`end_still`)."""
    _obs: dict[int, list[Sighting]] = field(default_factory=dict)
    _last_known: dict[int, TagRest] = field(default_factory=dict)
    _removed: dict[str, Removal] = field(default_factory=dict)
    _hidden_under: dict[str, tuple[float, float]] = field(default_factory=dict)
    """For each hidden piece, the lift and set-down (seconds) of a turn in place under the
    hand that covered it as its tags went out of sight (a piece seen again turned, or
    elsewhere, with no hand near it then, was moved under that hand)."""
    _t_last: float = 0.0
    _t_first: float | None = None
    _groups: dict[int, PieceGroup] | None = None

    def add(self, snapshot: BoardSnapshot) -> None:
        """Take the tracker's view after one processed frame."""
        if self._t_first is None:
            self._t_first = snapshot.t
        self._t_last = snapshot.t
        for pose in snapshot.tags:
            seen = pose.state == TagState.SEEN
            self._obs.setdefault(int(pose.tag_id), []).append(
                Sighting(snapshot.t, seen, pose.x_in, pose.y_in, pose.heading_deg)
            )
        if snapshot.settled:
            self._run.append(snapshot)
            self._tail.clear()
        else:
            self._close_run()
            self._tail.append(snapshot)
            while self._tail and snapshot.t - self._tail[0].t > TAIL_S:
                self._tail.pop(0)

    def end_still(self, still_since_t: float | None) -> None:
        """The footage has ended: when nothing moved on the table since ``still_since_t``
        (seconds) for at least the settling time but the board was not judged settled (a
        hidden piece taken off leaves a change no tag explains, absorbed only after seconds
        the footage no longer has), its last frames are the final board."""
        if self._run or still_since_t is None:
            return
        tail = [snap for snap in self._tail if snap.t >= still_since_t]
        self._tail = []
        if tail and tail[-1].t - tail[0].t + 1e-9 >= self.settings.settle_min_s:
            if self.watch is not None:
                self.watch.close(tail[0].t)
            self._commit(self._state_from_run(tail))

    @property
    def moves(self) -> tuple[Move, ...]:
        """Moves found so far (cheap: no open run is closed)."""
        return tuple(self._moves)

    def warn(self, t: float, text: str) -> None:
        """Record a warning (seconds, plain sentence) in the timeline's events."""
        self._events.append(TimelineEvent(t, "warning", text))

    def timeline(self) -> Timeline:
        """Everything found so far; an open settled run counts if it is long enough.

        Asking changes nothing: the open run is closed in a copy of the builder.
        """
        if self._run:
            fork = replace(
                self,
                _states=list(self._states),
                _moves=list(self._moves),
                _events=list(self._events),
                _run=list(self._run),
                _obs={k: list(v) for k, v in self._obs.items()},
                _last_known=dict(self._last_known),
                _removed=dict(self._removed),
                _hidden_under=dict(self._hidden_under),
            )
            fork._close_run()
            return fork._result()
        return self._result()

    def _result(self) -> Timeline:
        start = self._t_first or 0.0
        events = sorted(self._events, key=lambda e: e.t)
        return Timeline(
            tuple(self._states), tuple(self._moves), tuple(events), self._t_last - start
        )

    # -- settled runs -------------------------------------------------------------------------

    def _close_run(self) -> None:
        run = self._run
        if not run:
            return
        self._run = []
        if run[-1].t - run[0].t + 1e-9 < self.settings.settle_min_s:
            return
        self._commit(self._state_from_run(run))

    def _state_from_run(self, run: list[BoardSnapshot]) -> SettledState:
        per_tag: dict[int, list[tuple[float, float, float]]] = {}
        held: dict[int, tuple[float, float, float]] = {}
        for snap in run:
            for pose in snap.tags:
                tid = int(pose.tag_id)
                if pose.state == TagState.SEEN:
                    per_tag.setdefault(tid, []).append((pose.x_in, pose.y_in, pose.heading_deg))
                elif pose.state == TagState.HELD:
                    held[tid] = (pose.x_in, pose.y_in, pose.heading_deg)
        rests: list[TagRest] = []
        for tid, poses in per_tag.items():
            # The second half of the run: the tracker's smoothing has converged by then.
            tail = poses[len(poses) // 2 :]
            rests.append(
                TagRest(
                    tid,
                    statistics.median(p[0] for p in tail),
                    statistics.median(p[1] for p in tail),
                    _circular_mean_deg([p[2] for p in tail]),
                    True,
                )
            )
        for tid, (x, y, h) in held.items():
            if tid not in per_tag:
                rests.append(TagRest(tid, x, y, h, False))
        rests.sort(key=lambda r: r.tag_id)
        return SettledState(run[0].t, run[-1].t, run[0].frame_index, tuple(rests))

    # -- between two settled states -------------------------------------------------------------

    def _group(self, tag_id: int) -> PieceGroup:
        if self._groups is None:
            self._groups = piece_groups(self.pieces, self.settings)
        return self._groups.get(tag_id) or lone_group(tag_id, self.settings)

    def _commit(self, state: SettledState) -> None:
        prev = self._states[-1] if self._states else None
        if prev is None:
            for rest in state.tags:
                self._last_known[rest.tag_id] = rest
            self._states.append(state)
            return
        span = self.watch.span(prev.t_until, state.t) if self.watch is not None else None
        if span is not None and not span.watched:
            span = None
        now = {r.tag_id: r for r in state.tags}
        was = {r.tag_id: r for r in prev.tags}
        out: dict[int, TagRest] = dict(now)
        groups: dict[str, PieceGroup] = {}
        for tid in sorted(set(now) | set(was)):
            group = self._group(tid)
            groups.setdefault(group.name, group)
        occupied: list[tuple[float, float]] = []
        gone: list[Gone] = []
        for group in groups.values():
            here = {t: now[t] for t in group.tag_ids if t in now}
            before = {t: was[t] for t in group.tag_ids if t in was}
            if span is not None and here and before and not any(r.seen for r in here.values()):
                # only held (not seen while the board rested) where it stood: judged as hidden
                x1, y1, _ = piece_pose(group, here.values())
                x0, y0, _ = piece_pose(group, before.values())
                if math.dist((x0, y0), (x1, y1)) < self.settings.move_min_in:
                    here = {}
            if here:
                self._present(group, here, before, prev, state, span, out, occupied)
            elif span is None:
                self._missing_unwatched(group, before, prev, out)
            else:
                verdict = judge_missing(
                    span, *piece_pose(group, before.values())[:2], group.radius_mm, self.settings
                )
                if verdict.verdict == LEFT:
                    x, y, _ = piece_pose(group, before.values())
                    gone.append(Gone(group.name, x, y, group.radius_mm, verdict.cover))
                else:
                    if verdict.cover is not None and any(r.seen for r in before.values()):
                        self._hidden_under[group.name] = self._turn_times(
                            span, group, before, verdict.cover
                        )
                    self._hidden(group, before, prev, out, verdict.known, verdict.how)
        if gone and span is not None:
            self._left(gone, groups, was, occupied, prev, state, span, out)
        state = replace(state, tags=tuple(sorted(out.values(), key=lambda r: r.tag_id)))
        for rest in state.tags:
            self._last_known[rest.tag_id] = rest
        self._states.append(state)
        # Sightings and pictures before the previous state are no longer needed.
        for tid in list(self._obs):
            self._obs[tid] = [o for o in self._obs[tid] if o.t >= prev.t]
        if self.watch is not None:
            self.watch.forget(prev.t_until)

    def _present(
        self,
        group: PieceGroup,
        here: dict[int, TagRest],
        before: dict[int, TagRest],
        prev: SettledState,
        state: SettledState,
        span: SpanView | None,
        out: dict[int, TagRest],
        occupied: list[tuple[float, float]],
    ) -> None:
        """A piece with a tag on the later board: its moves, its hidden tags carried along."""
        s = self.settings
        x1, y1, f1 = piece_pose(group, here.values())
        occupied.append((x1, y1))
        removal = self._removed.pop(group.name, None)
        if removal is not None:  # taken for removed, but here it is: it was not
            self._events = [e for e in self._events if e not in removal.events]
        old = first_known(group.tag_ids, before, removal.rests if removal else {}, self._last_known)
        if not old:
            for tid in here:
                text = f"tag {tid} placed"
                self._events.append(TimelineEvent(state.t, "placed", text, tid))
            return
        x0, y0, _ = piece_pose(group, old.values())
        occupied.append((x0, y0))
        reach_mm = group.radius_mm + s.cover_margin_mm
        touched = span is not None and (
            span.cover(x0, y0, reach_mm) is not None or span.cover(x1, y1, reach_mm) is not None
        )
        move_min = s.touched_move_min_in if touched else s.move_min_in
        turn_min = s.touched_turn_min_deg if touched else s.turn_min_deg
        hidden_before = bool(before) and not any(r.seen for r in before.values())
        under = self._hidden_under.pop(group.name, None)
        for tid, rest in here.items():
            b = old.get(tid)
            if b is None:
                continue
            moved = math.dist((b.x_in, b.y_in), (rest.x_in, rest.y_in))
            turned = angle_diff_deg(b.heading_deg, rest.heading_deg)
            if moved < move_min and turned < turn_min:
                continue
            known, how = SEEN, ""
            if removal is not None:
                known = INFERRED
                how = f"taken for removed at {removal.t:.1f} s, it is seen again here"
            elif hidden_before or b.pose != SEEN:
                known = INFERRED
                how = "its tag was hidden where it stood; it is seen again here"
            if hidden_before and under is not None and not touched:
                # no hand came near it now: the one over it when it went out of sight moved it
                t0, t1 = under
                how = "its tag went out of sight under a hand; it is seen again here"
            else:
                t0, t1 = dated_move(
                    self._obs.get(rest.tag_id, []),
                    s,
                    b,
                    rest,
                    prev,
                    state,
                    span,
                    group.radius_mm,
                    (x0, y0),
                    (x1, y1),
                )
            if removal is not None:
                t0 = min(t0, removal.t)
            self._moves.append(
                Move(
                    tid,
                    (b.x_in, b.y_in),
                    (rest.x_in, rest.y_in),
                    b.heading_deg,
                    rest.heading_deg,
                    t0,
                    t1,
                    known,
                    how,
                )
            )
        carried = [t for t in group.tag_ids if t not in here and t in before]
        for rest in tags_at(group, x1, y1, f1, carried):
            out[rest.tag_id] = rest


def with_fall(timeline: Timeline, tag_ids: Iterable[int], t: float, text: str) -> Timeline:
    """The timeline once the engine's reconstruction says a piece fell at ``t`` seconds (the
    hook for the game from the moves): a "removed" event for each of its tags, known from the
    rules, and the piece left out of the settled states after ``t`` where its tags are hidden
    (a tag seen later says the piece is still there, and it stays)."""
    ids = {int(i) for i in tag_ids}
    how = "the game's reconstruction says it fell"
    events = [
        TimelineEvent(t, "removed", text, tid, RULES, how)
        for tid in sorted(ids)
        if not any(e.kind == "removed" and e.tag_id == tid for e in timeline.events)
    ]
    states = tuple(
        replace(s, tags=tuple(r for r in s.tags if not (r.tag_id in ids and not r.seen)))
        if s.t >= t
        else s
        for s in timeline.states
    )
    ordered_events = tuple(sorted((*timeline.events, *events), key=lambda e: e.t))
    return replace(timeline, states=states, events=ordered_events)


def build_timeline(
    snapshots: Iterable[BoardSnapshot], settings: TimelineSettings | None = None
) -> Timeline:
    """The timeline of a whole stream of snapshots (seconds, inches, degrees), judged from the
    tags alone (no picture)."""
    builder = TimelineBuilder(settings or TimelineSettings())
    for snap in snapshots:
        builder.add(snap)
    return builder.timeline()

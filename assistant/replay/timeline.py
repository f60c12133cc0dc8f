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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from assistant.replay.hands import Cover, HandWatch, SpanView
from assistant.replay.presence import (
    LEFT,
    Gone,
    PieceGroup,
    cover_times,
    find_destinations,
    first_known,
    judge_missing,
    lift_time,
    lone_group,
    move_times,
    ordered,
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


@dataclass(frozen=True)
class _Obs:
    t: float
    seen: bool
    x_in: float
    y_in: float
    heading_deg: float


@dataclass(frozen=True)
class _Removal:
    """A piece taken for removed: its events and last rests, in case it is seen again."""

    events: tuple[TimelineEvent, ...]
    rests: Mapping[int, TagRest]
    t: float


def angle_diff_deg(a_deg: float, b_deg: float) -> float:
    """Absolute difference of two headings in degrees, in [0, 180]."""
    d = (a_deg - b_deg) % 360.0
    return min(d, 360.0 - d)


def _circular_mean_deg(values: list[float]) -> float:
    s = sum(math.sin(math.radians(v)) for v in values)
    c = sum(math.cos(math.radians(v)) for v in values)
    return math.degrees(math.atan2(s, c)) % 360.0


TAIL_S = 10.0
"""How much unsettled footage the builder keeps for the end of the footage, seconds."""


@dataclass
class TimelineBuilder:
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
    _obs: dict[int, list[_Obs]] = field(default_factory=dict)
    _last_known: dict[int, TagRest] = field(default_factory=dict)
    _removed: dict[str, _Removal] = field(default_factory=dict)
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
                _Obs(snapshot.t, seen, pose.x_in, pose.y_in, pose.heading_deg)
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
            t0, t1 = self._dated_move(b, rest, prev, state, span, group, (x0, y0), (x1, y1))
            if hidden_before and under is not None and not touched:
                # no hand came near it now: the one over it when it went out of sight moved it
                t0, t1 = under
                how = "its tag went out of sight under a hand; it is seen again here"
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

    def _turn_times(
        self, span: SpanView, group: PieceGroup, before: dict[int, TagRest], cover: Cover
    ) -> tuple[float, float]:
        """Lift and set-down (seconds) of a piece turned or set back in its place under the
        hand that covered it (``cover``), from where the hand stopped over it."""
        x, y, _ = piece_pose(group, before.values())
        seen_at = [o.t for t in before for o in self._obs.get(t, []) if o.seen]
        after_t = max(seen_at) - 0.25 if seen_at else None
        fallback = (cover.first_t, cover.last_t)
        return move_times(span, (x, y), (x, y), group.radius_mm, self.settings, fallback, after_t)

    def _hidden(
        self,
        group: PieceGroup,
        before: dict[int, TagRest],
        prev: SettledState,
        out: dict[int, TagRest],
        known: str,
        how: str,
    ) -> None:
        """A piece whose tags are not seen but that stands where it stood."""
        for tid, rest in before.items():
            out[tid] = replace(rest, seen=False)
        if any(r.seen for r in before.values()):
            tid = min(before)
            seen_at = [o.t for t in before for o in self._obs.get(t, []) if o.seen]
            t = max(seen_at) if seen_at else prev.t_until
            text = f"tag {tid} hidden: taken to stand where it was last seen"
            self._events.append(TimelineEvent(t, "hidden", text, tid, known, how))

    def _missing_unwatched(
        self,
        group: PieceGroup,
        before: dict[int, TagRest],
        prev: SettledState,
        out: dict[int, TagRest],
    ) -> None:
        """No picture: a piece whose tags vanished while the board moved is taken off."""
        seen_at = [o.t for t in before for o in self._obs.get(t, []) if o.seen]
        if not seen_at or max(seen_at) <= prev.t_until + 1e-9:
            how = "its tags went out of sight while the board was at rest"
            self._hidden(group, before, prev, out, INFERRED, how)
            return
        t = max(seen_at)
        how = "its tags went out of sight while the board was moving (no picture to tell more)"
        events = []
        for tid in before:
            text = f"tag {tid} not seen since {t:.1f} s: taken off the table, or hidden"
            events.append(TimelineEvent(t, "removed", text, tid, INFERRED, how))
        self._events.extend(events)
        self._removed[group.name] = _Removal(tuple(events), dict(before), t)

    def _left(
        self,
        gone: list[Gone],
        groups: dict[str, PieceGroup],
        was: dict[int, TagRest],
        occupied: list[tuple[float, float]],
        prev: SettledState,
        state: SettledState,
        span: SpanView,
        out: dict[int, TagRest],
    ) -> None:
        """Pieces whose place is empty: set down out of sight, or taken off the table."""
        s = self.settings
        found = find_destinations(span, gone, occupied, s)
        for g in gone:
            group = groups[g.key]
            before = {t: was[t] for t in group.tag_ids if t in was}
            seen_at = [o.t for t in before for o in self._obs.get(t, []) if o.seen]
            last_seen = max(seen_at) if seen_at else prev.t_until
            t_lift = lift_time(span, g.x_in, g.y_in, g.radius_mm, s, last_seen, last_seen - 0.25)
            blob = found.get(g.key)
            if blob is None:
                how = (
                    "the hand was over it; its place is empty after and it was not set down "
                    "anywhere in view"
                )
                events = []
                for tid in before:
                    text = f"tag {tid} taken off the table"
                    events.append(TimelineEvent(t_lift, "removed", text, tid, SEEN, how))
                self._events.extend(events)
                self._removed[g.key] = _Removal(tuple(events), before, t_lift)
                continue
            old_in, new_in = (g.x_in, g.y_in), (blob.x_in, blob.y_in)
            by_cover = cover_times(
                span, old_in, new_in, g.radius_mm, s, (t_lift, state.t), last_seen - 0.25
            )
            t0, t1 = move_times(span, old_in, new_in, g.radius_mm, s, by_cover, last_seen - 0.25)
            _, _, facing = piece_pose(group, before.values())
            how = (
                f"its tag was not seen after the hand left; a figure now stands at "
                f"({blob.x_in:.1f}, {blob.y_in:.1f}) in, where the board was empty "
                "(its facing there is not known)"
            )
            for rest in tags_at(group, blob.x_in, blob.y_in, facing, before, INFERRED):
                b = before[rest.tag_id]
                self._moves.append(
                    Move(
                        rest.tag_id,
                        (b.x_in, b.y_in),
                        (rest.x_in, rest.y_in),
                        b.heading_deg,
                        rest.heading_deg,
                        t0,
                        t1,
                        INFERRED,
                        how,
                        facing_known=False,
                    )
                )
                out[rest.tag_id] = rest

    def _dated_move(
        self,
        before: TagRest,
        after: TagRest,
        prev: SettledState,
        state: SettledState,
        span: SpanView | None,
        group: PieceGroup,
        centre_from: tuple[float, float],
        centre_to: tuple[float, float],
    ) -> tuple[float, float]:
        """Lift and set-down times (seconds) of a tag seen at its new place: from the hand's
        path when there is a picture, else from the tag's sightings."""
        s = self.settings
        # 'Near' a rest: when neither the shift nor the turn tells the old and the new pose
        # apart at the usual tolerances, the one that differs most is narrowed to half of it.
        moved = math.dist((before.x_in, before.y_in), (after.x_in, after.y_in))
        turned = angle_diff_deg(before.heading_deg, after.heading_deg)
        near_in, near_deg = s.near_in, s.near_deg
        if moved < 2 * near_in and turned < 2 * near_deg:
            if moved / near_in >= turned / near_deg:
                near_in = max(moved / 2, 0.02)
            else:
                near_deg = max(turned / 2, 0.5)

        def near(o: _Obs, rest: TagRest) -> bool:
            return (
                o.seen
                and math.dist((o.x_in, o.y_in), (rest.x_in, rest.y_in)) <= near_in
                and angle_diff_deg(o.heading_deg, rest.heading_deg) <= near_deg
            )

        obs = [o for o in self._obs.get(after.tag_id, []) if o.t <= state.t_until]
        # Set down: the first sighting at the new place after which it is seen nowhere else.
        i_end = len(obs) - 1
        for i in range(len(obs) - 1, -1, -1):
            if not obs[i].seen:
                continue
            if near(obs[i], after):
                i_end = i
            else:
                break
        t_back = obs[i_end].t if obs else state.t
        if obs and i_end > 0 and not obs[i_end - 1].seen:
            t_back -= s.confirm_lag_s
        # Lifted: the first moment after the last sighting at the old place.
        t_gone = prev.t_until
        for i in range(i_end - 1, -1, -1):
            if near(obs[i], before):
                t_gone = obs[i + 1].t if i + 1 < len(obs) else obs[i].t
                break
        t_gone = min(t_gone, t_back)
        reach = min(s.reach_cap_s, s.reach_share * (t_back - t_gone))
        t_start, t_end = t_gone + reach, t_back - reach
        if span is not None:
            t_start, t_end = move_times(
                span,
                centre_from,
                centre_to,
                group.radius_mm,
                s,
                (t_start, t_end),
                t_gone - 0.25,
            )
            t_start, t_end = max(t_start, t_gone), min(t_end, t_back)
        return ordered(t_start, t_end)


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

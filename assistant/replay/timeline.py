"""Settled board states and moves from a stream of tracker snapshots.

The timeline compares *settled* boards, never single frames: a tag hidden for a while by a
hovering hand or by its own figure keeps its place, and only a tag seen somewhere else once the
board has come to rest again is a move. Positions are table inches, headings degrees clockwise
from +y, times seconds from the start of the footage.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from vision.types import BoardSnapshot, TagState


@dataclass(frozen=True)
class TagRest:
    """Where a tag lies in a settled board state."""

    tag_id: int
    x_in: float
    y_in: float
    heading_deg: float
    """Degrees clockwise from +y, in [0, 360)."""
    seen: bool
    """True when the tag was seen while the board was settled; False when only held."""

    def to_json(self) -> dict[str, Any]:
        """The tag as a JSON object (inches, degrees)."""
        return {
            "id": self.tag_id,
            "x": round(self.x_in, 3),
            "y": round(self.y_in, 3),
            "heading": round(self.heading_deg, 1),
            "seen": self.seen,
        }


@dataclass(frozen=True)
class SettledState:
    """The board at rest: every tag on the table with its pose."""

    t: float
    """Seconds: when the board came to rest."""
    t_until: float
    """Seconds: the last moment it was still at rest (before the next hand came in)."""
    frame_index: int
    """Frame at which the board came to rest."""
    tags: tuple[TagRest, ...]

    def tag(self, tag_id: int) -> TagRest | None:
        """The tag's rest pose, or None when it is not on the table in this state."""
        for rest in self.tags:
            if rest.tag_id == tag_id:
                return rest
        return None

    def to_json(self) -> dict[str, Any]:
        """The state as a JSON object (seconds, inches, degrees)."""
        return {
            "t": round(self.t, 3),
            "t_until": round(self.t_until, 3),
            "frame": self.frame_index,
            "tags": [rest.to_json() for rest in self.tags],
        }


@dataclass(frozen=True)
class Move:
    """A tag that lies somewhere else (or faces another way) in a later settled state."""

    tag_id: int
    from_in: tuple[float, float]
    to_in: tuple[float, float]
    heading_from_deg: float
    heading_to_deg: float
    t_start: float
    """Seconds: when the tag was lifted or started moving."""
    t_end: float
    """Seconds: when the tag was set down (first seen at its new place)."""

    @property
    def distance_in(self) -> float:
        """Straight-line length of the move in inches."""
        return math.dist(self.from_in, self.to_in)

    def to_json(self) -> dict[str, Any]:
        """The move in the timeline.json form (inches, degrees, seconds)."""
        return {
            "tag": self.tag_id,
            "from": [round(self.from_in[0], 3), round(self.from_in[1], 3)],
            "to": [round(self.to_in[0], 3), round(self.to_in[1], 3)],
            "heading_from": round(self.heading_from_deg, 1),
            "heading_to": round(self.heading_to_deg, 1),
            "t_start": round(self.t_start, 3),
            "t_end": round(self.t_end, 3),
        }


@dataclass(frozen=True)
class TimelineEvent:
    """Something the timeline noticed besides a move: a tag removed, placed, or a warning."""

    t: float
    """Seconds."""
    kind: str
    """"removed" (off the table), "placed" (new on the table), "warning"."""
    text: str
    tag_id: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object."""
        out: dict[str, Any] = {"t": round(self.t, 3), "kind": self.kind, "text": self.text}
        if self.tag_id is not None:
            out["tag"] = self.tag_id
        return out


@dataclass(frozen=True)
class Timeline:
    """Settled states, the moves between them and other events, in time order."""

    states: tuple[SettledState, ...]
    moves: tuple[Move, ...]
    events: tuple[TimelineEvent, ...]
    duration_s: float
    """Seconds of footage that were looked at."""


@dataclass(frozen=True)
class TimelineSettings:
    """Thresholds of the timeline (inches, degrees, seconds)."""

    settle_min_s: float = 0.5
    """The board must stay settled this long to count as a settled state."""
    move_min_in: float = 0.3
    """A tag displaced less than this between settled states has not moved."""
    turn_min_deg: float = 12.0
    """A tag turned less than this between settled states has not turned."""
    near_in: float = 0.25
    """A sighting this close to a rest position counts as 'still there'."""
    near_deg: float = 10.0
    confirm_lag_s: float = 0.0
    """How long after a tag reappears the tracker reports it seen (its confirmation frames);
    taken off the time a move ended."""
    reach_share: float = 0.25
    """A lifted piece's tag is hidden from when the hand reaches over it until the hand has
    left its new place; the lift and the set-down happen inside that span. The hand's reach
    and its withdrawal are taken to last this share of the span each (capped by
    ``reach_cap_s``): on the project's rendered battles the lift came 0.1-1.0 s after the tag
    was hidden and the set-down 0.3-0.9 s before it was seen again, spans of 1.7-3.0 s."""
    reach_cap_s: float = 1.0


@dataclass(frozen=True)
class _Obs:
    t: float
    seen: bool
    x_in: float
    y_in: float
    heading_deg: float


def angle_diff_deg(a_deg: float, b_deg: float) -> float:
    """Absolute difference of two headings in degrees, in [0, 180]."""
    d = (a_deg - b_deg) % 360.0
    return min(d, 360.0 - d)


def _circular_mean_deg(values: list[float]) -> float:
    s = sum(math.sin(math.radians(v)) for v in values)
    c = sum(math.cos(math.radians(v)) for v in values)
    return math.degrees(math.atan2(s, c)) % 360.0


@dataclass
class TimelineBuilder:
    """Feed snapshots in time order with ``add``; ``timeline()`` gives the result so far.

    The builder keeps each tag's sightings since the previous settled state to date a move's
    start (last seen where it was) and end (first seen where it now lies).
    """

    settings: TimelineSettings = field(default_factory=TimelineSettings)
    _states: list[SettledState] = field(default_factory=list)
    _moves: list[Move] = field(default_factory=list)
    _events: list[TimelineEvent] = field(default_factory=list)
    _run: list[BoardSnapshot] = field(default_factory=list)
    _obs: dict[int, list[_Obs]] = field(default_factory=dict)
    _last_known: dict[int, TagRest] = field(default_factory=dict)
    _t_last: float = 0.0
    _t_first: float | None = None

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
        else:
            self._close_run()

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

    # -- internals ---------------------------------------------------------------------------

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

    def _commit(self, state: SettledState) -> None:
        prev = self._states[-1] if self._states else None
        s = self.settings
        if prev is not None:
            for rest in state.tags:
                before = prev.tag(rest.tag_id)
                if before is None:
                    before = self._last_known.get(rest.tag_id)
                    if before is None:
                        self._events.append(
                            TimelineEvent(
                                state.t, "placed", f"tag {rest.tag_id} placed", rest.tag_id
                            )
                        )
                        continue
                moved = math.dist((before.x_in, before.y_in), (rest.x_in, rest.y_in))
                turned = angle_diff_deg(before.heading_deg, rest.heading_deg)
                if moved >= s.move_min_in or turned >= s.turn_min_deg:
                    self._moves.append(self._dated_move(before, rest, prev, state))
            carried: list[TagRest] = []
            for before in prev.tags:
                if state.tag(before.tag_id) is not None:
                    continue
                seen_at = [o.t for o in self._obs.get(before.tag_id, []) if o.seen]
                if not seen_at or seen_at[-1] <= prev.t_until + 1e-9:
                    # Vanished while the board was at rest: covered (by its own figure), not
                    # taken away. It keeps its place.
                    carried.append(replace(before, seen=False))
                    continue
                text = (
                    f"tag {before.tag_id} not seen since {seen_at[-1]:.1f} s: taken off the "
                    "table, or hidden by its figure"
                )
                self._events.append(TimelineEvent(seen_at[-1], "removed", text, before.tag_id))
            if carried:
                tags = sorted((*state.tags, *carried), key=lambda r: r.tag_id)
                state = replace(state, tags=tuple(tags))
        for rest in state.tags:
            self._last_known[rest.tag_id] = rest
        self._states.append(state)
        # Sightings before the previous state are no longer needed to date moves.
        cutoff = prev.t if prev is not None else state.t
        for tid in list(self._obs):
            self._obs[tid] = [o for o in self._obs[tid] if o.t >= cutoff]

    def _dated_move(
        self, before: TagRest, after: TagRest, prev: SettledState, state: SettledState
    ) -> Move:
        s = self.settings

        def near(o: _Obs, rest: TagRest) -> bool:
            return (
                o.seen
                and math.dist((o.x_in, o.y_in), (rest.x_in, rest.y_in)) <= s.near_in
                and angle_diff_deg(o.heading_deg, rest.heading_deg) <= s.near_deg
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
        t_end = obs[i_end].t if obs else state.t
        if obs and i_end > 0 and not obs[i_end - 1].seen:
            t_end -= s.confirm_lag_s
        # Lifted: the first moment after the last sighting at the old place.
        t_start = prev.t_until
        for i in range(i_end - 1, -1, -1):
            if near(obs[i], before):
                t_start = obs[i + 1].t if i + 1 < len(obs) else obs[i].t
                break
        t_start = min(t_start, t_end)
        reach = min(s.reach_cap_s, s.reach_share * (t_end - t_start))
        t_start, t_end = t_start + reach, t_end - reach
        return Move(
            after.tag_id,
            (before.x_in, before.y_in),
            (after.x_in, after.y_in),
            before.heading_deg,
            after.heading_deg,
            t_start,
            t_end,
        )


def build_timeline(
    snapshots: Iterable[BoardSnapshot], settings: TimelineSettings | None = None
) -> Timeline:
    """The timeline of a whole stream of snapshots (seconds, inches, degrees)."""
    builder = TimelineBuilder(settings or TimelineSettings())
    for snap in snapshots:
        builder.add(snap)
    return builder.timeline()

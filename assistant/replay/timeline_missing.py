"""Pieces none of whose tags the later settled board shows (part of
:class:`~assistant.replay.timeline.TimelineBuilder`): hidden where they stood, set down out of
sight somewhere else (an inferred move), or taken off the table; judged with the picture
(:mod:`assistant.replay.presence`) or, without one, from when their tags went out of sight.
Inches, millimetres, degrees and seconds."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from assistant.replay.presence import (
    Gone,
    PieceGroup,
    cover_times,
    find_destinations,
    lift_time,
    move_times,
    piece_pose,
    tags_at,
)
from assistant.replay.records import (
    INFERRED,
    SEEN,
    Move,
    SettledState,
    TagRest,
    TimelineEvent,
    TimelineSettings,
)
from assistant.replay.span_view import Cover, SpanView
from assistant.replay.timeline_dates import Sighting


@dataclass(frozen=True)
class Removal:
    """A piece taken for removed: its events and last rests, in case it is seen again."""

    events: tuple[TimelineEvent, ...]
    rests: Mapping[int, TagRest]
    t: float


class MissingPieces:
    """The timeline builder's judgement of pieces gone from sight (its state, below, is the
    builder's own)."""

    settings: TimelineSettings
    _moves: list[Move]
    _events: list[TimelineEvent]
    _obs: dict[int, list[Sighting]]
    _removed: dict[str, Removal]
    _hidden_under: dict[str, tuple[float, float]]

    def _last_seen_t(self, rests: Mapping[int, TagRest]) -> float | None:
        """When (seconds) any of these tags was last seen; None if never."""
        seen_at = [o.t for t in rests for o in self._obs.get(t, []) if o.seen]
        return max(seen_at) if seen_at else None

    def _turn_times(
        self, span: SpanView, group: PieceGroup, before: dict[int, TagRest], cover: Cover
    ) -> tuple[float, float]:
        """Lift and set-down (seconds) of a piece turned or set back in its place under the
        hand that covered it (``cover``), from where the hand stopped over it."""
        x, y, _ = piece_pose(group, before.values())
        last_seen = self._last_seen_t(before)
        after_t = None if last_seen is None else last_seen - 0.25
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
            last_seen = self._last_seen_t(before)
            t = prev.t_until if last_seen is None else last_seen
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
        last_seen = self._last_seen_t(before)
        if last_seen is None or last_seen <= prev.t_until + 1e-9:
            how = "its tags went out of sight while the board was at rest"
            self._hidden(group, before, prev, out, INFERRED, how)
            return
        t = last_seen
        how = "its tags went out of sight while the board was moving (no picture to tell more)"
        events = []
        for tid in before:
            text = f"tag {tid} not seen since {t:.1f} s: taken off the table, or hidden"
            events.append(TimelineEvent(t, "removed", text, tid, INFERRED, how))
        self._events.extend(events)
        self._removed[group.name] = Removal(tuple(events), dict(before), t)

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
            seen_t = self._last_seen_t(before)
            last_seen = prev.t_until if seen_t is None else seen_t
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
                self._removed[g.key] = Removal(tuple(events), before, t_lift)
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

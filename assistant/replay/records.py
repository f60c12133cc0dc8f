"""What a replay's timeline is made of: settled states, moves, events, and how each was known.

Positions are table inches, headings degrees clockwise from +y, times seconds from the start of
the footage. Every move and event says how it was known (``known``):

- ``"seen"``: the tags show it (a tag seen at both places; a place emptied under the hand);
- ``"inferred"``: concluded from what the picture shows besides the tags: the hand's path, the
  settled boards before and after (a figure standing where the board was empty), a hidden tag
  seen again elsewhere;
- ``"rules"``: from the engine's reconstruction of the game (a model that fell);
- ``"unknown"``: the footage cannot tell (something large still covers the place).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

SEEN = "seen"
INFERRED = "inferred"
RULES = "rules"
UNKNOWN = "unknown"
KNOWN = (SEEN, INFERRED, RULES, UNKNOWN)
"""How a move or event was known, from the surest to the least sure."""


def weakest(*known: str) -> str:
    """The least sure of several ``known`` values."""
    return max(known, key=KNOWN.index) if known else SEEN


@dataclass(frozen=True)
class TagRest:
    """Where a tag lies in a settled board state."""

    tag_id: int
    x_in: float
    y_in: float
    heading_deg: float
    """Degrees clockwise from +y, in [0, 360)."""
    seen: bool
    """True when the tag was seen while the board was settled; False when it is hidden (its
    piece is taken to stand here: drawn dimmed)."""
    pose: str = SEEN
    """How the pose is known: "seen" (measured from the tag, now or before it was hidden) or
    "inferred" (a hidden piece set down here, found from the picture: its heading is the one
    it had before)."""

    def to_json(self) -> dict[str, Any]:
        """The tag as a JSON object (inches, degrees)."""
        out: dict[str, Any] = {
            "id": self.tag_id,
            "x": round(self.x_in, 3),
            "y": round(self.y_in, 3),
            "heading": round(self.heading_deg, 1),
            "seen": self.seen,
        }
        if self.pose != SEEN:
            out["pose"] = self.pose
        return out


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
    known: str = SEEN
    """How the move was known (see the module docstring)."""
    how: str = ""
    """For a move not plainly seen: one sentence saying how it was found."""
    facing_known: bool = True
    """False when the piece's facing at its new place could not be seen (its tag hidden):
    ``heading_to_deg`` is then the heading it had before."""

    @property
    def distance_in(self) -> float:
        """Straight-line length of the move in inches."""
        return math.dist(self.from_in, self.to_in)

    def to_json(self) -> dict[str, Any]:
        """The move in the timeline.json form (inches, degrees, seconds)."""
        return {"tag": self.tag_id, **move_fields(self)}


def move_fields(move: Any) -> dict[str, Any]:
    """The timeline.json fields every move has (a tag's or a piece's): where from and to in
    inches, headings in degrees, times in seconds, and how it was known."""
    out: dict[str, Any] = {
        "from": [round(move.from_in[0], 3), round(move.from_in[1], 3)],
        "to": [round(move.to_in[0], 3), round(move.to_in[1], 3)],
        "heading_from": round(move.heading_from_deg, 1),
        "heading_to": round(move.heading_to_deg, 1),
        "t_start": round(move.t_start, 3),
        "t_end": round(move.t_end, 3),
        "known": move.known,
    }
    if move.how:
        out["how"] = move.how
    if not move.facing_known:
        out["facing_known"] = False
    return out


@dataclass(frozen=True)
class TimelineEvent:
    """Something the timeline noticed besides a move: a tag removed, hidden, placed, a warning."""

    t: float
    """Seconds."""
    kind: str
    """"removed" (off the table), "hidden" (its tag cannot be seen, the piece taken to stand
    where it was), "placed" (new on the table), "warning"."""
    text: str
    tag_id: int | None = None
    known: str = SEEN
    """How it was known (see the module docstring)."""
    how: str = ""
    """One sentence saying how it was found."""

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object."""
        out: dict[str, Any] = {"t": round(self.t, 3), "kind": self.kind, "text": self.text}
        if self.tag_id is not None:
            out["tag"] = self.tag_id
        if self.kind != "warning":
            out["known"] = self.known
        if self.how:
            out["how"] = self.how
        return out


@dataclass(frozen=True)
class Timeline:
    """Settled states, the moves between them and other events, in time order."""

    states: tuple[SettledState, ...]
    moves: tuple[Move, ...]
    events: tuple[TimelineEvent, ...]
    duration_s: float
    """Seconds of footage that were looked at."""

    def known_counts(self) -> dict[str, int]:
        """How many moves, removals and hidden pieces were known each way (keys of KNOWN)."""
        counts = dict.fromkeys(KNOWN, 0)
        for m in self.moves:
            counts[m.known] += 1
        for e in self.events:
            if e.kind in ("removed", "hidden"):
                counts[e.known] += 1
        return counts


@dataclass(frozen=True)
class TimelineSettings:
    """Thresholds of the timeline (inches, degrees, seconds, shares 0-1)."""

    settle_min_s: float = 0.5
    """The board must stay settled this long to count as a settled state."""
    move_min_in: float = 0.3
    """A tag displaced less than this between settled states has not moved."""
    turn_min_deg: float = 12.0
    """A tag turned less than this between settled states has not turned."""
    touched_move_min_in: float = 0.15
    touched_turn_min_deg: float = 3.0
    """The same for a piece the hand came over: a small turn or shift is then a real one."""
    near_in: float = 0.25
    """A sighting this close to a rest position counts as 'still there'."""
    near_deg: float = 10.0
    confirm_lag_s: float = 0.0
    """How long after a tag reappears the tracker reports it seen (its confirmation frames);
    taken off the time a move ended."""
    reach_s: float = 0.8
    """For a piece with no tag to date its move (hidden, found from the picture) when the hand
    made no stop to see: from the hand first covering it to the lift (seconds). Measured on
    the battles of ``soloscope footage``, where the lift came 0.6-1.0 s after the hand first
    covered the piece and the set-down 0.7-0.8 s before the hand last covered its new place."""
    withdraw_s: float = 0.75
    """From the set-down to the hand last covering the new place (seconds)."""
    dwell_fps: float = 7.0
    """Below this many frames a second looked at, the hand's stops are not looked for."""
    reach_share: float = 0.25
    """Without the hand's path (no picture): the lift and set-down are dated from the tag's
    sightings, the reach and withdrawal taken to last this share of the time it was hidden
    each (capped by ``reach_cap_s``)."""
    reach_cap_s: float = 1.0
    vacated_share: float = 0.25
    """A piece's place has changed when this share of its base differs between the settled
    boards before and after."""
    empty_ratio: float = 0.55
    """...and is empty when what stands out there from the mat around it is below this share
    of what stood out before."""
    cover_margin_mm: float = 10.0
    """The hand came near a piece when it covered its base grown by this much."""
    default_base_mm: float = 25.0
    """Base diameter assumed for a tag that belongs to no known piece."""

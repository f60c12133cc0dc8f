"""The stories of a game read back from footage: what the engine made of it so far (its state,
the cost of what the footage does not show, the events and activation steps, the seen dice
used), the removals it reads, and the whole-timeline entry point :func:`engine_replay`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from assistant.replay.dice_seen import SeenRoll
from assistant.replay.reconstruct import PieceMove, Roster, piece_moves, piece_positions
from assistant.replay.review import Corrections
from assistant.replay.timeline import Timeline
from engine.model import GameState

if TYPE_CHECKING:
    from assistant.replay.engine_replay import GameReplayer


@dataclass(frozen=True)
class Removal:
    """A piece taken off the table: its name and when it was last seen (seconds)."""

    piece: str
    t: float


@dataclass(frozen=True)
class EngineReplay:
    """What the engine made of the footage: timeline events and the activation steps."""

    events: tuple[dict[str, Any], ...]
    """{"t", "kind", "text", "unit", "source": "engine", ...} in time order."""
    activations: tuple[dict[str, Any], ...]
    """Steps for the viewer: {"index", "t", "t_start", "label", "tags"}."""


@dataclass
class Story:
    """One reading of the footage so far: the engine's state and what it reported."""

    state: GameState
    cost: float = 0.0
    events: list[dict[str, Any]] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)
    per_side: dict[str, int] = field(default_factory=dict)
    cursor: int = 0
    """Seen dice used so far."""

    def fork(self, state: GameState | None = None, cost: float = 0.0, used: int = 0) -> Story:
        return Story(
            self.state if state is None else state,
            self.cost + cost,
            list(self.events),
            list(self.steps),
            dict(self.per_side),
            self.cursor + used,
        )


POSE_GRAIN_IN = 0.1
"""Stories whose states differ only in the units' poses by less than this (inches) ..."""
FACING_GRAIN_DEG = 3.0
"""... and facings by less than this (degrees) are one story: the footage cannot tell them
apart, and near-copies (a facing along the last leg or as seen; a shot from points around the
seen place) would fill the beam and crowd out readings that differ in what happened."""


def _gist(state: GameState, poses: bool = True) -> GameState:
    """``state`` with its units' poses to the grain above (``poses`` False: without them)."""
    units = tuple(
        replace(
            u,
            x=round(u.x / POSE_GRAIN_IN) if poses else 0,
            y=round(u.y / POSE_GRAIN_IN) if poses else 0,
            heading_deg=(round(u.heading_deg / FACING_GRAIN_DEG) % round(360 / FACING_GRAIN_DEG))
            if poses
            else 0,
        )
        for u in state.units
    )
    return replace(state, units=units)


def prune(stories: list[Story], beam: int) -> list[Story]:
    """At most ``beam`` stories, one per engine state (to the grain above) and seen dice
    used: first the cheapest of each reading of what happened (the same state but for where
    the units stand), then the cheapest of the rest. Stories that differ only in poses
    within the camera's error would otherwise fill the beam and crowd out a slightly dearer
    reading in which a unit fell, which the next removal shows to be the true one."""
    ranked = sorted(stories, key=lambda s: s.cost)
    # (what happened, and where the units stand) of each story, to the grain above
    keys = [((_gist(s.state, False), s.cursor), (_gist(s.state), s.cursor)) for s in ranked]
    kept: list[Story] = []
    seen: set[tuple[GameState, int]] = set()
    for poses in (False, True):
        for story, (gist, exact) in zip(ranked, keys, strict=True):
            key = exact if poses else gist
            if key in seen or exact in seen:
                continue
            seen.add(key)
            seen.add(exact)
            kept.append(story)
            if len(kept) >= beam:
                return sorted(kept, key=lambda s: s.cost)
    return sorted(kept, key=lambda s: s.cost)


def engine_replay(
    timeline: Timeline,
    roster: Roster,
    replayer: GameReplayer,
    moves: Sequence[PieceMove] | None = None,
    corrections: Corrections | None = None,
    rolls: Sequence[SeenRoll] = (),
) -> EngineReplay:
    """The engine's reading of a whole timeline: its piece moves (``moves``, or grouped from
    the tag moves), the pieces taken off (a piece with several tags once all of them are
    gone) and the poses of the first settled state."""
    if moves is None:
        moves = piece_moves(timeline.moves, roster)
    removals: list[Removal] = []
    gone: dict[str, set[int]] = {}
    for e in sorted(timeline.events, key=lambda e: e.t):
        if e.kind != "removed" or e.tag_id is None:
            continue
        found = roster.piece_of_tag(e.tag_id)
        if found is None:
            continue
        piece = found[0]
        tags = gone.setdefault(piece.name, set())
        tags.add(e.tag_id)
        if tags >= {int(m.tag_id) for m in piece.tags}:
            name = corrections.fall_piece(e.t, piece.name) if corrections else piece.name
            removals.append(Removal(name, e.t))
            tags.clear()
    start: dict[str, tuple[float, float, float]] = {}
    if timeline.states:
        for p in piece_positions(timeline.states[0], roster):
            start[p["name"]] = (p["x"], p["y"], p["heading"])
    return replayer.replay(moves, removals, start, rolls)

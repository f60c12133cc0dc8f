"""The search over stories of a game read back from footage alone: the beam that walks the
footage's moves and removals in time order and keeps the likeliest readings (the model's terms
are engine_model's, the reading of one move engine_moves', a story engine_story's record).

With a scenario but no session log, the piece moves and removals the footage shows are walked in
time order through the scenario's ruleset. Every step is the engine's: the ruleset says whose
turn it is (``pending``), which actions are legal (``validate``) and what they do (``apply``);
the table adapter only says which actions a move the camera saw could have been. The dice are
unknown: each action is applied on every result the dice could give, and the stories that fit
what the table shows next are kept (the fewest unseen passes, the fewest moves or removals the
rules do not explain). What leaves no trace in the footage (a pass, a shot from where a unit
stands) is assumed only as far as the footage needs it: a pass where the next unit seen moving
is not the one whose turn it is.

For a unit of the AI side the AI's order at that moment is worked out and the real move
compared with it; for a unit of the human side the move is checked against the rules. A move
no legal action explains still counts: the unit stands where the footage shows it. Inches,
degrees and seconds throughout.

Dice seen in the tray (``rolls``, issue 10): each story keeps a cursor into the seen dice (one
per die, in time order; an unread roll counts as one unread die). A die the rules ask for
takes the next seen face instead of branching (engine_branches). Before the action of a move
that starts at ``t_start`` is applied, the story has used exactly the dice seen before
``t_start``: the unseen steps that lead to it (passes, chance steps, activations that move no
model: engine_unseen) are searched on those dice, all of them used; the move's action takes
its dice from those seen before the next move starts; a removal's unseen steps from those seen
before it; the end of the battle uses every die left. A story the seen dice cannot fit falls
back to the unseen dice (at a cost, :func:`~assistant.replay.engine_model.dice_skipped`). The AI's order is worked out on
unseen dice (its choice is compared with the move, not with a roll). With no rolls, nothing
changes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

from assistant.replay import engine_model as model
from assistant.replay.dice_seen import SeenRoll
from assistant.replay.engine_checks import (
    event,
)
from assistant.replay.engine_moves import MoveReader
from assistant.replay.engine_story import EngineReplay, Removal, Story, Window
from assistant.replay.engine_unseen import Unseen, play_unseen, price
from assistant.replay.reconstruct import PieceMove, Roster, piece_moves, piece_positions
from assistant.replay.records import TimelineEvent
from assistant.replay.review import Corrections
from assistant.replay.timeline import Timeline
from assistant.scenarios import load_game
from assistant.tables import adapter_for
from assistant.tables.base import Tolerances
from engine.model import GameState
from engine.protocols import Controller, Ruleset, find_controller
from engine.scenario import Scenario
from vision.types import PieceSpec

__all__ = [
    "DICE_NOTE",
    "SEEN_DICE_NOTE",
    "EngineReplay",
    "GameReplayer",
    "Removal",
    "engine_replay",
]

DICE_NOTE = (
    "Dice results need the session log or the dice: the footage shows who moved where, "
    "not the rolls or the cards, so hits, wounds and who fell to what are not derived here "
    "(the engine keeps a result that fits what the table shows next; a piece taken off the "
    "table leaves the game)."
)
SEEN_DICE_NOTE = (
    "Dice results are the rolls the camera saw in the dice tray, taken in order as the rules "
    "ask for them (a roll it could not read, or a die of another size, is not derived here: "
    "the engine keeps a result that fits what the table shows next)."
)
UNSEEN_NOTE = (
    "Activations without a move (a shot from where it stands, a fight on the spot, "
    "holding ground) leave no trace in the footage and are not counted."
)
#: How many stories of the game are followed at once.
BEAM = 6


class GameReplayer(MoveReader):
    """The scenario's engine, ready to walk a footage's moves (build once, replay often)."""

    def __init__(self, scenario_name: str, tolerances: Tolerances | None = None) -> None:
        scenario, ruleset, state = load_game(scenario_name)
        self.scenario: Scenario = scenario
        self.ruleset: Ruleset = ruleset
        self.adapter = adapter_for(ruleset)
        self.initial: GameState = state
        self.ai: Controller = find_controller(scenario.scenario.ai_controller)
        self.tolerances = tolerances or Tolerances()
        self.unit_of_piece: dict[str, str] = {u.name: u.id for u in scenario.units}
        for u in scenario.units:
            self.unit_of_piece.setdefault(u.id, u.id)
        self._dice: list[tuple[float, int | None]] | None = None
        self._hidden = {}
        self.unseen_steps = {}

    def replay(
        self,
        moves: Sequence[PieceMove],
        removals: Sequence[Removal] = (),
        start: Mapping[str, tuple[float, float, float]] | None = None,
        rolls: Sequence[SeenRoll] = (),
        hidden: Mapping[str, float] | None = None,
    ) -> EngineReplay:
        """Walk ``moves`` and ``removals`` in time order; ``start`` gives the pieces' poses
        (x in, y in, heading degrees) by piece name as the footage first shows them; ``rolls``
        the dice seen in the tray (see the module docstring); ``hidden`` the pieces whose tags
        the footage lost and never saw again, by name, with when each was last seen (seconds):
        the rules may take such a unit off at one misreading (the tracker read its removal
        as a tag hidden where it stood)."""
        self._dice = None
        self._hidden = {
            self.unit_of_piece[name]: t
            for name, t in (hidden or {}).items()
            if name in self.unit_of_piece
        }
        self.unseen_steps = {}  # remembered for this replay only (memory is freed after it)
        if rolls:
            self._dice = []
            for roll in sorted(rolls, key=lambda r: r.t_s):
                faces: tuple[int | None, ...] = tuple(roll.values)
                if roll.known != "seen" or not faces:
                    faces = (None,)
                self._dice += [(roll.t_s, face) for face in faces]
        state = self.initial
        for name, (x, y, heading) in (start or {}).items():
            uid = self.unit_of_piece.get(name)
            if uid is not None and state.has_unit(uid):
                state = self.adapter.place(state, uid, x, y, heading)
        items: list[tuple[float, int, PieceMove | Removal]] = [
            (m.t_end, 1, m) for m in moves if m.piece in self.unit_of_piece
        ]
        items += [(r.t, 0, r) for r in removals if r.piece in self.unit_of_piece]
        items.sort(key=lambda item: (item[0], item[1]))
        stories = [Story(state, per_side={s.name: 0 for s in state.sides})]
        for i, (_, _, item) in enumerate(items):
            if isinstance(item, Removal):
                children = [c for s in stories for c in self._removed(s, item)]
            else:
                next_t = next(
                    (m.t_start for _, _, m in items[i + 1 :] if isinstance(m, PieceMove)),
                    math.inf,
                )
                removed = self._removed_before_next_move(items, i)
                window = Window(removed, self._hidden_before(next_t))
                children = [c for s in stories for c in self._moved(s, item, window, next_t)]
            stories = prune(children, BEAM)
        best = stories[0]
        if items:
            self._finish(best, items[-1][0])
        events = best.events
        if events:
            first_t = min(e["t"] for e in events)
            events.append(event(first_t, "note", UNSEEN_NOTE))
            note = DICE_NOTE if self._dice is None else SEEN_DICE_NOTE
            events.append(event(first_t, "note", note))
        events.sort(key=lambda e: e["t"])
        steps = [{**s, "index": i} for i, s in enumerate(best.steps)]
        return EngineReplay(tuple(events), tuple(steps))

    def _removed_before_next_move(
        self, items: Sequence[tuple[float, int, PieceMove | Removal]], i: int
    ) -> frozenset[str]:
        """Units the footage takes off after move ``i`` and before the next move."""
        out = set()
        for _, _, item in items[i + 1 :]:
            if not isinstance(item, Removal):
                break
            out.add(self.unit_of_piece[item.piece])
        return frozenset(out)

    # ------------------------------------------------------------- removals
    def _removed(self, story: Story, removal: Removal) -> list[Story]:
        uid = self.unit_of_piece[removal.piece]
        unit = story.state.unit(uid)
        text = (
            f"{unit.name} is out of the game: its model was taken off the table "
            f"(last seen at {removal.t:.1f} s)."
        )
        if not unit.on_table:
            text += " By the rules it fell (or left) in the action before."
            child = story.fork()
            child.events.append(
                event(removal.t, "removed", text, uid, explained=True, known="rules")
            )
            return [child]
        out: list[Story] = []
        gone = lambda st: not st.unit(uid).on_table  # noqa: E731
        seen = self._window(story.cursor, removal.t)
        # the dice seen before the model was taken off are the steps' that took it off (all
        # of them, or if no story uses them all, the fewest steps on some of them)
        found = play_unseen(self, story.state, gone, frozenset({uid}), seen, exact=True)
        if not found and seen:
            found = play_unseen(self, story.state, gone, frozenset({uid}), seen)
        for unseen in found:
            # steps the footage does not show (a melee on the spot, a shot from where a unit
            # stands) on dice it cannot show took the unit off
            cost = price(unseen, seen)
            child = story.fork(unseen.state, cost, unseen.used)
            self._add_unseen(child, unseen, story.state, removal.t, seen)
            said = text + " By the rules it fell (or left) in steps the footage does not show."
            child.events.append(
                event(
                    removal.t,
                    "removed",
                    said,
                    uid,
                    explained=True,
                    known="rules",
                    p=model.probability(cost),
                )
            )
            out.append(child)
        child = story.fork(self.adapter.take_off(story.state, uid), model.misread())
        child.events.append(
            event(
                removal.t,
                "removed",
                text,
                uid,
                explained=False,
                known="seen",
                p=model.PARAMETERS.misread,
            )
        )
        out.append(child)
        return out

    def _finish(self, story: Story, t: float) -> None:
        """Past the footage's last move or removal: the steps that end the battle within the
        round, moving no model and taking none off (its end and winner, by the rules)."""
        if self.adapter.turn(story.state, self.ruleset).kind == "over":
            return
        over = lambda st: self.adapter.turn(st, self.ruleset).kind == "over"  # noqa: E731
        found: list[Unseen] = []
        rest = self._window(story.cursor, math.inf)
        if rest:
            # every die seen after the last move is a step of the battle's end
            found = play_unseen(self, story.state, over, seen=rest, exact=True)
        seen = rest if found else None
        if not found:
            # a footage that stops mid-battle is not played on: only an end within this round
            found = play_unseen(self, story.state, over, this_round=True)
        if found:
            self._add_unseen(story, found[0], story.state, t, seen)
            story.state = found[0].state


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
    for e, piece in _piece_events(timeline, roster, "removed"):
        assert e.tag_id is not None
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
    return replayer.replay(moves, removals, start, rolls, lost_for_good(timeline, roster))


def lost_for_good(timeline: Timeline, roster: Roster) -> dict[str, float]:
    """The pieces the timeline took to be hidden and never saw again (no tag of theirs seen
    on a later board, moved or taken off after), by name, with when each was last seen
    (seconds)."""
    out: dict[str, float] = {}
    for e, piece in _piece_events(timeline, roster, "hidden"):
        tags = {int(m.tag_id) for m in piece.tags}
        later = any(
            r.seen and r.tag_id in tags for s in timeline.states if s.t > e.t for r in s.tags
        )
        later = later or any(m.tag_id in tags and m.t_end > e.t for m in timeline.moves)
        later = later or any(
            x.kind in ("removed", "placed") and x.tag_id in tags and x.t >= e.t
            for x in timeline.events
        )
        if not later:
            out.setdefault(piece.name, e.t)
    return out


def _piece_events(
    timeline: Timeline, roster: Roster, kind: str
) -> list[tuple[TimelineEvent, PieceSpec]]:
    """The timeline's events of ``kind`` about a tag of a scenario's piece, in time order,
    each with its piece."""
    out = []
    for e in sorted(timeline.events, key=lambda e: e.t):
        found = roster.piece_of_tag(e.tag_id) if e.kind == kind and e.tag_id is not None else None
        if found is not None:
            out.append((e, found[0]))
    return out

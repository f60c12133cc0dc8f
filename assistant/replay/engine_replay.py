"""The game read back from footage alone, by the engine: activations, the AI's orders, legality.

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
back to the unseen dice (at a cost, :data:`DICE_MISS_COST`). The AI's order is worked out on
unseen dice (its choice is compared with the move, not with a roll). With no rolls, nothing
changes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

from assistant.replay.dice_seen import SeenRoll
from assistant.replay.engine_branches import Seen, seen_outcomes
from assistant.replay.engine_checks import (
    check_ai,
    check_human,
    event,
    facing_off,
    tolerances_for,
)
from assistant.replay.engine_story import EngineReplay, Removal, Story, engine_replay, prune
from assistant.replay.engine_unseen import (
    DICE_EVENTS,
    Unseen,
    play_unseen,
    reach_turn,
    stand_back,
    unseen_cost,
    unseen_events,
    within_error,
)
from assistant.replay.reconstruct import PieceMove
from assistant.scenarios import load_game
from assistant.session.observation import PieceSeen
from assistant.tables import adapter_for
from assistant.tables.base import Tolerances
from engine.actions import Action, Event, EventType
from engine.model import GameState, Role, UnitStatus
from engine.protocols import Controller, Ruleset, find_controller
from engine.scenario import Scenario

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
# What a story pays for what the footage does not show (the cheapest story is reported).
POSE_COST = 4.0
"""The rules leave the unit elsewhere than the footage shows it (it is stood there)."""
STAND_IN_COST = 4.0
"""No legal action explains the move: the unit is stood there and acts in place."""
UNSEEN_FALL_COST = 30.0
"""The rules take a unit off that the footage leaves on the table (per unit)."""
REMOVAL_COST = 10.0
"""The footage takes a unit off that the rules do not (per unit)."""
RETURN_COST = 3.0
DICE_MISS_COST = 20.0
"""No story on the seen dice reaches the unit's turn: the seen dice up to the move are
skipped and the steps taken on unseen dice."""
NO_TURN_COST = 10.0
SEEN_STEP_SHARE = 0.2
"""The share of an unseen step's cost paid when the seen dice force it."""
FAR_REACH_IN = 0.3
"""How much further from the seen place a shooter is tried when no point within the camera's
tolerance rolls the dice seen (a target's own place found from the picture is this unsure)."""
NEARBY_COST = 0.05
"""An action read at a point within the camera's error of the seen place, not at it."""
FAR_NEARBY_COST = 0.3
"""... or at a point :data:`FAR_REACH_IN` further."""
#: Points on the circle of the camera's position tolerance tried for a move whose seen dice
#: no action at the seen place rolls.
NEARBY_POINTS = 8
_RESERVED = frozenset({"t", "kind", "text", "unit", "source"})


def _price(unseen: Unseen, seen: Seen | None) -> float:
    """What a story pays for unseen steps: each activation, pass and round begun, or a tenth
    of that when they used every die seen meanwhile (the dice, not a guess, say they
    happened: a long melee on seen dice is no dearer than a removal left unexplained)."""
    cost = unseen_cost(unseen)
    return cost * SEEN_STEP_SHARE if seen and unseen.used == len(seen) else cost


class GameReplayer:
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

    def _count(self, t: float) -> int:
        """How many seen dice came to rest before ``t`` (seconds)."""
        assert self._dice is not None
        return sum(1 for when, _ in self._dice if when < t)

    def _window(self, cursor: int, until_t: float) -> Seen | None:
        """The seen dice from ``cursor`` to those seen before ``until_t`` (None: no dice
        seen in this footage)."""
        if self._dice is None:
            return None
        return tuple(face for _, face in self._dice[cursor : max(cursor, self._count(until_t))])

    def replay(
        self,
        moves: Sequence[PieceMove],
        removals: Sequence[Removal] = (),
        start: Mapping[str, tuple[float, float, float]] | None = None,
        rolls: Sequence[SeenRoll] = (),
    ) -> EngineReplay:
        """Walk ``moves`` and ``removals`` in time order; ``start`` gives the pieces' poses
        (x in, y in, heading degrees) by piece name as the footage first shows them; ``rolls``
        the dice seen in the tray (see the module docstring)."""
        self._dice = None
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
                window = self._removed_before_next_move(items, i)
                next_t = next(
                    (m.t_start for _, _, m in items[i + 1 :] if isinstance(m, PieceMove)),
                    math.inf,
                )
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
            child = story.fork(unseen.state, _price(unseen, seen), unseen.used)
            self._add_unseen(child, unseen, story.state, removal.t)
            said = text + " By the rules it fell (or left) in steps the footage does not show."
            child.events.append(
                event(removal.t, "removed", said, uid, explained=True, known="rules")
            )
            out.append(child)
        child = story.fork(self.adapter.take_off(story.state, uid), REMOVAL_COST)
        child.events.append(event(removal.t, "removed", text, uid, explained=False, known="seen"))
        out.append(child)
        return out

    def _add_unseen(self, story: Story, unseen: Unseen, state: GameState, t: float) -> None:
        events, steps = unseen_events(unseen, state, t, story.per_side)
        story.events.extend(events)
        story.steps.extend(steps)

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
        if not found:
            found = play_unseen(self, story.state, over)
            # a footage that stops mid-battle is not played on: only an end within this round
            found = [u for u in found if not any(e.type == EventType.ROUND_START for e in u.events)]
        if found:
            self._add_unseen(story, found[0], story.state, t)
            story.state = found[0].state

    # ---------------------------------------------------------------- moves
    def _moved(
        self, story: Story, move: PieceMove, window: frozenset[str], next_t: float = math.inf
    ) -> list[Story]:
        uid = self.unit_of_piece[move.piece]
        state = story.state
        story = story.fork()
        if not state.unit(uid).on_table:
            # Its tag was only hidden (by its own figure, say), or the rules took it off
            # wrongly: it is back in the game.
            state = state.with_unit(replace(state.unit(uid), status=UnitStatus.ACTIVE))
            story.cost += RETURN_COST
            story.events.append(
                event(
                    move.t_start,
                    "returned",
                    f"{state.unit(uid).name} moves again: it was hidden, not taken off; "
                    "back in the game.",
                    uid,
                )
            )
        before = self.adapter.place(state, uid, *move.from_in, move.heading_from_deg)
        out: list[Story] = []
        for base, acting in self._turns(story, before, uid, move):
            rest = self._window(base.cursor, next_t)
            out.extend(self._act(base, acting, uid, move, window, rest))
        return out

    def _turns(
        self, story: Story, before: GameState, uid: str, move: PieceMove
    ) -> list[tuple[Story, GameState]]:
        """The stories that reach ``uid``'s turn from ``before`` by steps the footage does not
        show, on the dice seen before the move starts (all of them), with the state where it
        acts."""
        out: list[tuple[Story, GameState]] = []
        seen = self._window(story.cursor, move.t_start)
        for acting, cost, hidden, used in reach_turn(self, before, uid, seen):
            base = story.fork(acting, cost, used)
            self._round_starts(base, before, acting, hidden, uid, move)
            out.append((base, acting))
        if out or seen is None:
            if not out:
                story.cost += NO_TURN_COST
                out = [(story.fork(before), before)]
            return out
        # the seen dice were rolled in activations that moved no model
        goal = lambda st: uid in self.adapter.turn(st, self.ruleset).movers  # noqa: E731
        for unseen in play_unseen(self, before, goal, seen=seen, exact=True):
            base = story.fork(unseen.state, _price(unseen, seen), unseen.used)
            self._add_unseen(base, unseen, before, move.t_start)
            out.append((base, unseen.state))
        if out:
            return out
        # nothing on the seen dice reaches its turn: they are skipped
        skipped = story.fork(cost=DICE_MISS_COST, used=len(seen))
        for acting, cost, hidden, _ in reach_turn(self, before, uid, None):
            base = skipped.fork(acting, cost)
            self._round_starts(base, before, acting, hidden, uid, move)
            out.append((base, acting))
        if not out:
            skipped.cost += NO_TURN_COST
            out = [(skipped.fork(before), before)]
        return out

    def _round_starts(
        self,
        story: Story,
        before: GameState,
        acting: GameState,
        hidden: Sequence[Event],
        uid: str,
        move: PieceMove,
    ) -> None:
        for ev in hidden:
            if ev.type != EventType.ROUND_START:
                continue
            story.per_side = dict.fromkeys(story.per_side, 0)
            on_table = [u for u in before.units if u.on_table]
            if ev.round <= 1 or acting.round != ev.round:
                why = ""
            elif all(u.activated for u in on_table):
                why = " (every unit on the table has activated)"
            elif before.unit(uid).activated:
                why = f" ({before.unit(uid).name} activates again)"
            else:
                why = " (every side passed)"
            story.events.append(
                event(
                    move.t_start,
                    "round_start",
                    f"Round {ev.round} begins{why}.",
                    round=ev.round,
                )
            )

    def _act(
        self,
        story: Story,
        state: GameState,
        uid: str,
        move: PieceMove,
        window: frozenset[str],
        dice: Seen | None = None,
    ) -> list[Story]:
        """The unit's turn: the order or legality check, then every outcome of every action
        that fits the move."""
        unit = state.unit(uid)
        note = self.adapter.activation_note(state, unit)
        if state.side(unit.side).role is Role.AI:
            check = check_ai(self, state, unit, move)
        else:
            check = check_human(self, state, unit, move)
        label = f"{unit.name} moves {move.distance_in:.1f} in (round {state.round}"
        label += f", {note}" if note else ""
        label += check.verdict + ")"
        step = {
            "t": round(move.t_end, 3),
            "t_start": round(move.t_start, 3),
            "label": label,
            "tags": [int(t) for t in move.tags],
            "unit": uid,
        }
        out = self._resolve(story, state, uid, move, window, check.actions, 0.0, dice)
        if dice and all(c.cursor == story.cursor for c in out):
            # an action the rules refuse with its target where the footage shows it (a shot
            # past a base the line of sight grazes) but allow within the camera's error
            out += self._within_error(story, state, move, window, check.actions, dice, 0.0)
        if not out or (dice and all(c.cursor == story.cursor for c in out)):
            # No legal action explains the move (or none rolls the dice seen after it, as a
            # shot after a turn on the spot): stand the unit where the footage shows it and
            # let it act in place.
            placed = self.adapter.place(state, uid, *move.to_in, move.heading_to_deg)
            stand_ins = self.adapter.stand_in_actions(placed, placed.unit(uid))
            # a model turned on the spot did act where it stands (a shot turns the shooter to
            # its target): that reading pays only if the rules leave it facing elsewhere
            turned = move.distance_in <= tolerances_for(self, move).position_in
            cost = 0.0 if turned else STAND_IN_COST
            out += self._resolve(story, placed, uid, move, window, stand_ins, cost, dice)
            if dice and all(c.cursor == story.cursor for c in out):
                out += self._within_error(story, placed, move, window, stand_ins, dice, cost, True)
        if dice:
            # the dice seen after the move may be another action's, at a point within the
            # camera's error (a target just out of range from the seen place)
            out += self._rolled_nearby(story, state, uid, move, window, dice)
        if not out:
            placed = self.adapter.place(state, uid, *move.to_in, move.heading_to_deg)
            out = [story.fork(placed, STAND_IN_COST)]
        for child in out:
            child.events.extend(check.events)
            child.steps.append(step)
        return out

    def _within_error(
        self,
        story: Story,
        state: GameState,
        move: PieceMove,
        window: frozenset[str],
        actions: Sequence[Action],
        dice: Seen,
        extra: float,
        in_place: bool = False,
    ) -> list[Story]:
        """Dice were seen after the move and no action with the units where the footage
        shows them rolls them: the ``actions`` the rules refuse there but allow with the
        target (``in_place``: or the unit, acting where it stands) within the camera's error
        (engine_unseen.within_error), the units then stood back where the footage shows
        them."""
        uid = self.unit_of_piece[move.piece]
        out: list[Story] = []
        for action in actions:
            if not self.ruleset.validate(state, action):
                continue
            nearer = within_error(self, state, action, shift_unit=in_place)
            if nearer is None:
                continue
            there, cost = nearer
            back = (uid, action.target_id) if in_place else (action.target_id,)
            for child in self._resolve(
                story, there, uid, move, window, (action,), extra + cost, dice
            ):
                child.state = stand_back(self, state, child.state, back)
                out.append(child)
        return out

    def _rolled_nearby(
        self,
        story: Story,
        state: GameState,
        uid: str,
        move: PieceMove,
        window: frozenset[str],
        dice: Seen,
    ) -> list[Story]:
        """Dice were seen after the move, and the action that rolled them may not read at the
        seen place (a shot just beyond range, or past a base, by the camera's error): the
        actions the move could have been with its end anywhere within the camera's position
        tolerance, those that roll (each a little dearer than a reading at the place); failing
        that, within the error of a target whose own place was found from the picture
        (:data:`FAR_REACH_IN` further, at :data:`FAR_NEARBY_COST`)."""
        unit = state.unit(uid)
        tol = tolerances_for(self, move)
        out: list[Story] = []
        near = 0.8 * tol.position_in
        for reach, cost in ((near, NEARBY_COST), (near + FAR_REACH_IN, FAR_NEARBY_COST)):
            for k in range(NEARBY_POINTS):
                angle = 2.0 * math.pi * k / NEARBY_POINTS
                x = move.to_in[0] + reach * math.cos(angle)
                y = move.to_in[1] + reach * math.sin(angle)
                seen = PieceSeen(x, y, move.heading_to_deg)
                moved = self.adapter.replay_move(
                    state, self.ruleset, unit, seen, tol.position_in + reach
                )
                # judged where it is tried (the unit is stood back at the seen place below)
                there = replace(move, to_in=(x, y))
                found = self._resolve(story, state, uid, there, window, moved.actions, cost, dice)
                for child in found:
                    if child.cursor > story.cursor:
                        # the unit stands where the footage shows it, facing as the rules
                        # left it
                        heading = child.state.unit(uid).heading_deg
                        child.state = self.adapter.place(child.state, uid, *move.to_in, heading)
                        out.append(child)
            if out:
                break
        return out

    def _resolve(
        self,
        story: Story,
        state: GameState,
        uid: str,
        move: PieceMove,
        window: frozenset[str],
        actions: Sequence[Action],
        extra: float,
        dice: Seen | None = None,
    ) -> list[Story]:
        out: list[Story] = []
        tol = tolerances_for(self, move)
        for action in actions:
            if self.ruleset.validate(state, action):
                continue
            for outcome, used, all_seen in seen_outcomes(self.ruleset, state, action, dice):
                after = outcome.state
                cost = extra
                gone = {
                    u.id
                    for u in state.units
                    if u.on_table and u.id != uid and not after.unit(u.id).on_table
                }
                cost += UNSEEN_FALL_COST * len(gone - window)
                mover = after.unit(uid)
                if not mover.on_table:
                    cost += UNSEEN_FALL_COST
                    after = after.with_unit(replace(mover, status=UnitStatus.ACTIVE))
                    mover = after.unit(uid)
                off_in = math.dist(mover.position, move.to_in)
                off_deg = facing_off(move, mover.heading_deg)
                if off_in > tol.position_in or off_deg > tol.facing_deg:
                    cost += POSE_COST
                    # an unseen facing stays the rules' own
                    heading = move.heading_to_deg if move.facing_known else mover.heading_deg
                    after = self.adapter.place(after, uid, *move.to_in, heading)
                child = story.fork(after, cost, used)
                self._engine_events(child, outcome.events, state, uid, move, used > 0 and all_seen)
                out.append(child)
        return out

    def _engine_events(
        self,
        story: Story,
        events: Sequence[Event],
        state: GameState,
        uid: str,
        move: PieceMove,
        dice_seen: bool = False,
    ) -> None:
        """The engine's events the footage vouches for (an activation, a bonus activation, a
        pick-up); ``dice_seen``: the action's dice were all seen."""
        for ev in events:
            # the battle's end, when the action seen ends it, is the rules' (its winner)
            replayed = ev.type in self.adapter.replayed_events or ev.type == EventType.END
            if not replayed or ev.type == EventType.ROUND_START:
                continue
            if ev.type == EventType.ACTIVATION and ev.unit == uid:
                unit = state.unit(uid)
                n = story.per_side.get(unit.side, 0) + 1
                story.per_side[unit.side] = n
                story.events.append(
                    event(
                        move.t_start,
                        "activation",
                        f"Round {state.round}: {unit.name} activates "
                        f"(activation {n} of {unit.side} this round).",
                        uid,
                        side=unit.side,
                        round=state.round,
                        side_activation=n,
                    )
                )
                continue
            t = move.t_start if ev.type == EventType.PICK_UP else move.t_end
            details = {k: v for k, v in ev.data if k not in _RESERVED}
            if dice_seen and str(ev.type) in DICE_EVENTS:
                details["known"] = "seen"
            story.events.append(event(t, str(ev.type), ev.text, ev.unit, **details))

"""A move the footage shows, read by the engine for a replay without a log (engine_replay):
the steps the footage does not show that reach the unit's turn, the AI's order or the
legality check, and every outcome of every action that fits the move, at the seen place or
within the camera's error of it. Each reading is a :class:`Story` with what it costs (the
cheapest story is reported). Inches, degrees and seconds."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

from assistant.replay import engine_model as model
from assistant.replay.engine_branches import Seen, seen_outcomes
from assistant.replay.engine_checks import (
    check_ai,
    check_human,
    event,
    facing_off,
    seen_at,
    tolerances_for,
)
from assistant.replay.engine_game import StepsKey, UnseenStep
from assistant.replay.engine_leads import completions
from assistant.replay.engine_model import UNSEEN_FALL_MISREADS, error_reaches
from assistant.replay.engine_story import Story, Window
from assistant.replay.engine_unseen import (
    DICE_EVENTS,
    Unseen,
    play_unseen,
    price,
    reach_turn,
    stand_back,
    stand_in_actions,
    unseen_events,
    with_activation,
    within_error,
)
from assistant.replay.reconstruct import PieceMove
from assistant.session.observation import PieceSeen
from assistant.tables.base import TableAdapter, Tolerances
from engine.actions import Action, Event, EventType
from engine.geometry import wrap180
from engine.model import GameState, Role, UnitStatus
from engine.protocols import Controller, Ruleset

#: Points on the circle of the camera's position tolerance tried for a move whose seen dice
#: no action at the seen place rolls.
NEARBY_POINTS = 8
_RESERVED = frozenset({"t", "kind", "text", "unit", "source"})


class MoveReader:
    """The engine's reading of the footage's moves; :class:`GameReplayer` (engine_replay)
    sets the scenario's engine up and walks the whole footage."""

    ruleset: Ruleset
    adapter: TableAdapter
    ai: Controller
    tolerances: Tolerances
    unit_of_piece: Mapping[str, str]
    _dice: list[tuple[float, int | None]] | None
    _hidden: dict[str, float]
    """Units whose tags the footage lost and never saw again: unit id, time last seen (s)."""
    unseen_steps: dict[StepsKey, list[UnseenStep]]
    """The unseen steps worked out from each state on each run of seen dice during the replay
    under way (:func:`assistant.replay.engine_unseen.steps_from`)."""

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

    def _hidden_before(self, t: float) -> dict[str, float]:
        """The units the footage lost for good before ``t`` (seconds), with when each was last
        seen."""
        return {uid: when for uid, when in self._hidden.items() if when < t}

    def _fell_hidden(
        self,
        story: Story,
        before: GameState,
        after: GameState,
        hidden: Mapping[str, float],
        t: float,
    ) -> None:
        """The units the rules took off between ``before`` and ``after`` that the footage
        lost for good (``hidden``): one misreading each (the tracker took the removal for a
        tag hidden where it stood), told as removed by the rules at ``t`` seconds or when
        last seen, whichever is later."""
        for uid, last_seen in hidden.items():
            if not before.unit(uid).on_table or after.unit(uid).on_table:
                continue
            story.cost += model.misread()
            name = before.unit(uid).name
            story.events.append(
                event(
                    max(t, last_seen),
                    "removed",
                    f"{name} is out of the game: by the rules it fell (or left); the footage "
                    f"lost its tag at {last_seen:.1f} s and took it to be hidden.",
                    uid,
                    explained=True,
                    known="rules",
                    p=model.PARAMETERS.misread,
                )
            )

    def _add_unseen(
        self, story: Story, unseen: Unseen, state: GameState, t: float, seen: Seen | None = None
    ) -> None:
        events, steps = unseen_events(unseen, state, t, story.per_side, seen)
        story.events.extend(events)
        story.steps.extend(steps)

    def _moved(
        self, story: Story, move: PieceMove, window: Window, next_t: float = math.inf
    ) -> list[Story]:
        uid = self.unit_of_piece[move.piece]
        state = story.state
        story = story.fork()
        if not state.unit(uid).on_table:
            # Its tag was only hidden (by its own figure, say), or the rules took it off
            # wrongly: it is back in the game.
            state = state.with_unit(replace(state.unit(uid), status=UnitStatus.ACTIVE))
            story.cost += model.off_rules()
            story.events.append(
                event(
                    move.t_start,
                    "returned",
                    f"{state.unit(uid).name} moves again: it was hidden, not taken off; "
                    "back in the game.",
                    uid,
                    p=model.PARAMETERS.off_rules,
                )
            )
        ruled = self._moved_by_rules(story, state, uid, move)
        if ruled is not None:
            return [ruled]
        before = self.adapter.place(state, uid, *move.from_in, move.heading_from_deg)
        out: list[Story] = []
        for base, acting in self._turns(story, before, uid, move):
            rest = self._window(base.cursor, next_t)
            out.extend(self._act(base, acting, uid, move, window, rest))
        return out

    def _moved_by_rules(
        self, story: Story, state: GameState, uid: str, move: PieceMove
    ) -> Story | None:
        """The story in which the rules themselves already set the unit as the footage shows
        it after the move (turned to face a hero that alerted it, pushed back by a blow): the
        player only carries out what the step before did, so it is no activation of its own
        and costs nothing more (the story paid for that step). None when the rules have the
        unit elsewhere or facing otherwise, or where and as it stood before the move."""
        unit = state.unit(uid)
        tol = tolerances_for(self, move)
        if not unit.on_table or math.dist(unit.position, move.to_in) > tol.position_in:
            return None
        if facing_off(move, unit.heading_deg) > tol.facing_deg:
            return None
        turned = move.facing_known and (
            abs(wrap180(unit.heading_deg - move.heading_from_deg)) > tol.facing_deg
        )
        if math.dist(unit.position, move.from_in) <= tol.position_in and not turned:
            return None
        child = story.fork()
        child.events.append(
            event(
                move.t_end,
                "rules_move",
                f"{unit.name} is set as the rules left it in the step before (not an "
                "activation of its own).",
                uid,
                known="rules",
            )
        )
        return child

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
            self._round_starts(base, before, acting, hidden, uid, move, cost)
            out.append((base, acting))
        if out or seen is None:
            if not out:
                story.cost += model.misread()
                out = [(story.fork(before), before)]
            return out
        # the seen dice were rolled in activations that moved no model
        goal = lambda st: uid in self.adapter.turn(st, self.ruleset).movers  # noqa: E731
        lost = self._hidden_before(move.t_start)
        for unseen in play_unseen(self, before, goal, frozenset(lost), seen=seen, exact=True):
            base = story.fork(unseen.state, price(unseen, seen), unseen.used)
            self._add_unseen(base, unseen, before, move.t_start, seen)
            self._fell_hidden(base, before, unseen.state, lost, move.t_start)
            out.append((base, unseen.state))
        if out:
            return out
        # nothing on the seen dice reaches its turn: they are skipped
        skipped = story.fork(cost=model.dice_skipped(), used=len(seen))
        for acting, cost, hidden, _ in reach_turn(self, before, uid, None):
            base = skipped.fork(acting, cost)
            self._round_starts(base, before, acting, hidden, uid, move, cost)
            out.append((base, acting))
        if not out:
            skipped.cost += model.misread()
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
        cost: float = 0.0,
    ) -> None:
        """The rounds begun on the way to ``uid``'s turn, at the probability of the steps that
        reached it (of ``cost``)."""
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
                    p=model.probability(cost),
                )
            )

    def _act(
        self,
        story: Story,
        state: GameState,
        uid: str,
        move: PieceMove,
        window: Window,
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
        carried = self._resolve(story, state, uid, move, window, check.unfollowed, 0.0, dice, True)
        out += carried
        if check.unfollowed and not carried:
            # the AI's order turns on what the footage cannot show (wounds an unread die
            # dealt): another action of the unit, whose dice leave it where it was set down,
            # is its order not carried out as the story has it
            others = stand_in_actions(self, state, unit)
            others = tuple(a for a in others if a not in check.unfollowed)
            out += self._resolve(
                story, state, uid, move, window, others, model.off_rules(), dice, True
            )
        out += self._led(story, state, uid, move, window, dice)
        if not out or (dice and all(c.cursor == story.cursor for c in out)):
            # No legal action explains the move (or none rolls the dice seen after it, as a
            # shot after a turn on the spot): stand the unit where the footage shows it and
            # let it act in place.
            placed = self.adapter.place(state, uid, *move.to_in, move.heading_to_deg)
            stand_ins = stand_in_actions(self, placed, placed.unit(uid))
            # a model turned on the spot did act where it stands (a shot turns the shooter to
            # its target): that reading pays only if the rules leave it facing elsewhere
            turned = move.distance_in <= tolerances_for(self, move).position_in
            cost = 0.0 if turned else model.off_rules()
            out += self._resolve(story, placed, uid, move, window, stand_ins, cost, dice)
            if dice and all(c.cursor == story.cursor for c in out):
                # an action the rules refuse with the units where the footage shows them (a
                # shot at the edge of its range, or past a base its line of sight grazes) but
                # allow within the camera's error
                out += self._within_error(story, placed, move, window, stand_ins, dice, cost)
        if dice:
            # the dice seen after the move may be another action's, at a point within the
            # camera's error (a target just out of range from the seen place)
            out += self._rolled_nearby(story, state, uid, move, window, dice)
        if not out:
            placed = self.adapter.place(state, uid, *move.to_in, move.heading_to_deg)
            out = [story.fork(placed, model.off_rules())]
        by_dice = {id(child) for child in carried}
        for child in out:
            child.events.extend(check.carried if id(child) in by_dice else check.events)
            child.steps.append(step)
        return out

    def _led(
        self,
        story: Story,
        state: GameState,
        uid: str,
        move: PieceMove,
        window: Window,
        dice: Seen | None,
    ) -> list[Story]:
        """The move read as the run of an action that leads into it (a charge declared, its
        reach rolled, then run: engine_leads): the declaration at the chance of its unseen
        results, then every outcome of the run the move completes."""
        out: list[Story] = []
        tol = tolerances_for(self, move)
        unit = state.unit(uid)
        for done in completions(self, state, unit, seen_at(move), tol.position_in, dice):
            after = done.outcome.state
            cost = model.cost(done.p)
            base = story.fork(after, cost, done.used)
            seen = done.used > 0 and done.all_seen
            p = model.probability(cost)
            events = with_activation(self, state, done.lead, done.outcome.events)
            self._engine_events(base, events, state, uid, move, seen, p)
            word = self.ruleset.action_word(done.lead)
            target = state.unit(done.lead.target_id) if done.lead.target_id else None
            at = f" at {target.name}" if target is not None else ""
            base.events.append(
                event(
                    move.t_start,
                    "declared",
                    f"{unit.name} declared a {word}{at}: the move seen is its run.",
                    uid,
                    action=str(done.lead.kind),
                    target=done.lead.target_id,
                    p=p,
                )
            )
            rest = None if dice is None else dice[done.used :]
            out += self._resolve(base, after, uid, move, window, done.moved.actions, 0.0, rest)
        return out

    def _within_error(
        self,
        story: Story,
        state: GameState,
        move: PieceMove,
        window: Window,
        actions: Sequence[Action],
        dice: Seen,
        extra: float,
    ) -> list[Story]:
        """Dice were seen after the move and no action of the unit where it was set down
        rolls them: the ``actions`` the rules refuse there but allow with the unit or its
        target within the camera's error (engine_unseen.within_error), at ``extra`` and that
        reading's cost, both then stood back where the footage shows them."""
        uid = self.unit_of_piece[move.piece]
        out: list[Story] = []
        for action in actions:
            if not self.ruleset.validate(state, action):
                continue
            nearer = within_error(self, state, action)
            if nearer is None:
                continue
            there, cost = nearer
            back = (uid, action.target_id)
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
        window: Window,
        dice: Seen,
    ) -> list[Story]:
        """Dice were seen after the move, and the action that rolled them may not read at the
        seen place (a shot just beyond range, or past a base, by the camera's error): the
        actions the move could have been with its end anywhere within the camera's position
        tolerance, those that roll (each a little dearer than a reading at the place); failing
        that, within the error of a target whose own place was found from the picture
        (further, and dearer: engine_model.error_reaches)."""
        unit = state.unit(uid)
        tol = tolerances_for(self, move)
        out: list[Story] = []
        for reach, cost in error_reaches(tol.position_in):
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
        window: Window,
        actions: Sequence[Action],
        extra: float,
        dice: Seen | None = None,
        fitting: bool = False,
    ) -> list[Story]:
        """Every outcome of each of ``actions`` the rules allow, on the seen ``dice``, as a
        story at ``extra`` and the outcome's cost (a unit the rules leave off the seen place
        is set there, against the rules); ``fitting``: only the outcomes that leave the unit
        where the footage shows it."""
        out: list[Story] = []
        tol = tolerances_for(self, move)
        for action in actions:
            if self.ruleset.validate(state, action):
                continue
            for outcome, used, all_seen, p in seen_outcomes(self.ruleset, state, action, dice):
                after = outcome.state
                cost = extra + model.cost(p)
                gone = {
                    u.id
                    for u in state.units
                    if u.on_table and u.id != uid and not after.unit(u.id).on_table
                }
                unseen_falls = gone - window.removed - window.hidden.keys()
                cost += model.misread(UNSEEN_FALL_MISREADS) * len(unseen_falls)
                mover = after.unit(uid)
                if not mover.on_table:
                    cost += model.misread(UNSEEN_FALL_MISREADS)
                    after = after.with_unit(replace(mover, status=UnitStatus.ACTIVE))
                    mover = after.unit(uid)
                off_in = math.dist(mover.position, move.to_in)
                off_deg = facing_off(move, mover.heading_deg)
                if off_in > tol.position_in or off_deg > tol.facing_deg:
                    if fitting:
                        continue
                    cost += model.off_rules()
                    # an unseen facing stays the rules' own
                    heading = move.heading_to_deg if move.facing_known else mover.heading_deg
                    after = self.adapter.place(after, uid, *move.to_in, heading)
                child = story.fork(after, cost, used)
                seen = used > 0 and all_seen
                p_step = model.probability(cost)
                events = with_activation(self, state, action, outcome.events)
                self._engine_events(child, events, state, uid, move, seen, p_step)
                self._fell_hidden(child, state, after, window.hidden, move.t_end)
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
        p: float = 1.0,
    ) -> None:
        """The engine's events the footage vouches for (an activation, a bonus activation, a
        pick-up); ``dice_seen``: the action's dice were all seen; ``p``: the model's
        probability of the step (its unseen results, the pose and rule terms)."""
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
                        p=p,
                    )
                )
                continue
            t = move.t_start if ev.type == EventType.PICK_UP else move.t_end
            details = {k: v for k, v in ev.data if k not in _RESERVED}
            if dice_seen and str(ev.type) in DICE_EVENTS:
                details["known"] = "seen"
            story.events.append(event(t, str(ev.type), ev.text, ev.unit, p=p, **details))

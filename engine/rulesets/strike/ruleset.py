"""The strike system of "Wargame (Version 4)" (RULES §3.1, ruleset ``ruleset``).

Each round: an Oracle phase (each side rolls a d6 per point of Initiative of its soldiers on
the table, D001A-01; a d6 roll-off decides who activates first, D001A-03), then an action
phase of alternate activations, each spending a die whose face is the soldier's Type; a side
with no matching die (or that passes) stops and the other goes on alone (D001A-02). An
activation takes each free action at most once (move up to Speed, interact, strike; D001A-05)
and may spend further dice on skills, up to the soldier's Initiative. A strike is
deterministic (§3.1.g with D001A-04): no dice hit or wound.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

from engine.actions import Action, ActionKind, Event, EventType, IllegalActionError, event
from engine.chance import reroll_until, roll_pool
from engine.dice import RandomSource
from engine.geometry import Point, bearing_deg, normalize_deg, path_cost_in
from engine.model import GameState, Unit, UnitStatus, evolve
from engine.protocols import Outcome, Pending, PendingKind, RulesetBase, register_ruleset
from engine.rulesets.strike.board import StrikeBoard
from engine.rulesets.strike.count import StrikeCount
from engine.rulesets.strike.legality import (
    action_problems,
    moved,
    moves_first,
    sprint_dice,
    why_not_ready,
)
from engine.rulesets.strike.oracle import to_reroll
from engine.rulesets.strike.sample import sample_actions
from engine.rulesets.strike.setup import new_game
from engine.rulesets.strike.state import (
    HOLD,
    KEEP,
    NAME,
    REROLL,
    ROUNDS,
    STRIKE,
    TYPES,
    StrikeState,
    StrikeUnit,
    card_of,
    remove_faces,
    rules_of,
    spent_die,
)
from engine.rulesets.strike.victory import points_winner, victory_points
from engine.scenario import Scenario
from engine.turns import Choice, Continuing, TurnOrder, prologue


def ready(state: GameState, side: str) -> tuple[str, ...]:
    """The side's soldiers that may activate now: on the table, not yet activated, with a
    die of their Type's face in the pool (D001A-02); none once the side has stopped."""
    rules = rules_of(state)
    if side in rules.stopped:
        return ()
    pool = rules.pool(side)
    return tuple(u.id for u in state.units_of(side) if not u.activated and card_of(u).face in pool)


def _rerolling(state: GameState) -> Choice | None:
    rerolling = rules_of(state).rerolling
    if not rerolling:
        return None
    side = rerolling[0]
    shown = " ".join(str(f) for f in to_reroll(state, side))
    return Choice(side, (KEEP, REROLL), f"roll again the spare dice {shown}, or keep the pool")


def _acting(state: GameState) -> Continuing | None:
    acting = rules_of(state).acting
    return None if acting is None else Continuing(acting)


def _oracle_due(state: GameState) -> str | None:
    return "oracle" if state.round == 0 or state.active_side is None else None


def _sides(state: GameState) -> tuple[str, ...]:
    active = state.active_side or ""
    return (active, state.other_side(active))


def _not_ready(state: GameState, unit: Unit, pending: Pending) -> str:
    return why_not_ready(state, unit, pending.side)


TURNS = TurnOrder(
    sides=_sides,
    ready=ready,
    new_round="oracle",
    choice=_rerolling,
    acting=_acting,
    chance=_oracle_due,
    remember=True,
)
"""The strike order: the Oracle phase, a side's choice to roll its spare dice again, then
alternate activations (the side whose turn it is first), a soldier continuing its activation.
Remembered per state: the replay asks it several times of every state it tries."""


class StrikeRuleset(RulesetBase):
    """The deterministic strike system with its Oracle dice pool (§3.1)."""

    name = NAME
    title = "Strike system with the Oracle dice pool"
    source = "Wargame (Version 4)"
    action_kinds: frozenset[str] = frozenset(
        {
            ActionKind.CHANCE,
            ActionKind.CHOOSE,
            ActionKind.PASS,
            ActionKind.MOVE,
            ActionKind.INTERACT,
            STRIKE,
            HOLD,
        }
    )
    options: Mapping[str, str] = {
        "first_player": "who activates first each round: roll-off or fewer-dice",
        "victory": "objectives (the d20 rules' objective VP) or kills (3 VP an "
        "objective, 1 VP a kill)",
    }

    # ------------------------------------------------------------------ setup
    def new_game(self, scenario: Scenario) -> GameState:
        """The soldiers deployed with their cards, round 0 awaiting the first Oracle phase."""
        return new_game(scenario, self.title)

    def board(self, state: GameState) -> StrikeBoard:
        """Sight, ranges and counts on this state's table."""
        return StrikeBoard(state)

    def strike_count(self, state: GameState, striker_id: str, target_id: str) -> StrikeCount:
        """The §3.1.g count a strike would make now, with every ally's sight lines (for the
        picture the assistant shows)."""
        striker, target = state.unit(striker_id), state.unit(target_id)
        return StrikeBoard(state).count(striker, target, detail=True)

    # ---------------------------------------------------------------- pending
    def can_activate(self, state: GameState, side: str) -> tuple[str, ...]:
        """The side's soldiers that may activate now (``ready``)."""
        return ready(state, side)

    def pending(self, state: GameState) -> Pending:
        """The Oracle phase (chance), a soldier continuing its activation, or a side choosing
        a soldier to activate (alternating; a side with nothing to activate is skipped)."""
        return TURNS.pending(state)

    # --------------------------------------------------------------- validate
    def validate(self, state: GameState, action: Action) -> list[str]:
        """Why the action is not legal now (plain sentences); empty when it is."""
        pending = self.pending(state)
        opening = prologue(state, pending, action, self.action_kinds, _not_ready)
        if opening is not None:
            return opening
        kind, unit = str(action.kind), state.unit(action.unit_id or "")
        fresh = pending.kind is PendingKind.CHOOSE_UNIT
        if kind in (ActionKind.PASS, HOLD):
            return []
        return action_problems(state, unit, action, fresh)

    def preview_strike(self, state: GameState, action: Action) -> StrikeCount | None:
        """The count a strike action would make (after its move, if it has one), with every
        ally's sight lines; None for an action that is not a strike."""
        if action.kind != STRIKE or not action.unit_id or not action.target_id:
            return None
        unit = state.unit(action.unit_id)
        board_state = moved(state, unit, action) if moves_first(action) else state
        return StrikeBoard(board_state).count(
            board_state.unit(unit.id), board_state.unit(action.target_id), detail=True
        )

    def sample_actions(self, state: GameState, unit_id: str, dice: RandomSource) -> list[Action]:
        """Hold, strikes at every enemy it can strike, and random moves (legal ones only)."""
        return [
            a for a in sample_actions(self, state, unit_id, dice) if not self.validate(state, a)
        ]

    # ------------------------------------------------------------------ apply
    def apply(self, state: GameState, action: Action, dice: RandomSource) -> Outcome:
        """Resolve a legal action; raises IllegalActionError with the reasons otherwise."""
        problems = self.validate(state, action)
        if problems:
            raise IllegalActionError(problems, action, state.round, state.step)
        pending = self.pending(state)
        state = evolve(state, step=state.step + 1)
        kind = str(action.kind)
        if kind == ActionKind.CHANCE:
            return self._oracle(state, dice)
        if kind == ActionKind.CHOOSE:
            return self._reroll(state, str(action.get("option")), dice)
        events: list[Event] = []
        if pending.kind is PendingKind.CHOOSE_UNIT and not action.unit_id:
            side = pending.side or ""
            rules = rules_of(state)
            state = evolve(state, rules=evolve(rules, stopped=rules.stopped | {side}))
            events.append(
                event(EventType.PASS, state.round, f"{side} stop for this round.", side=side)
            )
            return self._after(state, events)
        unit = state.unit(action.unit_id or "")
        if pending.kind is PendingKind.CHOOSE_UNIT:
            state, unit = self._activate(state, unit, events)
        if kind in (ActionKind.PASS, HOLD):
            return self._end_activation(state, events)
        rules = rules_of(state)
        taken = {kind, ActionKind.MOVE} if moves_first(action) else {kind}
        state = evolve(state, rules=evolve(rules, used=rules.used | taken))
        if kind == ActionKind.MOVE or moves_first(action):
            state = self._move(state, unit, action, events)
            unit = state.unit(unit.id)
        if kind == STRIKE:
            state = self._strike(state, unit, state.unit(action.target_id or ""), events)
        if state.winner is not None:
            return Outcome(state, tuple(events))
        if self._done(state, state.unit(unit.id)):
            return self._end_activation(state, events)
        return Outcome(state, tuple(events))

    def _done(self, state: GameState, unit: Unit) -> bool:
        """The activation ends by itself once nothing is left to do: moved and struck, or
        moved with no enemy it could strike (there is never an object to interact with)."""
        used = rules_of(state).used
        if ActionKind.MOVE not in used:
            return False
        if STRIKE in used:
            return True
        board = StrikeBoard(state)
        return not any(board.can_strike(unit, e) for e in state.enemies_of(unit))

    def _oracle(self, state: GameState, dice: RandomSource) -> Outcome:
        rnd = state.round + 1
        units = tuple(
            evolve(u, activated=False, rules=StrikeUnit()) if u.activated else u
            for u in state.units
        )
        state = evolve(state, round=rnd, units=units)
        events = [event(EventType.ROUND_START, rnd, f"Round {rnd}: the Oracle phase.")]
        rules = StrikeState()
        for side in state.sides:
            n = sum(card_of(u).initiative for u in state.units_of(side.name))
            faces = roll_pool(dice, n, 6, f"Oracle pool: {side.name} die {{}} of {n}".format)
            rules = rules.with_pool(side.name, faces)
            shown = " ".join(str(f) for f in faces) or "none"
            events.append(
                event(
                    "oracle",
                    rnd,
                    f"{side.name} roll {n} action dice: {shown}.",
                    side=side.name,
                    dice=list(faces),
                )
            )
        state = evolve(state, rules=rules)
        waiting = tuple(s.name for s in state.sides if to_reroll(state, s.name))
        if waiting:
            return Outcome(evolve(state, rules=evolve(rules, rerolling=waiting)), tuple(events))
        return self._start_actions(state, events, dice)

    def _reroll(self, state: GameState, option: str, dice: RandomSource) -> Outcome:
        """A side's Oracle skill: roll its spare dice again, or keep the pool."""
        rules = rules_of(state)
        side = rules.rerolling[0]
        events: list[Event] = []
        if option == REROLL:
            again = to_reroll(state, side)
            pool = remove_faces(rules.pool(side), again) or ()
            new = [
                dice.roll(6, f"Oracle re-roll: {side} die {k + 1} of {len(again)}")
                for k in range(len(again))
            ]
            rules = rules.with_pool(side, (*pool, *new))
            shown = " ".join(str(f) for f in rules.pool(side))
            events.append(
                event(
                    "reroll",
                    state.round,
                    f"{side} roll {len(again)} spare dice again: the pool is now {shown}.",
                    side=side,
                    rerolled=again,
                    rolled=new,
                    dice=list(rules.pool(side)),
                )
            )
        else:
            events.append(event("reroll", state.round, f"{side} keep their dice.", side=side))
        state = evolve(state, rules=evolve(rules, rerolling=rules.rerolling[1:]))
        if rules_of(state).rerolling:
            return Outcome(state, tuple(events))
        return self._start_actions(state, events, dice)

    def _start_actions(self, state: GameState, events: list[Event], dice: RandomSource) -> Outcome:
        """The roll-off for the first activation (D001A-03), then the action phase."""
        rules = rules_of(state)
        first, rolls = self._first_player(state, rules, dice)
        events.append(
            event(
                EventType.INITIATIVE,
                state.round,
                f"{first} activate first.",
                side=first,
                rolls=[list(r) for r in rolls],
            )
        )
        state = evolve(state, active_side=first, rules=evolve(rules, first=first))
        return self._after(state, events)

    def _first_player(
        self, state: GameState, rules: StrikeState, dice: RandomSource
    ) -> tuple[str, list[tuple[int, int]]]:
        """D001A-03: a d6 roll-off, ties rolled again (or, with the option, the side that
        rolled fewer dice, a tie going to the roll-off)."""
        a, b = state.sides[0].name, state.sides[1].name
        if state.option_value("first_player", "roll-off") == "fewer-dice":
            na, nb = len(rules.pool(a)), len(rules.pool(b))
            if na != nb:
                return (a if na < nb else b), []
        (ra, rb), ties = reroll_until(
            dice,
            lambda d: (
                d.roll(6, f"first activation roll-off: {a}"),
                d.roll(6, f"first activation roll-off: {b}"),
            ),
            lambda pair: pair[0] != pair[1],
        )
        return (a if ra > rb else b), [*ties, (ra, rb)]

    def _activate(
        self, state: GameState, unit: Unit, events: list[Event]
    ) -> tuple[GameState, Unit]:
        rules = rules_of(state)
        face = card_of(unit).face
        pool = remove_faces(rules.pool(unit.side), [face]) or ()
        unit = evolve(unit, activated=True, rules=StrikeUnit(die=face))
        rules = evolve(
            rules.with_pool(unit.side, pool), acting=unit.id, used=frozenset(), skill_dice=0
        )
        state = evolve(state.with_unit(unit), rules=rules)
        events.append(
            event(
                EventType.ACTIVATION,
                state.round,
                f"{unit.name} activates, spending a {face} ({TYPES[face - 1]}).",
                unit.id,
                side=unit.side,
                die=face,
            )
        )
        return state, unit

    def _move(self, state: GameState, unit: Unit, action: Action, events: list[Event]) -> GameState:
        path = action.path or (unit.position,)
        sprint = sprint_dice(action)
        rules = rules_of(state)
        if sprint:
            pool = remove_faces(rules.pool(unit.side), sprint) or ()
            rules = evolve(
                rules.with_pool(unit.side, pool), skill_dice=rules.skill_dice + len(sprint)
            )
        end: Point = path[-1]
        moved = [(a, b) for a, b in itertools.pairwise(path) if math.dist(a, b) > 1e-9]
        heading = (
            bearing_deg(*moved[-1])
            if moved
            else normalize_deg(action.heading_deg)
            if action.heading_deg is not None
            else unit.heading_deg
        )
        unit = evolve(unit, x=end[0], y=end[1], heading_deg=heading)
        state = evolve(state.with_unit(unit), rules=rules)
        length = path_cost_in(path)
        extra = f" (sprinting with {len(sprint)} dice)" if sprint else ""
        data: dict[str, object] = {
            "path": [[round(x, 4), round(y, 4)] for x, y in path],
            "heading": round(heading, 3),
            "distance_in": round(length, 3),
        }
        if sprint:
            data["sprint_dice"] = sprint
        events.append(
            event(
                EventType.MOVE,
                state.round,
                f"{unit.name} moves {length:.1f} in{extra}.",
                unit.id,
                **data,
            )
        )
        return state

    def _strike(self, state: GameState, unit: Unit, target: Unit, events: list[Event]) -> GameState:
        count = StrikeBoard(state).count(unit, target)
        verdict = "removed" if count.removed else "stands"
        events.append(
            event(
                STRIKE,
                state.round,
                f"{unit.name} strikes {target.name}: count {count.total} against Toughness "
                f"{count.toughness}: {target.name} {verdict}.",
                unit.id,
                target=target.id,
                toughness=count.toughness,
                counted=[c.to_json() for c in count.counted],
                disregarded=[c.to_json() for c in count.disregarded],
                total=count.total,
                removed=count.removed,
            )
        )
        if not count.removed:
            return state
        state = state.with_unit(evolve(target, status=UnitStatus.FALLEN))
        events.append(
            event(
                EventType.FALL,
                state.round,
                f"{target.name} is removed from play.",
                target.id,
                by=unit.id,
            )
        )
        if not state.units_of(target.side):
            winner = unit.side
            state = self._end(state, events, winner, f"{target.side} have no soldier left")
        return state

    def _end_activation(self, state: GameState, events: list[Event]) -> Outcome:
        rules = rules_of(state)
        acting = state.unit(rules.acting or "")
        state = evolve(state, rules=evolve(rules, acting=None, used=frozenset(), skill_dice=0))
        state = evolve(state, active_side=state.other_side(acting.side))
        return self._after(state, events)

    def _after(self, state: GameState, events: list[Event]) -> Outcome:
        """After a step: the round ends when nobody can activate; the last round scores."""
        if state.winner is not None or rules_of(state).acting is not None:
            return Outcome(state, tuple(events))
        if any(self.can_activate(state, s.name) for s in state.sides):
            return Outcome(state, tuple(events))
        rnd = state.round
        events.append(event(EventType.ROUND_END, rnd, f"Round {rnd} ends: no one can activate."))
        limit = int(state.option("max_rounds", ROUNDS))
        if rnd >= limit:
            vp = victory_points(state)
            shown = ", ".join(f"{s} {v} VP" for s, v in vp.items())
            events.append(event(EventType.SCORE, rnd, f"Victory points: {shown}.", vp=vp))
            state = self._end(state, events, points_winner(vp), f"round {rnd} was the last", vp)
        else:
            state = evolve(state, active_side=None)
        return Outcome(state, tuple(events))

    def _end(
        self,
        state: GameState,
        events: list[Event],
        winner: str,
        why: str,
        vp: dict[str, int] | None = None,
    ) -> GameState:
        vp = vp if vp is not None else victory_points(state)
        rules = evolve(rules_of(state), acting=None, scored=tuple(sorted(vp.items())))
        text = "The battle is a draw" if winner == "draw" else f"{winner} win"
        events.append(event(EventType.END, state.round, f"{text}: {why}.", winner=winner, vp=vp))
        return evolve(state, winner=winner, end_reason=why, active_side=None, rules=rules)

    # ------------------------------------------------------------ invariants
    def check_state(self, state: GameState) -> list[str]:
        """Pools hold d6 faces; the acting soldier is activated and on the table; a soldier's
        die matches its Type; bases stay on the table."""
        problems = []
        rules = rules_of(state)
        for side, pool in rules.pools:
            if any(f not in range(1, 7) for f in pool):
                problems.append(f"{side}'s pool holds a face that is not 1-6: {pool}")
        if rules.acting is not None:
            acting = state.unit(rules.acting)
            if not acting.activated or not acting.on_table:
                problems.append(f"{acting.id} acts without being activated on the table")
            if rules.skill_dice > card_of(acting).initiative:
                problems.append(f"{acting.id} spent more skill dice than its Initiative")
        for u in state.units:
            die = spent_die(u)
            if u.activated and u.on_table and die != card_of(u).face:
                problems.append(f"{u.id} is activated with die {die}, not {card_of(u).face}")
            if u.on_table and not state.table.contains_base(u.position, u.radius_in):
                problems.append(f"{u.id} is off the table")
        return problems


register_ruleset(NAME, StrikeRuleset)

"""firefight-lite: a small square-grid skirmish host for the playing-card AI of "Alone on the
Streets" (RULES §4; its host rulebook, Firefight 2.0, is absent, so this is D002-01's FF-lite
column).

* 1-inch squares, Chebyshev distance (D002-02, G-08); sight through terrain squares and
  hostile figures (G-03 as for seed 003); cover open < soft < hard (D002-10).
* A turn (§4.c): the Random Events phase (option ``random_events``, default on), the
  initiative (1d6 per side, ties re-rolled; the winner chooses to act first or second,
  D002-05), the neutral movers, then each side activates all its figures (D002-17); the
  Turn Done marks are cleared at the end of the turn.
* Actions: Move (full move), Aimed Fire (stand and shoot, +1), Move and Fire (half move, then
  shoot), Assault (move into contact and melee), Stay Frosty (overwatch: fire at the first
  hostile figure that starts an action in sight and range), Hold. A figure attacked before it
  has acted reacts (D002-11): Return Fire (simultaneous shot), Armour (the normal save) or
  Run for Cover (half move first; the attack is lost if it can no longer be made); the first
  and last mark it Turn Done.
* The card AI's deck is in the state (``decks``, named "cards"): the event draws and random
  selections happen here; the AI's action and defence cards are drawn by the ``cards``
  controller and named in its actions (``detail.card``), which put them on the discard pile;
  a Joker is a ``reshuffle`` action (D002-03); an empty draw pile is refilled from the
  discard pile (D002-04).
* The game ends when a combatant side has no figure left, or after ``max_rounds`` turns
  (default 8): more figures standing wins, equal numbers draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from engine.actions import Action, Event, IllegalActionError, event
from engine.cards import JOKER
from engine.dice import RandomSource
from engine.geometry.grid import Cell, chebyshev
from engine.model import GameState, Unit, UnitStatus, evolve
from engine.protocols import Outcome, Pending, PendingKind, RulesetBase, register_ruleset
from engine.rulesets.firefight_lite import reactions as reactions
from engine.rulesets.firefight_lite import sequence as flow
from engine.rulesets.firefight_lite.board import cell, squares
from engine.rulesets.firefight_lite.deck import deck_problems
from engine.rulesets.firefight_lite.events import event_phase
from engine.rulesets.firefight_lite.legality import (
    COMBAT_KINDS,
    NEUTRAL_KINDS,
    REACTIONS,
    attackable,
    cell_of,
    check_action,
    check_joker,
    check_reaction,
    half_move,
)
from engine.rulesets.firefight_lite.sequence import TURNS
from engine.rulesets.firefight_lite.setup import new_game
from engine.rulesets.firefight_lite.state import (
    DECK,
    NAME,
    card,
    is_combatant,
)
from engine.scenario import Scenario, cell_name
from engine.turns import prologue

__all__ = ["FirefightLite", "attackable", "half_move", "register"]


class FirefightLite(RulesetBase):
    """The FF-lite host ruleset (see the module docstring)."""

    name = NAME
    title = "Firefight-lite (host for the Alone on the Streets card AI)"
    source = "Alone on the Streets: a solo system for Firefight 2.0"
    action_kinds = frozenset(
        {"chance", "choose", "pass", "reshuffle", *COMBAT_KINDS, *REACTIONS, *NEUTRAL_KINDS}
    )
    options: Mapping[str, str] = MappingProxyType(
        {"random_events": "the Random Events phase each turn (true or false, default true)"}
    )

    # -- setup -----------------------------------------------------------------------------

    def new_game(self, scenario: Scenario) -> GameState:
        return new_game(scenario, self.title)

    def _events_on(self, state: GameState) -> bool:
        return bool(state.option_value("random_events", True))

    def _max_rounds(self, state: GameState) -> int:
        return int(state.option("max_rounds", flow.DEFAULT_ROUNDS))

    # -- decision points --------------------------------------------------------------------

    def pending(self, state: GameState) -> Pending:
        """What the state waits for (``TURNS``; computed once per state)."""
        return TURNS.pending(state)

    # -- legality ----------------------------------------------------------------------------

    def validate(self, state: GameState, action: Action) -> list[str]:
        pending = self.pending(state)
        opening = prologue(state, pending, action, self.action_kinds)
        if opening is not None:
            return opening
        kind, unit = str(action.kind), state.unit(action.unit_id or "")
        if pending.kind is PendingKind.REACTION:
            return check_reaction(state, unit, action, pending.purpose)
        if kind == "pass" and pending.kind is PendingKind.CHOOSE_UNIT:
            return []  # a figure's pass ends its side's half-turn
        if kind == "reshuffle":
            return check_joker(state, unit, action)
        return check_action(state, unit, action)

    # -- resolution --------------------------------------------------------------------------

    def apply(self, state: GameState, action: Action, dice: RandomSource) -> Outcome:
        problems = self.validate(state, action)
        if problems:
            raise IllegalActionError(problems, action, state.round, state.step)
        pending = self.pending(state)
        state = evolve(state, step=state.step + 1)
        kind = str(action.kind)
        events: list[Event]
        if pending.kind is PendingKind.CHANCE:
            state, events = self._chance(state, dice)
        elif pending.kind is PendingKind.CHOICE:
            first = action.get("option") == "first"
            winner = pending.side or ""
            other = next(s for s in flow.combatant_sides(state) if s != winner)
            lead = winner if first else other
            state = flow.with_rules(state, phase="neutral", first=lead, acting_side=lead)
            events = [
                event(
                    "initiative_choice",
                    state.round,
                    f"{winner} choose to act {'first' if first else 'second'}.",
                    side=winner,
                    first=lead,
                )
            ]
        elif kind == "reshuffle":
            state = flow.reshuffle(state, dice)
            if pending.kind is PendingKind.CHOOSE_UNIT:
                state = flow.with_rules(state, acting=action.unit_id)
            events = [
                event(
                    "joker",
                    state.round,
                    "Joker: the deck is reshuffled and a new card drawn.",
                    action.unit_id,
                    card=JOKER,
                )
            ]
        elif pending.kind is PendingKind.REACTION:
            state, events = self._react(state, action, dice)
        elif kind == "pass":
            side = pending.side or ""
            units = tuple(
                evolve(u, activated=True) if u.side == side and u.on_table else u
                for u in state.units
            )
            state = evolve(state, units=units)
            events = [event("pass", state.round, f"{side} end their half-turn.", side=side)]
        else:
            state = flow.with_rules(state, acting=None)
            state = flow.discard_card(state, action)
            state, events = self._act(state, action, dice)
        state, more = flow.settle(state, dice, self._events_on(state), self._max_rounds(state))
        return Outcome(state, tuple([*events, *more]))

    def _chance(self, state: GameState, dice: RandomSource) -> tuple[GameState, list[Event]]:
        r = flow.rules(state)
        if r.phase == "setup":
            deck = state.deck(DECK).shuffled(dice, "set-up: shuffle the deck")
            state = flow.new_turn(state.with_deck(deck), self._events_on(state))
            return state, [event("round_start", state.round, "The deck is shuffled. Turn 1.")]
        if r.phase == "event":
            return event_phase(state, dice)
        sides = flow.combatant_sides(state)
        pair = [dice.roll(6, f"initiative: {s}") for s in sides]
        said = ", ".join(f"{s} {v}" for s, v in zip(sides, pair, strict=True))
        if pair[0] == pair[1]:  # D002-05: a tie is rolled again (its own chance step)
            return state, [
                event("initiative_tie", state.round, f"Initiative: {said}: roll again.", rolls=pair)
            ]
        winner = sides[0] if pair[0] > pair[1] else sides[1]
        state = flow.with_rules(state, phase="order", initiative_winner=winner)
        text = f"Initiative: {said}: {winner} choose."
        rolls = [pair]
        return state, [event("initiative", state.round, text, winner=winner, rolls=rolls)]

    def _react(
        self, state: GameState, action: Action, dice: RandomSource
    ) -> tuple[GameState, list[Event]]:
        why = flow.rules(state).reaction
        if why == "defence":
            return reactions.answer_defence(state, action, dice)
        if why == "overwatch":
            return reactions.answer_overwatch(state, action, dice)
        if why == "event":
            state = flow.discard_card(state, action)
            return reactions.answer_event_hit(state, action, dice)
        return self._answer_move_with(state, action)

    def _answer_move_with(self, state: GameState, action: Action) -> tuple[GameState, list[Event]]:
        r = flow.rules(state)
        unit = state.unit(r.reacting or "")
        events: list[Event] = []
        if str(action.kind) == "move_with":
            to = cell_of(action)
            assert to is not None
            state, ev = flow.move_unit(state, unit.id, to, "moves with the mover")
            state = state.with_unit(evolve(state.unit(unit.id), activated=True))
            events = [reactions.reaction_event(state, unit, "move_with", action), ev]
        rest = r.watchers[1:]
        if rest:
            state = flow.with_rules(state, reacting=rest[0], watchers=rest)
        else:
            state = flow.with_rules(state, reacting=None, reaction="", trigger=None, watchers=())
        return state, events

    def _act(
        self, state: GameState, action: Action, dice: RandomSource
    ) -> tuple[GameState, list[Event]]:
        unit = state.unit(action.unit_id or "")
        kind = str(action.kind)
        neutral = card(unit).neutral
        if kind == "leave":
            events: list[Event] = []
            to = cell_of(action)
            if to is not None and to != cell(unit):
                state, walked = flow.move_unit(state, unit.id, to)
                events.append(walked)
                unit = state.unit(unit.id)
            state = state.with_unit(evolve(unit, status=UnitStatus.ROUTED_OFF, activated=True))
            return state, [
                *events,
                event("left_table", state.round, f"{unit.name} leaves the table.", unit.id),
            ]
        start = cell(unit)
        state, events = flow.begin(state, action, dice)
        moved = state.unit(unit.id)
        if neutral == "mine":
            state, more = self._mine(state, moved, dice)
            events += more
        elif neutral in ("citizen", "bot") and kind == "move" and moved.cell != start:
            watchers = tuple(
                u.id
                for u in state.units
                if u.on_table
                and is_combatant(u)
                and not u.activated
                and chebyshev(cell(u), start) == 1
            )
            if watchers and events:
                state = flow.with_rules(
                    state,
                    reacting=watchers[0],
                    reaction="move_with",
                    trigger=events[-1],
                    watchers=watchers,
                )
        return state, events

    def _mine(
        self, state: GameState, mine: Unit, dice: RandomSource
    ) -> tuple[GameState, list[Event]]:
        """D002-12: the air mine explodes on touching a figure: AOE 1, strength 2."""
        near = [
            u
            for u in state.units
            if u.on_table and u.id != mine.id and u.cell and chebyshev(u.cell, cell(mine)) <= 1
        ]
        if not any(is_combatant(u) for u in near):
            return state, []
        state = state.with_unit(evolve(mine, status=UnitStatus.FALLEN))
        events = [
            event(
                "explosion",
                state.round,
                f"{mine.name} explodes at {cell_name(cell(mine))}.",
                mine.id,
                cell=list(cell(mine)),
            )
        ]
        from engine.rulesets.firefight_lite.combat import take_hit

        for u in near:
            state, more = take_hit(state, u.id, 2, dice, "air mine")
            events += more
        return state, events

    # -- checks and samples -------------------------------------------------------------------

    def check_state(self, state: GameState) -> list[str]:
        problems: list[str] = []
        grid = state.table.grid
        taken: dict[Cell, str] = {}
        impassable = squares(state).board.walls
        for u in state.units:
            if not u.on_table:
                continue
            if u.cell is None or grid is None or not grid.contains(u.cell):
                problems.append(f"{u.id} is off the grid")
                continue
            if u.cell in taken:
                problems.append(f"{u.id} and {taken[u.cell]} share {cell_name(u.cell)}")
            if u.cell in impassable:
                problems.append(f"{u.id} stands in impassable terrain")
            taken[u.cell] = u.id
        deck = state.deck(DECK)
        problems += deck_problems(deck)
        if state.winner is None and not deck.draw_pile:
            problems.append("the draw pile is empty between steps")
        return problems

    def sample_actions(self, state: GameState, unit_id: str, dice: RandomSource) -> list[Action]:
        from engine.rulesets.firefight_lite.sample import sample

        return sample(self, state, unit_id, dice)

    def action_word(self, action: Action) -> str:
        """The kind, except a defence card's pass, which is the Armour it reads as (§4.g)."""
        if str(action.kind) == "pass" and action.get("card"):
            return "armour"
        return str(action.kind)


def register() -> None:
    """Register the ruleset."""
    register_ruleset(NAME, FirefightLite)


register()

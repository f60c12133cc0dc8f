"""Seed 000, the Solo Narrative Minis Ruleset, as decided in RULES.md §2.

Rounds start with an initiative d6 (1-3 the AI side first, 4-6 the human side); sides
alternate activating one character at a time; a pass gives up only the current
opportunity and two passes in a row end the round. Attacks: d6 + ATK - DEF (-1 after a
move) wounds on more than 3, a 1 always misses, a 6 always wounds.

This module holds the ruleset class (setup, what the battle waits for, the dispatch of an
action, the state invariants); the checks are in :mod:`.legality`, the order of play
in :mod:`.sequence` and what an action does in :mod:`.resolve`. A battle
whose AI side is the playing-card AI's adds its deck, Random Events and reactions
(:mod:`.cards`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.actions import Action, ActionKind, IllegalActionError
from engine.cards import Deck
from engine.dice import RandomSource
from engine.geometry import Edge
from engine.model import GameState, Role, Side, Unit, evolve
from engine.protocols import Outcome, Pending, PendingKind, RulesetBase, register_ruleset
from engine.rulesets.narrative import cards as narrative_cards
from engine.rulesets.narrative.board import NarrativeCard, card_of
from engine.rulesets.narrative.legality import HEADING_TOL_DEG, action_problems, flight_edges
from engine.rulesets.narrative.query import NarrativeQuery
from engine.rulesets.narrative.resolve import final_heading, rout_threshold, wound_roll
from engine.rulesets.narrative.sample import candidate_actions
from engine.rulesets.narrative.sequence import TURNS, activation, initiative, pass_turn
from engine.rulesets.narrative.state import (
    NarrativeState,
    NarrativeUnit,
    card_host,
    carrying,
    company_of,
    rules_of,
)
from engine.scenario import Scenario, ScenarioError, card_error
from engine.scenario_setup import objectives_of, table_of, terrain_of, unit_from_spec

__all__ = [
    "HEADING_TOL_DEG",
    "NAME",
    "NarrativeRuleset",
    "final_heading",
    "rout_threshold",
    "wound_roll",
]

NAME = "narrative"
WORDS = {
    str(ActionKind.FLEE): "rout",
    str(ActionKind.OVERWATCH): "stay_frosty",
    str(ActionKind.REACT_FIRE): "reaction_shot",
    str(ActionKind.REACT_EVADE): "run_for_cover",
}
"""Log words of action kinds other than their own name."""


class _CardSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    move_in: float = Field(gt=0, le=48)
    attack: int = Field(ge=-10, le=10)
    defence: int = Field(ge=-10, le=10)
    wound_slots: int = Field(ge=0, le=20)
    shoot_range_in: float | None = Field(default=None, gt=0, le=240)
    wounds: int = Field(default=0, ge=0, le=21)
    """Starting wound tokens carried over from earlier battles."""


class NarrativeRuleset(RulesetBase):
    """The seed-000 rules."""

    name = NAME
    title = "Solo Narrative Minis Ruleset"
    source = "Solo Narrative Minis Ruleset"
    action_kinds: frozenset[str] = frozenset(
        {
            ActionKind.CHANCE,
            ActionKind.PASS,
            ActionKind.MOVE,
            ActionKind.SHOOT,
            ActionKind.MOVE_AND_SHOOT,
            ActionKind.MOVE_INTO_MELEE,
            ActionKind.CONTINUE_MELEE,
            ActionKind.FLEE,
            *narrative_cards.HOST_KINDS,
            narrative_cards.RESHUFFLE,
        }
    )
    """The action kinds of seed 000 (a flight is ``flee``; its log word is "rout"), and those
    of a battle with the card AI (:mod:`.cards`): Stay Frosty (``overwatch``), the
    reactions (``react_fire``, ``react_evade``) and a Joker's ``reshuffle``."""
    options: Mapping[str, str] = MappingProxyType(
        {
            "random_events": "with the card AI: the Random Events phase each round "
            "(true or false, default true)"
        }
    )

    def sample_actions(self, state: GameState, unit_id: str, dice: RandomSource) -> list[Action]:
        """Legal actions of the character now: its forced action, or shots, firing positions,
        charges, a carrier's run, pivots and random moves (:mod:`.sample`)."""
        if card_host(state) is not None and self.pending(state).kind is PendingKind.REACTION:
            return narrative_cards.sample_reactions(state, unit_id)
        unit = state.unit(unit_id)
        legal = [a for a in candidate_actions(state, unit, dice) if not self.validate(state, a)]
        if not legal:
            pivot = Action(ActionKind.MOVE, unit.id, heading_deg=unit.heading_deg)
            legal = [pivot] if not self.validate(state, pivot) else []
        frosty = narrative_cards.overwatch_action(state, unit.id)
        return [*legal, frosty] if frosty is not None else legal

    def query(self, state: GameState) -> NarrativeQuery:
        """Seed-000 table queries for controllers."""
        return NarrativeQuery(state)

    def action_word(self, action: Action) -> str:
        """The word orders and logs use for the action's kind: seed 000 calls a flight a rout;
        the card AI's words for its Stay Frosty, its reactions and an Armour card's pass."""
        if action.kind == ActionKind.PASS and action.get("card"):
            return "armour"
        return WORDS.get(str(action.kind), str(action.kind))

    # ----------------------------------------------------------------- setup
    def new_game(self, scenario: Scenario) -> GameState:
        """The starting state: characters deployed, cards read, round 0 awaiting initiative."""
        for i, s in enumerate(scenario.sides):
            if s.role == "neutral":
                raise ScenarioError(
                    f"{scenario.source}: sides[{i}].role: the {self.title} has no neutral side "
                    "(allowed: ai, human)"
                )
        sides = tuple(
            Side(s.name, Role(s.role), Edge(s.edge), tuple(s.generals)) for s in scenario.sides
        )
        table = table_of(scenario)
        units = []
        for i, spec in enumerate(scenario.units):
            try:
                card = _CardSpec.model_validate(spec.card)
            except ValidationError as exc:
                raise card_error(scenario, i, exc, _CardSpec) from None
            if card.wounds > card.wound_slots:
                raise ScenarioError(
                    f"{scenario.source}: units[{i}].card.wounds: {card.wounds} starting wounds "
                    f"but only {card.wound_slots} wound slots"
                )
            units.append(
                unit_from_spec(
                    spec,
                    i,
                    card=NarrativeCard(
                        move_in=card.move_in,
                        attack_mod=card.attack,
                        defence_mod=card.defence,
                        wound_slots=card.wound_slots,
                        shoot_range_in=card.shoot_range_in,
                    ),
                    wounds=card.wounds,
                    general=spec.general,
                    cell=table.cell_of((spec.x, spec.y)),
                    rules=NarrativeUnit(company=spec.company or spec.side),
                )
            )
        terrain = terrain_of(scenario)
        objectives = objectives_of(scenario)
        sizes: dict[str, int] = {}
        for u in units:
            sizes[company_of(u)] = sizes.get(company_of(u), 0) + 1
        rules = NarrativeState(company_sizes=tuple(sorted(sizes.items())))
        decks: tuple[Deck, ...] = ()
        if narrative_cards.hosts_card_ai(scenario):
            host, deck = narrative_cards.new_host(scenario)
            rules, decks = evolve(rules, cards=host), (deck,)
        elif "random_events" in scenario.options:
            raise ScenarioError(
                f"{scenario.source}: options.random_events: only a battle with the card AI "
                f'(ai_controller = "{narrative_cards.CARD_AI}") has a Random Events phase'
            )
        return GameState(
            ruleset=NAME,
            memo=scenario.game_memo(NAME),
            scenario=scenario.scenario.name,
            table=table,
            sides=sides,
            units=tuple(units),
            terrain=terrain,
            objectives=objectives,
            options=tuple(sorted(scenario.options.items())),
            rules=rules,
            decks=decks,
        )

    # --------------------------------------------------------------- pending
    def pending(self, state: GameState) -> Pending:
        """What the battle waits for next. A side's routing character (the first in sheet
        order) is ``forced``: its flight is ordered for the side, whoever plays it (§2.d-1:
        a routing character takes no action of its own)."""
        return TURNS.pending(state)

    # -------------------------------------------------------------- validate
    def validate(self, state: GameState, action: Action) -> list[str]:
        """Why ``action`` is illegal now, as plain sentences (empty: legal)."""
        pending = self.pending(state)
        if card_host(state) is not None:
            found = narrative_cards.problems(state, action, pending)
            if found is not None:
                return found
        elif action.kind in narrative_cards.HOST_KINDS or action.kind == narrative_cards.RESHUFFLE:
            what = str(action.kind).replace("_", " ")
            return [f"{what} belongs to the card AI's figures, and it does not play this battle"]
        elif action.get("card") is not None:
            return ["this battle has no card AI deck to draw a card from"]
        return action_problems(state, action, pending, self.action_kinds)

    # ----------------------------------------------------------------- apply
    def apply(self, state: GameState, action: Action, dice: RandomSource) -> Outcome:
        """Resolve a legal action; raises IllegalActionError with the reasons otherwise."""
        problems = self.validate(state, action)
        if problems:
            raise IllegalActionError(problems, action, state.round, state.step)
        pending = self.pending(state)
        state = evolve(state, step=state.step + 1)
        if card_host(state) is not None:
            return narrative_cards.apply(state, action, dice, pending)
        if action.kind == ActionKind.CHANCE:
            return initiative(state, dice)
        if action.kind == ActionKind.PASS:
            return pass_turn(state)
        return activation(state, action, dice)

    # ----------------------------------------------------------- flight edges
    def flight_edges(self, state: GameState, unit: Unit) -> tuple[Edge, ...]:
        """The edges a routing or carrying unit may head for (G-05): the nearest, or its own
        edge among tied nearest ones, or every tied one (then a roll chooses)."""
        return flight_edges(state, unit)

    def nearest_edge(self, state: GameState, unit: Unit, dice: RandomSource) -> Edge:
        """G-05: the nearest table edge; ties go to the side's own edge, then a logged d-roll."""
        return self.nearest_edge_roll(state, unit, dice)[0]

    def nearest_edge_roll(
        self, state: GameState, unit: Unit, dice: RandomSource
    ) -> tuple[Edge, int | None]:
        """G-05: the nearest table edge and the roll that chose it among tied edges (None when
        there was no tie left to roll: a single nearest edge, or the side's own edge among them).

        The roll is logged with the purpose "nearest-edge tie for <name>"; the edges are listed
        front, right, back, left and a d-N result picks the N-th.
        """
        return NarrativeQuery(state).nearest_edge(unit, dice)

    # ---------------------------------------------------------- invariants
    def check_state(self, state: GameState) -> list[str]:
        """Problems with a state that the rules should never produce."""
        problems = []
        on_table = [u for u in state.units if u.on_table]
        for u in on_table:
            if not state.table.contains_base(u.position, u.radius_in - 1e-6):
                problems.append(f"{u.name} at ({u.x:.2f}, {u.y:.2f}) is off the table")
            card = card_of(u)
            if not 0 <= u.wounds <= card.wound_slots:
                problems.append(f"{u.name} has {u.wounds} wounds for {card.wound_slots} slots")
        for i, a in enumerate(on_table):
            for b in on_table[i + 1 :]:
                overlap = a.radius_in + b.radius_in - math.dist(a.position, b.position)
                if overlap > 0.02:
                    problems.append(f"{a.name} and {b.name} overlap by {overlap:.2f} in")
        for o in state.objectives:
            if o.carried_by is not None:
                carrier = state.unit(o.carried_by)
                if carrying(carrier) != o.id or not carrier.on_table:
                    problems.append(f"{o.name} is carried by {carrier.name}, who does not hold it")
        for u in state.units:
            held = carrying(u)
            if held is not None and state.objective(held).carried_by != u.id:
                problems.append(f"{u.name} holds {held}, which does not know it")
        rules = rules_of(state)
        if rules.waiting is PendingKind.CONTINUE:
            if rules.bonus_unit is None:
                problems.append("bonus phase without a bonus unit")
            elif not state.unit(rules.bonus_unit).on_table:
                problems.append(f"bonus activation for {rules.bonus_unit}, who is off the table")
        if (rules.waiting is PendingKind.OVER) != (state.winner is not None):
            problems.append(f"waiting for {rules.waiting.value} with winner {state.winner!r}")
        for o in state.objectives:
            if o.scored_by is not None and o.carried_by is not None:
                problems.append(f"{o.name} is both scored and carried")
        companies = {company_of(u) for u in state.units}
        for company in sorted(rules.routing_companies - companies):
            problems.append(f"routing company {company!r} has no characters")
        if rules.cards is not None:
            problems += narrative_cards.state_problems(state, rules.cards)
        return problems


register_ruleset(NAME, NarrativeRuleset)

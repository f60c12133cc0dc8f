"""The narrative ruleset's (seed 000) own parts of the state: what the round waits for, passes
in a row, the co-operative rotation, a bonus activation, routing companies, the card AI's part
when it commands the AI side (``state.rules``), and each character's company and carried
objective (``unit.rules``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.actions import Action, Event
from engine.errors import EngineError
from engine.geometry import Point
from engine.model import GameState, RulesState, Unit, UnitRules, evolve
from engine.protocols import PendingKind


@dataclass(frozen=True)
class CardHost:
    """What the narrative rules hold for the playing-card AI when it commands the AI side
    (RULES §4, D002-01's seed-000 column; :mod:`.cards`): the round's Random Events
    draw, and the reactions of its figures (a defence card when attacked before activating,
    a Stay Frosty reaction shot) and of the player's figures to an event's hit. The deck itself
    is the game's (``GameState.decks``, "cards")."""

    events_on: bool = True
    """The Random Events phase at the start of each round (option ``random_events``)."""
    initiative_due: bool = False
    """The round has begun and its event card is drawn: its initiative roll comes next."""
    events_done: tuple[str, ...] = ()
    """Event cards resolved so far (each once per game)."""
    drawing: str | None = None
    """A figure that drew a Joker: it draws again (CONTINUE)."""
    reacting: str | None = None
    """The figure a REACTION waits for."""
    reaction: str = ""
    """"defence" (attacked before activating, §4.g), "overwatch" (Stay Frosty) or "event"
    (an event's hit: armour or run for cover, no Return Fire)."""
    trigger: Event | None = None
    """What the reaction answers."""
    held: Action | None = None
    """The action that resumes once the reaction is answered (the attack, or the action an
    enemy started in sight of an overwatcher)."""
    asked: tuple[str, ...] = ()
    """Overwatchers already asked about the held action."""
    event_hits: tuple[int, ...] = ()
    """Strengths of the hits an event reaction is about (sniper, booby trap)."""


@dataclass(frozen=True)
class NarrativeState(RulesState):
    """Seed-000 round bookkeeping."""

    waiting: PendingKind = PendingKind.CHANCE
    """CHANCE (initiative), CHOOSE_UNIT (activations), CONTINUE (a bonus activation) or OVER."""
    passes_in_row: int = 0
    general_turn: int = 0
    """How many human activations there have been this battle (co-op rotation)."""
    bonus_unit: str | None = None
    """Unit taking a bonus activation after felling an enemy."""
    bonus_move_in: float = 0.0
    bonus_toward: Point | None = None
    """Where the enemy felled by the bonus unit stood (the AI turns to face it)."""
    routing_companies: frozenset[str] = frozenset()
    company_sizes: tuple[tuple[str, int], ...] = ()
    """Starting number of characters per company."""
    cards: CardHost | None = None
    """The card AI's part, when it commands the AI side (None otherwise)."""


@dataclass(frozen=True)
class NarrativeUnit(UnitRules):
    """A seed-000 character's own state."""

    company: str = ""
    """Company name: the group whose losses trigger rout checks."""
    carrying: str | None = None
    """Id of the objective it carries."""


def rules_of(state: GameState) -> NarrativeState:
    """The state's seed-000 part."""
    rules = state.rules
    if not isinstance(rules, NarrativeState):
        raise EngineError(f"the {state.ruleset} game has no narrative-ruleset state")
    return rules


def unit_rules(unit: Unit) -> NarrativeUnit:
    """The unit's seed-000 part."""
    rules = unit.rules
    if not isinstance(rules, NarrativeUnit):
        raise EngineError(f"{unit.name} has no narrative-ruleset state")
    return rules


def company_of(unit: Unit) -> str:
    """The unit's company."""
    return unit_rules(unit).company


def carrying(unit: Unit) -> str | None:
    """Id of the objective the unit carries, if any."""
    return unit_rules(unit).carrying


def with_carrying(unit: Unit, objective_id: str | None) -> Unit:
    """The unit carrying ``objective_id`` (None: nothing)."""
    return evolve(unit, rules=evolve(unit_rules(unit), carrying=objective_id))


def is_routing(state: GameState, unit: Unit) -> bool:
    """Whether the unit's company is routing."""
    return unit_rules(unit).company in rules_of(state).routing_companies


def with_rules(state: GameState, **changes: Any) -> GameState:
    """A copy with fields of the seed-000 part changed."""
    return evolve(state, rules=evolve(rules_of(state), **changes))


def bonus_move_for(state: GameState, unit: Unit) -> float | None:
    """The move allowance of the unit's bonus activation, or None when it is not taking one."""
    rules = rules_of(state)
    if rules.waiting is PendingKind.CONTINUE and rules.bonus_unit == unit.id:
        return rules.bonus_move_in
    return None


def card_host(state: GameState) -> CardHost | None:
    """The card AI's part of the state, when it commands the AI side."""
    return rules_of(state).cards


def with_card_host(state: GameState, **changes: Any) -> GameState:
    """A copy with fields of the card AI's part changed (it must have one)."""
    host = card_host(state)
    if host is None:
        raise EngineError("this narrative battle has no card AI")
    return with_rules(state, cards=evolve(host, **changes))


def in_bonus(state: GameState) -> bool:
    """Whether a bonus activation is under way."""
    return rules_of(state).waiting is PendingKind.CONTINUE

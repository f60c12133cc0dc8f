"""The two plug-in points of the engine, and their registries (RULES §1.7).

A :class:`Ruleset` knows what is legal and what happens; a :class:`Controller` decides
for one side (the AI of a rule system, or the autopilot that plays the human side in
simulations). Both are found by name, so a scenario file names its ruleset and its AI.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Protocol, cast

from engine import catalogue
from engine.actions import Action, ActionKind, Event, Order
from engine.chance import DEFAULT_LIMIT, ChanceOutcome, Pick, draws_probability, step_outcomes
from engine.dice import RandomSource
from engine.errors import EngineError
from engine.model import GameState
from engine.query import BoardQuery, TableQuery
from engine.scenario import Scenario


class PendingKind(StrEnum):
    """What the game needs next: the one list of decision points (OpenSpiel style) every
    ruleset's sequence is made of. The decision driver (:mod:`engine.decision`) dispatches on
    it alone."""

    CHANCE = "chance"
    """The random source decides (initiative, an Oracle pool, an event draw): ``purpose``."""
    CHOOSE_UNIT = "choose_unit"
    """``side`` picks one of ``candidates`` to act, or passes when ``may_pass``."""
    CONTINUE = "continue"
    """``unit`` has actions left (a second action, a bonus activation); it may stop when
    ``may_pass``."""
    REACTION = "reaction"
    """``unit`` may react to ``trigger`` (an event), or decline."""
    CHOICE = "choice"
    """``side`` picks one of the named ``options`` (who acts first, a card's branch)."""
    OVER = "over"


@dataclass(frozen=True)
class Pending:
    """The decision the game is waiting for."""

    kind: PendingKind
    side: str | None = None
    """The side that decides (none for a chance step or the end)."""
    general: str | None = None
    """The human general whose turn it is (co-operative play)."""
    candidates: tuple[str, ...] = ()
    """Unit ids that may act now, in sheet order (CHOOSE_UNIT; the unit itself otherwise)."""
    may_pass: bool = True
    unit: str | None = None
    """The unit that continues or reacts (CONTINUE, REACTION)."""
    trigger: Event | None = None
    """What the reaction answers (REACTION)."""
    options: tuple[str, ...] = ()
    """The named options (CHOICE)."""
    purpose: str = ""
    """What a chance step or a choice decides, in words ("initiative")."""
    forced: str | None = None
    """One of ``candidates`` whose action the rules force now (CHOOSE_UNIT: a routing
    character's flight). Where a person plays the side, the side's controller orders it and
    the person chooses nothing; a controller playing the side chooses as ever
    (:mod:`engine.decision`)."""


@dataclass(frozen=True)
class Outcome:
    """The result of applying an action: the new state and what happened."""

    state: GameState
    events: tuple[Event, ...]


class Ruleset(Protocol):
    """A rule system: setup, sequencing, legality and resolution."""

    name: str
    """Registry name, as scenarios write it ("narrative")."""
    title: str
    """Human-readable name of the rule system (never an internal seed number)."""
    source: str
    """Title of the rule document it implements."""
    action_kinds: frozenset[str]
    """The action kinds it accepts (:class:`~engine.actions.ActionKind` words and its own)."""
    options: Mapping[str, str]
    """Scenario options of its own (name: what it takes), beside the shared ones
    (``engine.scenario.RULE_OPTIONS``); it checks their values in ``new_game``."""
    table_in: tuple[float, float]
    """The table (width, depth) in inches a scenario without a size gets (RULES G-06)."""
    move_leads: frozenset[str]
    """The action kinds declared where a unit stands that lead into a move of the same unit
    (a charge declared, its reach rolled, then run): the replay reads a seen move as one of
    them followed by the move."""

    def action_word(self, action: Action) -> str:
        """The word an order line and the log use for the action's kind."""
        ...

    def new_game(self, scenario: Scenario) -> GameState:
        """The state at the start of the battle."""
        ...

    def pending(self, state: GameState) -> Pending:
        """What the game is waiting for."""
        ...

    def validate(self, state: GameState, action: Action) -> list[str]:
        """Why the action is not legal here (plain sentences); empty when it is legal."""
        ...

    def apply(self, state: GameState, action: Action, dice: RandomSource) -> Outcome:
        """Resolve a legal action. Pure apart from the dice; raises IllegalActionError."""
        ...

    def check_state(self, state: GameState) -> list[str]:
        """Invariants that a reachable state must satisfy; the problems found, if any."""
        ...

    def sample_actions(self, state: GameState, unit_id: str, dice: RandomSource) -> list[Action]:
        """A finite sample of the legal actions of ``unit_id`` now (all of them where they are
        few; random moves drawn with ``dice`` where they are endless). Empty: none."""
        ...

    def query(self, state: GameState) -> TableQuery:
        """The table queries controllers may make in this state."""
        ...

    def chance_outcomes(
        self, state: GameState, action: Action | None = None, *, limit: int = DEFAULT_LIMIT
    ) -> list[tuple[ChanceOutcome, Fraction]]:
        """Every distinct result of the draws of a chance step (``action`` None) or of an
        action whose resolution rolls or draws, with its exact probability (they sum to 1)."""
        ...

    def draws_probability(
        self, state: GameState, action: Action | None, draws: Sequence[Pick]
    ) -> Fraction:
        """The exact chance that the step draws exactly ``draws`` (faces and cards, in order)."""
        ...


class RulesetBase:
    """Defaults a ruleset may keep (subclass it and override what its rules make different)."""

    name = ""
    title = ""
    source = ""
    action_kinds: frozenset[str] = frozenset()
    options: Mapping[str, str] = {}
    table_in: tuple[float, float] = (24.0, 24.0)
    move_leads: frozenset[str] = frozenset()

    def action_word(self, action: Action) -> str:
        """The kind itself."""
        return str(action.kind)

    def query(self, state: GameState) -> TableQuery:
        """The shared board queries (:class:`~engine.query.BoardQuery`)."""
        return BoardQuery(state)

    def sample_actions(self, state: GameState, unit_id: str, dice: RandomSource) -> list[Action]:
        """None known (a ruleset lists its own, or the random controller cannot play it)."""
        return []

    def chance_outcomes(
        self, state: GameState, action: Action | None = None, *, limit: int = DEFAULT_LIMIT
    ) -> list[tuple[ChanceOutcome, Fraction]]:
        """By walking the draws ``apply`` itself makes (:mod:`engine.chance`): no system
        writes its own. An action without draws has one outcome at probability 1."""
        step = self._chance_step(state, action)
        ruleset = cast(Ruleset, self)
        return step_outcomes(
            lambda dice: ruleset.apply(state, step, dice), limit=limit, what=_step_words(step)
        )

    def draws_probability(
        self, state: GameState, action: Action | None, draws: Sequence[Pick]
    ) -> Fraction:
        """By applying the step once with exactly these draws (:func:`engine.chance.draws_probability`)."""
        step = self._chance_step(state, action)
        ruleset = cast(Ruleset, self)
        return draws_probability(
            lambda dice: ruleset.apply(state, step, dice), draws, what=_step_words(step)
        )

    def _chance_step(self, state: GameState, action: Action | None) -> Action:
        """The action itself, or the chance action when the game waits on a chance step."""
        if action is not None:
            return action
        pending = cast(Ruleset, self).pending(state)
        if pending.kind is not PendingKind.CHANCE:
            raise EngineError(
                f"the game waits on a {pending.kind} decision, not a chance step: name the action"
            )
        return Action(ActionKind.CHANCE)


def _step_words(action: Action) -> str:
    """A step named in a chance walk's errors ("the chance step", "the attack of u3")."""
    if action.kind == ActionKind.CHANCE:
        return "the chance step"
    return f"the {action.kind} of {action.unit_id}" if action.unit_id else f"the {action.kind}"


ANY_RULESET = catalogue.ANY_RULESET
"""In ``Controller.rulesets``: the controller drives any ruleset (through the protocol)."""


class Controller(Protocol):
    """Decides for one side. It reaches the ruleset only through the :class:`Ruleset`
    protocol (``pending``, ``validate``, ``sample_actions``, ``query``)."""

    name: str
    rulesets: tuple[str, ...]
    """Names of the rulesets this controller can drive (``("*",)``: any)."""

    def choose_unit(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str | None:
        """Which of ``pending.candidates`` acts (CHOOSE_UNIT); None passes."""
        ...

    def decide(self, state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource) -> Order:
        """The order for ``unit_id``'s action (or actions), with its reason."""
        ...

    def react(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> Order | None:
        """A reaction of ``pending.unit`` to ``pending.trigger`` (REACTION); None declines."""
        ...

    def choose(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str:
        """One of ``pending.options`` (CHOICE)."""
        ...


class ControllerBase:
    """Defaults a controller may keep: the first candidate acts, reactions are declined, the
    first option is chosen (OpenSpiel's "first legal action" stand-in)."""

    name = ""
    rulesets: tuple[str, ...] = ()

    def choose_unit(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str | None:
        """The first candidate (None, a pass, when there is none)."""
        return pending.candidates[0] if pending.candidates else None

    def react(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> Order | None:
        """No reaction."""
        return None

    def choose(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str:
        """The first option."""
        if not pending.options:
            raise EngineError(f"a choice without options ({pending.purpose or 'no purpose'})")
        return pending.options[0]


def plays(controller: Controller, ruleset_name: str) -> bool:
    """Whether the controller can drive the ruleset of that name."""
    return ANY_RULESET in controller.rulesets or ruleset_name in controller.rulesets


class UnknownNameError(EngineError):
    """A ruleset or controller name that is not registered."""


def register_ruleset(name: str, factory: Callable[[], Ruleset]) -> None:
    """Make a ruleset findable by name."""
    catalogue.add_ruleset(name, factory)


def register_controller(name: str, factory: Callable[[], Controller]) -> None:
    """Make a controller findable by name."""
    catalogue.add_controller(name, factory)


def unregister_ruleset(name: str) -> None:
    """Forget a registered ruleset (a test-only or third-party system); no-op if unknown."""
    catalogue.drop_ruleset(name)


def unregister_controller(name: str) -> None:
    """Forget a registered controller; no-op if unknown."""
    catalogue.drop_controller(name)


def find_ruleset(name: str) -> Ruleset:
    """The ruleset registered under ``name`` (a built-in one's module loads on first use)."""
    factory = catalogue.ruleset_factory(name)
    if factory is None:
        known = ", ".join(catalogue.ruleset_names()) or "none"
        raise UnknownNameError(f"no ruleset named {name!r} (known: {known})")
    return cast(Ruleset, factory())


def find_controller(name: str) -> Controller:
    """The controller registered under ``name`` (a built-in one's module loads on first use)."""
    factory = catalogue.controller_factory(name)
    if factory is None:
        known = ", ".join(catalogue.controller_names()) or "none"
        raise UnknownNameError(f"no controller named {name!r} (known: {known})")
    return cast(Controller, factory())


def ruleset_names() -> list[str]:
    """Every registered ruleset name, sorted."""
    return catalogue.ruleset_names()


def controller_names() -> list[str]:
    """Every registered controller name, sorted."""
    return catalogue.controller_names()


def rulesets_played(controller: Controller) -> list[str]:
    """The registered rulesets the controller can drive, sorted."""
    return [name for name in ruleset_names() if plays(controller, name)]

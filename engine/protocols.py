"""The two plug-in points of the engine, and their registries (RULES §1.7).

A :class:`Ruleset` knows what is legal and what happens; a :class:`Controller` decides
for one side (the AI of a rule system, or the autopilot that plays the human side in
simulations). Both are found by name, so a scenario file names its ruleset and its AI.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from engine.actions import Action, Event, Order
from engine.dice import RandomSource
from engine.errors import EngineError
from engine.model import GameState
from engine.scenario import Scenario


class PendingKind(StrEnum):
    """What the game needs next."""

    INITIATIVE = "initiative"
    """A roll for who starts the round."""
    ACTIVATION = "activation"
    """A side picks a character to activate (or passes)."""
    BONUS = "bonus"
    """A character may take a bonus activation."""
    OVER = "over"


@dataclass(frozen=True)
class Pending:
    """The decision the game is waiting for."""

    kind: PendingKind
    side: str | None = None
    general: str | None = None
    """The human general whose turn it is (co-operative play)."""
    candidates: tuple[str, ...] = ()
    """Unit ids that may activate now, in sheet order."""
    may_pass: bool = True


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


class RulesetBase:
    """Defaults a ruleset may keep (subclass it and override what its rules make different)."""

    name = ""
    title = ""
    source = ""
    action_kinds: frozenset[str] = frozenset()

    def action_word(self, action: Action) -> str:
        """The kind itself."""
        return str(action.kind)


class Controller(Protocol):
    """Decides for one side."""

    name: str
    rulesets: tuple[str, ...]
    """Names of the rulesets this controller can drive."""

    def choose_unit(self, state: GameState, ruleset: Ruleset, pending: Pending) -> str | None:
        """Which candidate to activate; None passes."""
        ...

    def decide(self, state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource) -> Order:
        """The order for one activation of ``unit_id`` (a legal action, with its reason)."""
        ...


class UnknownNameError(EngineError):
    """A ruleset or controller name that is not registered."""


_RULESETS: dict[str, Callable[[], Ruleset]] = {}
_CONTROLLERS: dict[str, Callable[[], Controller]] = {}


def register_ruleset(name: str, factory: Callable[[], Ruleset]) -> None:
    """Make a ruleset findable by name."""
    _RULESETS[name] = factory


def register_controller(name: str, factory: Callable[[], Controller]) -> None:
    """Make a controller findable by name."""
    _CONTROLLERS[name] = factory


def _load_builtins() -> None:
    # Importing the packages runs their registration lines.
    import engine.controllers
    import engine.rulesets  # noqa: F401


def find_ruleset(name: str) -> Ruleset:
    """The ruleset registered under ``name``."""
    _load_builtins()
    try:
        return _RULESETS[name]()
    except KeyError:
        known = ", ".join(sorted(_RULESETS)) or "none"
        raise UnknownNameError(f"no ruleset named {name!r} (known: {known})") from None


def find_controller(name: str) -> Controller:
    """The controller registered under ``name``."""
    _load_builtins()
    try:
        return _CONTROLLERS[name]()
    except KeyError:
        known = ", ".join(sorted(_CONTROLLERS)) or "none"
        raise UnknownNameError(f"no controller named {name!r} (known: {known})") from None


def ruleset_names() -> list[str]:
    """Every registered ruleset name, sorted."""
    _load_builtins()
    return sorted(_RULESETS)


def controller_names() -> list[str]:
    """Every registered controller name, sorted."""
    _load_builtins()
    return sorted(_CONTROLLERS)

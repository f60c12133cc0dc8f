"""The registries of rule systems and AI controllers, found by name, and the built-in ones
listed without importing them.

A built-in system is one :class:`RulesetEntry` (name, title, source document, module) in
``BUILTIN_RULESETS``, and each of its controllers one :class:`ControllerEntry` in
``BUILTIN_CONTROLLERS``. A module is imported when its system or controller is first asked for
(its ``register_ruleset``/``register_controller`` line then fills the registry), so a command
that lists the systems, or works with one of them, does not wait for all of them to load (the
six rule systems cost about 0.4 s of CPU to import). A test holds each entry to its class.

:mod:`engine.protocols` exposes the registry (``register_ruleset``, ``find_ruleset``, ...); this
module imports nothing heavy, so ``soloscope rules`` can list from here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

ANY_RULESET = "*"
"""A controller playing this plays every ruleset."""


@dataclass(frozen=True)
class RulesetEntry:
    """A built-in rule system: its registry name, title, source document and module."""

    name: str
    title: str
    source: str
    module: str


@dataclass(frozen=True)
class ControllerEntry:
    """A built-in controller: its registry name, the rulesets it plays, and its module."""

    name: str
    rulesets: tuple[str, ...]
    module: str


BUILTIN_RULESETS: tuple[RulesetEntry, ...] = (
    RulesetEntry(
        "d20",
        "d20 solitaire rules",
        "Domino Writing Solitaire Gaming Rules",
        "engine.rulesets.d20.ruleset",
    ),
    RulesetEntry(
        "dungeon",
        "Solo grid skirmish: patrols and the Dungeon Crawl",
        "Solo miniatures rules (grid / chessboard) with the Dungeon Crawl",
        "engine.rulesets.dungeon.ruleset",
    ),
    RulesetEntry(
        "firefight-lite",
        "Firefight-lite (host for the Alone on the Streets card AI)",
        "Alone on the Streets: a solo system for Firefight 2.0",
        "engine.rulesets.firefight_lite.ruleset",
    ),
    RulesetEntry(
        "narrative",
        "Solo Narrative Minis Ruleset",
        "Solo Narrative Minis Ruleset",
        "engine.rulesets.narrative.ruleset",
    ),
    RulesetEntry(
        "skirmish2d6",
        "2D6 skirmish with roles and weapons",
        "Wargame (Version 4), second rules",
        "engine.rulesets.skirmish2d6.ruleset",
    ),
    RulesetEntry(
        "strike",
        "Strike system with the Oracle dice pool",
        "Wargame (Version 4)",
        "engine.rulesets.strike.ruleset",
    ),
)

BUILTIN_CONTROLLERS: tuple[ControllerEntry, ...] = (
    ControllerEntry("autopilot", ("narrative",), "engine.controllers.autopilot"),
    ControllerEntry("cards", ("firefight-lite", "narrative"), "engine.controllers.cards"),
    ControllerEntry("dungeon-heroes", ("dungeon",), "engine.controllers.dungeon_heroes"),
    ControllerEntry("narrative-ai", ("narrative",), "engine.controllers.narrative_ai"),
    ControllerEntry("patrol-d8", ("dungeon",), "engine.controllers.patrol_d8"),
    ControllerEntry("random", (ANY_RULESET,), "engine.controllers.random_player"),
    ControllerEntry("skirmish-ai", ("skirmish2d6",), "engine.controllers.skirmish_ai"),
    ControllerEntry("status-d20", ("d20", "narrative"), "engine.controllers.status_d20"),
    ControllerEntry("strike-ai", ("strike",), "engine.controllers.strike_ai"),
)


class Titled(Protocol):
    """What the listing reads of a ruleset (engine.protocols.Ruleset has more)."""

    name: str
    title: str
    source: str


class Playing(Protocol):
    """What the listing reads of a controller (engine.protocols.Controller has more)."""

    name: str
    rulesets: tuple[str, ...]


_RULESETS: dict[str, Callable[[], Titled]] = {}
_CONTROLLERS: dict[str, Callable[[], Playing]] = {}
_BUILTIN_RULESETS = {e.name: e for e in BUILTIN_RULESETS}
_BUILTIN_CONTROLLERS = {e.name: e for e in BUILTIN_CONTROLLERS}


def add_ruleset(name: str, factory: Callable[[], Titled]) -> None:
    """Make a ruleset findable by name (``engine.protocols.register_ruleset``)."""
    _RULESETS[name] = factory


def add_controller(name: str, factory: Callable[[], Playing]) -> None:
    """Make a controller findable by name (``engine.protocols.register_controller``)."""
    _CONTROLLERS[name] = factory


def drop_ruleset(name: str) -> None:
    """Forget a registered ruleset; a built-in one stays listed and loads again when asked."""
    _RULESETS.pop(name, None)


def drop_controller(name: str) -> None:
    """Forget a registered controller; a built-in one stays listed."""
    _CONTROLLERS.pop(name, None)


def ruleset_factory(name: str) -> Callable[[], Titled] | None:
    """The factory registered under ``name``, importing its built-in module first if needed;
    None when no ruleset has that name."""
    if name not in _RULESETS and name in _BUILTIN_RULESETS:
        importlib.import_module(_BUILTIN_RULESETS[name].module)
    return _RULESETS.get(name)


def controller_factory(name: str) -> Callable[[], Playing] | None:
    """The factory registered under ``name``, importing its built-in module first if needed;
    None when no controller has that name."""
    if name not in _CONTROLLERS and name in _BUILTIN_CONTROLLERS:
        importlib.import_module(_BUILTIN_CONTROLLERS[name].module)
    return _CONTROLLERS.get(name)


def ruleset_names() -> list[str]:
    """Every ruleset name, built-in or registered, sorted (nothing is imported)."""
    return sorted(set(_RULESETS) | set(_BUILTIN_RULESETS))


def controller_names() -> list[str]:
    """Every controller name, built-in or registered, sorted (nothing is imported)."""
    return sorted(set(_CONTROLLERS) | set(_BUILTIN_CONTROLLERS))


def ruleset_titles() -> list[tuple[str, str, str]]:
    """(name, title, source) of every ruleset, sorted by name: built-ins from their entries,
    others from an instance of their registered class."""
    out = []
    for name in ruleset_names():
        entry = _BUILTIN_RULESETS.get(name)
        if entry is not None:
            out.append((name, entry.title, entry.source))
        else:
            made = _RULESETS[name]()
            out.append((name, made.title, made.source))
    return out


def controller_plays() -> list[tuple[str, list[str]]]:
    """(name, rulesets it plays, sorted) of every controller, sorted by name."""
    rulesets = ruleset_names()
    out = []
    for name in controller_names():
        entry = _BUILTIN_CONTROLLERS.get(name)
        plays = entry.rulesets if entry is not None else _CONTROLLERS[name]().rulesets
        out.append((name, [r for r in rulesets if ANY_RULESET in plays or r in plays]))
    return out

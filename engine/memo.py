"""A game's board memo: searches remembered under a key of everything they read.

Path searches, move areas and flights are pure functions of the board around the mover, and
the same board is searched several times per activation (a controller plans, the ruleset
validates and applies; the autopilot weighs every character before it picks one). Each game
state carries a memo (:attr:`engine.model.GameState.memo`) that the states derived from it share,
so one game's searches are remembered across its steps and never leak into another game.

Answers about the terrain alone (its squares, sight walls, cover, walking distances) are the
exception: every game made from one scenario plays on the same terrain, so they live in a
:class:`TerrainAnswers` the scenario owns (:meth:`engine.scenario.Scenario.game_memo`), shared
by its games while a game's terrain is the scenario's.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, Protocol, TypeVar, cast

T = TypeVar("T")


class _Identified(Protocol):
    @property
    def id(self) -> str: ...


Item = TypeVar("Item", bound=_Identified)

#: Searches remembered before the memo is emptied.
MEMO_SIZE = 1024
#: States whose own answers are remembered before those are emptied.
STATE_SLOTS = 64
#: Tuples (a state's units) whose index by id is kept before those are emptied.
INDEX_SLOTS = 64


#: Answers one terrain's store keeps before it is emptied (a safety net: a terrain has a few).
TERRAIN_SLOTS = 256
#: Answers about figures (a base's obstacle) a scenario keeps per ruleset before emptying them.
VALUE_SLOTS = 4096
#: Terrains a scenario keeps answers for, per ruleset (its own and those its games change it
#: into); a game on a further terrain answers from a store of its own.
SHARED_TERRAINS = 32


def _nothing() -> None:
    """A dead reference: no state yet."""
    return None


_Entry = tuple[Callable[[], object], dict[tuple[object, ...], Any]]


class _States(dict[int, _Entry]):
    """The answers of each state by its id (a dict that can be weakly referenced), and the
    last state asked about."""

    def __init__(self) -> None:
        super().__init__()
        self.last: _Entry = (_nothing, {})


def _forgetter(states: weakref.ref[_States], key: int) -> Callable[[weakref.ref[object]], None]:
    """What to do when a state dies: drop its answers (``states`` is held weakly, so the memo
    is no part of a cycle)."""

    def forget(dead: weakref.ref[object]) -> None:
        kept = states()
        if kept is None:
            return
        if key in kept and kept[key][0] is dead:
            del kept[key]
        if kept.last[0] is dead:
            kept.last = (_nothing, {})

    return forget


class TerrainAnswers:
    """Answers about one terrain, read from nothing but the terrain, the table and the options
    (keys name what else they read), which every game on that terrain may share."""

    def __init__(self, terrain: object, slots: int = TERRAIN_SLOTS) -> None:
        self.terrain: object = terrain
        """The terrain the answers are about (kept alive, so its identity holds)."""
        self._answers: dict[tuple[object, ...], Any] = {}
        self._slots = slots

    def __len__(self) -> int:
        return len(self._answers)

    def answer(self, key: tuple[object, ...], compute: Callable[..., T], *args: object) -> T:
        """The answer kept under ``key``, or ``compute(*args)`` kept under it."""
        try:
            return cast(T, self._answers[key])
        except KeyError:
            pass
        value = compute(*args)
        if len(self._answers) >= self._slots:
            self._answers.clear()
        self._answers[key] = value
        return value


class SharedTerrain:
    """A scenario's terrain answers for its games: one store per ruleset and terrain (compared
    by value: a terrain a game changes into, a piece destroyed, is shared with the games that
    change it alike). A cache, not part of the scenario's value: every two compare equal, and
    a copy or a pickle starts empty. Stores are never emptied for another game's sake."""

    def __init__(self) -> None:
        self._stores: dict[tuple[str, object], TerrainAnswers] = {}
        self._values: dict[str, TerrainAnswers] = {}

    def values(self, ruleset: str) -> TerrainAnswers:
        """The store of answers read from their key alone (no terrain, no game), shared by
        the games of ``ruleset`` (at most ``VALUE_SLOTS``, then emptied)."""
        found = self._values.get(ruleset)
        if found is None:
            found = self._values[ruleset] = TerrainAnswers(None, VALUE_SLOTS)
        return found

    def answers(self, ruleset: str, terrain: object) -> TerrainAnswers:
        """The store of the games played on ``terrain`` under ``ruleset`` (a fresh one of the
        caller's own once ``SHARED_TERRAINS`` are kept)."""
        key = (ruleset, terrain)
        found = self._stores.get(key)
        if found is None:
            found = TerrainAnswers(terrain)
            if len(self._stores) < SHARED_TERRAINS:
                self._stores[key] = found
        return found

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SharedTerrain)

    def __hash__(self) -> int:
        return hash(SharedTerrain)

    def __reduce__(self) -> tuple[type[SharedTerrain], tuple[()]]:
        return (SharedTerrain, ())


class BoardMemo:
    """Remembered searches of one game (keys start with what they read of the board), and the
    answers about its terrain (``of_terrain``: from the scenario's shared store for the game's
    terrain, else from a store of the game's own)."""

    def __init__(self, shared: SharedTerrain | None = None, ruleset: str = "") -> None:
        self._results: dict[tuple[object, ...], Any] = {}
        self.terrain: object = None
        """The terrain the remembered results were computed on (kept alive, so identity holds)."""
        self._shared = shared
        """The scenario's terrain answers, for the games of ``ruleset``."""
        self._ruleset = ruleset
        self._terrain_answers = TerrainAnswers(None)
        self._states = _States()
        self._indexes: dict[int, tuple[object, dict[str, Any]]] = {}
        self._last_index: tuple[object, dict[str, Any]] = (None, {})

    def __len__(self) -> int:
        return len(self._results)

    @property
    def terrain_answers(self) -> TerrainAnswers:
        """The store ``of_terrain`` answers from."""
        return self._terrain_answers

    def clear(self) -> None:
        """Forget every remembered search (the terrain answers stay where they are kept: the
        scenario's hold for every game on its terrain)."""
        self._results.clear()
        self.terrain = None
        self._terrain_answers = TerrainAnswers(None)
        self._states = _States()
        self._indexes.clear()
        self._last_index = (None, {})

    def for_terrain(self, terrain: object) -> BoardMemo:
        """The memo, emptied first if it was filled on another terrain; its terrain answers are
        the scenario's for ``terrain`` (or a fresh store, for a memo of no scenario)."""
        if self.terrain is not terrain:
            self.clear()
            self.terrain = terrain
            shared = self._shared
            self._terrain_answers = (
                TerrainAnswers(terrain)
                if shared is None
                else shared.answers(self._ruleset, terrain)
            )
        return self

    def remember(self, key: tuple[object, ...], compute: Callable[..., T], *args: object) -> T:
        """The remembered result for ``key``, or ``compute(*args)`` remembered under it."""
        try:
            return cast(T, self._results[key])
        except KeyError:
            pass
        value = compute(*args)
        if len(self._results) >= MEMO_SIZE:
            self._results.clear()
        self._results[key] = value
        return value

    def of_terrain(self, key: tuple[object, ...], compute: Callable[[], T]) -> T:
        """The answer about the memo's terrain for ``key`` (kept until the terrain changes),
        or ``compute()`` kept under it. ``compute`` may read the terrain, the table and the
        options only (anything else a game may change goes in ``key``): the answer is shared
        by every game of the scenario on that terrain."""
        return self._terrain_answers.answer(key, compute)

    def of_scenario(self, key: tuple[object, ...], compute: Callable[..., T], *args: object) -> T:
        """The answer for ``key``, or ``compute(*args)`` kept under it, where the computation
        reads nothing but ``key`` (a base's obstacle from its name, centre and radius): shared
        by every game of the scenario and ruleset (a memo of no scenario keeps its own)."""
        shared = self._shared
        if shared is None:
            return self.remember(key, compute, *args)
        return shared.values(self._ruleset).answer(key, compute, *args)

    def answers_for(self, state: object) -> dict[tuple[object, ...], Any]:
        """The answers remembered for one state object (a state never changes, so they hold).
        The state is held by a weak reference (compared by identity, so a reused id is a new
        state): a state holds its memo, and a memo holding its states would make every game a
        reference cycle that only the cycle collector frees. A state's answers are dropped
        when the state is (as if they were its own), so they never outlive it."""
        states = self._states
        last = states.last
        if last[0]() is state:
            return last[1]
        key = id(state)
        found = states.get(key)
        if found is None or found[0]() is not state:
            if len(states) >= STATE_SLOTS:
                states.clear()
            found = (weakref.ref(state, _forgetter(weakref.ref(states), key)), {})
            states[key] = found
        states.last = found
        return found[1]

    def by_id(self, items: tuple[Item, ...]) -> dict[str, Item]:
        """``items`` by id (the last of a repeated id), kept for that tuple object: the states
        of a game that leave its units alone share the tuple, so they share the index. The
        tuple is kept alive while its index is, so its identity cannot be reused."""
        last = self._last_index
        if last[0] is items:
            return last[1]
        found = self._indexes.get(id(items))
        if found is None or found[0] is not items:
            if len(self._indexes) >= INDEX_SLOTS:
                self._indexes.clear()
            found = (items, {item.id: item for item in items})
            self._indexes[id(items)] = found
        self._last_index = found
        return found[1]

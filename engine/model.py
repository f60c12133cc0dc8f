"""The immutable game state: sides, units, terrain, objectives and round bookkeeping.

What every rule system has is here (table, units with pose, cell, card, wounds and statuses,
round, decks, controller memory); what a ruleset adds lives in its own frozen parts,
``GameState.rules`` (a :class:`RulesState`) and ``Unit.rules`` (a :class:`UnitRules`).

Positions are in table inches (origin at the human player's left front corner, +x right,
+y away from the player); headings in degrees clockwise from +y, in [0, 360); grid cells are
(column, row) with row 0 at the far edge (RULES §1.1).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, TypeVar

from engine.cards import Deck
from engine.errors import EngineError
from engine.geometry import Edge, Point, Table
from engine.jsonvalue import JSONScalar, Memory
from engine.memo import BoardMemo


class UnknownUnitError(EngineError, KeyError):
    """A unit id that is not in the game."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown unit"


class Role(StrEnum):
    """Who commands a side."""

    AI = "ai"
    HUMAN = "human"
    NEUTRAL = "neutral"
    """Third parties (citizens, bots) that neither the AI nor the player commands."""


class UnitStatus(StrEnum):
    """Where a unit is in the battle."""

    ACTIVE = "active"
    """On the table and fighting."""
    FALLEN = "fallen"
    """Wounded to the ground and removed."""
    ROUTED_OFF = "routed_off"
    """Left the table while routing (counts as lost, RULES G-09)."""
    ESCAPED = "escaped"
    """Left the table by an edge carrying an objective, scoring it."""
    RESERVE = "reserve"
    """Not on the table yet: a reinforcement or a third party that a rule brings on later
    (counted neither as lost nor as fallen)."""


_ACTIVE = UnitStatus.ACTIVE
"""The status of a unit on the table, as a module constant: reading an enum member through
its class costs a descriptor lookup (about 0.1 us), and ``Unit.on_table`` is asked thousands
of times a game."""


@dataclass(frozen=True)
class UnitCard:
    """Base class of a ruleset's unit card (the numbers printed on a character's card)."""


@dataclass(frozen=True)
class UnitRules:
    """Base class of a ruleset's own per-unit state (a company, an objective carried, actions
    left); the base holds nothing."""


@dataclass(frozen=True)
class RulesState:
    """Base class of a ruleset's own part of the game state (whose turn it is within the round,
    passes, bonus activations, routing companies, a dice pool); the base holds nothing."""


@dataclass(frozen=True)
class Unit:
    """One character (a miniature on its base)."""

    id: str
    """Unique id within the game (used in logs and orders)."""
    name: str
    """What the player calls it ("Orc Captain")."""
    side: str
    sheet_order: int
    """Position on its side's character sheet (AI activation order)."""
    x: float
    """Base centre, inches."""
    y: float
    """Base centre, inches."""
    heading_deg: float
    """Facing, degrees clockwise from +y."""
    card: UnitCard
    base_diameter_in: float = 1.0
    wounds: int = 0
    """Wound tokens on the card."""
    status: UnitStatus = UnitStatus.ACTIVE
    activated: bool = False
    """Already activated this round."""
    general: str | None = None
    """Name of the human general commanding it (co-operative play)."""
    statuses: frozenset[str] = frozenset()
    """The ruleset's status markers on it ("pinned", "alerted", "patrolling")."""
    cell: tuple[int, int] | None = None
    """Its grid cell (column, row; row 0 at the far edge) on a gridded table, else None."""
    rules: UnitRules = field(default_factory=UnitRules)
    """The ruleset's own per-unit state."""

    @property
    def position(self) -> Point:
        """Base centre (x, y) in inches."""
        return (self.x, self.y)

    @property
    def radius_in(self) -> float:
        """Base radius in inches."""
        return self.base_diameter_in / 2.0

    @property
    def on_table(self) -> bool:
        """Still on the table (neither fallen nor gone off an edge)."""
        return self.status is _ACTIVE


@dataclass(frozen=True)
class TerrainPiece:
    """A scenery polygon with the attributes of RULES §1.1."""

    id: str
    name: str
    """How an announcement refers to it ("the ruined tower")."""
    kind: str
    polygon: tuple[Point, ...]
    """Outline in table inches, counter-clockwise or clockwise."""
    blocks_los: bool = False
    impassable: bool = False
    difficult: bool = False
    cover: str = "none"
    """"none", "soft" or "hard"."""
    dangerous: bool = False
    height_in: float = 0.0


@dataclass(frozen=True)
class Objective:
    """A marker a character can pick up and carry off the table."""

    id: str
    name: str
    x: float
    y: float
    carried_by: str | None = None
    scored_by: str | None = None
    """Side that carried it off the table, if any."""

    @property
    def position(self) -> Point:
        """Marker position in inches."""
        return (self.x, self.y)


@dataclass(frozen=True)
class Side:
    """One side of the battle."""

    name: str
    role: Role
    edge: Edge
    """The side's own deployment edge (nearest-edge ties, RULES G-05)."""
    generals: tuple[str, ...] = ()
    """Human generals taking turns with this side's characters (co-operative play)."""


@dataclass(frozen=True)
class GameState:
    """Everything about a battle at one moment. Never mutated: rules return new states."""

    ruleset: str
    scenario: str
    table: Table
    sides: tuple[Side, ...]
    units: tuple[Unit, ...]
    terrain: tuple[TerrainPiece, ...] = ()
    objectives: tuple[Objective, ...] = ()
    options: tuple[tuple[str, JSONScalar], ...] = ()
    """Rule options from the scenario (contact tolerance, round limit, ...): numbers, flags or
    words."""
    round: int = 0
    active_side: str | None = None
    """Side whose turn it is to act."""
    winner: str | None = None
    """Winning side's name once the battle is over ("draw" for a draw)."""
    end_reason: str = ""
    step: int = 0
    """Number of actions applied so far."""
    memory: tuple[tuple[str, Memory], ...] = ()
    """Each side's controller memory (side name, memory), stored by the runner from each
    order, so it is saved, undone and replayed with the state."""
    decks: tuple[Deck, ...] = ()
    """The game's decks of cards (draw pile, discard, removed), by name."""
    rules: RulesState = field(default_factory=RulesState)
    """The ruleset's own part of the state."""
    memo: BoardMemo = field(default_factory=BoardMemo, compare=False, hash=False, repr=False)
    """Remembered board searches, shared by the states derived from this one (not state)."""

    def unit(self, unit_id: str) -> Unit:
        """The unit with this id (looked up in the game memo's index of the units tuple)."""
        try:
            return self.memo.by_id(self.units)[unit_id]
        except KeyError:
            raise UnknownUnitError(f"no unit {unit_id!r} in this game") from None

    def has_unit(self, unit_id: str) -> bool:
        """Whether a unit with this id exists."""
        return unit_id in self.memo.by_id(self.units)

    def side(self, name: str) -> Side:
        """The side with this name."""
        for s in self.sides:
            if s.name == name:
                return s
        raise EngineError(f"no side {name!r} in this game")

    def other_side(self, name: str) -> str:
        """The name of the opposing side (two-sided battles)."""
        for s in self.sides:
            if s.name != name:
                return s.name
        raise EngineError(f"side {name!r} has no opponent")

    def side_of_role(self, role: Role) -> Side | None:
        """The first side with this role, if any."""
        return next((s for s in self.sides if s.role is role), None)

    def units_of(self, side: str, *, on_table: bool = True) -> tuple[Unit, ...]:
        """A side's units in sheet order (only those still on the table by default)."""
        chosen = [u for u in self.units if u.side == side and (u.on_table or not on_table)]
        return tuple(sorted(chosen, key=lambda u: u.sheet_order))

    def enemies_of(self, unit: Unit) -> tuple[Unit, ...]:
        """Enemy units still on the table."""
        return tuple(u for u in self.units if u.side != unit.side and u.on_table)

    def objective(self, objective_id: str) -> Objective:
        """The objective with this id."""
        for o in self.objectives:
            if o.id == objective_id:
                return o
        raise EngineError(f"no objective {objective_id!r} in this game")

    def option(self, name: str, default: float) -> float:
        """A numeric scenario option (``default`` when absent)."""
        for key, value in self.options:
            if key == name:
                if isinstance(value, bool) or not isinstance(value, int | float):
                    raise EngineError(f"option {name!r} is {value!r}, not a number")
                return value
        return default

    def option_value(self, name: str, default: JSONScalar = None) -> JSONScalar:
        """A scenario option of any type (``default`` when absent)."""
        for key, value in self.options:
            if key == name:
                return value
        return default

    def deck(self, name: str) -> Deck:
        """The deck with this name."""
        for d in self.decks:
            if d.name == name:
                return d
        raise EngineError(f"no deck {name!r} in this game")

    def with_deck(self, deck: Deck) -> GameState:
        """A copy with the deck of the same name replaced (or added)."""
        kept = tuple(d for d in self.decks if d.name != deck.name)
        if len(kept) == len(self.decks):
            return evolve(self, decks=(*self.decks, deck))
        return evolve(self, decks=tuple(deck if d.name == deck.name else d for d in self.decks))

    def memory_of(self, side: str) -> Memory:
        """The side's controller memory (empty when it has none)."""
        for name, memory in self.memory:
            if name == side:
                return memory
        return ()

    def with_memory(self, side: str, memory: Memory) -> GameState:
        """A copy with the side's controller memory replaced."""
        kept = tuple((name, m) for name, m in self.memory if name != side)
        return evolve(self, memory=tuple(sorted((*kept, (side, memory)), key=lambda kv: kv[0])))

    def with_unit(self, unit: Unit) -> GameState:
        """A copy with one unit replaced (matched by id); on a gridded table its cell follows
        its position (None once it is off the grid or off the table)."""
        if self.table.grid is not None:
            cell = self.table.cell_of(unit.position) if unit.on_table else None
            if cell != unit.cell:
                unit = evolve(unit, cell=cell)
        return evolve(self, units=tuple(unit if u.id == unit.id else u for u in self.units))

    def with_objective(self, objective: Objective) -> GameState:
        """A copy with one objective replaced (matched by id)."""
        return evolve(
            self,
            objectives=tuple(objective if o.id == objective.id else o for o in self.objectives),
        )


V = TypeVar("V")

_PLAIN_VALUES = (GameState, Unit, RulesState, UnitRules)
"""The classes :func:`evolve` copies directly: frozen dataclasses whose every field is set by
``__init__`` from its argument unchanged (a ruleset's part with a ``__post_init__`` is left to
``dataclasses.replace``)."""


def evolve(value: V, /, **changes: Any) -> V:
    """``dataclasses.replace(value, **changes)``: the same new value, made faster for the game's
    plain values (a state, a unit, a ruleset's parts of them), which a game copies tens of
    thousands of times. Their fields are copied from ``value`` into the new object before it is
    handed out (as ``copy.copy`` does; ``__init__`` would only set the same values one by one);
    ``value`` itself is never written. Any other value, a class with a ``__post_init__``, or a
    name that is not a field goes through ``dataclasses.replace``."""
    if isinstance(value, _PLAIN_VALUES) and not hasattr(value, "__post_init__"):
        fields = value.__dict__
        if fields.keys() >= changes.keys():
            made = object.__new__(type(value))
            made.__dict__.update(fields)
            made.__dict__.update(changes)
            return made
    return replace(value, **changes)  # type: ignore[type-var]

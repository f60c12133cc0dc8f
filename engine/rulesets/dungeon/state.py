"""The grid game's own parts of the state (seed 004): whose activation it is, what the acting
figure has done, the statuses of the enemies, the Priest's heals left.

Statuses live in ``Unit.statuses`` as one word each: ``"patrolling"``, ``"alerted"`` or
``"retreating"`` for the enemies (RULES §6.d); heroes carry none. A defeated figure is
``UnitStatus.FALLEN`` (off the board, ``cell`` None). Facing is ``Unit.heading_deg``, a
multiple of 45 degrees (↑ 0, → 90, ↓ 180, ← 270; D004-05).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.boards.grid import unit_cell
from engine.geometry.grid import Cell
from engine.model import GameState, RulesState, Unit, UnitRules
from engine.rulesets.dungeon.cards import DungeonCard

PATROLLING = "patrolling"
ALERTED = "alerted"
RETREATING = "retreating"
DEFEATED = "defeated"
"""The word of a status event when a figure is removed (it is no marker on a unit)."""
STATUSES = (PATROLLING, ALERTED, RETREATING)


@dataclass(frozen=True)
class DungeonUnit(UnitRules):
    """A figure's own state: heals left (the Priest's three attempts, D004-11)."""

    heals_left: int = 0


@dataclass(frozen=True)
class DungeonState(RulesState):
    """Sequencing and the board's fixed parts.

    A round is one enemy turn (strongest first, D004-07) then one hero turn (sheet order,
    D004-19); ``queue`` holds the ids still to act this round, in order.
    """

    walls: frozenset[Cell] = frozenset()
    """Rock-wall squares: impassable and blocking lines (cells at least half filled by
    terrain that is impassable or blocks sight, RULES §1.4)."""
    started: bool = False
    """The start step (the Arch Foe's start roll, the first statuses) is done."""
    queue: tuple[str, ...] = ()
    acting: str | None = None
    """The figure whose activation is under way (it has moved, or attacked with one weapon of
    several)."""
    moved: bool = False
    weapons_used: tuple[str, ...] = ()
    targets_attacked: tuple[str, ...] = ()
    heroes_have_moved: bool = False
    """The heroes have taken their first action: enemies may now become Alerted (D004-02)."""
    hero_starts: frozenset[Cell] = frozenset()
    """The heroes' start squares (the entrance, D004-08)."""
    turn_limit: int | None = None
    """Victory 'count': the rounds the heroes have (1d6 + 4, rolled at the start, RULES 6.f)."""
    arch_start: Cell | None = None
    """Where the Arch Foe stood once placed (for the page; the Dungeon Crawl's morale retreat
    runs straight away from the hero attacked, D004-13, not toward it)."""


def card_of(unit: Unit) -> DungeonCard:
    """The unit's card (a DungeonCard by construction)."""
    card = unit.card
    assert isinstance(card, DungeonCard)
    return card


def rules_of(state: GameState) -> DungeonState:
    """The state's DungeonState."""
    rules = state.rules
    assert isinstance(rules, DungeonState)
    return rules


def heals_left(unit: Unit) -> int:
    """How many heal attempts the figure has left (0 for a figure that cannot heal)."""
    rules = unit.rules
    return rules.heals_left if isinstance(rules, DungeonUnit) else 0


def status_of(unit: Unit) -> str | None:
    """The enemy status word ("patrolling", "alerted", "retreating"), "defeated" for a removed
    figure, None for a hero on the board."""
    if not unit.on_table:
        return DEFEATED
    return next((s for s in STATUSES if s in unit.statuses), None)


cell_of = unit_cell
"""The figure's square (it must be on the board)."""

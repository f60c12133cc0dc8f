"""The narrative ruleset's (seed 000) table on the open-table kit (:mod:`engine.boards.open`,
default policy: every other character blocks sight): its move shapes, shooting range and
sight, and the AI's forward move. Inches and degrees throughout.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import (
    contacting_enemies as contacting_enemies,
)
from engine.board import gap_between as gap_between
from engine.boards.open import OpenBoard, open_board
from engine.errors import EngineError
from engine.geometry import MoveArea, Point, Sight, within_in
from engine.model import GameState, Unit, UnitCard

#: Edge gap (inches) within which a base is "next to" an objective marker (D000-11).
OBJECTIVE_REACH_IN = 0.5


@dataclass(frozen=True)
class NarrativeCard(UnitCard):
    """A seed-000 character card (RULES §8.1)."""

    move_in: float
    """Full move distance M, inches."""
    attack_mod: int
    defence_mod: int
    wound_slots: int
    shoot_range_in: float | None = None
    """Shooting range in inches (edge to edge); None: cannot shoot."""


def card_of(unit: Unit) -> NarrativeCard:
    """The unit's seed-000 card."""
    if not isinstance(unit.card, NarrativeCard):
        raise EngineError(f"{unit.name} has no narrative-ruleset card")
    return unit.card


def move_patterns(move_in: float) -> tuple[tuple[float, ...], ...]:
    """Seed 000 movement: one leg of up to M, or two legs of up to M/2 each (§2.e)."""
    return ((move_in,), (move_in / 2.0, move_in / 2.0))


def board(state: GameState) -> OpenBoard:
    """The state's open table: terrain that blocks sight and every other character block a
    line (§2.f, G-03); the kit's default policy."""
    return open_board(state)


def move_area(state: GameState, unit: Unit) -> MoveArea:
    """What the unit's base must avoid (D000-02): impassable terrain and every other base."""
    return board(state).move_area(unit)


def move_toward(
    state: GameState, unit: Unit, goal: Point, stop_gap_in: float, move_in: float
) -> tuple[Point, ...]:
    """The legal path of the allowed shapes that ends closest to ``goal`` (RULES §1.5)."""
    return board(state).move_toward(unit, goal, stop_gap_in, move_patterns(move_in))


def sight_between(state: GameState, viewer: Unit, target: Unit, at: Point | None = None) -> Sight:
    """Line of sight from the viewer (optionally standing at ``at``) to the target."""
    return board(state).sight(viewer, target, at)


def in_shooting_range(shooter: Unit, target: Unit, at: Point | None = None) -> bool:
    """Whether the target is within the shooter's range, edge to edge (D000-15), with the
    shooter optionally standing at ``at``; False for a character that cannot shoot."""
    card = card_of(shooter)
    if card.shoot_range_in is None:
        return False
    return within_in(gap_between(shooter, target, at), card.shoot_range_in)


def can_shoot_from(state: GameState, shooter: Unit, target: Unit, at: Point | None = None) -> bool:
    """In range (edge to edge) and with a clear centre line; the pivot makes any arc legal."""
    if not in_shooting_range(shooter, target, at):
        return False
    origin = shooter.position if at is None else at
    return board(state).centre_clear(shooter, origin, target.position, (shooter.id, target.id))


def p_wound(delta: int) -> float:
    """Chance that one seed-000 attack wounds, for ATK - DEF - penalty = ``delta`` (§2.g)."""
    wins = sum(1 for r in range(1, 7) if r == 6 or (r != 1 and r + delta > 3))
    return wins / 6.0


def forward_path(state: GameState, unit: Unit, move_in: float) -> tuple[Point, ...]:
    """The AI's bonus "forward" move (D000-08): straight along the unit's heading for up to
    ``move_in``, stopping where blocked or at the table edge, and short of base contact with an
    enemy (it is a Move). ``(start,)`` when it cannot move."""
    return board(state).straight_run(unit, unit.heading_deg, move_in)

"""Board queries of the narrative ruleset (seed 000) in game terms: who blocks sight, which
paths are legal, which enemies can be shot. Shared by the ruleset and its AI controllers; the
queries every ruleset shares (contact, move areas, flights, the memo) are in
:mod:`engine.board` and re-exported here. Inches and degrees throughout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.board import CONTACT_TOL_IN as CONTACT_TOL_IN
from engine.board import MIN_STEP_IN as MIN_STEP_IN
from engine.board import base_obstacle as base_obstacle
from engine.board import board_key as board_key
from engine.board import clear_board_memo as clear_board_memo
from engine.board import clip_to_table as clip_to_table
from engine.board import contact_tol as contact_tol
from engine.board import contacting_enemies as contacting_enemies
from engine.board import flee_path as flee_path
from engine.board import gap_between as gap_between
from engine.board import in_contact_with_anyone as in_contact_with_anyone
from engine.board import move_area as move_area
from engine.board import nearest_key as nearest_key
from engine.board import remember as remember
from engine.board import short_of_contact as short_of_contact
from engine.board import terrain_geometry as terrain_geometry
from engine.board import touching as touching
from engine.errors import EngineError
from engine.geometry import (
    Obstacle,
    Point,
    Sight,
    best_move_toward,
    line_of_sight,
    straight_run,
    within_in,
)
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


def move_toward(
    state: GameState, unit: Unit, goal: Point, stop_gap_in: float, move_in: float
) -> tuple[Point, ...]:
    """The legal path of the allowed shapes that ends closest to ``goal`` (RULES §1.5)."""
    key = ("toward", board_key(state, unit), goal, stop_gap_in, move_in)
    path = remember(
        state,
        key,
        lambda: best_move_toward(
            unit.position, goal, stop_gap_in, move_patterns(move_in), move_area(state, unit)
        ),
    )
    assert path is not None
    return path


def sight_blockers(state: GameState, exclude: Sequence[str]) -> tuple[Obstacle, ...]:
    """Seed 000 blockers: terrain that blocks sight and every character not excluded."""
    sight, _, _ = terrain_geometry(state)
    bases = tuple(base_obstacle(u) for u in state.units if u.on_table and u.id not in exclude)
    return sight + bases


def sight_between(state: GameState, viewer: Unit, target: Unit, at: Point | None = None) -> Sight:
    """Line of sight from the viewer (optionally standing at ``at``) to the target."""
    origin = viewer.position if at is None else at
    blockers = sight_blockers(state, (viewer.id, target.id))
    return line_of_sight(origin, viewer.radius_in, target.position, target.radius_in, blockers)


def sight_to_point(state: GameState, viewer: Unit, point: Point) -> Sight:
    """Line of sight from the viewer to a marker on the table."""
    blockers = sight_blockers(state, (viewer.id,))
    return line_of_sight(viewer.position, viewer.radius_in, point, 0.0, blockers)


def centre_line_clear(state: GameState, a: Point, b: Point, exclude: Sequence[str]) -> bool:
    """Whether the centre line a-b is clear of seed-000 blockers (the primary test of G-03).

    The same answer as ``line_of_sight(...).centre_clear`` without the two tangent lines;
    bases (cheap circle tests) are tried before terrain polygons.
    """
    for u in state.units:
        if u.on_table and u.id not in exclude and base_obstacle(u).blocks_segment(a, b):
            return False
    sight, _, _ = terrain_geometry(state)
    return not any(ob.blocks_segment(a, b) for ob in sight)


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
    return centre_line_clear(state, origin, target.position, (shooter.id, target.id))


def p_wound(delta: int) -> float:
    """Chance that one seed-000 attack wounds, for ATK - DEF - penalty = ``delta`` (§2.g)."""
    wins = sum(1 for r in range(1, 7) if r == 6 or (r != 1 and r + delta > 3))
    return wins / 6.0


def forward_path(state: GameState, unit: Unit, move_in: float) -> tuple[Point, ...]:
    """The AI's bonus "forward" move (D000-08): straight along the unit's heading for up to
    ``move_in``, stopping where blocked or at the table edge, and short of base contact with an
    enemy (it is a Move). ``(start,)`` when it cannot move."""

    def compute() -> tuple[Point, ...]:
        path = straight_run(unit.position, unit.heading_deg, move_in, move_area(state, unit))
        return short_of_contact(state, unit, path)

    return remember(state, ("forward", board_key(state, unit), unit.heading_deg, move_in), compute)

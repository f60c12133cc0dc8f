"""The narrative ruleset's (seed 000) answers to the controllers' table queries.

Sight is blocked by terrain and by every other character (G-03, seed 000); a move is one leg of
up to M or two of up to M/2 (§2.e), half a move in a bonus activation (D000-05). Inches.
"""

from __future__ import annotations

from engine.actions import ActionKind
from engine.board import contact_tol, in_contact_with_anyone
from engine.geometry import Point, within_in
from engine.model import Unit
from engine.query import BoardQuery
from engine.rulesets.narrative.board import (
    can_shoot_from,
    card_of,
    contacting_enemies,
    gap_between,
    move_toward,
)
from engine.rulesets.narrative.state import bonus_move_for


class NarrativeQuery(BoardQuery):
    """Seed-000 table queries (sight: the kit's default policy, every other character
    blocks)."""

    def movement_allowance_in(self, unit: Unit) -> float:
        """M, or half of it in a bonus activation."""
        bonus = bonus_move_for(self.state, unit)
        return card_of(unit).move_in if bonus is None else bonus

    def distance_in(self, a: Unit, b: Unit) -> float:
        """Edge to edge (G-01)."""
        return gap_between(a, b)

    def targets(self, unit: Unit, kind: str) -> tuple[Unit, ...]:
        """Shoot: enemies in range and sight now; continue melee: enemies in contact; move into
        melee: unengaged enemies within a move; move and shoot: enemies within a move plus the
        range; any other kind: every enemy."""
        state = self.state
        enemies = state.enemies_of(unit)
        if kind == ActionKind.SHOOT:
            return tuple(e for e in enemies if can_shoot_from(state, unit, e))
        if kind == ActionKind.CONTINUE_MELEE:
            return contacting_enemies(state, unit)
        allowance = self.movement_allowance_in(unit)
        if kind == ActionKind.MOVE_INTO_MELEE:
            reach = allowance + contact_tol(state)
            return tuple(
                e
                for e in enemies
                if not in_contact_with_anyone(state, e) and within_in(gap_between(unit, e), reach)
            )
        if kind == ActionKind.MOVE_AND_SHOOT:
            rng = card_of(unit).shoot_range_in
            if rng is None:
                return ()
            return tuple(e for e in enemies if within_in(gap_between(unit, e), allowance + rng))
        return enemies

    def move_toward(self, unit: Unit, point: Point) -> tuple[Point, ...]:
        """The legal one- or two-leg move ending nearest ``point`` (the base's edge reaching it)."""
        return move_toward(
            self.state, unit, point, unit.radius_in, self.movement_allowance_in(unit)
        )

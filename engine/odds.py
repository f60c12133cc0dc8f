"""Exact odds of the rule systems' rolls, by enumerating every die face."""

from __future__ import annotations

from fractions import Fraction

from engine.rulesets.narrative import wound_roll

NARRATIVE_MODIFIER_RANGE = range(0, 11)
"""Attack and defence modifiers the seed-000 odds take: whole numbers 0 to 10. RULES §2.b/§2.g
add the attacker's attack modifier and subtract the defender's defence modifier; a negative
defence would be an attack bonus in disguise, and past a difference of 2 the chance no longer
changes (§2.g saturation), so 10 leaves room for any card."""


def narrative_modifier_error(name: str, value: int) -> str | None:
    """One sentence saying why ``value`` is not a seed-000 ``name`` modifier, or None if it is."""
    if value in NARRATIVE_MODIFIER_RANGE:
        return None
    low, high = NARRATIVE_MODIFIER_RANGE[0], NARRATIVE_MODIFIER_RANGE[-1]
    shown = str(value) if len(str(value)) <= 12 else f"{value:.3g}"
    return f"{name} must be a whole number from {low} to {high}, got {shown}"


def narrative_wound_chance(attack: int, defence: int, moved: bool = False) -> Fraction:
    """Seed 000: the chance that one attack wounds (RULES §2.g), as an exact fraction."""
    delta = attack - defence - (1 if moved else 0)
    wins = sum(1 for roll in range(1, 7) if wound_roll(roll, delta))
    return Fraction(wins, 6)

"""Exact odds of the rule systems' rolls, by enumerating every die face."""

from __future__ import annotations

from fractions import Fraction

from engine.rulesets.narrative import wound_roll


def narrative_wound_chance(attack: int, defence: int, moved: bool = False) -> Fraction:
    """Seed 000: the chance that one attack wounds (RULES §2.g), as an exact fraction."""
    delta = attack - defence - (1 if moved else 0)
    wins = sum(1 for roll in range(1, 7) if wound_roll(roll, delta))
    return Fraction(wins, 6)

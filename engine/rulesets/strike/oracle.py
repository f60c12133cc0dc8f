"""The Oracle phase's action-dice skills (RULES §3.1.c: "skills that modify the action-dice
roll may then be applied"): a side whose soldiers on the table have "reroll" skills may roll
again, once per Oracle phase, up to their summed count of the dice of its pool that no
soldier of the side needs (the dice beyond the number of its soldiers of each type)."""

from __future__ import annotations

from engine.model import GameState
from engine.rulesets.strike.state import card_of, rules_of


def reroll_budget(state: GameState, side: str) -> int:
    """How many dice the side may roll again this Oracle phase."""
    return sum(card_of(u).reroll_count for u in state.units_of(side))


def spare_dice(state: GameState, side: str) -> list[int]:
    """The side's dice that no soldier of it needs, most plentiful face first."""
    pool = list(rules_of(state).pool(side))
    need = [card_of(u).face for u in state.units_of(side) if not u.activated]
    out: list[int] = []
    for face in sorted(set(pool), key=lambda f: (-(pool.count(f) - need.count(f)), f)):
        out += [face] * max(0, pool.count(face) - need.count(face))
    return out


def to_reroll(state: GameState, side: str) -> list[int]:
    """The dice a re-roll would roll again (spare dice, up to the budget)."""
    return spare_dice(state, side)[: reroll_budget(state, side)]


def short_types(state: GameState, side: str) -> int:
    """Soldiers of the side that no die of its pool can activate (what a re-roll may mend)."""
    pool = list(rules_of(state).pool(side))
    need = [card_of(u).face for u in state.units_of(side) if not u.activated]
    return sum(max(0, need.count(f) - pool.count(f)) for f in set(need))

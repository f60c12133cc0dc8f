"""A finite sample of a d20 figure's legal actions (for the random controller and the shared
random play): the pass, every attack of every weapon, abilities, heals, a non-combat task and
a few moves drawn with the game's dice."""

from __future__ import annotations

from engine.actions import Action, ActionKind
from engine.dice import RandomSource
from engine.model import GameState
from engine.rulesets.d20.query import D20Query
from engine.rulesets.d20.state import card_of, rules_of

MOVES = 4
"""Moves drawn per sample."""


def sample(state: GameState, unit_id: str, dice: RandomSource) -> list[Action]:
    """Candidate actions (the ruleset keeps the legal ones)."""
    unit = state.unit(unit_id)
    out = [Action(ActionKind.PASS, unit_id)]
    for enemy in state.enemies_of(unit):
        for w in card_of(unit).weapons:
            out.append(Action("attack", unit_id, target_id=enemy.id, detail=(("weapon", w.name),)))
    for ability in card_of(unit).buffs:
        if ability not in rules_of(unit).buffs_used:
            out.append(Action("ability", unit_id, detail=(("ability", ability),)))
    for ally in state.units_of(unit.side):
        if ally.wounds:
            out.append(Action("heal", unit_id, target_id=ally.id))
    out.append(Action("interact", unit_id, detail=(("task", "search the area"),)))
    moves = D20Query(state).destinations(unit)
    for _ in range(min(MOVES, len(moves))):
        path = moves[dice.roll(len(moves), f"random move for {unit.name}") - 1]
        out.append(Action(ActionKind.MOVE, unit_id, path=path))
    return out

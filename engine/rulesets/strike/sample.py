"""A finite sample of a soldier's legal actions in the strike system (for the random player
and the shared random-play test): hold (or stop), a strike at each enemy it could strike,
and a few random moves drawn with the game's dice."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from engine.actions import Action, ActionKind
from engine.dice import RandomSource
from engine.model import GameState
from engine.protocols import PendingKind
from engine.rulesets.strike.board import StrikeBoard
from engine.rulesets.strike.state import HOLD, STRIKE, card_of, rules_of

if TYPE_CHECKING:
    from engine.rulesets.strike.ruleset import StrikeRuleset

RANDOM_MOVES = 4
"""Random moves drawn per sample."""


def sample_actions(
    ruleset: StrikeRuleset, state: GameState, unit_id: str, dice: RandomSource
) -> list[Action]:
    """Candidate actions (the caller keeps the legal ones)."""
    unit = state.unit(unit_id)
    pending = ruleset.pending(state)
    fresh = pending.kind is PendingKind.CHOOSE_UNIT
    used = frozenset() if fresh else rules_of(state).used
    out = [Action(HOLD if fresh else ActionKind.PASS, unit_id, side=unit.side)]
    board = StrikeBoard(state)
    if STRIKE not in used:
        out += [
            Action(STRIKE, unit_id, target_id=e.id)
            for e in state.enemies_of(unit)
            if board.can_strike(unit, e)
        ]
    if ActionKind.MOVE not in used:
        speed = card_of(unit).speed_in
        for k in range(RANDOM_MOVES):
            angle = math.radians(dice.roll(36, f"random move direction {k + 1}") * 10.0)
            reach = speed * dice.roll(4, f"random move length {k + 1}") / 4.0
            end = (unit.x + reach * math.sin(angle), unit.y + reach * math.cos(angle))
            out.append(Action(ActionKind.MOVE, unit_id, path=(unit.position, end)))
    return out

"""Turning what the camera saw of the player's move, and what they declared, into an action.

Which paths are legal and which declarations a ruleset knows is its table adapter's business
(:mod:`assistant.tables`); these are the session's entry points. Inches and degrees.
"""

from __future__ import annotations

from assistant.session.observation import PieceSeen
from assistant.tables import adapter_for
from assistant.tables.base import ObservedMove
from engine.actions import Action
from engine.geometry import Point
from engine.model import GameState, Unit
from engine.protocols import Ruleset

__all__ = ["ObservedMove", "observed_action", "observed_path"]


def observed_path(
    state: GameState, ruleset: Ruleset, unit: Unit, seen: PieceSeen
) -> tuple[tuple[Point, ...] | None, str]:
    """A legal path from where the unit stood to where its model now stands, or the reason
    there is none ("the path crosses the farmhouse", "7.2 in is more than its 6 in move")."""
    return adapter_for(ruleset).observed_path(state, ruleset, unit, seen)


def observed_action(
    state: GameState,
    ruleset: Ruleset,
    what: str,
    target: str | None,
    move: ObservedMove | None,
    unit_id: str | None,
) -> Action | str:
    """The action the player declared, or a sentence saying what is missing."""
    return adapter_for(ruleset).observed_action(state, ruleset, what, target, move, unit_id)

"""A bundled player controller with dice of its own, for tests that play a rendered battle
live and compare it with ``simulate``.

The bundled player controllers draw their choices from the game's dice. The live session (the
player's moves read from the table, the declarations) never rolls those for the player, so a
battle whose player rolls for its choices (``random``, ``status-d20`` for the heroes) drifts
from its simulation after the player's first choice. The stand-in registered here draws them
from dice of its own, seeded by the game's step, so the same position gets the same choice
however often it is asked (the simulation, the footage, the session), and the game's dice stay
the rules' and the AI's, as at the table.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from engine.actions import Order
from engine.dice import RandomSource, SeededDice
from engine.model import GameState
from engine.protocols import (
    ControllerBase,
    Pending,
    Ruleset,
    find_controller,
    register_controller,
    unregister_controller,
)


def _own(state: GameState) -> SeededDice:
    """The stand-in's dice for one decision: seeded by the game's step."""
    return SeededDice(1000 + state.step)


@contextmanager
def own_dice_player(inner: str) -> Iterator[str]:
    """Register ``INNER-own-dice`` (``inner``'s choices on its own dice) while the block runs;
    yields the name to put in a scenario's ``human_controller``."""
    wrapped = find_controller(inner)
    name = f"{inner}-own-dice"

    class OwnDicePlayer(ControllerBase):
        rulesets = wrapped.rulesets

        def __init__(self) -> None:
            self.name = name
            self._inner = find_controller(inner)

        def choose_unit(
            self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
        ) -> str | None:
            return self._inner.choose_unit(state, ruleset, pending, _own(state))

        def decide(
            self, state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource
        ) -> Order:
            return self._inner.decide(state, ruleset, unit_id, _own(state))

        def react(
            self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
        ) -> Order | None:
            return self._inner.react(state, ruleset, pending, _own(state))

        def choose(
            self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
        ) -> str:
            return self._inner.choose(state, ruleset, pending, _own(state))

    register_controller(name, OwnDicePlayer)
    try:
        yield name
    finally:
        unregister_controller(name)

"""A controller that plays random legal actions, for any ruleset (the shared random-play test).

It reaches the ruleset only through the protocol: a unit's action is drawn from the ruleset's
own finite sample of legal actions (``Ruleset.sample_actions``), a reaction from the reacting
unit's sample or none, an option from the named options, and which unit acts (or a pass, now and
then) with the same injected dice, so a seeded game is reproducible.
"""

from __future__ import annotations

from engine.actions import Action, ActionKind, Order
from engine.dice import RandomSource, choice
from engine.geometry import path_cost_in
from engine.model import GameState
from engine.protocols import (
    ANY_RULESET,
    ControllerBase,
    Pending,
    Ruleset,
    register_controller,
)

NAME = "random"
#: One opportunity to choose a unit in this many is passed (when passing is allowed).
PASS_ONE_IN = 8


class RandomPlayer(ControllerBase):
    """Plays uniformly random legal actions, drawn with the game's dice."""

    name: str = NAME
    rulesets: tuple[str, ...] = (ANY_RULESET,)

    def choose_unit(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str | None:
        """A candidate drawn with the dice; now and then a pass."""
        if not pending.candidates:
            return None
        side = pending.side or "a side"
        if pending.may_pass and dice.roll(PASS_ONE_IN, f"random pass for {side}") == 1:
            return None
        return choice(dice, pending.candidates, f"random unit for {side}")

    def decide(self, state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource) -> Order:
        """A random action of the ruleset's sample for this unit, with the reason "random"."""
        legal = self._legal(state, ruleset, unit_id, dice)
        if not legal:
            unit = state.unit(unit_id)
            return Order(Action(ActionKind.PASS, unit_id, side=unit.side), "random", "no action")
        action = choice(dice, legal, f"random action for {state.unit(unit_id).name}")
        return self._order(action, len(legal))

    def react(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> Order | None:
        """A random reaction of the unit's sample, or none (as likely as any one of them)."""
        unit_id = pending.unit or ""
        legal = self._legal(state, ruleset, unit_id, dice)
        pick = dice.roll(len(legal) + 1, f"random reaction for {unit_id}")
        return None if pick > len(legal) else self._order(legal[pick - 1], len(legal))

    def choose(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str:
        """One of the options, drawn with the dice."""
        return choice(dice, pending.options, f"random choice: {pending.purpose or 'option'}")

    def _legal(
        self, state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource
    ) -> list[Action]:
        # The sample is the ruleset's legal actions: trusted, not validated again.
        return ruleset.sample_actions(state, unit_id, dice)

    def _order(self, action: Action, among: int) -> Order:
        return Order(
            action,
            "random",
            f"a random choice among {among} legal actions",
            distance_in=path_cost_in(action.path) if action.path else 0.0,
        )


register_controller(NAME, RandomPlayer)

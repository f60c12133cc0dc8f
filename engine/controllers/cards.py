"""The playing-card AI of "Alone on the Streets" (controller ``cards``, RULES §4): a 54-card
deck drives the non-player side.

On firefight-lite the deck is the game's own (``state.decks``, "cards"): this controller draws
the action card of each figure as it activates (§4.d order, §4.e reading, §4.f suits) and the
defence card of a figure attacked before it has acted (§4.g), names the card in the action so
the ruleset discards it, and answers a Joker with a ``reshuffle`` action (the ruleset
reshuffles, D002-03, and the figure draws again). It chooses to act first when one of its
figures sees an enemy (D002-05), fires from overwatch at once (Stay Frosty), and moves the
neutral figures of the random events (``cards_neutral``).

On any other ruleset (the narrative rules) the card's intent is carried out through the
ruleset's vocabulary, queries and sample of legal actions (``cards_any``): with the game's
deck where the ruleset hosts the card AI (its events, defence cards and Stay Frosty shots
come with it), else with a deck of its own in the side's controller memory.
"""

from __future__ import annotations

from engine.actions import Action, Order
from engine.cards import JOKER
from engine.controllers import cards_any, cards_neutral
from engine.controllers.cards_suits import SuitPlan, activation_order, defence_order
from engine.dice import RandomSource
from engine.model import GameState, Unit
from engine.protocols import (
    ControllerBase,
    Pending,
    PendingKind,
    Ruleset,
    register_controller,
)
from engine.rulesets.firefight_lite.board import figures, sees
from engine.rulesets.firefight_lite.deck import card_name
from engine.rulesets.firefight_lite.state import DECK, NAME, card
from engine.rulesets.narrative.cards import CARD_AI
from engine.scenario import cell_name

CONTROLLER = CARD_AI


class CardsAI(ControllerBase):
    """The card AI (see the module docstring)."""

    name = CONTROLLER
    rulesets: tuple[str, ...] = (NAME, "narrative")

    # -- which figure ---------------------------------------------------------------------------

    def choose_unit(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str | None:
        """§4.d order (figures seeing an enemy first, nearest first, ties by a roll); neutral
        figures in sheet order; never a pass while a figure can act."""
        if not pending.candidates:
            return None
        if state.ruleset != NAME:
            return cards_any.choose_unit(state, ruleset, pending, dice)
        first = state.unit(pending.candidates[0])
        if card(first).neutral:
            return pending.candidates[0]
        return activation_order(state, pending.candidates, dice)[0]

    def choose(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str:
        """D002-05: act first when one of the side's figures sees an enemy, else second."""
        if "first" in pending.options and "second" in pending.options and state.ruleset == NAME:
            side = pending.side or ""
            seeing = any(
                sees(state, u, e) for u in state.units_of(side) for e in figures(state).enemies(u)
            )
            return "first" if seeing else "second"
        return super().choose(state, ruleset, pending, dice)

    # -- what it does -----------------------------------------------------------------------------

    def decide(self, state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource) -> Order:
        """The figure's action card read by its suit (a Joker: reshuffle and draw again)."""
        pending = ruleset.pending(state)
        if pending.kind is PendingKind.REACTION:
            # The live session may ask ``decide`` when an AI figure may react: answer as react.
            reaction = self.react(state, ruleset, pending, dice)
            unit = state.unit(unit_id)
            return reaction or Order(
                Action("pass", unit_id, side=unit.side), "declines", "no reaction"
            )
        if state.ruleset != NAME:
            return cards_any.decide(state, ruleset, unit_id, dice)
        unit = state.unit(unit_id)
        kind = card(unit).neutral
        if kind:
            return self._neutral(state, ruleset, unit_id, kind, dice)
        drawn, _ = state.deck(DECK).draw(dice, f"action card for {_named(unit)}")
        if drawn == JOKER:
            return _joker(unit_id)
        return SuitPlan(state, ruleset, unit, drawn, dice).decide()

    def react(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> Order | None:
        """A defence card (§4.g); overwatch fire at once; armour against an event's hit; it
        does not move with a passing citizen or bot."""
        if state.ruleset != NAME:
            return cards_any.react(state, ruleset, pending, dice)
        unit = state.unit(pending.unit or "")
        why = pending.purpose
        if why == "overwatch" and pending.trigger is not None:
            target = pending.trigger.unit
            return Order(
                Action("overwatch_fire", unit.id, target_id=target),
                "stay frosty",
                f"{state.unit(target or '').name} starts an action in its sight",
            )
        if why != "defence":
            return None
        drawn, _ = state.deck(DECK).draw(dice, f"defence card for {_named(unit)}")
        if drawn == JOKER:
            return _joker(unit.id)
        trigger = pending.trigger
        attacker_id = trigger.get("attacker") if trigger is not None else None
        attacker = state.unit(attacker_id) if attacker_id else None
        return defence_order(state, ruleset, unit, drawn, attacker, dice)

    def _neutral(
        self, state: GameState, ruleset: Ruleset, unit_id: str, kind: str, dice: RandomSource
    ) -> Order:
        unit = state.unit(unit_id)
        memory = dict(state.memory_of(unit.side))
        moved = tuple(memory.get("moved", ()))
        if kind == "monk":
            order = cards_neutral.monk(state, unit, dice)
        elif kind == "citizen":
            order = cards_neutral.citizen(state, unit, dice, unit_id not in moved)
        elif kind == "bot":
            order = cards_neutral.bot(state, unit)
        elif kind == "mob":
            order = cards_neutral.mob(state, ruleset, unit)
        else:
            order = cards_neutral.mine(state, unit)
        if unit_id in moved:
            return order
        memory["moved"] = (*moved, unit_id)
        return Order(order.actions, order.rule, order.reason, memory=tuple(memory.items()))


def _named(unit: Unit) -> str:
    """ "the Varlet at D6" (its square on a grid)."""
    return f"{unit.name} at {cell_name(unit.cell)}" if unit.cell is not None else unit.name


def _joker(unit_id: str) -> Order:
    action = Action("reshuffle", unit_id, detail=(("card", JOKER),))
    return Order(action, "Joker", "the deck is reshuffled and a new card drawn")


def describe(card_drawn: str) -> str:
    """How an order line names a card ("Queen of hearts")."""
    return card_name(card_drawn)


register_controller(CONTROLLER, CardsAI)

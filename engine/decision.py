"""The one decision driver: who answers a decision point, and what they answer (RULES §1.7).

The runner, the live session and the replay all go through it. :func:`decision_point` reads
the ruleset's :class:`~engine.protocols.Pending`; :func:`decide` asks the controllers and
returns the :class:`Decision` to apply; :func:`unseen_steps` lists the steps of a decision
point that no unit's activation makes (for a searcher that branches instead of asking).

Who decides is settled here, not at the table: a chance step is the game's own; a side the
controllers play is asked through ``choose_unit``/``decide``/``react``/``choose``; a side a
person plays at the table (``people``) is left to that person, except a unit whose action
the rules force (``Pending.forced``, a routing character's flight in the narrative rules):
the side's controller orders it, and no unit is chosen (the person has nothing to decide).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from engine.actions import Action, ActionKind, Order
from engine.dice import RandomSource
from engine.errors import EngineError
from engine.model import GameState
from engine.protocols import Controller, Pending, PendingKind, Ruleset


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """A decision point and who answers it."""

    pending: Pending
    """The ruleset's decision point."""
    unit: str | None
    """The unit that acts without being chosen: the one continuing or reacting, or the unit
    whose action the rules force; None when a unit is to be chosen (or nobody acts)."""
    forced: bool
    """``unit``'s action is forced by the rules (ordered even for a side a person plays)."""

    @property
    def kind(self) -> PendingKind:
        """What kind of decision point it is."""
        return self.pending.kind

    @property
    def side(self) -> str | None:
        """The side that decides (None for a chance step or the end)."""
        return self.pending.side


@dataclass(frozen=True, slots=True)
class Decision:
    """What the controllers answered: the action to apply, and the order behind it."""

    action: Action
    order: Order | None = None
    """The order given (None: a chance step, a pass, a declined reaction, a choice, or the
    next action of an order already given)."""
    continued: bool = False
    """``action`` is the next planned action of the order being carried out."""


def decision_point(state: GameState, ruleset: Ruleset) -> DecisionPoint:
    """The ruleset's decision point now, with the unit that acts without being chosen."""
    pending = ruleset.pending(state)
    if pending.forced is not None:
        return DecisionPoint(pending, pending.forced, True)
    unit: str | None = None
    if pending.kind is PendingKind.CONTINUE:
        unit = pending.unit or (pending.candidates[0] if pending.candidates else "")
    elif pending.kind is PendingKind.REACTION:
        unit = pending.unit
    return DecisionPoint(pending, unit, False)


def activations(point: DecisionPoint) -> tuple[str, ...]:
    """The units whose activation may answer ``point``: the forced unit alone, else the
    candidates (none at a chance step, a choice or the end)."""
    if point.kind in (PendingKind.CHANCE, PendingKind.CHOICE, PendingKind.OVER):
        return ()
    if point.forced and point.unit is not None:
        return (point.unit,)
    return point.pending.candidates


def by_controller(point: DecisionPoint, people: Collection[str]) -> bool:
    """The side's controller answers ``point``, not a person at the table: the side is not
    in ``people``, or the rules force the unit's action."""
    return point.forced or (point.side or "") not in people


def choice_action(side: str | None, option: str) -> Action:
    """The action by which ``side`` takes one of the named options of a CHOICE."""
    return Action(ActionKind.CHOOSE, side=side, detail=(("option", option),))


def decline_action(pending: Pending) -> Action:
    """The action by which a unit lets a REACTION point go by (a pass by that unit)."""
    return Action(ActionKind.PASS, pending.unit, side=pending.side)


def side_pass(pending: Pending) -> Action:
    """The action by which the deciding side chooses no unit (a pass)."""
    return Action(ActionKind.PASS, side=pending.side)


def decide(
    state: GameState,
    ruleset: Ruleset,
    controllers: Mapping[str, Controller],
    dice: RandomSource,
    planned: list[Action] | None = None,
    people: Collection[str] = (),
) -> Decision | None:
    """What the controllers answer at the decision point now; None when the battle is over
    or a person at the table answers it (their side is in ``people``, and no unit of theirs
    is forced to act).

    A chance step is the chance action. A side choosing a unit asks its controller which
    (None: a pass) and then for the unit's order; a forced unit, or a unit continuing, is
    asked for its order; a reaction asks the reacting unit's controller (None: a decline);
    a choice asks for one of the named options.

    ``planned`` (kept by the caller between calls) holds the rest of an order of several
    actions: while its unit continues, the next planned action is taken (no new order) as
    long as the rules accept it; otherwise the controller is asked again and ``planned``
    becomes the rest of its new order.
    """
    point = decision_point(state, ruleset)
    pending = point.pending
    kind = pending.kind
    if kind is PendingKind.OVER:
        return None
    if kind is PendingKind.CHANCE:
        return Decision(Action(ActionKind.CHANCE))
    side = pending.side or ""
    if not by_controller(point, people):
        return None
    controller = controllers[side]
    if kind is PendingKind.CHOOSE_UNIT:
        if point.forced and point.unit is not None and side in people:  # nothing to choose
            unit_id = point.unit
        else:
            chosen = controller.choose_unit(state, ruleset, pending, dice)
            if chosen is None:
                return Decision(side_pass(pending))
            unit_id = chosen
    elif kind is PendingKind.CONTINUE:
        unit_id = point.unit or ""
        if planned:
            following = planned.pop(0)
            if following.unit_id == unit_id and not ruleset.validate(state, following):
                return Decision(following, continued=True)
    elif kind is PendingKind.REACTION:
        reaction = controller.react(state, ruleset, pending, dice)
        if reaction is None:
            return Decision(decline_action(pending))
        return Decision(reaction.action, reaction)
    elif kind is PendingKind.CHOICE:
        option = controller.choose(state, ruleset, pending, dice)
        return Decision(choice_action(pending.side, option))
    else:
        raise EngineError(f"unknown decision point {kind!r} in round {state.round}")
    order = controller.decide(state, ruleset, unit_id, dice)
    if planned is not None:
        planned[:] = order.actions[1:]
    return Decision(order.action, order)


def unseen_steps(point: DecisionPoint, pass_action: Action | None) -> tuple[Action, ...]:
    """The steps of ``point`` that are no unit's activation, for a searcher that branches
    instead of asking a controller: the chance action; every option of a choice; the
    decline of a reaction; ``pass_action`` where the side may pass (and no unit is forced
    to act). Empty: only an activation (or nothing, at the end) can follow."""
    kind, pending = point.kind, point.pending
    if kind is PendingKind.CHANCE:
        return (Action(ActionKind.CHANCE),)
    if kind is PendingKind.CHOICE:
        return tuple(choice_action(pending.side, option) for option in pending.options)
    if kind is PendingKind.REACTION:
        return (decline_action(pending),)
    if kind is PendingKind.OVER or point.forced or not pending.may_pass or pass_action is None:
        return ()
    return (pass_action,)

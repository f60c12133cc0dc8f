"""The turn-order kit: a ruleset declares its order of play, and the kit answers ``pending()``
and opens ``validate()`` the same way for every system.

A :class:`TurnOrder` is a declaration in the manner of boardgame.io's turn orders: a few
questions about the state (who continues, who reacts, what choice or chance step is due,
which sides are asked in turn and which of their units are ready), each a function the
ruleset gives. :meth:`TurnOrder.pending` asks them in one fixed order, the same in every
system::

    the battle is over                        -> OVER
    a side has a named choice to make         -> CHOICE
    a unit may react to an event              -> REACTION
    a unit continues (actions left, a charge) -> CONTINUE
    a chance step is due before anyone acts   -> CHANCE   (set-up, initiative of a round, ...)
    the sides in turn: the first with units   -> CHOOSE_UNIT   (alternate activation)
    nobody is ready                           -> CHANCE   (the next round's initiative)

:func:`prologue` is the one opening of ``validate``: the checks every system makes before its
own rules (the battle over, the chance step or choice due, an action the rules do not have, a
side's pass, the unit that may act now), with one wording per message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.actions import Action, ActionKind, Event
from engine.model import GameState, Unit
from engine.protocols import Pending, PendingKind

BATTLE_OVER = "the battle is over"
"""Why nothing is legal once the battle has ended."""
NO_ROLL_DUE = "no roll is due now"
"""Why a chance action is not legal outside a chance step."""
NO_CHOICE_DUE = "no choice is due now"
"""Why a choose action is not legal outside a choice."""


@dataclass(frozen=True)
class Continuing:
    """A unit that goes on acting (actions left, a charge to finish, a card drawn again)."""

    unit: str
    may_pass: bool = True
    """It may stop (a pass ends its activation)."""
    purpose: str = ""
    """What it is doing, in words ("charge"), for the ruleset's own checks."""


@dataclass(frozen=True)
class Reacting:
    """A unit that may react to an event (or decline)."""

    unit: str
    trigger: Event | None = None
    """The event it answers."""
    purpose: str = ""
    """Which reaction, in words."""


@dataclass(frozen=True)
class Choice:
    """A side's choice among named options."""

    side: str | None
    options: tuple[str, ...]
    purpose: str = ""


def _nothing(state: GameState) -> None:
    return None


def _won(state: GameState) -> bool:
    return state.winner is not None


def _no_general(state: GameState, side: str) -> str | None:
    return None


def _none_forced(state: GameState, ready: tuple[str, ...]) -> str | None:
    return None


@dataclass(frozen=True)
class TurnOrder:
    """A ruleset's order of play, declared (see the module docstring for the order asked)."""

    sides: Callable[[GameState], Iterable[str]]
    """The sides asked in turn for a unit to activate (alternate activation: the side whose
    turn it is first); the first with a ready unit chooses."""
    ready: Callable[[GameState, str], tuple[str, ...]]
    """The units of a side that may activate now, in sheet order."""
    new_round: str = "initiative"
    """The purpose of the chance step when no side has a ready unit (a new round)."""
    over: Callable[[GameState], bool] = _won
    """The battle has ended (by default: it has a winner)."""
    choice: Callable[[GameState], Choice | None] = _nothing
    """A side's named choice due now (who acts first, dice to roll again)."""
    reacting: Callable[[GameState], Reacting | None] = _nothing
    """A unit that may react to an event now."""
    acting: Callable[[GameState], Continuing | None] = _nothing
    """A unit that goes on acting (before any other is chosen)."""
    chance: Callable[[GameState], str | None] = _nothing
    """The purpose of a chance step due before any unit acts (set-up, a round's initiative)."""
    may_pass: bool = True
    """A side choosing a unit may pass instead."""
    general: Callable[[GameState, str], str | None] = _no_general
    """The human general whose turn it is on a side (co-operative play)."""
    forced: Callable[[GameState, tuple[str, ...]], str | None] = _none_forced
    """The ready unit whose action the rules force now (a routing character's flight)."""
    remember: bool = False
    """Keep the answer in the game's memo for the state (a system that asks often)."""

    def pending(self, state: GameState) -> Pending:
        """The decision the game waits for now."""
        if not self.remember:
            return self._pending(state)
        answers = state.memo.answers_for(state)
        found: Pending | None = answers.get(("turn-order",))
        if found is None:
            found = answers[("turn-order",)] = self._pending(state)
        return found

    def _pending(self, state: GameState) -> Pending:
        if self.over(state):
            return Pending(PendingKind.OVER)
        choice = self.choice(state)
        if choice is not None:
            return Pending(
                PendingKind.CHOICE,
                side=choice.side,
                options=choice.options,
                purpose=choice.purpose,
            )
        reacting = self.reacting(state)
        if reacting is not None:
            return reaction_point(state, reacting)
        acting = self.acting(state)
        if acting is not None:
            return continue_point(state, acting)
        purpose = self.chance(state)
        if purpose is not None:
            return Pending(PendingKind.CHANCE, purpose=purpose)
        for side in self.sides(state):
            ready = self.ready(state, side)
            if ready:
                return Pending(
                    PendingKind.CHOOSE_UNIT,
                    side=side,
                    general=self.general(state, side),
                    candidates=ready,
                    may_pass=self.may_pass,
                    forced=self.forced(state, ready),
                )
        return Pending(PendingKind.CHANCE, purpose=self.new_round)


def reaction_point(state: GameState, reacting: Reacting) -> Pending:
    """The REACTION decision point of a unit."""
    return Pending(
        PendingKind.REACTION,
        side=state.unit(reacting.unit).side,
        unit=reacting.unit,
        candidates=(reacting.unit,),
        trigger=reacting.trigger,
        purpose=reacting.purpose,
    )


def continue_point(state: GameState, acting: Continuing) -> Pending:
    """The CONTINUE decision point of a unit."""
    return Pending(
        PendingKind.CONTINUE,
        side=state.unit(acting.unit).side,
        unit=acting.unit,
        candidates=(acting.unit,),
        may_pass=acting.may_pass,
        purpose=acting.purpose,
    )


def cannot_act(state: GameState, unit: Unit, pending: Pending) -> str:
    """Why a unit that is not a candidate cannot act now: who may."""
    names = ", ".join(state.unit(c).name for c in pending.candidates)
    return f"{unit.name} cannot act now (may act: {names})"


def prologue(
    state: GameState,
    pending: Pending,
    action: Action,
    kinds: frozenset[str],
    not_ready: Callable[[GameState, Unit, Pending], str] = cannot_act,
    *,
    continue_pass: bool = False,
) -> list[str] | None:
    """The opening checks of ``validate`` for ``action`` while the game waits for ``pending``:
    plain sentences (the action is not legal), an empty list (a chance action at a chance
    step, a named option at a choice, a side's pass: legal), or None (the unit may act now:
    the ruleset's own rules decide). ``kinds`` are the ruleset's action kinds; ``not_ready``
    says why a unit that is not a candidate cannot act (default: who may); with
    ``continue_pass``, a pass naming no unit also ends a continuing unit's activation where it
    may stop."""
    kind = action.kind
    waiting = pending.kind
    if waiting is PendingKind.OVER:
        return [BATTLE_OVER]
    if waiting is PendingKind.CHANCE:
        return [] if kind == ActionKind.CHANCE else [f"the dice come first ({pending.purpose})"]
    if kind == ActionKind.CHANCE:
        return [NO_ROLL_DUE]
    if waiting is PendingKind.CHOICE:
        if kind == ActionKind.CHOOSE and action.get("option") in pending.options:
            return []
        return [f"{pending.side} must choose {' or '.join(map(repr, pending.options))}"]
    if kind == ActionKind.CHOOSE:
        return [NO_CHOICE_DUE]
    if kind not in kinds:
        known = ", ".join(sorted(kinds))
        return [f"{kind!r} is not an action of these rules (they have: {known})"]
    unit_id = action.unit_id
    if kind == ActionKind.PASS and unit_id is None:
        stops = waiting is PendingKind.CHOOSE_UNIT or (
            continue_pass and waiting is PendingKind.CONTINUE
        )
        if stops and pending.may_pass and action.side in (None, pending.side):
            return []
        return [f"{action.side or 'nobody'} cannot pass now"]
    if unit_id is None or not state.has_unit(unit_id):
        return [f"there is no figure {unit_id!r} in this battle"]
    if waiting is PendingKind.CHOOSE_UNIT:
        if unit_id not in pending.candidates:
            return [not_ready(state, state.unit(unit_id), pending)]
    elif unit_id != pending.unit:
        doing = "is the one to react" if waiting is PendingKind.REACTION else "is still acting"
        return [f"{state.unit(pending.unit or '').name} {doing}"]
    return None

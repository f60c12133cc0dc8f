"""Seed 000 (RULES.md §2): the order of play.

The initiative roll that opens a round, whose turn it is (co-operative generals take turns,
§2.c), passes (D000-06: the round ends when every general who could still act has passed in
succession), one character's activation with its melee bonus activation, the end of a round
and the end of the battle.
"""

from __future__ import annotations

from engine.actions import Action, ActionKind, Event, EventType, event
from engine.dice import RandomSource
from engine.geometry import bearing_deg, normalize_deg
from engine.model import GameState, Role, Side, Unit, evolve
from engine.protocols import Outcome, PendingKind
from engine.rulesets.narrative.board import card_of
from engine.rulesets.narrative.resolve import attack, move, pick_up, rout
from engine.rulesets.narrative.stalemate import stalemate
from engine.rulesets.narrative.state import is_routing, rules_of, with_rules
from engine.turns import Continuing, Reacting, TurnOrder


def candidates(state: GameState, side: str) -> tuple[str | None, tuple[str, ...]]:
    """The general whose turn it is on ``side`` (None without generals) and the characters
    that may activate now."""
    ready = [u for u in state.units_of(side) if not u.activated]
    generals = state.side(side).generals
    if not generals:
        return None, tuple(u.id for u in ready)
    # Co-operative play: human generals take turns (§2.c); skip one with nobody left.
    for k in range(len(generals)):
        general = generals[(rules_of(state).general_turn + k) % len(generals)]
        own = [u.id for u in ready if u.general in (general, None)]
        if own:
            return general, tuple(own)
    return None, ()


def initiative(state: GameState, dice: RandomSource) -> Outcome:
    """A new round: the battle may end first (round limit, stalemate); else roll initiative."""
    opened = open_round(state)
    if opened.state.winner is not None:
        return opened
    return roll_initiative(opened.state, dice, list(opened.events))


def open_round(state: GameState) -> Outcome:
    """A new round begins (activations cleared), unless the battle ends first: the round limit
    is reached, or a stalemate."""
    rnd = state.round + 1
    events: list[Event] = []
    limit = state.option("max_rounds", 0.0)
    if limit >= 1 and rnd > limit:
        return _finish_on_points(state, int(limit))
    stuck = stalemate(state)
    if stuck:
        return Outcome(_end(state, events, "draw", stuck), tuple(events))
    units = tuple(evolve(u, activated=False) if u.activated else u for u in state.units)
    state = with_rules(evolve(state, round=rnd, units=units), passes_in_row=0)
    events.append(event(EventType.ROUND_START, rnd, f"Round {rnd} begins."))
    return Outcome(state, tuple(events))


def roll_initiative(state: GameState, dice: RandomSource, events: list[Event]) -> Outcome:
    """The round's initiative d6 (1-3 the AI side first, 4-6 the human side), and the first
    side with someone ready takes the turn."""
    rnd = state.round
    roll = dice.roll(6, "initiative: 1-3 the AI side starts, 4-6 the human side")
    ai = state.side_of_role(Role.AI)
    human = state.side_of_role(Role.HUMAN)
    assert ai is not None and human is not None
    first = ai.name if roll <= 3 else human.name
    events.append(
        event(
            EventType.INITIATIVE,
            rnd,
            f"Initiative roll {roll}: {first} activate first.",
            roll=roll,
            side=first,
        )
    )
    state = with_rules(evolve(state, active_side=first), waiting=PendingKind.CHOOSE_UNIT)
    return _settle_turn(state, first, events)


def pass_turn(state: GameState) -> Outcome:
    """A pass: ends a bonus activation, or gives up the side's (general's) current opportunity."""
    rules = rules_of(state)
    if rules.waiting is PendingKind.CONTINUE:
        unit = state.unit(rules.bonus_unit or "")
        ev = event(EventType.PASS, state.round, f"{unit.name} ends the bonus activation.", unit.id)
        state = with_rules(
            state, waiting=PendingKind.CHOOSE_UNIT, bonus_unit=None, bonus_toward=None
        )
        return _end_activation(state, unit, [ev])
    side = state.active_side or ""
    general, _ = candidates(state, side)
    if general is None:
        events = [event(EventType.PASS, state.round, f"{side} pass.", side=side)]
    else:
        # Co-operative play: the pass is this general's; the rotation moves on (§2.c).
        text = f"{general} ({side}) passes."
        events = [event(EventType.PASS, state.round, text, side=side, general=general)]
        state = with_rules(state, general_turn=rules.general_turn + 1)
    passes = rules.passes_in_row + 1
    state = with_rules(state, passes_in_row=passes)
    # D000-06: the round ends when every general who could still act has passed in
    # succession (two generals: two passes in a row).
    ready = _generals_ready(state)
    if passes >= ready:
        why = {1: "the only general with characters ready passed", 2: "both generals passed"}
        return end_round(state, events, why.get(ready, f"all {ready} generals passed"))
    other = state.other_side(side)
    if candidates(state, other)[1]:
        return Outcome(evolve(state, active_side=other), tuple(events))
    return Outcome(evolve(state, active_side=side), tuple(events))


def _generals_ready(state: GameState) -> int:
    """How many generals have a character ready (each co-operative general counts)."""
    count = 0
    for side in state.sides:
        ready = [u for u in state.units_of(side.name) if not u.activated]
        if not side.generals:
            count += 1 if ready else 0
        else:
            count += sum(1 for g in side.generals if any(u.general in (g, None) for u in ready))
    return count


def _settle_turn(
    state: GameState, side: str, events: list[Event], fallback: bool = True
) -> Outcome:
    """Give the turn to ``side``, or to the other side if it has nobody ready."""
    if candidates(state, side)[1]:
        return Outcome(evolve(state, active_side=side), tuple(events))
    other = state.other_side(side)
    if fallback and candidates(state, other)[1]:
        return Outcome(evolve(state, active_side=other), tuple(events))
    return end_round(state, events, "no one is left to activate")


def end_round(state: GameState, events: list[Event], why: str) -> Outcome:
    """The round ends (``why``, for the log); the next waits for its start."""
    events.append(event(EventType.ROUND_END, state.round, f"Round {state.round} ends: {why}."))
    return Outcome(
        with_rules(evolve(state, active_side=None), waiting=PendingKind.CHANCE, passes_in_row=0),
        tuple(events),
    )


def activation(state: GameState, action: Action, dice: RandomSource) -> Outcome:
    """One character's (checked) action: its activation, or its melee bonus activation."""
    events: list[Event] = []
    state = begin_activation(state, action, events)
    state = act_move(state, action, dice, events)
    state, felled = strike(state, action, dice, events)
    return close_activation(state, action, felled, events)


def begin_activation(state: GameState, action: Action, events: list[Event]) -> GameState:
    """The character starts its action: it activates (a bonus activation is its second
    action, not a new activation) and the round waits for the next character."""
    unit = state.unit(action.unit_id or "")
    if rules_of(state).waiting is not PendingKind.CONTINUE:
        events.append(
            event(
                EventType.ACTIVATION,
                state.round,
                f"{unit.name} activates.",
                unit.id,
                side=unit.side,
            )
        )
        state = state.with_unit(evolve(unit, activated=True))
    return with_rules(
        state,
        passes_in_row=0,
        waiting=PendingKind.CHOOSE_UNIT,
        bonus_unit=None,
        bonus_toward=None,
    )


def act_move(
    state: GameState, action: Action, dice: RandomSource, events: list[Event]
) -> GameState:
    """The action's pick-up and its movement (a flight, a move, the move before a shot or a
    charge) or its pivot on the spot."""
    unit = state.unit(action.unit_id or "")
    if action.pick_up is not None:
        state, unit = pick_up(state, unit, action.pick_up, events)
    kind = action.kind
    if kind == ActionKind.FLEE:
        state, unit = rout(state, unit, action.path, dice, events)
    elif kind in (ActionKind.MOVE, ActionKind.MOVE_AND_SHOOT, ActionKind.MOVE_INTO_MELEE):
        state, unit = move(state, unit, action, events, dice)
    if kind == ActionKind.MOVE and action.heading_deg is not None and not action.path:
        state = state.with_unit(evolve(unit, heading_deg=normalize_deg(action.heading_deg)))
    return state


def strike(
    state: GameState, action: Action, dice: RandomSource, events: list[Event]
) -> tuple[GameState, Unit | None]:
    """The action's attack, if it has one and its character still stands (a shooter turns to
    face its target first); the target, if it fell."""
    unit = state.unit(action.unit_id or "")
    kind = action.kind
    if not unit.on_table or action.target_id is None or kind == ActionKind.MOVE:
        return state, None
    target = state.unit(action.target_id)
    if not target.on_table:
        return state, None
    if kind in (ActionKind.SHOOT, ActionKind.MOVE_AND_SHOOT):
        unit = evolve(unit, heading_deg=bearing_deg(unit.position, target.position))
        state = state.with_unit(unit)
    return attack(state, unit, target, kind == ActionKind.MOVE_AND_SHOOT, dice, events)


def close_activation(
    state: GameState, action: Action, felled: Unit | None, events: list[Event]
) -> Outcome:
    """After the action: the battle may be over; a melee that felled its enemy earns a bonus
    activation (§2.d); else the turn passes to the other side."""
    rnd = state.round
    kind = action.kind
    state, over = check_end(state, events)
    if over:
        return Outcome(state, tuple(events))
    unit = state.unit(action.unit_id or "")
    melee = kind in (ActionKind.MOVE_INTO_MELEE, ActionKind.CONTINUE_MELEE)
    if felled is not None and melee and unit.on_table:
        half = card_of(unit).move_in / 2.0
        events.append(
            event(
                EventType.BONUS_ACTIVATION,
                rnd,
                f"{unit.name} felled {felled.name} and gets a bonus activation of {half:g} in.",
                unit.id,
                move_in=half,
            )
        )
        state = with_rules(
            state,
            waiting=PendingKind.CONTINUE,
            bonus_unit=unit.id,
            bonus_move_in=half,
            bonus_toward=felled.position,
        )
        return Outcome(state, tuple(events))
    return _end_activation(state, unit, events)


def _end_activation(state: GameState, unit: Unit, events: list[Event]) -> Outcome:
    side = state.side(unit.side)
    if side.role is Role.HUMAN and side.generals:
        state = with_rules(state, general_turn=rules_of(state).general_turn + 1)
    return _settle_turn(state, state.other_side(unit.side), events)


def check_end(state: GameState, events: list[Event]) -> tuple[GameState, bool]:
    """The battle ends when a side has no character left on the table; whether it did."""
    standing = {s.name: len(state.units_of(s.name)) for s in state.sides}
    beaten = [name for name, n in standing.items() if n == 0]
    if not beaten:
        return state, False
    if len(beaten) == 2:
        winner, why = _points_winner(state), "both sides have left the field"
    else:
        winner = state.other_side(beaten[0])
        why = f"{beaten[0]} have no characters left on the table"
    return _end(state, events, winner, why), True


def _points_winner(state: GameState) -> str:
    def key(side: Side) -> tuple[int, int]:
        scored = sum(1 for o in state.objectives if o.scored_by == side.name)
        return scored, len(state.units_of(side.name))

    ranked = sorted(state.sides, key=key, reverse=True)
    if key(ranked[0]) == key(ranked[1]):
        return "draw"
    return ranked[0].name


def _finish_on_points(state: GameState, limit: int) -> Outcome:
    events: list[Event] = []
    winner = _points_winner(state)
    why = f"{limit} rounds played; decided by objectives scored, then characters standing"
    return Outcome(_end(state, events, winner, why), tuple(events))


def _end(state: GameState, events: list[Event], winner: str, why: str) -> GameState:
    scored = {
        s.name: [o.id for o in state.objectives if o.scored_by == s.name] for s in state.sides
    }
    text = "The battle ends in a draw" if winner == "draw" else f"{winner} win the battle"
    events.append(
        event(
            EventType.END,
            state.round,
            f"{text}: {why}.",
            None,
            winner=winner,
            reason=why,
            scored=[[k, len(v)] for k, v in sorted(scored.items())],
        )
    )
    state = evolve(state, winner=winner, end_reason=why, active_side=None)
    return with_rules(state, waiting=PendingKind.OVER)


def _over(state: GameState) -> bool:
    return rules_of(state).waiting is PendingKind.OVER


def _reacting(state: GameState) -> Reacting | None:
    """A figure answering the card AI's attack or event (a battle the card AI plays)."""
    host = rules_of(state).cards
    if host is None or host.reacting is None:
        return None
    return Reacting(host.reacting, host.trigger, host.reaction)


def _acting(state: GameState) -> Continuing | None:
    """A card AI figure drawing again after a Joker, or a character's melee bonus activation."""
    rules = rules_of(state)
    if rules.waiting is PendingKind.CHANCE:
        return None
    if rules.cards is not None and rules.cards.drawing is not None:
        return Continuing(rules.cards.drawing, may_pass=False)
    if rules.waiting is PendingKind.CONTINUE and rules.bonus_unit is not None:
        return Continuing(rules.bonus_unit)
    return None


def _chance_due(state: GameState) -> str | None:
    """The round's initiative (the card AI's event card first, when it draws one)."""
    rules = rules_of(state)
    if rules.waiting is not PendingKind.CHANCE:
        return None
    host = rules.cards
    return "random event" if host and host.events_on and not host.initiative_due else "initiative"


def _sides(state: GameState) -> tuple[str, ...]:
    return (state.active_side or state.sides[0].name,)


def _ready(state: GameState, side: str) -> tuple[str, ...]:
    return candidates(state, side)[1]


def _general(state: GameState, side: str) -> str | None:
    return candidates(state, side)[0] if state.side(side).generals else None


def _routing(state: GameState, ready: tuple[str, ...]) -> str | None:
    """The first ready character that routs: its flight is forced (§2.d-1)."""
    return next((u for u in ready if is_routing(state, state.unit(u))), None)


TURNS = TurnOrder(
    sides=_sides,
    ready=_ready,
    over=_over,
    reacting=_reacting,
    acting=_acting,
    chance=_chance_due,
    general=_general,
    forced=_routing,
)
"""The narrative order: a round's initiative, then the side whose turn it is (its general
whose turn it is, in co-operative play) chooses a character; a routing character's flight is
forced; a melee bonus activation continues; with the card AI, a figure reacts to an attack or
an event and a figure that drew a Joker draws again."""

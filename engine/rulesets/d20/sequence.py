"""The start of a d20 round (RULES §5.d), one die per chance step so that a replay with the
dice unknown can branch over each one: in round 1 the rolled tactics (§5.l, one figure per
step, 19-20 rolled again), then each side's initiative d20 (ties rolled again, a step per
die), then the random enemy action d20 (with the die that picks the one figure, or the
returning figure, D003-07). Stunned figures lose the round they were stunned for (§5.h).
"""

from __future__ import annotations

from math import ceil

from engine.actions import Event, event
from engine.dice import RandomSource
from engine.model import GameState, Role, UnitStatus, evolve
from engine.rulesets.d20.board import occupied
from engine.rulesets.d20.combat import status_change
from engine.rulesets.d20.state import (
    ALERTED,
    PREPARED,
    STUNNED,
    D20State,
    card_of,
    enemy_action_result,
    rules_of,
    tactic_for,
)
from engine.rulesets.d20.victory_kinds import ambush_first, ambush_waits, spawn_due
from engine.turns import Continuing, TurnOrder

TACTICS_STAGE, INITIATIVE_STAGE, ENEMY_STAGE = "tactics", "initiative", "enemy action"


def rules(state: GameState) -> D20State:
    """The d20 part of the state."""
    assert isinstance(state.rules, D20State)
    return state.rules


def candidates(state: GameState, side: str) -> tuple[str, ...]:
    """The d20 units of ``side`` that may act now (their first figures, sheet order): none
    past the AI's quota, only the chosen one on a 1-2 (§5.d), and a figure that returned this
    round only once every other enemy unit has acted (D003-07: it acts last)."""
    r = rules(state)
    is_ai = state.side(side).role is Role.AI
    if is_ai and r.quota is not None and r.ai_acted >= r.quota:
        return ()
    seen: set[str] = set()
    out = []
    for u in state.units_of(side):
        group = rules_of(u).group or u.id
        if group in seen:
            continue
        seen.add(group)
        if u.activated:
            continue
        if is_ai and r.chosen is not None and group != r.chosen:
            continue
        out.append(u.id)
    if is_ai and r.returned is not None:
        others = tuple(uid for uid in out if (rules_of(state.unit(uid)).group or uid) != r.returned)
        out = list(others or out)
    return tuple(out)


def _rolled_tactic_left(state: GameState) -> str | None:
    return next((u.id for u in state.units if rules_of(u).tactic == "roll"), None)


def start_round(state: GameState) -> tuple[GameState, list[Event]]:
    """The next round begins: figures ready (the stunned lose it), round 1 marks every enemy
    Prepared; then the stage of its first die."""
    rnd = state.round + 1
    state = evolve(state, round=rnd)
    events: list[Event] = []
    units = []
    for u in state.units:
        own = rules_of(u)
        statuses = u.statuses
        lost = u.on_table and own.stunned_round == rnd
        if STUNNED in statuses and own.stunned_round < rnd:
            statuses = statuses - {STUNNED}
        units.append(evolve(u, activated=lost, statuses=statuses))
    state = evolve(state, units=tuple(units))
    if rnd == 1:
        ai = state.side_of_role(Role.AI)
        for u in state.units:
            if ai is not None and u.side == ai.name and u.on_table:
                state, ev = status_change(state, state.unit(u.id), PREPARED)
                events.append(ev)
    stage = TACTICS_STAGE if rnd == 1 and _rolled_tactic_left(state) else INITIATIVE_STAGE
    r = evolve(
        rules(state), stage=stage, rolls=(), order=(), turn=0, acting=None, quota=None,
        chosen=None, ai_acted=0, returned=None,
    )  # fmt: skip
    return evolve(state, rules=r), events


def chance_step(state: GameState, dice: RandomSource) -> tuple[GameState, list[Event]]:
    """One die of the round's start, by stage."""
    stage = rules(state).stage
    if stage == TACTICS_STAGE:
        return _tactic(state, dice)
    if stage == INITIATIVE_STAGE:
        return _initiative(state, dice)
    return _enemy_action(state, dice)


def _tactic(state: GameState, dice: RandomSource) -> tuple[GameState, list[Event]]:
    uid = _rolled_tactic_left(state)
    events: list[Event] = []
    if uid is not None:
        u = state.unit(uid)
        card = card_of(u)
        tactic = None
        roll = 0
        while tactic is None:
            roll = dice.roll(20, f"tactic: {u.name}")
            tactic = tactic_for(roll)
        if tactic == "unexpected" and card.tactic == "unexpected":
            tactic = card.previous_tactic or "unexpected"  # T003-05
        state = state.with_unit(evolve(u, rules=evolve(rules_of(u), tactic=tactic)))
        events.append(
            event("tactic", 1, f"{u.name} fights {tactic}.", u.id, tactic=tactic, roll=roll)
        )
    if _rolled_tactic_left(state) is None:
        state = evolve(state, rules=evolve(rules(state), stage=INITIATIVE_STAGE))
    return state, events


def _initiative(state: GameState, dice: RandomSource) -> tuple[GameState, list[Event]]:
    """One side's initiative d20; once every side has one, ties roll again or the order is set."""
    r = rules(state)
    rolled = dict(r.rolls)
    side = next(s.name for s in state.sides if s.name not in rolled)
    rolled[side] = dice.roll(20, f"initiative: {side}")
    events: list[Event] = []
    if len(rolled) < len(state.sides):
        return evolve(state, rules=evolve(r, rolls=tuple(rolled.items()))), events
    values = list(rolled.values())
    tied = [n for n, v in rolled.items() if values.count(v) > 1]
    if tied:
        events.append(event("tie", state.round, "Initiative tied: the tied sides roll again."))
        kept = tuple((n, v) for n, v in rolled.items() if n not in tied)
        return evolve(state, rules=evolve(r, rolls=kept)), events
    order = ambush_first(state, tuple(sorted(rolled, key=lambda n: -rolled[n])))
    shown = ", ".join(f"{n} {rolled[n]}" for n in order)
    events.append(
        event(
            "round_start",
            state.round,
            f"Round {state.round}: {order[0]} acts first ({shown}).",
            order=list(order),
            rolls=[rolled[n] for n in order],
        )
    )
    enemy = state.option_value("enemy_action", True) is not False
    r = evolve(r, order=order, turn=0, rolls=(), stage=ENEMY_STAGE if enemy else "")
    return evolve(state, rules=r, active_side=order[0]), events


def _enemy_action(state: GameState, dice: RandomSource) -> tuple[GameState, list[Event]]:
    """The random enemy action d20 (§5.d, D003-07)."""
    ai = state.side_of_role(Role.AI)
    assert ai is not None
    roll = dice.roll(20, "enemy action")
    result = enemy_action_result(roll)
    leaders = candidates(state, ai.name)
    n = len(leaders)
    r = evolve(rules(state), stage="")
    events: list[Event] = []
    if result == "one" and n:
        pick = leaders[dice.roll(n, "enemy action: which figure") - 1]
        r = evolve(r, quota=1, chosen=rules_of(state.unit(pick)).group)
        text = f"only {state.unit(pick).name} acts"
    elif result == "half":
        r = evolve(r, quota=ceil(n / 2))
        text = f"half the enemy units act ({ceil(n / 2)} of {n})"
    else:
        text = "every enemy acts"
    state = evolve(state, rules=r)
    if result == "all_return":
        gone = [u for u in state.units if u.side == ai.name and u.status is UnitStatus.FALLEN]
        if gone:
            back = gone[dice.roll(len(gone), "enemy action: returning figure") - 1]
            sx, sy = rules_of(back).start
            spot = evolve(back, x=sx, y=sy)
            if occupied(state, spot.position, spot) is None:
                revived = evolve(
                    spot, status=UnitStatus.ACTIVE, wounds=0, activated=False,
                    statuses=frozenset({ALERTED}),
                )  # fmt: skip
                state = state.with_unit(revived)
                group = rules_of(back).group or back.id
                state = evolve(state, rules=evolve(rules(state), returned=group))
                text += f"; {back.name} returns and acts last"
                events.append(
                    event("return", state.round, f"{back.name} returns to the battle.", back.id)
                )
                events.append(
                    event(
                        "status", state.round, f"{back.name} is alerted.", back.id, status=ALERTED
                    )
                )
    events.insert(
        0,
        event(
            "enemy_action", state.round, f"Enemy action {roll}: {text}.", roll=roll, result=result
        ),
    )
    return state, events


def _acting(state: GameState) -> Continuing | None:
    acting = rules(state).acting
    return None if acting is None else Continuing(acting)


def _chance_due(state: GameState) -> str | None:
    """A new battle's initiative, a stage of the round's start, or a reserve's arrival."""
    if state.round == 0:
        return "initiative"
    stage = rules(state).stage
    if stage:
        return stage
    return "spawn" if spawn_due(state) is not None else None


def _sides(state: GameState) -> list[str]:
    """The sides in initiative order, from the one whose turn it is."""
    order, turn = rules(state).order, rules(state).turn
    return [order[(turn + k) % len(order)] for k in range(len(order))]


def _ready(state: GameState, side: str) -> tuple[str, ...]:
    """``candidates``, none while an ambushing side waits for the side it ambushes."""
    ready = candidates(state, side)
    first = ambush_waits(state, side)
    return () if ready and first and candidates(state, first) else ready


TURNS = TurnOrder(sides=_sides, ready=_ready, acting=_acting, chance=_chance_due)
"""The d20 order: a round's start (initiative and its stages), then the sides in initiative
order, a unit continuing its turn (two actions) before the next is chosen."""

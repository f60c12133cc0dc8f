"""How an action of the 2D6 skirmish is resolved (RULES §3.2), once it is legal: a move, a
Recover, a charge declared and run, the fight (``combat``), then the step settled:
the activation, the round or the game ended when they are over, and the VP counted
(D001B-12). Pure apart from the dice; inches.
"""

from __future__ import annotations

from engine.actions import Action, Event, event
from engine.dice import RandomSource
from engine.geometry import bearing_deg
from engine.model import GameState, Unit, evolve
from engine.protocols import Outcome
from engine.rulesets.skirmish2d6.board import in_contact, path_length_in
from engine.rulesets.skirmish2d6.checks import RECOVER_DIFFICULTY, basic_check, roll_2d6
from engine.rulesets.skirmish2d6.combat import Fight, attack
from engine.rulesets.skirmish2d6.fighters import RECOVER_ORDER, melee_weapon, skill_of
from engine.rulesets.skirmish2d6.legality import RUN
from engine.rulesets.skirmish2d6.state import (
    LAST_ROUND,
    SkirmishState,
    held_objectives,
    kills,
    rules_of,
    victory_points,
)


def stacking(state: GameState) -> bool:
    """D001B-05: a Wounded fighter Wounded again dies (option ``wounded_again_kills``)."""
    value = state.option_value("wounded_again_kills", True)
    return bool(value)


def move(
    fight: Fight,
    unit: Unit,
    path: tuple[tuple[float, float], ...],
    word: str,
    moves: int = 1,
) -> None:
    """The model moves along ``path`` (a Move of ``moves`` actions, or a charge's run)."""
    end = path[-1] if path else unit.position
    heading = unit.heading_deg
    if len(path) > 1 and path[-2] != path[-1]:
        heading = bearing_deg(path[-2], path[-1])
    moved = evolve(unit, x=end[0], y=end[1], heading_deg=heading)
    fight.state = fight.state.with_unit(moved)
    length = path_length_in(path)
    fight.events.append(
        event(
            "move",
            fight.state.round,
            f"{unit.name} {'charges' if word == RUN else 'moves'} {length:.1f} in"
            + (f" ({moves} Moves)." if moves > 1 else "."),
            unit.id,
            path=[list(p) for p in path],
            distance_in=round(length, 3),
            action=word,
            actions=moves,
        )
    )


def recover(fight: Fight, unit: Unit, named: str | None) -> None:
    """Recover: Skill vs 7; on a success the named status (or the worst) goes."""
    check = basic_check(
        fight.dice,
        unit.id,
        "skill",
        skill_of(unit),
        RECOVER_DIFFICULTY,
        f"recover: {unit.name}",
    )
    fight.check_event(
        check,
        f"{unit.name} tries to recover: {check.total} vs {RECOVER_DIFFICULTY}, {check.result}.",
    )
    if check.result == "success":
        status = named or next(s for s in RECOVER_ORDER if s in unit.statuses)
        fight.set_status(unit, status, False)


def charge(
    fight: Fight, unit: Unit, action: Action, dice: RandomSource, rules: SkirmishState
) -> Outcome:
    """A charge: a fight at once when already in contact, else the 2D6 reach is rolled and the
    run is awaited."""
    target = fight.state.unit(action.target_id or "")
    weapon = melee_weapon(unit, action.get("weapon"))
    assert weapon is not None
    style = str(action.get("style", ""))
    if in_contact(fight.state, unit, target):
        fight.events.append(
            event(
                "charge",
                fight.state.round,
                f"{unit.name} fights {target.name}.",
                unit.id,
                target=target.id,
                reach_in=0,
                weapon=weapon.name,
                style=style,
            )
        )
        attack(fight, unit.id, target.id, weapon, style=style)
        return finish(fight, rules)
    rolls = roll_2d6(dice, f"charge: {unit.name}")
    reach = float(sum(rolls))
    fight.events.append(
        event(
            "charge",
            fight.state.round,
            f"{unit.name} charges {target.name}: {reach:g} in ({rolls[0]}+{rolls[1]}).",
            unit.id,
            target=target.id,
            rolls=list(rolls),
            reach_in=reach,
            weapon=weapon.name,
            style=style,
        )
    )
    rules = evolve(
        rules,
        charge_target=target.id,
        charge_reach_in=reach,
        charge_weapon=weapon.name,
        charge_style=style,
    )
    return finish(fight, rules)


def run(
    state: GameState,
    rules: SkirmishState,
    unit: Unit,
    action: Action,
    dice: RandomSource,
    events: list[Event],
) -> Outcome:
    """The rolled charge's run, then the fight on contact (or nothing, short)."""
    target = state.unit(rules.charge_target or "")
    ran = evolve(
        rules, charge_target=None, charge_reach_in=0.0, charge_weapon=None, charge_style=""
    )
    fight = Fight(state, dice, events, wounded_again_kills=stacking(state))
    path = action.path or (unit.position,)
    if len(path) > 1:
        move(fight, unit, path, RUN)
    unit = fight.state.unit(unit.id)
    if in_contact(fight.state, unit, target):
        weapon = melee_weapon(unit, rules.charge_weapon)
        assert weapon is not None
        attack(fight, unit.id, target.id, weapon, style=rules.charge_style)
    else:
        fight.events.append(
            event(
                "charge_short",
                state.round,
                f"{unit.name} falls short of {target.name}.",
                unit.id,
                target=target.id,
            )
        )
    return finish(fight, ran)


def finish(fight: Fight, rules: SkirmishState) -> Outcome:
    """Queue the drive-backs for the table: each driven model stands where it stood
    until its ``drive_back`` step moves it (a model killed meanwhile is not driven)."""
    state = fight.state
    drives = []
    for uid, start, end in fight.drives:
        unit = state.unit(uid)
        if unit.on_table:
            state = state.with_unit(evolve(unit, x=start[0], y=start[1]))
            drives.append((uid, start, end))
    if drives:
        rules = evolve(rules, drives=(*rules.drives, *drives))
    return settle(state, fight.events, rules)


def settle(state: GameState, events: list[Event], rules: SkirmishState) -> Outcome:
    """Count the step and put the rules' part in (``rules``: as the action left it); end
    the activation, the round or the game when they are over."""
    step = state.step + 1
    standing = {u.side for u in state.units if u.on_table}
    if len(standing) < len(state.sides):
        over = evolve(state, step=step, rules=rules)
        return end(over, events, "a side has no fighter left")
    acting = state.unit(rules.acting) if rules.acting else None
    if acting is not None and not acting.on_table:
        rules = evolve(rules, actions_left=0, charge_target=None)
    if rules.drives or rules.charge_target is not None:
        return Outcome(evolve(state, rules=rules, step=step), tuple(events))
    active = state.active_side
    if rules.acting is not None and rules.actions_left <= 0:
        side = state.unit(rules.acting).side
        rules = evolve(rules, acting=None, actions_left=0, aimed=False)
        active = state.other_side(side)
    state = evolve(state, rules=rules, active_side=active, step=step)
    last = state.round >= last_round(state)
    if rules.acting is None and last and next_side(state) is None:
        return end(state, events, f"round {state.round} is over")
    return Outcome(state, tuple(events))


def last_round(state: GameState) -> int:
    """The last round (option ``max_rounds``; 4)."""
    return int(state.option("max_rounds", LAST_ROUND))


def new_round(state: GameState, dice: RandomSource) -> Outcome:
    """A new round: every fighter ready again, the roll-off (a tie: one more die)."""
    round_ = state.round + 1
    units = tuple(evolve(u, activated=False) for u in state.units)
    a, b = (s.name for s in state.sides[:2])
    ra, rb = dice.roll(6, f"roll-off: {a}"), dice.roll(6, f"roll-off: {b}")
    if ra != rb:
        first = a if ra > rb else b
    else:  # a tie: one more die between the two (a bounded re-roll, D001B-13)
        first = (a, b)[dice.roll(2, f"roll-off tie: {a} or {b}") - 1]
    state = evolve(
        state,
        step=state.step + 1,
        round=round_,
        units=units,
        active_side=first,
        rules=evolve(rules_of(state), first_side=first),
    )
    events = (
        event("round_start", round_, f"Round {round_} begins.", first=first),
        event(
            "initiative",
            round_,
            f"Roll-off: {a} {ra}, {b} {rb}; {first} activate first.",
            side=first,
            rolls={a: ra, b: rb},
        ),
    )
    return Outcome(state, events)


def end(state: GameState, events: list[Event], reason: str) -> Outcome:
    """The end: VP per side (kills + 3 per objective held, D001B-12), the winner or a draw."""
    vp = victory_points(state)
    ranked = sorted(vp.items(), key=lambda kv: -kv[1])
    winner = "draw" if len(ranked) > 1 and ranked[0][1] == ranked[1][1] else ranked[0][0]
    held = held_objectives(state)
    state = evolve(
        state,
        winner=winner,
        end_reason=reason,
        rules=evolve(
            rules_of(state),
            drives=(),
            acting=None,
            actions_left=0,
            aimed=False,
            charge_target=None,
            charge_reach_in=0.0,
            charge_weapon=None,
            charge_style="",
        ),
    )
    scores = ", ".join(f"{side} {points} VP" for side, points in vp.items())
    text = f"{'Draw' if winner == 'draw' else winner + ' win'}: {scores} ({reason})."
    end = event(
        "end",
        state.round,
        text,
        winner=winner,
        reason=reason,
        vp=vp,
        kills={s.name: kills(state, s.name) for s in state.sides},
        objectives=held,
    )
    return Outcome(state, (*events, end))


def ready(state: GameState, side: str) -> tuple[str, ...]:
    """The side's fighters on the table that have not activated this round."""
    return tuple(u.id for u in state.units_of(side) if not u.activated)


def next_side(state: GameState) -> str | None:
    """The side to activate next: the active side, else the other while it has fighters ready."""
    order = [state.active_side] + [s.name for s in state.sides if s.name != state.active_side]
    return next((s for s in order if s is not None and ready(state, s)), None)

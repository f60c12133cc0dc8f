"""Simple basic combat of the d20 rules (RULES §5.h-§5.j): attack, defence, wounds, stun,
defeat, morale, dangerous terrain, non-combat actions and the Recovery action (§5.b).

Every die goes through the game's random source with a purpose naming the figure.
"""

from __future__ import annotations

from engine.actions import Event, event
from engine.dice import RandomSource
from engine.model import GameState, Unit, UnitStatus, evolve
from engine.rulesets.d20.board import in_cover
from engine.rulesets.d20.ranges import adjacent, spaces_between
from engine.rulesets.d20.state import (
    ALERTED,
    COVER_NEED,
    DEFEND_NEED,
    MELEE_NEED,
    PREPARED,
    RANGED_NEED,
    RETREATING,
    STUNNED,
    TASK_NEED,
    D20State,
    Weapon,
    card_of,
    morale_result,
    rules_of,
)


def roll_best(dice: RandomSource, twice: bool, purpose: str) -> tuple[int, list[int]]:
    """A d20, or the higher of two (§5.h special circumstances), with the dice rolled."""
    rolls = [dice.roll(20, purpose)]
    if twice:
        rolls.append(dice.roll(20, purpose + " (second die)"))
    return max(rolls), rolls


def attack_need(weapon: Weapon, cover: bool) -> int:
    """The attack roll needed: melee 6+, ranged 11+, ranged at a target in cover 16+."""
    if not weapon.ranged:
        return MELEE_NEED
    return COVER_NEED if cover else RANGED_NEED


def ganged(state: GameState, attacker: Unit, target: Unit, weapon: Weapon) -> bool:
    """Several attackers on one target (§5.h): a melee attack with another of the attacker's
    side adjacent to the target too rolls twice."""
    if weapon.ranged:
        return False
    return any(
        u.id != attacker.id and adjacent(state, u, target)
        for u in state.units
        if u.on_table and u.side == attacker.side
    )


def _rules(state: GameState) -> D20State:
    assert isinstance(state.rules, D20State)
    return state.rules


def status_change(state: GameState, unit: Unit, status: str) -> tuple[GameState, Event]:
    """The unit's status marker set to ``status`` (prepared/alerted/retreating), and the
    ``{"type": "status", "unit", "status"}`` event."""
    kept = unit.statuses - {PREPARED, ALERTED, RETREATING}
    unit = evolve(unit, statuses=kept | {status})
    ev = event("status", state.round, f"{unit.name} is {status}.", unit.id, status=status)
    return state.with_unit(unit), ev


def defeat(state: GameState, unit: Unit, by: Unit | None, how: str) -> tuple[GameState, Event]:
    """The figure removed (§5.i); its points count for the side that defeated it."""
    gone = evolve(unit, status=UnitStatus.FALLEN, activated=True)
    state = state.with_unit(gone)
    if by is not None:
        rules = _rules(state)
        points = dict(rules.defeated_points)
        points[by.side] = points.get(by.side, 0) + card_of(unit).points
        rules = evolve(rules, defeated_points=tuple(sorted(points.items())))
        state = evolve(state, rules=rules)
    return state, event("fall", state.round, f"{unit.name} is defeated ({how}).", unit.id)


def take_hit(
    state: GameState,
    target: Unit,
    attacker: Unit | None,
    weapon: Weapon | None,
    dice: RandomSource,
    extra_damage: int = 0,
) -> tuple[GameState, list[Event]]:
    """A hit on ``target``: its free defence roll (11+ no damage, twice with tough armour or a
    defence buff), else a stun (stun weapons, D003-16), a wound, or defeat."""
    card, own = card_of(target), rules_of(target)
    twice = card.defend_twice or "defence" in own.buffs_used
    roll, rolls = roll_best(dice, twice, f"defence: {target.name}")
    events: list[Event] = []
    if roll >= DEFEND_NEED:
        events.append(
            event("defend", state.round, f"{target.name} defends ({roll}).", target.id, rolls=rolls)
        )
        return state, events
    if weapon is not None and weapon.stun:
        stunned = evolve(
            target,
            statuses=target.statuses | {STUNNED},
            rules=evolve(own, stunned_round=state.round + 1),
        )
        events.append(
            event(
                "stun",
                state.round,
                f"{target.name} is stunned ({roll}): no actions next round.",
                target.id,
                rolls=rolls,
            )
        )
        return state.with_unit(stunned), events
    damage = (weapon.damage if weapon is not None else 1) + extra_damage
    wounds = target.wounds + damage
    if wounds >= card.wounds:
        state, ev = defeat(state, target, attacker, f"defence {roll}")
        events.append(ev)
        return state, events
    state = state.with_unit(evolve(target, wounds=wounds))
    events.append(
        event(
            "wound",
            state.round,
            f"{target.name} takes {damage} wound{'s' if damage > 1 else ''} ({roll}).",
            target.id,
            rolls=rolls,
            wounds=wounds,
        )
    )
    return state, events


def resolve_attack(
    state: GameState, attacker: Unit, target: Unit, weapon: Weapon, dice: RandomSource
) -> tuple[GameState, list[Event]]:
    """One attack (§5.h): the attack die (twice for a skilled attacker, an attack buff or
    several attackers on one target), then the target's defence; an area weapon also hits
    every other figure within 1 space of the target (§5.g). A prepared target is alerted,
    once the heroes have made their first move (D003-05)."""
    own = rules_of(attacker)
    cover = weapon.ranged and in_cover(state, target, attacker.position)
    need = attack_need(weapon, cover)
    twice = (
        card_of(attacker).attack_twice
        or "attack" in own.buffs_used
        or ganged(state, attacker, target, weapon)
    )
    roll, rolls = roll_best(dice, twice, f"attack: {attacker.name} at {target.name}")
    hit = roll >= need
    events = [
        event(
            "attack",
            state.round,
            f"{attacker.name} attacks {target.name} with the {weapon.name}: {roll}, "
            f"{'hit' if hit else 'miss'} (needs {need}+{', in cover' if cover else ''}).",
            attacker.id,
            target=target.id,
            weapon=weapon.name,
            need=need,
            rolls=rolls,
            hit=hit,
        )
    ]
    if PREPARED in target.statuses and _rules(state).heroes_moved:
        state, ev = status_change(state, target, ALERTED)  # an interaction (D003-05)
        events.append(ev)
    if not hit:
        return state, events
    victims = [target]
    if weapon.area:
        victims += [
            u
            for u in state.units
            if u.on_table and u.id not in (target.id, attacker.id) and _within_one(state, u, target)
        ]
    extra = 1 if "damage" in own.buffs_used else 0
    for victim in victims:
        current = state.unit(victim.id)
        if not current.on_table:
            continue
        state, evs = take_hit(state, current, attacker, weapon, dice, extra)
        events.extend(evs)
    return state, events


def _within_one(state: GameState, a: Unit, b: Unit) -> bool:
    """Within 1 space (the area effect's ring, §5.g)."""
    return spaces_between(state, a, b) <= 1.0 + 1e-6


def non_combat(
    state: GameState, unit: Unit, task: str, dice: RandomSource
) -> tuple[bool, list[int], Event]:
    """A non-combat action (§5.h): 11+ succeeds, twice for the talented or equipped."""
    roll, rolls = roll_best(dice, card_of(unit).talented, f"non-combat: {unit.name} {task}")
    ok = roll >= TASK_NEED
    text = f"{unit.name} tries to {task}: {roll}, {'success' if ok else 'failure'}."
    return ok, rolls, event("task", state.round, text, unit.id, task=task, rolls=rolls, success=ok)


def morale_checks(
    state: GameState, side: str, cause: Unit | None, dice: RandomSource
) -> tuple[GameState, list[Event]]:
    """Each d20 unit of ``side`` checks morale once (§5.j, D003-17): its most powerful figure
    against the cause; a 1 defeats the unit, a failure makes it Retreating. With no enemy
    cause (a loss to dangerous ground) the cause is the strongest enemy on the table
    (D003-17: "strongest enemy if unclear"; sheet order on a tie)."""
    events: list[Event] = []
    groups: dict[str, list[Unit]] = {}
    for u in state.units_of(side):
        groups.setdefault(rules_of(u).group or u.id, []).append(u)
    if cause is None or cause.side == side:
        enemies = [u for u in state.units if u.on_table and u.side != side]
        cause = max(enemies, key=lambda u: (card_of(u).power, -u.sheet_order), default=None)
    cause_power = card_of(cause).power if cause is not None else 0
    against = f" against {cause.name}" if cause is not None else ""
    for members in groups.values():
        best = max(members, key=lambda u: card_of(u).power)
        stronger = card_of(best).power > cause_power
        roll = dice.roll(20, f"morale: {best.name}")
        result = morale_result(roll, stronger)
        events.append(
            event(
                "morale",
                state.round,
                f"{best.name} checks morale{against}: {roll}, {result}.",
                best.id,
                roll=roll,
                result=result,
                cause=cause.id if cause is not None else None,
                stronger=stronger,
            )
        )
        for member in members:
            current = state.unit(member.id)
            if result == "defeated":
                gone = evolve(current, status=UnitStatus.ROUTED_OFF, activated=True)
                state = state.with_unit(gone)
                events.append(
                    event("fall", state.round, f"{current.name} flees the battle.", current.id)
                )
            elif result == "retreat":
                state, ev = status_change(state, current, RETREATING)
                events.append(ev)
    return state, events


def dangerous_roll(
    state: GameState, unit: Unit, dice: RandomSource
) -> tuple[GameState, list[Event]]:
    """Dangerous terrain (§5.f, D003-08): a d6 (or d20, option ``dangerous_die``); 1-3 is one
    wound (no defence roll: the ground is not an attacker)."""
    sides = int(state.option("dangerous_die", 6))
    roll = dice.roll(sides, f"dangerous terrain: {unit.name}")
    if roll > 3:
        return state, [
            event(
                "dangerous", state.round, f"{unit.name} is unharmed ({roll}).", unit.id, roll=roll
            )
        ]
    events = [event("dangerous", state.round, f"{unit.name} is hurt ({roll}).", unit.id, roll=roll)]
    wounds = unit.wounds + 1
    if wounds >= card_of(unit).wounds:
        state, ev = defeat(state, unit, None, "dangerous terrain")
        events.append(ev)
        return state, events
    return state.with_unit(evolve(unit, wounds=wounds)), events


def recovery(unit: Unit, *, in_combat: bool) -> tuple[Unit, str]:
    """The Recovery action (§5.b, D003-22): regain half the total wounds rounded up (capped)
    and clear every negative condition; once per character per session, never in combat.

    Returns the recovered unit and an empty reason, or the unit unchanged and why not. The
    campaign calls this between battles; :func:`new_session` and :func:`morning_rest` are its
    hooks for the multi-day rule.
    """
    own = rules_of(unit)
    if in_combat:
        return unit, "no Recovery in combat (from the first initiative to the last enemy)"
    if own.recovered:
        return unit, f"{unit.name} has already recovered this session"
    total = card_of(unit).wounds
    healed = max(0, unit.wounds - (total + 1) // 2)
    cleared = unit.statuses - {STUNNED, RETREATING}
    return evolve(unit, wounds=healed, statuses=cleared, rules=evolve(own, recovered=True)), ""


def morning_rest(unit: Unit) -> Unit:
    """Multi-day adventures (§5.b): each morning every wound and negative condition goes; the
    campaign calls this for each character at dawn (the session's Recovery stays used)."""
    return evolve(unit, wounds=0, statuses=unit.statuses - {STUNNED, RETREATING})


def new_session(unit: Unit) -> Unit:
    """A new game session: the Recovery action may be taken again (once per session)."""
    return evolve(unit, rules=evolve(rules_of(unit), recovered=False))

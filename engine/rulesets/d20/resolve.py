"""Resolving a d20 unit's turn (RULES §5.e-§5.h, §5.k): its activation, a move (with the
chain of a multi-figure unit and dangerous ground), an attack (with the unit's other figures
that reach the target), and the alert checks after every action (D003-05, D003-06)."""

from __future__ import annotations

from engine.actions import Action, Event, event
from engine.boards.open import open_terrain
from engine.dice import RandomSource
from engine.geometry import bearing_deg
from engine.model import GameState, Role, Unit, evolve
from engine.rulesets.d20.board import can_attack, visible
from engine.rulesets.d20.chain import place_chain
from engine.rulesets.d20.combat import dangerous_roll, resolve_attack, status_change
from engine.rulesets.d20.sequence import rules as d20_rules
from engine.rulesets.d20.state import ALERTED, PREPARED, Weapon, card_of, rules_of


def weapon_of(unit: Unit, name: object) -> Weapon | None:
    """The unit's weapon of that name (None: no such weapon)."""
    return next((w for w in card_of(unit).weapons if w.name == name), None)


def activate(state: GameState, unit: Unit) -> tuple[GameState, list[Event]]:
    """The unit's turn begins: its d20 unit's figures are marked activated (§5.d)."""
    rules = d20_rules(state)
    group = rules_of(unit).group
    units = tuple(
        evolve(u, activated=True)
        if u.on_table and rules_of(u).group == group and u.side == unit.side
        else u
        for u in state.units
    )
    ai = state.side(unit.side).role is Role.AI
    rules = evolve(
        rules,
        acting=unit.id,
        moved=False,
        other=False,
        ai_acted=rules.ai_acted + (1 if ai else 0),
        dangerous_rolled=(),
    )
    state = evolve(state, units=units, rules=rules)
    return state, [event("activation", state.round, f"{unit.name} takes its turn.", unit.id)]


def move(
    state: GameState, unit: Unit, action: Action, dice: RandomSource
) -> tuple[GameState, list[Event]]:
    """A move (or a turn on the spot), the chain behind it, dangerous ground (§5.e, §5.f)."""
    path = action.path or (unit.position,)
    end = path[-1]
    heading = action.heading_deg
    if heading is None:
        heading = (
            bearing_deg(path[-2], end) if len(path) > 1 and path[-2] != end else unit.heading_deg
        )
    moved = evolve(unit, x=end[0], y=end[1], heading_deg=heading % 360.0)
    state = state.with_unit(moved)
    events: list[Event] = [
        event(
            "move",
            state.round,
            f"{unit.name} moves.",
            unit.id,
            path=[[round(x, 4), round(y, 4)] for x, y in path],
            heading=round(heading % 360.0, 3),
        )
    ]
    state, placed = place_chain(state, moved)
    events += placed
    rules = d20_rules(state)
    if state.side(unit.side).role is Role.HUMAN and len(path) > 1 and not rules.heroes_moved:
        state = evolve(state, rules=evolve(rules, heroes_moved=True))
    if len(path) > 1 and path[0] != path[-1] and open_terrain(state).enters_dangerous(path):
        state, evs = dangerous_roll(state, state.unit(unit.id), dice)
        events += evs
        r = d20_rules(state)
        state = evolve(state, rules=evolve(r, dangerous_rolled=(*r.dangerous_rolled, unit.id)))
    return state, events


def attack(
    state: GameState, unit: Unit, action: Action, dice: RandomSource
) -> tuple[GameState, list[Event]]:
    """An attack, turned to face the target, joined by the unit's figures that reach it."""
    target = state.unit(action.target_id or "")
    weapons = card_of(unit).weapons
    weapon = weapon_of(unit, action.get("weapon")) if action.get("weapon") else weapons[0]
    assert weapon is not None
    facing = evolve(unit, heading_deg=bearing_deg(unit.position, target.position) % 360.0)
    state = state.with_unit(facing)
    state, events = resolve_attack(state, facing, target, weapon, dice)
    group = rules_of(unit).group
    for mate in state.units_of(unit.side):
        if mate.id == unit.id or rules_of(mate).group != group:
            continue
        current = state.unit(target.id)
        if not current.on_table:
            break
        mw = weapon_of(mate, weapon.name) or card_of(mate).weapons[0]
        if can_attack(state, mate, mw, current):
            state, evs = resolve_attack(state, mate, current, mw, dice)
            events += evs
    return state, events


def alert_checks(state: GameState) -> tuple[GameState, list[Event]]:
    """Prepared enemies that see a hero become Alerted, once the heroes have moved
    (D003-05, T003-16); the Arch Foe alerted alerts every enemy (D003-06)."""
    rules = d20_rules(state)
    events: list[Event] = []
    if not rules.heroes_moved:
        return state, events
    ai = state.side_of_role(Role.AI)
    if ai is None:
        return state, events
    heroes = [u for u in state.units if u.on_table and u.side != ai.name]
    for enemy in state.units_of(ai.name):
        if PREPARED in enemy.statuses and any(visible(state, enemy, h) for h in heroes):
            state, ev = status_change(state, enemy, ALERTED)
            events.append(ev)
    arch = next((u for u in state.units_of(ai.name) if card_of(u).arch_foe), None)
    if arch is not None and PREPARED not in arch.statuses:
        for enemy in state.units_of(ai.name):
            if PREPARED in enemy.statuses:
                state, ev = status_change(state, enemy, ALERTED)
                events.append(ev)
    return state, events

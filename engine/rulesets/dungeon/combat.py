"""Combat in the grid game (seed 004, RULES §6.h): a d6 attack and its wound (D004-06), the
Priest's heal (D004-11), and the morale retreat of a goblin or troll that rolled a 1
(D004-13)."""

from __future__ import annotations

import math

from engine.actions import Event, event
from engine.dice import RandomSource, choice
from engine.geometry.grid import Cell, chebyshev
from engine.model import GameState, Unit, UnitStatus, evolve
from engine.rulesets.dungeon.board import Board, label
from engine.rulesets.dungeon.cards import Attack
from engine.rulesets.dungeon.facing import facing_step, facing_toward
from engine.rulesets.dungeon.resolve import face, move_unit, set_status
from engine.rulesets.dungeon.state import (
    ALERTED,
    DEFEATED,
    RETREATING,
    DungeonUnit,
    card_of,
    cell_of,
)
from engine.scenario import cell_name


def wound(state: GameState, target: Unit) -> tuple[GameState, list[Event]]:
    """One wound on the target (D004-06: removed on its ``max_wounds``-th)."""
    card = card_of(target)
    hurt = evolve(target, wounds=target.wounds + 1)
    left = card.max_wounds - hurt.wounds
    events = [
        event(
            "wound",
            state.round,
            f"{label(target)} is wounded ({hurt.wounds} of {card.max_wounds}).",
            target.id,
            wounds=hurt.wounds,
            max_wounds=card.max_wounds,
        )
    ]
    if left > 0:
        return state.with_unit(hurt), events
    gone = evolve(hurt, status=UnitStatus.FALLEN, statuses=frozenset())
    events.append(
        event("fall", state.round, f"{label(target)} is defeated: off the board.", target.id)
    )
    events.append(
        event("status", state.round, f"{label(target)}: Defeated.", target.id, status=DEFEATED)
    )
    return state.with_unit(gone), events


def wounds_on(roll: int, need: int) -> bool:
    """An attack's d6 wounds on ``need`` or more (RULES §6.j; a heal succeeds the same way)."""
    return roll >= need


def attack(
    state: GameState, unit: Unit, weapon: Attack, target: Unit, dice: RandomSource
) -> tuple[GameState, list[Event], bool]:
    """Roll the d6 for one attack; the new state, its events and whether the attacker rolled
    a 1 that makes it retreat (D004-13; the caller moves it)."""
    purpose = (
        f"attack: {label(unit)}'s {weapon.name} at the {card_of(target).title} "
        f"(wounds on {weapon.wound_on}+)"
    )
    roll = dice.roll(6, purpose)
    hit = wounds_on(roll, weapon.wound_on)
    text = (
        f"{label(unit)} attacks the {card_of(target).title} on {cell_name(cell_of(target))} "
        f"with its {weapon.name}: {roll} ({weapon.wound_on}+ wounds): "
        f"{'a wound' if hit else 'a miss'}."
    )
    ev = event(
        "attack",
        state.round,
        text,
        unit.id,
        target=target.id,
        weapon=weapon.name,
        roll=roll,
        need=weapon.wound_on,
        hit=hit,
    )
    events = [ev]
    if hit:
        state, hurt = wound(state, target)
        events += hurt
    morale = bool(state.option_value("monster_morale", True))
    flees = roll == 1 and morale and card_of(unit).morale_on_attack_roll_1
    return state, events, flees


def heal(
    state: GameState, unit: Unit, target: Unit, dice: RandomSource
) -> tuple[GameState, list[Event]]:
    """One heal attempt (D004-11): it uses an attempt whatever the roll; a success removes one
    wound taken (never below none)."""
    card = card_of(unit)
    assert card.heal is not None and isinstance(unit.rules, DungeonUnit)
    need = card.heal.wound_on
    roll = dice.roll(6, f"heal: {label(unit)} heals the {card_of(target).title} ({need}+)")
    left = unit.rules.heals_left - 1
    state = state.with_unit(evolve(unit, rules=evolve(unit.rules, heals_left=left)))
    ok = roll >= need
    target = state.unit(target.id)
    if ok:
        state = state.with_unit(evolve(target, wounds=max(0, target.wounds - 1)))
    effect = ("a wound healed" if target.wounds else "no wound to heal") if ok else "the heal fails"
    text = (
        f"{label(unit)} heals the {card_of(target).title}: {roll} ({need}+): {effect} "
        f"({left} heal{'s' if left != 1 else ''} left)."
    )
    ev = event(
        "heal",
        state.round,
        text,
        unit.id,
        target=target.id,
        roll=roll,
        need=need,
        healed=ok and target.wounds > 0,
        heals_left=left,
        wounds=state.unit(target.id).wounds,
    )
    return state, [ev]


def retreat(
    state: GameState, unit: Unit, attacked: Unit, dice: RandomSource
) -> tuple[GameState, list[Event]]:
    """The morale retreat of D004-13: Retreating; face directly away from the hero it attacked
    (the 8-direction nearest the bearing from the hero); two steps, each straight ahead if
    free, else the free one of the two 45° either side farther from the hero (Chebyshev, then
    centre distance; a logged roll on a tie), stopping when all three are blocked; then
    Alerted again."""
    state, first = set_status(state, unit, RETREATING, "it rolled a 1 attacking")
    events = [first]
    unit = state.unit(unit.id)
    foe = cell_of(attacked)
    heading = facing_toward(foe, cell_of(unit))
    if abs(heading - unit.heading_deg) > 1e-9:
        state, ev = face(state, unit, heading, "away from the " + card_of(attacked).title)
        events.append(ev)
        unit = state.unit(unit.id)
    board = Board.of(state)
    here = cell_of(unit)
    route: list[Cell] = []
    for _ in range(card_of(unit).move_sq):
        options = []
        for turn in (0.0, -45.0, 45.0):
            dc, dr = facing_step(heading + turn)
            nxt = (here[0] + dc, here[1] + dr)
            if board.squares.step_ok(here, nxt) and (
                nxt not in board.at or board.at[nxt].id == unit.id
            ):
                options.append(nxt)
                if turn == 0.0:
                    break
        if not options:
            break
        if options[0] == (here[0] + facing_step(heading)[0], here[1] + facing_step(heading)[1]):
            nxt = options[0]
        else:

            def far(c: Cell) -> tuple[int, float]:
                return (chebyshev(c, foe), math.hypot(c[0] - foe[0], c[1] - foe[1]))

            best = max(far(c) for c in options)
            tied = [c for c in options if far(c) == best]
            nxt = choice(dice, tied, f"retreat tie: {label(unit)}")
        route.append(nxt)
        here = nxt
    if route:
        state, unit, ev = move_unit(state, unit, route, heading, "retreats")
        events.append(ev)
    state, back = set_status(state, state.unit(unit.id), ALERTED, "it regroups after retreating")
    events.append(back)
    return state, events

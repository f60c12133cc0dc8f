"""The answers to firefight-lite's reactions (RULES §4.g, D002-11): a defence of a figure
attacked before it has acted (Return Fire, Armour, Run for Cover), an overwatcher's shot (Stay
Frosty) and a figure's answer to an event's hit (sniper, booby trap)."""

from __future__ import annotations

from typing import Any

from engine.actions import Action, Event, event
from engine.dice import RandomSource
from engine.model import GameState, Unit, UnitStatus, evolve
from engine.rulesets.firefight_lite.board import cell
from engine.rulesets.firefight_lite.combat import dodge, shoot, take_hit
from engine.rulesets.firefight_lite.sequence import (
    attack,
    attack_still_possible,
    begin,
    discard_card,
    move_unit,
    rules,
    with_rules,
)
from engine.rulesets.firefight_lite.state import FROSTY


def answer_defence(
    state: GameState, answer: Action, dice: RandomSource
) -> tuple[GameState, list[Event]]:
    """§4.g / D002-11: Return Fire (both shots, the defender Turn Done), Armour (the attack as
    it is) or Run for Cover (the defender moves first; the attack is lost if it no longer can
    be made; Turn Done)."""
    r = rules(state)
    held = r.held
    assert held is not None
    defender = state.unit(r.reacting or "")
    state = with_rules(state, reacting=None, reaction="", trigger=None, held=None)
    state = discard_card(state, answer)
    kind = str(answer.kind)
    word = {"pass": "armour"}.get(kind, kind)
    events = [reaction_event(state, defender, word, answer)]
    if kind == "return_fire":
        state = state.with_unit(evolve(state.unit(defender.id), activated=True))
        state, first = attack(state, held, dice)
        attacker = held.unit_id or ""
        # Simultaneous: the defender fires even if the attack just dropped it.
        fallen = state.unit(defender.id)
        if not fallen.on_table:
            state = state.with_unit(evolve(fallen, status=UnitStatus.ACTIVE))
        state, second = shoot(state, defender.id, attacker, dice, word="returns fire at")
        if not fallen.on_table:
            state = state.with_unit(evolve(state.unit(defender.id), status=fallen.status))
        return state, [*events, *first, *second]
    if kind == "run_for_cover":
        to = answer.get("cell")
        defender = evolve(state.unit(defender.id), activated=True)
        state = state.with_unit(defender)
        if to is not None and (int(to[0]), int(to[1])) != cell(defender):
            state, ev = move_unit(state, defender.id, (int(to[0]), int(to[1])), "runs for cover")
            events.append(ev)
        if not attack_still_possible(state, held):
            events.append(
                event(
                    "attack_lost",
                    state.round,
                    "The attack is lost.",
                    held.unit_id,
                    target=defender.id,
                )
            )
            return state, events
    state, more = attack(state, held, dice)
    return state, [*events, *more]


def reaction_event(state: GameState, unit: Unit, word: str, answer: Action) -> Event:
    """The ``reaction`` line (the simulate contract: unit and reaction)."""
    extra: dict[str, Any] = {}
    if answer.get("card"):
        extra["card"] = answer.get("card")
    text = f"{unit.name}: {word.replace('_', ' ')}."
    return event("reaction", state.round, text, unit.id, reaction=word, **extra)


def answer_overwatch(
    state: GameState, answer: Action, dice: RandomSource
) -> tuple[GameState, list[Event]]:
    """The overwatcher fires at the figure starting its action (and stops watching), or holds
    its fire; then the held action goes on if its unit still stands."""
    r = rules(state)
    held = r.held
    assert held is not None
    watcher = state.unit(r.reacting or "")
    state = with_rules(
        state, reacting=None, reaction="", trigger=None, held=None, asked=(*r.asked, watcher.id)
    )
    events: list[Event] = []
    if str(answer.kind) == "overwatch_fire":
        events.append(reaction_event(state, watcher, "overwatch_fire", answer))
        state = state.with_unit(evolve(watcher, statuses=watcher.statuses - {FROSTY}))
        state, shot = shoot(
            state, watcher.id, held.unit_id or "", dice, word="fires on overwatch at"
        )
        events += shot
    mover = state.unit(held.unit_id or "")
    if not mover.on_table:
        return with_rules(state, asked=()), events
    state, more = begin(state, held, dice)
    return state, [*events, *more]


def answer_event_hit(
    state: GameState, answer: Action, dice: RandomSource
) -> tuple[GameState, list[Event]]:
    """A figure hit by an event (sniper, booby trap) relies on its armour or runs for cover:
    a dodge (1d6 >= 4) avoids every hit, and it moves; Turn Done (D002-11)."""
    r = rules(state)
    unit = state.unit(r.reacting or "")
    hits = r.event_hits
    state = with_rules(
        state, reacting=None, reaction="", trigger=None, event_hits=(), phase="initiative"
    )
    kind = str(answer.kind)
    events = [reaction_event(state, unit, "armour" if kind == "pass" else kind, answer)]
    if kind == "run_for_cover":
        state = state.with_unit(evolve(unit, activated=True))
        ok, roll = dodge(dice, unit, "running for cover")
        events.append(
            event(
                "dodge",
                state.round,
                f"{unit.name} dodges ({roll})." if ok else f"{unit.name} fails to dodge ({roll}).",
                unit.id,
                roll=roll,
                dodged=ok,
            )
        )
        to = answer.get("cell")
        if ok:
            if to is not None and (int(to[0]), int(to[1])) != cell(unit):
                state, ev = move_unit(state, unit.id, (int(to[0]), int(to[1])), "runs for cover")
                events.append(ev)
            return state, events
    for strength in hits:
        state, more = take_hit(state, unit.id, strength, dice, "event")
        events += more
    return state, events

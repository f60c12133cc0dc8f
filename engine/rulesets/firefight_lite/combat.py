"""Firefight-lite combat (D002-01's FF-lite column): shots, hits and saves, melee, dodges.

* A shot hits when d6 + the shooter's ``ranged`` (+1 for Aimed Fire) - the target's cover
  (soft 1, hard 2) is 5 or more.
* A hit of strength s is saved when d6 + ``armour`` is 4 + s or more; an unsaved hit is a
  wound, and a figure with as many wounds as its card's ``wounds`` falls. The addled citizen
  has no save (Q♥); the dispenser bot is property: a hit wrecks it unless it dodges (J♥).
* Melee: each side rolls d6 + ``melee``; the higher deals the lower a strength-1 hit; a tie
  is a stand-off.
* Dodge: 1d6 of 4 or more (D002-01).
"""

from __future__ import annotations

from engine.actions import Event, event
from engine.dice import RandomSource
from engine.model import GameState, Unit, UnitStatus, evolve
from engine.rulesets.firefight_lite.board import COVER_NAMES, cell, cover_between
from engine.rulesets.firefight_lite.state import card

HIT_ON = 5
SAVE_BASE = 4
DODGE_ON = 4
COVER_SAID = ("no cover", "soft cover", "hard cover")
"""How a shot's line says the target's cover (0 open, 1 soft, 2 hard)."""


def shot_total(roll: int, ranged: int, aimed: bool, cover: int) -> tuple[int, bool]:
    """A shot's to-hit total (the d6, the shooter's ranged, +1 aimed, less the target's cover:
    0 open, 1 soft, 2 hard) and whether it hits (``HIT_ON`` or more)."""
    total = roll + ranged + (1 if aimed else 0) - cover
    return total, total >= HIT_ON


def save_need(strength: int, armour: int) -> int:
    """The d6 a target needs to save a hit of ``strength`` with its ``armour``."""
    return SAVE_BASE + strength - armour


def dodge(dice: RandomSource, unit: Unit, why: str) -> tuple[bool, int]:
    """A dodge roll (1d6 >= 4): whether it succeeds, and the roll."""
    roll = dice.roll(6, f"dodge: {unit.name} ({why})")
    return roll >= DODGE_ON, roll


def take_hit(
    state: GameState, target_id: str, strength: int, dice: RandomSource, why: str
) -> tuple[GameState, list[Event]]:
    """A hit of ``strength`` on the target: its save, then a wound or its fall."""
    target = state.unit(target_id)
    if not target.on_table:
        return state, []
    kind = card(target).neutral
    events: list[Event] = []
    if kind == "bot":
        ok, roll = dodge(dice, target, why)
        if ok:
            text = f"{target.name} dodges the hit ({roll})."
            return state, [event("save", state.round, text, target.id, roll=roll, saved=True)]
        return _falls(state, target, f"{target.name} is wrecked ({roll}).", events)
    if kind != "citizen":
        need = save_need(strength, card(target).armour)
        roll = dice.roll(6, f"save: {target.name} against a strength {strength} hit ({why})")
        saved = roll >= need
        text = f"{target.name} {'saves' if saved else 'fails the save'} ({roll}, needs {need})."
        events.append(event("save", state.round, text, target.id, roll=roll, saved=saved))
        if saved:
            return state, events
    wounds = target.wounds + 1
    if wounds >= card(target).wounds:
        return _falls(state, evolve(target, wounds=wounds), f"{target.name} falls.", events)
    state = state.with_unit(evolve(target, wounds=wounds))
    events.append(event("wound", state.round, f"{target.name} is wounded.", target.id))
    return state, events


def _falls(
    state: GameState, target: Unit, text: str, events: list[Event]
) -> tuple[GameState, list[Event]]:
    state = state.with_unit(evolve(target, status=UnitStatus.FALLEN))
    events.append(event("fall", state.round, text, target.id))
    return state, events


def shoot(
    state: GameState,
    shooter_id: str,
    target_id: str,
    dice: RandomSource,
    *,
    aimed: bool = False,
    word: str = "fires at",
) -> tuple[GameState, list[Event]]:
    """One shot: the to-hit roll with cover, then the hit."""
    shooter, target = state.unit(shooter_id), state.unit(target_id)
    if not shooter.on_table or not target.on_table:
        return state, []
    cover = cover_between(state, cell(shooter), cell(target))
    roll = dice.roll(6, f"shot: {shooter.name} at {target.name}")
    total, hit = shot_total(roll, card(shooter).ranged, aimed, cover)
    text = (
        f"{shooter.name} {word} {target.name}: {roll}"
        f"{' +1 aimed' if aimed else ''}, {COVER_SAID[cover]}: "
        f"{'hit' if hit else 'miss'}."
    )
    ev = event(
        "attack",
        state.round,
        text,
        shooter.id,
        target=target.id,
        roll=roll,
        total=total,
        cover=COVER_NAMES[cover],
        hit=hit,
        aimed=aimed,
    )
    if not hit:
        return state, [ev]
    state, more = take_hit(state, target.id, card(shooter).strength, dice, "shot")
    return state, [ev, *more]


def melee(
    state: GameState, attacker_id: str, defender_id: str, dice: RandomSource
) -> tuple[GameState, list[Event]]:
    """A melee: the higher d6 + melee deals the other a strength-1 hit."""
    a, d = state.unit(attacker_id), state.unit(defender_id)
    ra = dice.roll(6, f"melee: {a.name} against {d.name}")
    rd = dice.roll(6, f"melee: {d.name} against {a.name}")
    ta, td = ra + card(a).melee, rd + card(d).melee
    text = f"{a.name} fights {d.name}: {ta} against {td}."
    ev = event("melee", state.round, text, a.id, target=d.id, rolls=[ra, rd], totals=[ta, td])
    if ta == td:
        return state, [ev]
    loser = d.id if ta > td else a.id
    state, more = take_hit(state, loser, 1, dice, "melee")
    return state, [ev, *more]

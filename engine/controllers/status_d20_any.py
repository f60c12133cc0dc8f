"""The d20 status AI driving another ruleset's scenario through the core's query surface
(``Ruleset.query``, ``sample_actions``, ``validate``) — used for the narrative ruleset.

What a status AI means for a narrative scenario: the narrative rules keep their own round,
activation sequence, combat, rout and victory; the status AI decides *which* AI unit acts and
*what it does*, as §5.k would:

* Each round (the first time the AI picks in it) it rolls the random enemy action d20
  (purpose "enemy action"); AI units past the round's quota only pivot on the spot.
* Unit order: the unit nearest any hero first (the narrative rules have no Arch Foe: the AI
  side's first unit on the sheet plays that part for "all alerted").
* Prepared (every AI unit at the start): it holds or patrols with the d20 patrol table
  (a straight move ahead through ``query.move_toward``, or a pivot), even with heroes in
  sight, until the heroes have moved (their first positions are kept in the controller's
  memory); then any hero in sight (``query.visible``) or an attack on it alerts it, and the
  Arch Foe alerted alerts all. Statuses live in the controller's memory ("status:<id>").
* Alerted: attack the target its tactic picks (nearest by ``query.distance_in`` without one)
  with the attack the sample offers (melee first, then charges, then shots), else move toward
  it with ``query.move_toward``.
* Retreating: when the narrative rules force a flight (a routing unit's only action), it
  takes it: the narrative rout is the status Retreating.
"""

from __future__ import annotations

from engine.actions import Action, ActionKind, Order
from engine.controllers.status_d20_tactics import pick_target
from engine.dice import RandomSource
from engine.geometry import advance
from engine.model import GameState, Role, Unit
from engine.protocols import Pending, Ruleset
from engine.rulesets.d20.state import (
    ALERTED,
    PREPARED,
    RETREATING,
    enemy_action_result,
    patrol_result,
)

ATTACK_KINDS = (
    ActionKind.CONTINUE_MELEE,
    ActionKind.MOVE_INTO_MELEE,
    ActionKind.SHOOT,
    ActionKind.MOVE_AND_SHOOT,
)
"""Attacks in order of preference (melee hits most often, §5.k step 4)."""


def _memory(state: GameState, side: str) -> dict[str, object]:
    return dict(state.memory_of(side))


def _heroes(state: GameState, side: str) -> list[Unit]:
    return [u for u in state.units if u.on_table and u.side != side]


def _heroes_moved(state: GameState, memory: dict[str, object], side: str) -> bool:
    start = memory.get("hero_start")
    if not isinstance(start, list | tuple):
        return False
    now = {u.id: [round(u.x, 3), round(u.y, 3)] for u in state.units if u.side != side}
    return any(now.get(str(k)) != list(v) for k, v in start if now.get(str(k)) is not None)


def _remember_start(state: GameState, memory: dict[str, object], side: str) -> None:
    if "hero_start" not in memory:
        memory["hero_start"] = [
            [u.id, [round(u.x, 3), round(u.y, 3)]] for u in state.units if u.side != side
        ]


def statuses(state: GameState, ruleset: Ruleset, side: str, memory: dict[str, object]) -> list[str]:
    """Update the AI units' statuses in ``memory`` (alert checks, §5.k); the changes made."""
    _remember_start(state, memory, side)
    changes = []
    query = ruleset.query(state)
    heroes = _heroes(state, side)
    moved = _heroes_moved(state, memory, side)
    units = state.units_of(side)
    for u in units:
        key = f"status:{u.id}"
        if key not in memory:
            memory[key] = PREPARED
        if memory[key] == PREPARED and moved and any(query.visible(u, h) for h in heroes):
            memory[key] = ALERTED
            changes.append(u.id)
        if memory[key] == PREPARED and u.wounds > 0:
            memory[key] = ALERTED  # attacked: an interaction alerts it
            changes.append(u.id)
    if units and memory.get(f"status:{units[0].id}") == ALERTED:
        for u in units:
            if memory.get(f"status:{u.id}") == PREPARED:
                memory[f"status:{u.id}"] = ALERTED
                changes.append(u.id)
    return changes


def choose_unit(
    state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
) -> str | None:
    """The candidate nearest any hero (first on the sheet on a tie)."""
    if not pending.candidates:
        return None
    query = ruleset.query(state)
    side = pending.side or ""

    def key(uid: str) -> tuple[float, int]:
        u = state.unit(uid)
        heroes = _heroes(state, side)
        return (min((query.distance_in(u, h) for h in heroes), default=0.0), u.sheet_order)

    return min(pending.candidates, key=key)


def _hold(state: GameState, ruleset: Ruleset, unit: Unit, sample: list[Action]) -> Action:
    pivot = Action(ActionKind.MOVE, unit.id, path=(unit.position,), heading_deg=unit.heading_deg)
    for action in (pivot, Action(ActionKind.HOLD, unit.id), Action(ActionKind.PASS, unit.id)):
        if not ruleset.validate(state, action):
            return action
    return sample[0]


def decide(state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource) -> Order:
    """The status procedure through the query surface (see the module docstring)."""
    unit = state.unit(unit_id)
    side = unit.side
    memory = _memory(state, side)
    rolls: list[tuple[str, int]] = []
    if memory.get("round") != state.round and state.side(side).role is Role.AI:
        roll = dice.roll(20, "enemy action")
        rolls.append(("enemy action", roll))
        result = enemy_action_result(roll)
        n = len(state.units_of(side))
        allowed = {"one": 1, "half": (n + 1) // 2}.get(result, n)
        memory.update(round=state.round, quota=allowed, acted=0)
    statuses(state, ruleset, side, memory)
    sample = ruleset.sample_actions(state, unit_id, dice)

    def done(action: Action, rule: str, reason: str) -> Order:
        if state.side(side).role is Role.AI:
            count = memory.get("acted", 0)
            memory["acted"] = (count if isinstance(count, int) else 0) + 1
        return Order(action, rule, reason, rolls=tuple(rolls), memory=tuple(sorted(memory.items())))

    if not sample:
        return done(_hold(state, ruleset, unit, sample), "no action", "nothing is legal")
    if all(a.kind == ActionKind.FLEE for a in sample):
        memory[f"status:{unit.id}"] = RETREATING
        return done(sample[0], "retreating", "the rules make it flee")
    if memory.get(f"status:{unit.id}") == RETREATING:
        memory[f"status:{unit.id}"] = ALERTED
    acted_now, quota = memory.get("acted", 0), memory.get("quota")
    if (
        state.side(side).role is Role.AI
        and isinstance(quota, int)
        and isinstance(acted_now, int)
        and acted_now >= quota
    ):
        return done(
            _hold(state, ruleset, unit, sample), "enemy action", "it does not act this round"
        )
    status = memory.get(f"status:{unit.id}", ALERTED)
    if state.side(side).role is Role.AI and status == PREPARED:
        roll = dice.roll(20, f"patrol: {unit.name}")
        rolls.append((f"patrol: {unit.name}", roll))
        result = patrol_result(roll)
        if result == "forward":
            query = ruleset.query(state)
            ahead = advance(unit.position, unit.heading_deg, query.movement_allowance_in(unit))
            move = Action(ActionKind.MOVE, unit.id, path=query.move_toward(unit, ahead))
            if len(move.path) > 1 and not ruleset.validate(state, move):
                return done(move, f"patrol {roll}: forward", "prepared: it patrols ahead")
        if result in ("left", "right", "about"):
            turn = {"left": -90.0, "right": 90.0, "about": 180.0}[result]
            pivot = Action(
                ActionKind.MOVE,
                unit.id,
                path=(unit.position,),
                heading_deg=(unit.heading_deg + turn) % 360.0,
            )
            if not ruleset.validate(state, pivot):
                return done(pivot, f"patrol {roll}: {result}", f"prepared: it turns {result}")
        return done(
            _hold(state, ruleset, unit, sample), f"patrol {roll}: stay", "prepared: it holds"
        )
    query = ruleset.query(state)
    heroes = _heroes(state, side)
    if not heroes:
        return done(_hold(state, ruleset, unit, sample), "no hero", "no hero left")
    tactic = str(getattr(unit.card, "tactic", "") or memory.get(f"tactic:{unit.id}", ""))
    attacks = {(a.kind, a.target_id): a for a in sample if a.kind in ATTACK_KINDS}
    attackable = [h for h in heroes if any((k, h.id) in attacks for k in ATTACK_KINDS)]
    pool = attackable or heroes
    picked = pick_target(tactic, unit, pool, query.distance_in, dice, memory)
    rolls.extend(picked.rolls)
    target = picked.target
    for kind in ATTACK_KINDS:
        action = attacks.get((kind, target.id))
        if action is not None:
            memory[f"target:{unit.id}"] = target.id
            return done(action, "alerted, priority 6: attack", f"{picked.reason} ({target.name})")
    path = query.move_toward(unit, target.position)
    move = Action(ActionKind.MOVE, unit.id, path=path)
    if len(path) > 1 and not ruleset.validate(state, move):
        return done(move, "alerted, priority 5: positioning", f"it closes on {target.name}")
    return done(_hold(state, ruleset, unit, sample), "alerted", "it cannot reach a hero")

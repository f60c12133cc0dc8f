"""Small d20 battles built in code for the rule, status-AI and tactic tests (no tests here)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.actions import Action
from engine.dice import RandomSource, ScriptedDice
from engine.model import GameState, Unit
from engine.protocols import PendingKind, find_ruleset
from engine.rulesets.d20.ruleset import D20Ruleset
from engine.rulesets.d20.state import D20State
from engine.scenario import Scenario

HEROES, ENEMIES = "Heroes", "Enemies"


def hero(uid: str, where: str | tuple[float, float], **card: Any) -> dict[str, Any]:
    """A hero figure at a cell ("C4") or at (x, y) inches."""
    return _unit(uid, HEROES, where, card)


def enemy(uid: str, where: str | tuple[float, float], **card: Any) -> dict[str, Any]:
    """An enemy figure at a cell ("C4") or at (x, y) inches."""
    return _unit(uid, ENEMIES, where, card)


def _unit(
    uid: str, side: str, where: str | tuple[float, float], card: dict[str, Any]
) -> dict[str, Any]:
    out: dict[str, Any] = {"id": uid, "name": uid.title(), "side": side, "card": card}
    if isinstance(where, str):
        out["cell"] = where
    else:
        out["x"], out["y"] = where
    out["heading"] = 180.0 if side == ENEMIES else 0.0
    if "company" in card:
        out["company"] = card.pop("company")
    return out


def battle(
    units: list[dict[str, Any]],
    *,
    grid: bool = True,
    size: int = 12,
    options: dict[str, Any] | None = None,
    terrain: tuple[dict[str, Any], ...] = (),
    objectives: tuple[dict[str, Any], ...] = (),
) -> Scenario:
    """A two-sided d20 scenario (heroes at the front edge, enemies at the back)."""
    table: dict[str, Any] = {"width_in": size, "depth_in": size}
    if grid:
        table["grid"] = {"cell_in": 1.0}
    data = {
        "scenario": {
            "name": "test",
            "ruleset": "d20",
            "ai_controller": "status-d20",
            "human_controller": "status-d20",
        },
        "table": table,
        "options": {"enemy_action": False, "patrol": True, **(options or {})},
        "sides": [
            {"name": HEROES, "role": "human", "edge": "front"},
            {"name": ENEMIES, "role": "ai", "edge": "back"},
        ],
        "units": units,
        "terrain": list(terrain),
        "objectives": list(objectives),
        "source": "test",
    }
    return Scenario.model_validate(data)


def ruleset() -> D20Ruleset:
    """The registered d20 ruleset."""
    found = find_ruleset("d20")
    assert isinstance(found, D20Ruleset)
    return found


def start(scenario: Scenario, first: str = HEROES) -> GameState:
    """Round 1 under way with ``first`` acting first (initiative rolled 20 against 1)."""
    state = ruleset().new_game(scenario)
    rolls = [20, 1] if first == HEROES else [1, 20]
    tactic_rolls = [1 for u in state.units if getattr(u.rules, "tactic", "") == "roll"]
    return settle(state, ScriptedDice([*tactic_rolls, *rolls]))


def settle(state: GameState, dice: RandomSource) -> GameState:
    """Every chance step of the round's start taken with ``dice`` (one die per step)."""
    rs = ruleset()
    state = rs.apply(state, Action("chance"), dice).state
    while rs.pending(state).kind is PendingKind.CHANCE and state.winner is None:
        state = rs.apply(state, Action("chance"), dice).state
    return state


def alerted(state: GameState, *ids: str) -> GameState:
    """The state with those enemies Alerted (and the heroes counted as having moved)."""
    for uid in ids:
        u = state.unit(uid)
        state = state.with_unit(replace(u, statuses=(u.statuses - {"prepared"}) | {"alerted"}))
    assert isinstance(state.rules, D20State)
    return replace(state, rules=replace(state.rules, heroes_moved=True))


def act(state: GameState, action: Action, dice: RandomSource | None = None) -> GameState:
    """Apply a legal action (scripted dice: none by default)."""
    return ruleset().apply(state, action, dice or ScriptedDice([])).state


def with_unit(state: GameState, uid: str, **changes: Any) -> GameState:
    """The state with one unit's fields replaced."""
    unit: Unit = replace(state.unit(uid), **changes)
    return state.with_unit(unit)

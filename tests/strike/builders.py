"""Small strike-system battles built in code for the rule tests."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.model import GameState
from engine.rulesets.strike.ruleset import StrikeRuleset
from engine.rulesets.strike.state import rules_of
from engine.scenario import Scenario

RULESET = StrikeRuleset()


def card(kind: str = "assault", **over: Any) -> dict[str, Any]:
    """A soldier's card (Initiative 1, Speed 6, Far threat, Toughness 2 unless told)."""
    base: dict[str, Any] = {
        "type": kind,
        "initiative": 1,
        "speed_in": 6,
        "threat": "far",
        "toughness": 2,
    }
    return {**base, **over}


def soldier(uid: str, side: str, x: float, y: float, **card_fields: Any) -> dict[str, Any]:
    """One [[units]] entry."""
    kind = card_fields.pop("kind", "assault")
    return {
        "id": uid,
        "name": uid.upper(),
        "side": side,
        "x": x,
        "y": y,
        "card": card(kind, **card_fields),
    }


def scenario(
    units: list[dict[str, Any]],
    terrain: list[dict[str, Any]] | None = None,
    options: dict[str, Any] | None = None,
    objectives: list[dict[str, Any]] | None = None,
) -> Scenario:
    """A 24 x 24 in battle: side "A" (the player's, front) against side "B" (the AI's, back)."""
    data: dict[str, Any] = {
        "scenario": {"name": "t", "ruleset": "strike", "ai_controller": "strike-ai"},
        "sides": [
            {"name": "A", "role": "human", "edge": "front"},
            {"name": "B", "role": "ai", "edge": "back"},
        ],
        "units": units,
        "terrain": terrain or [],
        "options": options or {},
        "objectives": objectives or [],
        "source": "test",
    }
    return Scenario.model_validate(data)


def game(units: list[dict[str, Any]], **kw: Any) -> GameState:
    """The starting state of such a battle."""
    return RULESET.new_game(scenario(units, **kw))


def with_pools(
    state: GameState, round_: int = 1, active: str = "A", **pools: list[int]
) -> GameState:
    """The state in an action phase with the given pools (side name: faces)."""
    rules = rules_of(state)
    for side, faces in pools.items():
        rules = rules.with_pool(side, tuple(faces))
    return replace(state, round=round_, active_side=active, rules=rules)

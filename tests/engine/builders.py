"""Quick constructed positions for the seed-000 (narrative) engine tests.

A position is written as a few dicts (``unit(...)``, ``wall(...)``, ``objective(...)``), turned
into a real scenario (validated by the real parser) and a real starting state by the real
ruleset. Sides are ``"AI"`` (role ai, back edge) and ``"Humans"`` (role human, front edge).
Inches and degrees throughout.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.actions import Action, ActionKind, Event, EventType
from engine.dice import ScriptedDice
from engine.model import GameState
from engine.protocols import Outcome, PendingKind
from engine.rulesets.narrative.ruleset import NarrativeRuleset
from engine.rulesets.narrative.state import with_rules
from engine.scenario import Scenario

AI = "AI"
HUMANS = "Humans"


def unit(
    uid: str,
    side: str,
    x: float,
    y: float,
    *,
    heading: float = 0.0,
    move: float = 6.0,
    atk: int = 0,
    dfn: int = 0,
    slots: int = 0,
    rng: float | None = None,
    wounds: int = 0,
    company: str | None = None,
    base: float = 1.0,
    general: str | None = None,
) -> dict[str, Any]:
    """A [[units]] entry: a character at (x, y) with a seed-000 card."""
    card: dict[str, Any] = {
        "move_in": move,
        "attack": atk,
        "defence": dfn,
        "wound_slots": slots,
        "wounds": wounds,
    }
    if rng is not None:
        card["shoot_range_in"] = rng
    out: dict[str, Any] = {
        "id": uid,
        "name": uid,
        "side": side,
        "company": company or side,
        "x": x,
        "y": y,
        "heading": heading,
        "base_diameter_in": base,
        "card": card,
    }
    if general is not None:
        out["general"] = general
    return out


def wall(
    tid: str,
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    *,
    blocks_los: bool = True,
    impassable: bool = True,
    difficult: bool = False,
) -> dict[str, Any]:
    """An axis-aligned rectangle of terrain from (x0, y0) to (x1, y1)."""
    return {
        "id": tid,
        "name": tid,
        "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
        "blocks_los": blocks_los,
        "impassable": impassable,
        "difficult": difficult,
    }


def objective(oid: str, x: float, y: float) -> dict[str, Any]:
    """An objective marker at (x, y)."""
    return {"id": oid, "name": oid, "x": x, "y": y}


def scenario(
    units: list[dict[str, Any]],
    terrain: list[dict[str, Any]] | None = None,
    objectives: list[dict[str, Any]] | None = None,
    *,
    width: float = 24.0,
    depth: float = 24.0,
    options: dict[str, float] | None = None,
    generals: tuple[str, ...] = (),
) -> Scenario:
    """A validated scenario from dicts."""
    data = {
        "scenario": {"name": "test", "ruleset": "narrative", "ai_controller": "narrative-ai"},
        "table": {"width_in": width, "depth_in": depth},
        "options": options or {},
        "sides": [
            {"name": HUMANS, "role": "human", "edge": "front", "generals": list(generals)},
            {"name": AI, "role": "ai", "edge": "back"},
        ],
        "units": units,
        "terrain": terrain or [],
        "objectives": objectives or [],
        "source": "test",
    }
    return Scenario.model_validate(data)


def build(
    units: list[dict[str, Any]],
    terrain: list[dict[str, Any]] | None = None,
    objectives: list[dict[str, Any]] | None = None,
    *,
    turn: str | None = AI,
    **kwargs: Any,
) -> tuple[NarrativeRuleset, GameState]:
    """The ruleset and a state in round 1 with ``turn`` to activate (None: before initiative)."""
    ruleset = NarrativeRuleset()
    state = ruleset.new_game(scenario(units, terrain, objectives, **kwargs))
    if turn is not None:
        state = with_rules(
            replace(state, round=1, active_side=turn), waiting=PendingKind.CHOOSE_UNIT
        )
    return ruleset, state


def apply(
    ruleset: NarrativeRuleset, state: GameState, action: Action, rolls: list[int] | None = None
) -> Outcome:
    """Apply with scripted dice; asserts that every scripted result was used."""
    dice = ScriptedDice(rolls or [])
    outcome = ruleset.apply(state, action, dice)
    assert dice.remaining == 0, f"{dice.remaining} scripted rolls were not used"
    return outcome


def shoot(uid: str, target: str) -> Action:
    """Stand and shoot."""
    return Action(ActionKind.SHOOT, uid, target_id=target)


def melee(uid: str, target: str) -> Action:
    """Continue melee."""
    return Action(ActionKind.CONTINUE_MELEE, uid, target_id=target)


def types(events: tuple[Event, ...] | list[Event]) -> list[EventType]:
    """The event types, in order."""
    return [e.type for e in events]


def of_type(events: tuple[Event, ...] | list[Event], kind: EventType) -> list[Event]:
    """Only the events of one type."""
    return [e for e in events if e.type == kind]

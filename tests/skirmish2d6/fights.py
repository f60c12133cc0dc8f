"""Constructed fights for the 2D6 skirmish tests: a few fighters placed by hand on an empty
36 x 36 in table, the roll-off made (side A first), and helpers to apply scripted actions."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine.actions import Action, Event
from engine.dice import ScriptedDice
from engine.model import GameState
from engine.protocols import find_ruleset
from engine.rulesets.skirmish2d6.ruleset import SkirmishRuleset
from engine.scenario import Scenario

A, B = "Alpha", "Beta"


def fighter(
    uid: str,
    side: str,
    x: float,
    y: float,
    *,
    skill: int | None = None,
    speed: int | None = None,
    armor: int | None = None,
    role: str = "follower",
    weapons: Sequence[str] = ("sword",),
) -> dict[str, Any]:
    """One [[units]] entry; stats not given take the values of 1, 2, 3 left, in the order
    skill, speed, armor (a legal build by default: Skill 1, Speed 2, Armor 3)."""
    given = {"skill": skill, "speed": speed, "armor": armor}
    spare = [v for v in (1, 2, 3) if v not in given.values()]
    stats = {k: v if v is not None else spare.pop(0) for k, v in given.items()}
    skill, speed, armor = stats["skill"], stats["speed"], stats["armor"]
    return {
        "id": uid,
        "name": uid.title(),
        "side": side,
        "x": x,
        "y": y,
        "card": {
            "skill": skill,
            "speed": speed,
            "armor": armor,
            "role": role,
            "weapons": list(weapons),
        },
    }


def game(
    units: Iterable[dict[str, Any]],
    *,
    terrain: Sequence[dict[str, Any]] = (),
    objectives: Sequence[dict[str, Any]] = (),
    options: dict[str, Any] | None = None,
    first: str = A,
) -> tuple[SkirmishRuleset, GameState]:
    """The state after round 1's roll-off, ``first`` to activate."""
    scenario = Scenario.model_validate(
        {
            "scenario": {
                "name": "constructed",
                "ruleset": "skirmish2d6",
                "ai_controller": "skirmish-ai",
            },
            "table": {"width_in": 36, "depth_in": 36},
            "options": options or {},
            "sides": [
                {"name": A, "role": "human", "edge": "front"},
                {"name": B, "role": "ai", "edge": "back"},
            ],
            "units": list(units),
            "terrain": list(terrain),
            "objectives": list(objectives),
            "source": "constructed",
        }
    )
    ruleset = find_ruleset("skirmish2d6")
    assert isinstance(ruleset, SkirmishRuleset)
    state = ruleset.new_game(scenario)
    rolls = [6, 1] if first == A else [1, 6]
    state = ruleset.apply(state, Action("chance"), ScriptedDice(rolls)).state
    return ruleset, state


def act(
    ruleset: SkirmishRuleset,
    state: GameState,
    action: Action,
    rolls: Sequence[int] = (),
    *,
    drive: bool = True,
) -> tuple[GameState, list[Event], ScriptedDice]:
    """Apply one action with scripted dice (every scripted die must be used), then, with
    ``drive``, the drive-backs it queued (as the player carries them out)."""
    dice = ScriptedDice(rolls)
    outcome = ruleset.apply(state, action, dice)
    assert dice.remaining == 0, f"{dice.remaining} scripted dice left unused"
    state = outcome.state
    while drive and ruleset.pending(state).purpose == "drive back":
        state = ruleset.apply(state, ruleset.drive_action(state), dice).state
    return state, list(outcome.events), dice


def fight(uid: str, target: str, weapon: str | None = None, style: str = "") -> Action:
    """A charge at an enemy already in contact (no move: D001B-06)."""
    detail: list[tuple[str, Any]] = []
    if weapon:
        detail.append(("weapon", weapon))
    if style:
        detail.append(("style", style))
    return Action("charge", uid, target_id=target, detail=tuple(detail))


def checks(events: Sequence[Event]) -> list[Event]:
    """The check lines, in order."""
    return [e for e in events if e.type == "check"]


def types(events: Sequence[Event]) -> list[str]:
    """Event types, in order."""
    return [e.type for e in events]

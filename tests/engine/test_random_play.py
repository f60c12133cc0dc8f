"""The one shared seeded random-play test (STYLE §2): every registered ruleset/controller pair,
on every bundled scenario of that ruleset, against the random player on the other side, for a
few seeds. Games must end; the ruleset's check_state() must find nothing at any step; every
action the controllers give must be legal; the event log must round-trip through JSON.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.actions import Event
from engine.dice import SeededDice
from engine.errors import EngineError
from engine.protocols import (
    controller_names,
    find_controller,
    find_ruleset,
    plays,
    ruleset_names,
)
from engine.runner import MAX_STEPS, next_action, order_event
from engine.scenario import Scenario, parse_scenario

SCENARIO_DIR = Path(__file__).resolve().parents[2] / "assistant" / "data" / "scenarios"
SEEDS = (1, 2, 3)


def _bundled() -> list[Scenario]:
    return [
        parse_scenario(p.read_text(encoding="utf-8"), p.name)
        for p in sorted(SCENARIO_DIR.glob("*.toml"))
    ]


def _cases() -> list[tuple[str, str, str, str]]:
    """(ruleset, controller, scenario file, which side the controller plays)."""
    cases = []
    for rname in ruleset_names():
        for cname in controller_names():
            if not plays(find_controller(cname), rname):
                continue
            for scenario in _bundled():
                if scenario.scenario.ruleset != rname:
                    continue
                for role in ("ai", "human") if cname != "random" else ("ai",):
                    cases.append((rname, cname, scenario.source, role))
    return cases


CASES = _cases()


def test_every_registered_ruleset_has_a_playable_scenario_and_controller() -> None:
    assert "random" in controller_names()
    for rname in ruleset_names():
        assert any(case[0] == rname for case in CASES), rname


@pytest.mark.parametrize(("rname", "cname", "source", "role"), CASES)
def test_random_play(rname: str, cname: str, source: str, role: str) -> None:
    scenario = next(s for s in _bundled() if s.source == source)
    ruleset = find_ruleset(rname)
    for seed in SEEDS:
        state = ruleset.new_game(scenario)
        controllers = {
            side.name: find_controller(cname if side.role == role else "random")
            for side in scenario.sides
        }
        dice = SeededDice(seed)
        log: list[Event] = []
        assert ruleset.check_state(state) == []
        for _ in range(MAX_STEPS):
            chosen = next_action(state, ruleset, controllers, dice)
            if chosen is None:
                break
            action, order = chosen
            problems = ruleset.validate(state, action)
            assert problems == [], f"seed {seed} step {state.step}: {action} refused: {problems}"
            outcome = ruleset.apply(state, action, dice)
            if order is not None:
                log.append(order_event(state, order, ruleset))
            log.extend(outcome.events)
            state = outcome.state
            assert ruleset.check_state(state) == [], f"seed {seed} after {action}"
        else:
            raise EngineError(f"{source} seed {seed}: no end within {MAX_STEPS} steps")
        assert state.winner is not None
        assert log[-1].type == "end" and log[-1].get("winner") == state.winner
        for ev in log:
            assert Event.from_json(json.loads(json.dumps(ev.to_json()))) == ev


def test_the_narrative_sample_is_legal_and_varied() -> None:
    """Every action of the narrative ruleset's sample passes validate, along a whole battle."""
    scenario = next(s for s in _bundled() if s.scenario.name == "ford-at-dawn")
    ruleset = find_ruleset("narrative")
    state = ruleset.new_game(scenario)
    controllers = {side.name: find_controller("random") for side in scenario.sides}
    dice = SeededDice(11)
    kinds: set[str] = set()
    for _ in range(MAX_STEPS):
        pending = ruleset.pending(state)
        for uid in pending.candidates[:2]:
            sample = ruleset.sample_actions(state, uid, SeededDice(state.step))
            assert sample, f"no action for {uid} at step {state.step}"
            assert all(ruleset.validate(state, a) == [] for a in sample)
            kinds |= {str(a.kind) for a in sample}
        chosen = next_action(state, ruleset, controllers, dice)
        if chosen is None:
            break
        state = ruleset.apply(state, chosen[0], dice).state
    assert {"move", "shoot", "move_and_shoot"} <= kinds

"""A ruleset plugged in from its own files only (issue 11, issue 25): a small skirmish on an
open table (the OpenBoard kit) with terrain, line of sight and cover, registered with one
line, played through ``simulate`` and through the shared random play with every controller
that plays it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from assistant.cli import main
from engine.actions import Action, ActionKind, Event
from engine.dice import ScriptedDice, SeededDice
from engine.protocols import (
    PendingKind,
    controller_names,
    find_controller,
    find_ruleset,
    plays,
    rulesets_played,
)
from engine.runner import MAX_STEPS, next_action, order_event, play_battle
from engine.scenario import Scenario, parse_scenario
from tests.plugin.ruleset import NAME

SCENARIO = Path(__file__).with_name("plugin.toml")
SEEDS = range(1, 9)


def _scenario() -> Scenario:
    return parse_scenario(SCENARIO.read_text(encoding="utf-8"), SCENARIO.name)


def test_the_plugin_is_listed_by_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert {
        "name": NAME,
        "title": "Plug-in test rules",
        "source": "Plug-in test rules (tests only)",
    } in listing["rulesets"]
    plays_it = {c["name"] for c in listing["controllers"] if NAME in c["plays"]}
    assert {"plugin-ai", "random"} <= plays_it


def test_simulate_plays_the_plugin_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", str(SCENARIO), "--seed", "3", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["type"] == "setup" and len(lines[0]["units"]) == 4
    shots = [d for d in lines if d["type"] == "shoot"]
    assert shots and all(d["need"] in (4, 5, 6) for d in shots)
    types = [d["type"] for d in lines]
    assert {"roll", "round", "move", "shoot"} <= set(types)
    assert lines[-1]["type"] == "end" and lines[-1]["winner"] in ("Reds", "Blues")
    assert types.count("end") == 1


def _game(**at: tuple[float, float]):  # type: ignore[no-untyped-def]
    ruleset = find_ruleset(NAME)
    state = ruleset.new_game(_scenario())
    units = tuple(
        replace(u, x=at[u.id][0], y=at[u.id][1]) if u.id in at else u for u in state.units
    )
    state = replace(state, units=units)
    return ruleset, ruleset.apply(state, Action("chance"), ScriptedDice([1])).state  # Reds start


def test_the_wall_blocks_sight_and_moves_and_cover_raises_the_need() -> None:
    ruleset, state = _game(r1=(6.0, 2.0), b1=(6.0, 10.0), b2=(10.0, 9.0), r2=(10.0, 2.0))
    assert ruleset.validate(state, Action(ActionKind.SHOOT, "r1", target_id="b1")) == [
        "Red One cannot see Blue One"
    ]
    into_wall = Action(ActionKind.MOVE, "r1", path=((6.0, 2.0), (6.0, 5.0)))
    assert ruleset.validate(state, into_wall) == ["the move runs into the wall"]
    # Behind the hedge (soft cover) a shot needs 5+: a 4 misses, a 5 removes.
    shot = Action(ActionKind.SHOOT, "r2", target_id="b2")
    assert ruleset.validate(state, shot) == []
    miss = ruleset.apply(state, shot, ScriptedDice([4]))
    assert miss.state.unit("b2").on_table and miss.events[0].get("need") == 5
    hit = ruleset.apply(state, shot, ScriptedDice([5]))
    assert not hit.state.unit("b2").on_table
    # In the open a 4 is enough; beyond 12 in no shot.
    _, open_state = _game(r2=(3.0, 9.0), b2=(10.0, 9.0))
    assert ruleset.apply(open_state, shot, ScriptedDice([4])).events[0].get("need") == 4
    _, far = _game(r1=(0.6, 0.6), b2=(11.4, 11.4))
    assert (
        "more than 12 in away"
        in ruleset.validate(far, Action(ActionKind.SHOOT, "r1", target_id="b2"))[0]
    )


def test_every_decision_point_is_reached_and_games_end() -> None:
    scenario, ruleset = _scenario(), find_ruleset(NAME)
    kinds: set[PendingKind] = set()
    for seed in SEEDS:
        state = ruleset.new_game(scenario)
        controllers = {s.name: find_controller("plugin-ai") for s in scenario.sides}
        record = play_battle(state, ruleset, controllers, SeededDice(seed))
        assert record.final.winner is not None
        state, dice = ruleset.new_game(scenario), SeededDice(seed)
        for _ in range(MAX_STEPS):
            kinds.add(ruleset.pending(state).kind)
            chosen = next_action(state, ruleset, controllers, dice)
            if chosen is None:
                break
            state = ruleset.apply(state, chosen[0], dice).state
        assert state == record.final
    assert {PendingKind.CHANCE, PendingKind.CHOOSE_UNIT, PendingKind.OVER} <= kinds


def _controllers_that_play_it() -> list[str]:
    return [c for c in controller_names() if plays(find_controller(c), NAME)]


def test_random_play_with_every_controller_that_plays_it() -> None:
    """The shared random-play checks (games end, check_state clean at every step, every
    action legal, events round-trip through JSON) for each controller on each side."""
    names = _controllers_that_play_it()
    assert {"plugin-ai", "random"} <= set(names)
    assert NAME in rulesets_played(find_controller("random"))
    scenario = _scenario()
    ruleset = find_ruleset(NAME)
    for cname in names:
        for role in ("ai", "human"):
            for seed in SEEDS:
                state = ruleset.new_game(scenario)
                controllers = {
                    s.name: find_controller(cname if s.role == role else "random")
                    for s in scenario.sides
                }
                dice = SeededDice(seed)
                log: list[Event] = []
                assert ruleset.check_state(state) == []
                for _ in range(MAX_STEPS):
                    chosen = next_action(state, ruleset, controllers, dice)
                    if chosen is None:
                        break
                    action, order = chosen
                    assert ruleset.validate(state, action) == [], (cname, seed, action)
                    outcome = ruleset.apply(state, action, dice)
                    if order is not None:
                        log.append(order_event(state, order, ruleset))
                    log.extend(outcome.events)
                    state = outcome.state
                    assert ruleset.check_state(state) == [], (cname, seed, action)
                else:
                    raise AssertionError(f"{cname} seed {seed}: no end")
                assert state.winner is not None and log[-1].type == "end"
                for ev in log:
                    assert Event.from_json(json.loads(json.dumps(ev.to_json()))) == ev

"""A ruleset plugged in from its own files only (issue 11): a grid, a deck in the state drawn
through the random source, two actions per activation (CONTINUE), one status, a reaction
answered by the controller's ``react``. It plays through ``simulate`` and through the shared
random play with every controller that plays it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.cli import main
from engine.actions import Event
from engine.dice import Draw, SeededDice, Shuffle
from engine.protocols import (
    PendingKind,
    controller_names,
    find_controller,
    find_ruleset,
    plays,
    rulesets_played,
)
from engine.runner import (
    MAX_STEPS,
    acting_side,
    next_action,
    order_event,
    play_battle,
    with_order_memory,
)
from engine.scenario import Scenario, parse_scenario
from tests.plugin.ruleset import NAME, PINNED

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
    setup = lines[0]
    assert setup["type"] == "setup"
    assert setup["table"]["grid"] == {"cell_in": 1.0, "cols": 6, "rows": 6}
    assert [u["cell"] for u in setup["units"]] == [[1, 5], [4, 5], [2, 0]]
    types = [d["type"] for d in lines]
    assert {"roll", "draw", "shuffle"} <= set(types)
    shuffle = next(d for d in lines if d["type"] == "shuffle")
    assert shuffle["deck"] == "initiative"
    draws = [d for d in lines if d["type"] == "draw"]
    assert all(d["purpose"] == "initiative" and d["card"] for d in draws)
    assert all("cells" in d for d in lines if d["type"] == "move")
    assert lines[-1]["type"] == "end" and lines[-1]["winner"] in ("Reds", "Blues")
    assert types.count("end") == 1


def test_a_deck_reshuffle_is_logged_and_every_decision_point_is_reached() -> None:
    """Over several seeds the games reach CHANCE, CHOICE, CHOOSE_UNIT, CONTINUE and REACTION,
    the reaction is taken by the plug-in AI's react, a unit gets pinned, the two-card deck is
    reshuffled through the random source before the third round's draw, and the AI's memory
    (its last target) is kept in the state as the runner stores it from each order."""
    scenario = _scenario()
    ruleset = find_ruleset(NAME)
    kinds: set[PendingKind] = set()
    seen_pinned = reacted = shuffled = remembered = False
    for seed in SEEDS:
        state = ruleset.new_game(scenario)
        controllers = {s.name: find_controller("plugin-ai") for s in scenario.sides}
        dice = SeededDice(seed)
        record = play_battle(state, ruleset, controllers, dice)
        assert record.final.winner is not None
        for action in record.actions:
            reacted |= str(action.kind) == "react_evade"
        shuffled |= any(isinstance(e, Shuffle) for e in dice.log)
        assert sum(isinstance(e, Draw) for e in dice.log) == record.final.round
        # Walk the game again to see each decision point.
        replay_state, replay_dice = ruleset.new_game(scenario), SeededDice(seed)
        planned: list = []  # type: ignore[type-arg]
        for _ in range(MAX_STEPS):
            pending = ruleset.pending(replay_state)
            kinds.add(pending.kind)
            seen_pinned |= any(PINNED in u.statuses for u in replay_state.units)
            chosen = next_action(replay_state, ruleset, controllers, replay_dice, planned)
            if chosen is None:
                break
            after = ruleset.apply(replay_state, chosen[0], replay_dice).state
            replay_state = with_order_memory(after, acting_side(replay_state, chosen[0]), chosen[1])
        assert replay_state == record.final
        remembered |= any(dict(m).get("last_target") for _, m in record.final.memory)
    assert {
        PendingKind.CHANCE,
        PendingKind.CHOICE,
        PendingKind.CHOOSE_UNIT,
        PendingKind.CONTINUE,
        PendingKind.REACTION,
        PendingKind.OVER,
    } <= kinds
    assert seen_pinned and reacted
    assert shuffled and remembered


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

"""The strike system through the command line (issue 15's contract): simulate --json lines
(setup, rolls, oracle, activation with its die, strike, one end), every decision point, and a
100-a-side battle played to its end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.tables.strike_battle import battle_toml
from engine.dice import SeededDice
from engine.protocols import PendingKind
from engine.runner import controllers_for, next_action, start_game
from engine.scenario import parse_scenario

SCENARIO = Path(__file__).resolve().parents[2] / "assistant/data/scenarios/strike-causeway.toml"
STRIKE_KEYS = {
    "type",
    "round",
    "unit",
    "target",
    "toughness",
    "counted",
    "disregarded",
    "total",
    "removed",
    "text",
}


def _simulate(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, object]]:
    assert main(["simulate", *args, "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_simulate_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    lines = _simulate(capsys, "strike-causeway", "--seed", "1")
    assert lines[0]["type"] == "setup" and len(lines[0]["units"]) == 12  # type: ignore[arg-type]
    types = [str(line["type"]) for line in lines]
    assert types.count("end") == 1 and types[-1] == "end"
    assert lines[-1]["winner"] in ("Rangers", "Marauders", "draw")
    rolls = [line for line in lines if line["type"] == "roll"]
    assert rolls and all(set(r) == {"type", "purpose", "sides", "result"} for r in rolls)
    oracle = [line for line in lines if line["type"] == "oracle"]
    assert oracle and all(set(o) == {"type", "round", "side", "dice", "text"} for o in oracle)
    first = oracle[0]
    n = len(first["dice"])  # type: ignore[arg-type]
    before = types.index("oracle")
    pool_rolls = [r["result"] for r in lines[:before] if r["type"] == "roll"]
    assert sorted(pool_rolls[:n]) == first["dice"]  # the pool is the rolls just before it
    activations = [line for line in lines if line["type"] == "activation"]
    assert activations and all(a["die"] in range(1, 7) for a in activations)
    strikes = [line for line in lines if line["type"] == "strike"]
    assert strikes and all(set(s) == STRIKE_KEYS for s in strikes)
    for s in strikes:
        counted = s["counted"]
        assert isinstance(counted, list)
        assert s["total"] == sum(c["weight"] for c in counted)
        assert s["removed"] == (s["total"] >= s["toughness"])  # type: ignore[operator]
        assert all(set(c) == {"unit", "weight", "class"} for c in counted)


def test_every_decision_point_is_reached() -> None:
    scenario = parse_scenario(SCENARIO.read_text(encoding="utf-8"), SCENARIO.name)
    ruleset, state = start_game(scenario)
    controllers = controllers_for(scenario)
    dice = SeededDice(3)
    seen = set()
    for _ in range(2000):
        pending = ruleset.pending(state)
        seen.add(pending.kind)
        chosen = next_action(state, ruleset, controllers, dice)
        if chosen is None:
            break
        state = ruleset.apply(state, chosen[0], dice).state
    assert seen == {
        PendingKind.CHANCE,
        PendingKind.CHOICE,  # the Oracle re-roll of the leaders' "Orders" skill
        PendingKind.CHOOSE_UNIT,
        PendingKind.CONTINUE,
        PendingKind.OVER,
    }


def test_a_100_a_side_battle_completes_through_simulate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "host.toml"
    path.write_text(battle_toml(100, rounds=1), encoding="utf-8")
    lines = _simulate(capsys, str(path), "--seed", "4")
    assert len(lines[0]["units"]) == 200  # type: ignore[arg-type]
    oracle = [line for line in lines if line["type"] == "oracle"]
    assert [len(o["dice"]) for o in oracle] == [110, 110]  # type: ignore[arg-type]
    assert sum(line["type"] == "activation" for line in lines) > 100
    assert lines[-1]["type"] == "end"


def test_rules_lists_the_strike_system(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    strike = next(r for r in listing["rulesets"] if r["name"] == "strike")
    assert strike["title"] == "Strike system with the Oracle dice pool"
    ai = next(c for c in listing["controllers"] if c["name"] == "strike-ai")
    assert ai["plays"] == ["strike"]

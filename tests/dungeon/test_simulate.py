"""``soloscope simulate dungeon-crawl --seed N --json``: the issue's command-line contract
(setup with cells, rolls with purposes — the dragon's start roll and the patrol rolls —, moves
with cells, status lines ``{"type": "status", "unit", "status"}``, one end line), and whole
games of both bundled Dungeon Crawl scenarios."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assistant.cli import main
from engine.dice import SeededDice
from engine.protocols import PendingKind, find_controller
from engine.runner import next_action
from engine.scenario import parse_scenario
from tests.dungeon.boards import ruleset

SCENARIOS = Path(__file__).resolve().parents[2] / "assistant" / "data" / "scenarios"
STATUSES = {"patrolling", "alerted", "retreating", "defeated"}


def simulate(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, Any]]:
    assert main(["simulate", *args, "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.mark.parametrize("seed", [1, 2, 7])
def test_simulate_json_contract(capsys: pytest.CaptureFixture[str], seed: int) -> None:
    lines = simulate(capsys, "dungeon-crawl", "--seed", str(seed))
    setup = lines[0]
    assert setup["type"] == "setup"
    assert setup["table"]["grid"] == {"cell_in": 1.0, "cols": 8, "rows": 8}
    assert len(setup["units"]) == 15
    assert all(isinstance(u["cell"], list) and len(u["cell"]) == 2 for u in setup["units"])
    rolls = [line for line in lines if line["type"] == "roll"]
    assert "dragon" in rolls[0]["purpose"] and rolls[0]["sides"] == 6
    assert sum("dragon" in r["purpose"] for r in rolls) == 1
    patrols = [r for r in rolls if "patrol" in r["purpose"]]
    assert patrols and all(r["sides"] == 8 for r in patrols)
    moves = [line for line in lines if line["type"] == "move"]
    assert moves
    for m in moves:
        assert m["cells"] and all(len(c) == 2 for c in m["cells"])
        assert m["cells"][0] != m["cells"][-1]
    statuses = [line for line in lines if line["type"] == "status"]
    assert statuses and all({"unit", "status"} <= set(s) for s in statuses)
    assert {s["status"] for s in statuses} <= STATUSES
    assert {"patrolling", "alerted"} <= {s["status"] for s in statuses}
    fallen = {line["unit"] for line in lines if line["type"] == "fall"}
    assert fallen == {s["unit"] for s in statuses if s["status"] == "defeated"}
    ends = [line for line in lines if line["type"] == "end"]
    assert len(ends) == 1 and lines[-1] is ends[0]
    assert ends[0]["winner"] in ("Heroes", "Monsters")


def test_the_dragon_is_placed_where_its_start_roll_says(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = simulate(capsys, "dungeon-crawl", "--seed", "3")
    roll = next(line for line in lines if line["type"] == "roll")
    place = next(line for line in lines if line["type"] == "place")
    assert place["unit"] == "dragon"
    assert place["cell"] == [[0, 0], [7, 2], [0, 7]][(roll["result"] - 1) // 2]


def test_same_seed_same_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert simulate(capsys, "dungeon-crawl", "--seed", "5") == simulate(
        capsys, "dungeon-crawl", "--seed", "5"
    )


def test_the_8_by_10_variant_plays_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    lines = simulate(capsys, "dungeon-crawl-8x10", "--seed", "2")
    assert lines[0]["table"]["grid"]["rows"] == 10
    assert lines[-1]["type"] == "end"


def test_every_decision_point_is_reached() -> None:
    path = SCENARIOS / "dungeon-crawl.toml"
    scenario = parse_scenario(path.read_text(encoding="utf-8"), path.name)
    r = ruleset()
    controllers = {
        "Heroes": find_controller("dungeon-heroes"),
        "Monsters": find_controller("patrol-d8"),
    }
    seen: set[PendingKind] = set()
    for seed in (1, 2, 3):
        state = r.new_game(scenario)
        dice = SeededDice(seed)
        planned: list[Any] = []
        while True:
            seen.add(r.pending(state).kind)
            chosen = next_action(state, r, controllers, dice, planned)
            if chosen is None:
                break
            state = r.apply(state, chosen[0], dice).state
    assert {
        PendingKind.CHANCE,
        PendingKind.CHOOSE_UNIT,
        PendingKind.CONTINUE,
        PendingKind.OVER,
    } <= seen


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ('dragon_squares = "A1 H3 A8"', 'dragon_squares = "A1 H3 Z9"', "options.dragon_squares"),
        ('victory = "arch_foe"', 'victory = "gold"', "options.victory"),
        ('card = { kind = "troll"', 'card = { kind = "troll", wound = 2', "card"),
        ("heading = 180", "heading = 100", "heading"),
    ],
)
def test_a_bad_scenario_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, said: str
) -> None:
    text = (SCENARIOS / "dungeon-crawl.toml").read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert main(["simulate", str(bad), "--seed", "1", "--json"]) != 0
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and said in err and "Traceback" not in err

"""Each generic scenario's own end and special rules (RULES §5.m, D003-10, D003-18..20) in small
constructed games with scripted dice; the status AI's goal step (§5.k step 7) for them."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from assistant.cli import main
from assistant.tables import find_adapter
from assistant.tables.base import Turn
from engine.actions import Action
from engine.dice import ScriptedDice
from engine.model import GameState, UnitStatus
from engine.protocols import PendingKind, find_controller
from engine.rulesets.d20.state import D20State
from engine.rulesets.d20.victory import final_result, standing_sides, victory_points
from engine.rulesets.d20.victory_kinds import after_action
from tests.d20.test_rules_builders import (
    ENEMIES,
    HEROES,
    act,
    alerted,
    battle,
    enemy,
    hero,
    ruleset,
    settle,
    start,
    with_unit,
)

FORTRESS = {
    "id": "fortress",
    "name": "the fortress",
    "kind": "building",
    "polygon": [[10, 10], [14, 10], [14, 14], [10, 14]],
    "impassable": True,
    "blocks_los": True,
    "height_in": 3.0,
}
CARGO = {"id": "cargo", "name": "cargo", "x": 12.0, "y": 3.0}


def game(units: list[dict[str, Any]], first: str = HEROES, **kw: Any) -> GameState:
    """A 24-in open-table game in round 1, ``first`` to act."""
    terrain = kw.pop("terrain", ())
    objectives = kw.pop("objectives", ())
    sc = battle(units, grid=False, size=24, options=kw, terrain=terrain, objectives=objectives)
    return start(sc, first)


def move(state: GameState, uid: str, to: tuple[float, float]) -> Action:
    return Action("move", uid, path=(state.unit(uid).position, to))


def d20(state: GameState) -> D20State:
    assert isinstance(state.rules, D20State)
    return state.rules


def test_ambushers_act_first_in_round_one_whatever_the_initiative() -> None:
    units = [hero("h1", (12.0, 4.0)), enemy("e1", (12.0, 20.0))]
    state = game(units, HEROES, scenario="ambush", ambushers=ENEMIES)
    assert d20(state).order == (ENEMIES, HEROES)
    plain = game(units, HEROES)
    assert d20(plain).order == (HEROES, ENEMIES)
    # One unit at a time per side, but no Target acts before every Ambusher has had a turn.
    units = [hero("h1", (12.0, 4.0)), enemy("e1", (6.0, 20.0)), enemy("e2", (18.0, 20.0))]
    state = game(units, HEROES, scenario="ambush", ambushers=ENEMIES)
    state = act(state, Action("pass", "e1"))
    assert ruleset().pending(state).side == ENEMIES
    state = act(state, Action("pass", "e2"))
    assert ruleset().pending(state).side == HEROES


def _heroes_again(state: GameState) -> GameState:
    """The enemies pass when it is their turn."""
    if ruleset().pending(state).side == ENEMIES:
        state = act(state, Action("pass", side=ENEMIES))
    assert ruleset().pending(state).side == HEROES
    return state


def test_escape_more_than_half_off_the_opposite_edge_wins() -> None:
    units = [hero("h1", (6.0, 21.0)), hero("h2", (18.0, 20.0)), hero("h3", (12.0, 2.0)),
             enemy("e1", (1.0, 12.0))]  # fmt: skip
    state = game(units, scenario="escape")
    state = act(state, move(state, "h1", (6.0, 22.8)))  # its base 0.7 in from the back edge
    assert state.unit("h1").status is UnitStatus.ESCAPED and state.winner is None
    state = _heroes_again(state)
    out = ruleset().apply(state, move(state, "h2", (18.0, 23.0)), ScriptedDice([]))
    assert [e.type for e in out.events][-2:] == ["escape", "end"]
    assert out.state.winner == HEROES
    assert out.state.end_reason == "more than half its figures escaped (2 of 3)"


def test_escape_after_the_last_round_the_most_off_wins() -> None:
    units = [hero("h1", (6.0, 4.0)), hero("h2", (18.0, 4.0)), enemy("e1", (12.0, 20.0))]
    state = game(units, scenario="escape")
    state = with_unit(state, "h1", status=UnitStatus.ESCAPED)
    assert final_result(state, 0.1) == (
        HEROES,
        "most figures escaped after the last round (Heroes 1 off, Enemies 0 off)",
    )


def test_fortress_destroyed_the_assaulters_win() -> None:
    units = [hero("h1", (12.0, 9.0)), hero("h2", (2.0, 2.0)), enemy("e1", (12.0, 15.0))]
    opts = {"scenario": "fortress-assault", "assaulters": HEROES, "fortress": "fortress"}
    state = game(units, terrain=(FORTRESS,), **opts)
    rs = ruleset()
    far = Action("attack", "h2", detail=(("structure", "fortress"),))
    assert rs.validate(state, far) == ["H2 is not next to the fortress"]
    state = replace(state, rules=replace(d20(state), fortress_wounds=4))
    hit = Action("attack", "h1", detail=(("structure", "fortress"),))
    held = rs.apply(state, hit, ScriptedDice([6, 11])).state  # hit on 6+, saved on 11+
    assert held.winner is None and d20(held).fortress_wounds == 4
    out = rs.apply(state, hit, ScriptedDice([6, 10]))
    assert out.state.winner == HEROES and out.state.end_reason == "the fortress is destroyed"
    # Defenders may not attack their own fortress; the fortress standing at the end: Defenders.
    assert final_result(state, 0.1)[0] == ENEMIES
    assert "the fortress still stands" in final_result(state, 0.1)[1]


def test_fortress_all_assaulters_defeated_the_defenders_win() -> None:
    units = [hero("h1", (12.0, 9.0)), enemy("e1", (12.0, 8.0))]
    opts = {"scenario": "fortress-assault", "assaulters": HEROES, "fortress": "fortress"}
    state = alerted(game(units, ENEMIES, terrain=(FORTRESS,), **opts), "e1")
    out = ruleset().apply(state, Action("attack", "e1", target_id="h1"), ScriptedDice([6, 1]))
    assert out.state.winner == ENEMIES and out.state.end_reason == "every Assaulter is defeated"


def test_infiltrate_two_figures_at_the_opposite_edge_at_once() -> None:
    units = [hero("h1", (6.0, 21.0)), hero("h2", (18.0, 20.0)), enemy("e1", (1.0, 12.0))]
    state = game(units, scenario="infiltrate")
    state = act(state, move(state, "h1", (6.0, 22.6)))  # 0.9 in from the back edge: alone
    assert state.winner is None and state.unit("h1").on_table
    state = _heroes_again(act(state, Action("pass", "h1")))
    out = ruleset().apply(state, move(state, "h2", (18.0, 22.6)), ScriptedDice([]))
    assert out.state.winner == HEROES
    assert out.state.end_reason == "two figures reached the opposite edge (H1 and H2)"


def test_spawning_reserve_figures_come_on_by_the_spawn_die() -> None:
    units = [hero("h1", (12.0, 2.0)), enemy("e1", (12.0, 22.0)),
             enemy("e2", (1.0, 23.0), reserve=True), enemy("e3", (3.0, 23.0), reserve=True)]  # fmt: skip
    sc = battle(units, grid=False, size=24, options={"scenario": "spawning", "spawners": ENEMIES})
    rs = ruleset()
    state = rs.new_game(sc)
    assert state.unit("e2").status is UnitStatus.RESERVE and not state.unit("e2").on_table
    # Initiative 20/1, then the spawn d6: 6 brings nobody this round.
    none = settle(state, ScriptedDice([20, 1, 6]))
    assert [u.id for u in none.units if u.on_table] == ["h1", "e1"]
    assert rs.pending(none).kind is PendingKind.CHOOSE_UNIT
    for roll, edge, check in (
        (3, "back", lambda u: u.y >= 24 - 3.0 - 1e-6),
        (1, "front", lambda u: u.y <= 3.0 + 1e-6),  # opposite the Spawners' own edge
        (2, "left", lambda u: u.x <= 3.0 + 1e-6),  # to their right, facing the front
        (5, "right", lambda u: u.x >= 24 - 3.0 - 1e-6),
    ):
        out = settle(state, ScriptedDice([20, 1, roll]))
        placed = out.unit("e2")
        assert placed.on_table and check(placed) and "alerted" in placed.statuses, edge
        assert out.unit("e3").status is UnitStatus.RESERVE
    # A Spawner army with figures still waiting is not defeated (§5.m: ends once all placed).
    gone = with_unit(none, "e1", status=UnitStatus.FALLEN)
    assert standing_sides(gone) == [HEROES, ENEMIES]


def test_transport_pick_up_carry_home_and_drop() -> None:
    units = [hero("h1", (12.0, 4.0)), hero("h2", (2.0, 2.0)), enemy("e1", (12.0, 20.0))]
    state = game(units, scenario="transport", cargo="cargo", objectives=(CARGO,))
    rs = ruleset()
    pick = Action("interact", "h2", detail=(("task", "pick up"),))
    assert rs.validate(state, pick) == ["H2 is not touching the cargo"]
    state = act(state, Action("interact", "h1", detail=(("task", "pick up"),)))
    assert state.objective("cargo").carried_by == "h1"
    dropped, events = after_action(with_unit(state, "h1", status=UnitStatus.FALLEN))
    assert dropped.objective("cargo").carried_by is None and events[0].type == "drop"
    out = rs.apply(state, move(state, "h1", (12.0, 1.2)), ScriptedDice([]))
    assert out.state.objective("cargo").position == (12.0, 1.2)
    assert out.state.winner == HEROES
    assert out.state.end_reason == "H1 carried the cargo back to its own side"
    # The cargo is no objective marker: holding it scores no VP.
    assert victory_points(state, 0.1) == {HEROES: 0, ENEMIES: 0}


def test_status_ai_goes_for_the_scenario_goal_when_it_cannot_attack() -> None:
    """§5.k step 7: the cargo (picked up when touched), the far edge, the fortress."""
    ai = find_controller("status-d20")
    units = [hero("h1", (12.0, 4.0)), enemy("e1", (12.0, 8.0)), enemy("e2", (2.0, 22.0))]
    state = alerted(game(units, ENEMIES, scenario="transport", cargo="cargo",
                         objectives=({"id": "cargo", "name": "cargo", "x": 3.0, "y": 19.0},)),
                    "e1", "e2")  # fmt: skip
    order = ai.decide(state, ruleset(), "e2", ScriptedDice([]))
    assert order.rule.startswith("alerted, priority 7") and order.actions[0].kind == "move"
    near = with_unit(state, "e2", x=3.0, y=20.5)
    order = ai.decide(near, ruleset(), "e2", ScriptedDice([]))
    assert order.actions[0].kind == "interact" and order.actions[0].get("task") == "pick up"
    units = [hero("h1", (2.0, 4.0)), enemy("e1", (22.0, 20.0))]
    state = alerted(game(units, ENEMIES, scenario="escape"), "e1")
    order = ai.decide(state, ruleset(), "e1", ScriptedDice([]))
    assert order.rule.startswith(("alerted, priority 5", "alerted, priority 7"))


SIMULATED = [
    ("ambush", 14, "Targets", "the other army is gone"),
    ("escape", 3, "Heroes", "most figures escaped after the last round"),
    ("fortress-assault", 7, "Assaulters", "the fortress is destroyed"),
    ("infiltrate", 6, "Enemies", "two figures reached the opposite edge"),
    ("spawning", 1, "Infiltrators", "victory points"),
    ("transport", 2, "Enemies", "carried the cargo back to its own side"),
]
"""(scenario, simulate seed, winner, reason) of ``generate scenario --seed 1``; Spawning's 10
rounds end on VP with every Spawner brought on."""


@pytest.mark.parametrize(("kind", "seed", "winner", "reason"), SIMULATED)
def test_each_generated_scenario_plays_to_its_own_end(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    kind: str,
    seed: int,
    winner: str,
    reason: str,
) -> None:
    out = tmp_path / f"{kind}.toml"
    assert main(["generate", "scenario", "--seed", "1", "--scenario", kind, "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "scored on VP" not in text and "objective game" not in text
    assert f'scenario = "{kind}"' in text
    capsys.readouterr()
    code = main(["simulate", str(out), "--seed", str(seed), "--json"])
    log, err = capsys.readouterr()
    lines = [json.loads(line) for line in log.splitlines()]
    assert code == 0 and err == ""
    ends = [line for line in lines if line["type"] == "end"]
    assert len(ends) == 1 and ends[0]["winner"] == winner and reason in ends[0]["text"]
    if kind == "spawning":
        spawned = {line.get("unit") for line in lines if line["type"] == "spawn"} - {None}
        assert spawned == {f"enemy-{i}" for i in range(2, 7)}


def test_the_table_offers_and_reads_pick_up_and_the_fortress_attack() -> None:
    """At the table the player may declare the scenario's own actions; orders say them."""
    adapter = find_adapter("d20")
    units = [hero("h1", (12.0, 4.0)), enemy("e1", (12.0, 20.0))]
    state = game(units, scenario="transport", cargo="cargo", objectives=(CARGO,))
    turn = Turn("human", HEROES, ("h1",))
    assert "pick_up" in [d.action for d in adapter.declarations(state, turn, None)]
    pick = adapter.observed_action(state, ruleset(), "pick_up", None, None, "h1")
    assert isinstance(pick, Action) and not ruleset().validate(state, pick)
    assert adapter.describe_action(state, pick) == "H1 picks up the cargo"
    units = [hero("h1", (12.0, 9.0)), enemy("e1", (12.0, 15.0))]
    opts = {"scenario": "fortress-assault", "assaulters": HEROES, "fortress": "fortress"}
    state = game(units, terrain=(FORTRESS,), **opts)
    assert "attack_fortress" in [d.action for d in adapter.declarations(state, turn, None)]
    hit = adapter.observed_action(state, ruleset(), "attack_fortress", None, None, "h1")
    assert isinstance(hit, Action) and not ruleset().validate(state, hit)
    assert adapter.describe_action(state, hit) == "H1 attacks the fortress (needs 6+)"

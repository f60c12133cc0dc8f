"""The status-d20 controller (RULES §5.d, §5.k): unit order, the patrol table's distribution
through the AI's own orders, the Alerted procedure's order (D003-24), Retreating (T003-17),
``simulate --json`` lines, and the status AI driving a narrative scenario."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from assistant.cli import main
from engine.actions import Action
from engine.dice import ScriptedDice, SeededDice
from engine.model import Role
from engine.protocols import find_controller, find_ruleset
from engine.rulesets.d20.board import in_cover
from engine.rulesets.d20.ranges import in_reach
from engine.rulesets.d20.state import card_of
from engine.runner import controllers_for, play_battle, start_game
from engine.scenario import parse_scenario
from tests.d20.test_rules_builders import (
    ENEMIES,
    act,
    alerted,
    battle,
    enemy,
    hero,
    ruleset,
    start,
    with_unit,
)

AI = find_controller("status-d20")
SCENARIOS = Path(__file__).parents[2] / "assistant" / "data" / "scenarios"


def decide(state, uid: str, *rolls: int):  # type: ignore[no-untyped-def]
    return AI.decide(state, ruleset(), uid, ScriptedDice(list(rolls)))


def test_d003_02_the_arch_foe_first_then_the_nearest_enemy() -> None:
    units = [hero("h1", "F12"), enemy("far", "A1"), enemy("boss", "L1", arch_foe=True),
             enemy("near", "F6")]  # fmt: skip
    state = start(battle(units), first=ENEMIES)
    pending = ruleset().pending(state)
    assert AI.choose_unit(state, ruleset(), pending, ScriptedDice([])) == "boss"
    state = act(state, Action("pass", "boss"))
    state = act(state, Action("pass", "h1"))
    pending = ruleset().pending(state)
    assert AI.choose_unit(state, ruleset(), pending, ScriptedDice([])) == "near"


def test_t003_03_the_patrol_table_through_the_ais_orders() -> None:
    state = start(battle([hero("h1", "F12"), enemy("e1", "F4")]), first=ENEMIES)
    seen: Counter[str] = Counter()
    for roll in range(1, 21):
        order = decide(state, "e1", roll)
        action = order.action
        if action.kind == "pass":
            seen["stay"] += 1
        elif len(action.path) > 1:
            assert ruleset().validate(state, action) == []
            seen["forward"] += 1
        else:
            turn = round((action.heading_deg - state.unit("e1").heading_deg) % 360)
            seen[{270: "left", 90: "right", 180: "about"}[turn]] += 1
        assert order.rolls == (("patrol: E1", roll),)
    odds = {k: Fraction(n, 20) for k, n in seen.items()}
    assert odds == {"stay": Fraction(3, 10), "forward": Fraction(1, 4), "left": Fraction(3, 20),
                    "right": Fraction(3, 20), "about": Fraction(3, 20)}  # fmt: skip


def test_d003_04_no_patrol_means_prepared_enemies_stay() -> None:
    state = start(battle([hero("h1", "F12"), enemy("e1", "F4")], options={"patrol": False}),
                  first=ENEMIES)  # fmt: skip
    order = decide(state, "e1")
    assert (
        order.action.kind == "pass"
        and order.reason == "prepared: it stays put (enemies do not patrol here)"
    )


def test_the_healer_heals_the_wounded_arch_foe_before_attacking() -> None:
    units = [hero("h1", "F7"), enemy("boss", "F5", arch_foe=True, wounds=3),
             enemy("medic", "F6", heals=1)]  # fmt: skip
    state = alerted(start(battle(units), first=ENEMIES), "boss", "medic")
    state = with_unit(state, "boss", wounds=1)
    order = decide(state, "medic")
    assert (order.action.kind, order.action.target_id) == ("heal", "boss")
    state = with_unit(state, "boss", wounds=0)
    order = decide(state, "medic")
    assert (order.action.kind, order.action.target_id) == ("attack", "h1")


def test_buffs_come_before_the_attack() -> None:
    units = [hero("h1", "F7"), enemy("boss", "F6", arch_foe=True, buffs=["defence", "attack"])]
    state = alerted(start(battle(units), first=ENEMIES), "boss")
    order = decide(state, "boss")
    assert order.action.kind == "ability" and order.action.get("ability") == "attack"


def test_the_primary_weapon_is_the_likeliest_to_hit() -> None:
    arms = [{"name": "bow", "kind": "long"}, {"name": "club", "kind": "melee"}]
    units = [hero("h1", "F12"), enemy("e1", "F3", weapons=arms)]
    state = alerted(start(battle(units), first=ENEMIES), "e1")
    order = decide(state, "e1")
    assert order.action.kind == "move"  # melee hits on 6+: it closes in instead of shooting
    state = act(state, order.action)
    then = decide(state, "e1").action  # then it attacks if it can: the bow reaches
    assert (then.kind, then.get("weapon"), then.target_id) == ("attack", "bow", "h1")


def test_a_ranged_enemy_moves_into_cover_still_in_range() -> None:
    woods = {"id": "w", "name": "the woods", "polygon": [[10, 8], [12, 8], [12, 10], [10, 10]],
             "cover": "soft"}  # fmt: skip
    bow = [{"name": "bow", "kind": "long"}]
    units = [hero("h1", "F12"), enemy("e1", "J1", weapons=bow)]
    state = alerted(start(battle(units, terrain=(woods,))), "e1")
    state = act(state, Action("pass", "h1"))
    order = decide(state, "e1")
    assert order.action.kind == "move"
    end = order.action.path[-1]
    hero_at = state.unit("h1").position
    assert not in_cover(state, state.unit("e1"), hero_at)
    assert in_cover(state, state.unit("e1"), hero_at, end)  # behind or in the woods
    bow_ = card_of(state.unit("e1")).weapons[0]
    assert in_reach(state, state.unit("e1"), bow_, state.unit("h1"), end)


def test_t003_17_a_retreating_enemy_runs_toward_the_arch_foes_start() -> None:
    units = [hero("h1", "F9"), enemy("boss", "A1", arch_foe=True), enemy("e1", "F7")]
    state = alerted(start(battle(units), first=ENEMIES), "boss", "e1")
    e1 = state.unit("e1")
    state = state.with_unit(e1.__class__(**{**e1.__dict__, "statuses": frozenset({"retreating"})}))
    state = act(state, Action("pass", "boss"))
    state = act(state, Action("pass", "h1"))
    order = decide(state, "e1")
    assert order.action.kind == "move"
    grid = state.table.grid
    assert grid is not None
    assert grid.cell_at(order.action.path[-1]) == (2, 3)  # 3 spaces toward A1
    heading = order.action.heading_deg
    assert heading is not None and 270 <= heading <= 360  # facing away from the hero (south-east)
    outcome = ruleset().apply(state, order.action, ScriptedDice([]))
    assert ("e1", "alerted") in [(e.unit, e.get("status")) for e in outcome.events]
    assert ruleset().pending(outcome.state).side != ENEMIES or outcome.state.rules.acting is None  # type: ignore[attr-defined]


def test_simulate_prints_status_lines_and_the_enemy_action_roll(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "d20-basic-battle", "--seed", "3", "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    status = [x for x in lines if x["type"] == "status"]
    assert status and all({"unit", "status"} <= x.keys() for x in status)
    assert {x["status"] for x in status} >= {"prepared", "alerted"}
    rolls = [x for x in lines if x["type"] == "roll" and "enemy action" in x["purpose"]]
    assert len(rolls) >= 5  # one per round
    assert [x["type"] for x in lines].count("end") == 1


def test_the_status_ai_plays_a_narrative_scenario_through_the_query_surface() -> None:
    """A narrative scenario with the status AI: its units hold or patrol (purpose "patrol")
    until the heroes move, the enemy action is rolled each round, and they fight once
    alerted; the narrative rules decide everything else and the battle ends."""
    text = (SCENARIOS / "ford-at-dawn.toml").read_text(encoding="utf-8")
    scenario = parse_scenario(
        text.replace('ai_controller = "narrative-ai"', 'ai_controller = "status-d20"')
    )
    rs, state = start_game(scenario)
    ai = state.side_of_role(Role.AI)
    assert ai is not None
    attacks = 0
    for seed in (1, 2):
        dice = SeededDice(seed)
        record = play_battle(state, rs, controllers_for(scenario), dice)
        assert record.final.winner is not None
        ai_orders = [o for a, o in zip(record.actions, record.orders, strict=True)
                     if o is not None and state.unit(a.unit_id or "").side == ai.name]  # fmt: skip
        assert ai_orders[0].rule.startswith("patrol") and ai_orders[0].rolls[0][0] == "enemy action"
        memory = dict(record.final.memory_of(ai.name))
        assert "alerted" in {v for k, v in memory.items() if k.startswith("status:")}
        attacks += sum(o.rule.startswith("alerted, priority 6") for o in ai_orders)
    assert attacks > 0
    assert find_ruleset("narrative").name == "narrative"


def test_the_best_hit_chance_is_the_best_over_the_heroes_with_and_without_cover() -> None:
    """The primary weapon's chance looks at cover only until a hero stands in the open: the
    same maximum as every hero's chance (in the woods 16+, in the open 11+, melee 6+)."""
    from engine.controllers.status_d20 import Plan

    woods = {"id": "w", "name": "the woods", "polygon": [[4, 4], [8, 4], [8, 6], [4, 6]],
             "cover": "soft"}  # fmt: skip
    arms = [{"name": "bow", "kind": "long"}, {"name": "club", "kind": "melee"}]
    units = [hero("h1", (6.0, 5.0)), hero("h2", (1.5, 5.0)), enemy("e1", "J1", weapons=arms)]
    state = alerted(start(battle(units, terrain=(woods,))), "e1")
    plan = Plan(state, "e1", ScriptedDice([]))
    bow, club = card_of(state.unit("e1")).weapons
    shooter = state.unit("e1").position
    assert in_cover(state, state.unit("h1"), shooter)
    assert not in_cover(state, state.unit("h2"), shooter)
    for heroes in (["h1"], ["h2"], ["h1", "h2"], ["h2", "h1"]):
        group = [state.unit(h) for h in heroes]
        for weapon in (bow, club):
            best = max(plan._hit_chance(weapon, h) for h in group)
            assert plan._best_hit_chance(weapon, group) == best
    assert plan._best_hit_chance(bow, [state.unit("h1")]) == 0.25
    assert plan._best_hit_chance(bow, [state.unit("h1"), state.unit("h2")]) == 0.5


def test_a_move_is_checked_once_for_the_ai_and_the_ruleset(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The AI checks the path it orders; validating the same order on the same state takes
    that answer instead of checking the path again."""
    from engine.rulesets.d20 import board
    from engine.rulesets.d20.board import move_problem

    checks: list[object] = []
    original = board.occupied

    def counted(*args):  # type: ignore[no-untyped-def]
        checks.append(args)  # the last step of every full check
        return original(*args)

    monkeypatch.setattr(board, "occupied", counted)
    units = [hero("h1", "F12"), enemy("e1", "F3")]
    state = alerted(start(battle(units), first=ENEMIES), "e1")
    order = decide(state, "e1")
    assert order.action.kind == "move" and len(checks) == 1
    assert not ruleset().validate(state, order.action)
    assert len(checks) == 1
    unit = state.unit("e1")
    assert move_problem(state, unit, list(order.action.path)) == ""  # a list path: same key
    assert len(checks) == 1

"""The 2D6 skirmish end to end: ``simulate --json`` on the bundled scenario (the issue's check
and status lines), every decision point it uses reached, and skirmish-ai's priority list
(RULES §3.3.2) step by step in constructed positions."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.scenarios import load_game
from engine.actions import Action
from engine.dice import ScriptedDice, SeededDice
from engine.protocols import PendingKind, find_controller
from engine.runner import controllers_for, next_action, start_game
from engine.scenario import parse_scenario
from tests.skirmish2d6.fights import A, B, act, fight, fighter, game

SCENARIO = (
    Path(__file__).resolve().parents[2]
    / "assistant"
    / "data"
    / "scenarios"
    / "skirmish-cairns.toml"
)
CHECK_KEYS = {"type", "kind", "unit", "stat", "rolls", "total", "against", "advantage", "result"}


def test_simulate_json_prints_check_and_status_lines_and_one_end(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "skirmish-cairns", "--seed", "3", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["type"] == "setup"
    kinds = [d["type"] for d in lines]
    assert kinds.count("end") == 1 and lines[-1]["type"] == "end"
    assert lines[-1]["winner"] in ("Ashen Company", "Red Hand", "draw")
    assert set(lines[-1]["vp"]) == {"Ashen Company", "Red Hand"}
    found = [d for d in lines if d["type"] == "check"]
    assert found and all(set(d) >= CHECK_KEYS for d in found)
    assert {d["kind"] for d in found} <= {"basic", "opposed"}
    assert all(d["result"] in ("success", "draw", "fail") for d in found)
    for d in found:
        assert d["total"] == sum(d["rolls"]) + d["value"]
        assert d["advantage"] == d["total"] - d["against"]
    assert "status" in kinds and "roll" in kinds
    status = next(d for d in lines if d["type"] == "status")
    assert {"unit", "status", "change"} <= set(status)


def test_every_decision_point_of_the_skirmish_is_reached() -> None:
    scenario = parse_scenario(SCENARIO.read_text(encoding="utf-8"), SCENARIO.name)
    seen: set[tuple[PendingKind, str]] = set()
    for seed in (1, 2, 3):
        ruleset, state = start_game(scenario)
        controllers = controllers_for(scenario)
        dice = SeededDice(seed)
        planned: list[Action] = []
        while True:
            pending = ruleset.pending(state)
            seen.add((pending.kind, pending.purpose))
            chosen = next_action(state, ruleset, controllers, dice, planned)
            if chosen is None:
                break
            state = ruleset.apply(state, chosen[0], dice).state
            assert not ruleset.check_state(state)
    assert {
        (PendingKind.CHANCE, "roll-off"),
        (PendingKind.CHOOSE_UNIT, ""),
        (PendingKind.CONTINUE, "action"),
        (PendingKind.CONTINUE, "charge"),
        (PendingKind.CONTINUE, "drive back"),
        (PendingKind.OVER, ""),
    } <= seen


def _decide(state, ruleset, uid):  # type: ignore[no-untyped-def]
    return find_controller("skirmish-ai").decide(state, ruleset, uid, ScriptedDice(()))


def test_ai_step_1_recovers_when_stunned_and_free() -> None:
    ruleset, state = game([fighter("a", A, 5, 5), fighter("b", B, 30, 30)])
    state = state.with_unit(replace(state.unit("a"), statuses=frozenset({"stunned"})))
    order = _decide(state, ruleset, "a")
    assert order.action.kind == "recover" and order.rule == "step 1: recover"


def test_ai_step_2_fights_the_contacting_enemy_it_is_likeliest_to_kill() -> None:
    units = [
        fighter("a", A, 10, 10, skill=3, weapons=["axe", "shield"]),
        fighter("tough", B, 11, 10, skill=2, armor=3),
        fighter("weak", B, 10, 11, skill=1, armor=2, speed=3),
    ]
    ruleset, state = game(units)
    order = _decide(state, ruleset, "a")
    assert order.action.kind == "charge" and order.action.target_id == "weak"
    assert order.rule == "step 2: fight" and len(order.actions) == 1


def test_ai_step_3_aims_then_shoots_in_one_order() -> None:
    ruleset, state = game(
        [fighter("a", A, 5, 5, weapons=["bow"]), fighter("b", B, 5, 15), fighter("c", B, 30, 30)]
    )
    order = _decide(state, ruleset, "a")
    assert [a.kind for a in order.actions] == ["aim", "shoot"]
    assert order.actions[1].target_id == "b"


def test_ai_step_4_charges_within_seven_inches_with_a_clear_lane() -> None:
    ruleset, state = game([fighter("a", A, 10, 10), fighter("b", B, 10, 17.5)])
    order = _decide(state, ruleset, "a")
    assert order.action.kind == "charge" and order.rule == "step 4: charge"
    ruleset, state = game([fighter("a", A, 10, 10), fighter("b", B, 10, 19)])
    assert _decide(state, ruleset, "a").action.kind == "move"


def test_ai_step_5_moves_toward_the_nearest_objective_with_every_action_left() -> None:
    obj = {"id": "o", "name": "the cairn", "x": 10.0, "y": 30.0}
    ruleset, state = game(
        [fighter("a", A, 10, 5, speed=1), fighter("b", B, 34, 34)], objectives=[obj]
    )
    order = _decide(state, ruleset, "a")
    # Three Moves in a row are one move spending three actions (one path for the player).
    assert [a.kind for a in order.actions] == ["move"]
    assert order.action.get("actions") == 3
    assert order.action.path[-1] == pytest.approx((10, 20))
    assert not ruleset.validate(state, order.action)
    assert order.distance_in == pytest.approx(15)


def test_the_ai_orders_drive_backs_for_either_side() -> None:
    ruleset, state = game([fighter("a", A, 10, 10), fighter("b", B, 11, 10)])
    state, _, _ = act(ruleset, state, fight("a", "b"), [1, 1, 6, 6], drive=False)
    order = _decide(state, ruleset, "a")
    assert order.action.kind == "drive_back" and not ruleset.validate(state, order.action)


OBJ = {"id": "o", "name": "the ruin", "x": 18.0, "y": 18.0}
RUIN = {"id": "o", "name": "the ruin", "polygon": [[17, 17], [19, 17], [19, 19], [17, 19]]}


def test_ai_step_6_holds_an_objective_it_holds_and_contests_one_it_does_not() -> None:
    units = [fighter("a", A, 18, 16.8), fighter("b", B, 30, 30)]
    ruleset, state = game(units, terrain=[RUIN], objectives=[OBJ])
    order = _decide(state, ruleset, "a")
    assert order.action.kind == "pass" and order.rule == "step 6: hold"
    # A shield alone is no melee weapon to charge with (step 4), so it closes in on foot.
    units = [fighter("a", A, 18, 16.5, weapons=["shield"]), fighter("b", B, 19.8, 19.8)]
    ruleset, state = game(units, terrain=[RUIN], objectives=[OBJ])
    order = _decide(state, ruleset, "a")
    assert order.rule == "step 6: contest" and order.action.kind == "move"
    assert order.actions[-1].kind == "charge"  # it closes in, then fights what it reached


def test_the_page_shows_a_skirmish_game() -> None:
    from assistant.session.dice import AutoDice
    from assistant.session.game import LiveGame
    from assistant.session.view import build_view
    from tests.session.virtual_table import VirtualTable

    scenario, ruleset, state = load_game("skirmish-cairns")
    live = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller("skirmish-ai"),
        dice=AutoDice(1),
        say=lambda _text: None,
        initial=state,
    )
    VirtualTable(live).step()
    view = build_view(live)
    captain = next(u for u in view.units if u.id == "ash-champion")
    labels = {r.label: r.value for r in captain.resources}
    assert labels["skill"] == "4" and labels["actions left"] in ("3", "2")
    assert labels["weapons"] == "sword, shield"
    assert captain.base_diameter_in == pytest.approx(1.575)


def test_a_staggered_fighter_in_contact_recovers_or_waits_instead_of_fighting() -> None:
    """D001B-06: no Charge when Staggered, so no fight either."""
    ruleset, state = game([fighter("a", A, 10, 10), fighter("b", B, 11, 10)])
    state = state.with_unit(replace(state.unit("a"), statuses=frozenset({"staggered"})))
    order = _decide(state, ruleset, "a")
    assert order.action.kind == "recover" and order.action.get("status") == "staggered"
    assert not ruleset.validate(state, order.action)
    state, _, _ = act(ruleset, state, order.action, [1, 1])  # fails: 2 + 1 is not over 7
    order = _decide(state, ruleset, "a")
    assert order.action.kind == "pass" and not ruleset.validate(state, order.action)


DUEL = Path(__file__).with_name("skirmish-duel.toml")


@pytest.mark.parametrize(
    ("seed", "players"),
    [
        (17, ("skirmish-ai", "skirmish-ai")),  # a side wiped out in mid-activation
        (22, ("skirmish-ai", "skirmish-ai")),
        (3, ("random", "skirmish-ai")),
        (4, ("skirmish-ai", "random")),
    ],
)
def test_every_state_of_a_small_battle_is_sound(seed: int, players: tuple[str, str]) -> None:
    scenario = parse_scenario(DUEL.read_text(encoding="utf-8"), DUEL.name)
    ruleset, state = start_game(scenario)
    controllers = {s.name: find_controller(n) for s, n in zip(scenario.sides, players, strict=True)}
    dice = SeededDice(seed)
    planned: list[Action] = []
    while (chosen := next_action(state, ruleset, controllers, dice, planned)) is not None:
        state = ruleset.apply(state, chosen[0], dice).state
        assert ruleset.check_state(state) == []
    assert state.winner is not None

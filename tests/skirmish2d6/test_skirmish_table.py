"""The 2D6 skirmish at the table through its adapter: a live game on the virtual table reaches
the simulated outcome (orders of several actions spoken whole then step by step, charges in
two steps, drive-backs checked by the camera), the order words, a move the camera saw read as
an action, the unit card with statuses and actions left, ``soloscope odds skirmish2d6``, and
footage read back through the engine."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.replay.engine_replay import GameReplayer
from assistant.replay.reconstruct import PieceMove
from assistant.session.dice import AutoDice
from assistant.session.game import LiveGame, Stage
from assistant.session.observation import PieceSeen
from assistant.tables import find_adapter
from engine.actions import Action, Order
from engine.dice import SeededDice
from engine.model import GameState, Role
from engine.protocols import find_controller
from engine.runner import BattleRecord, play_battle, start_game
from engine.scenario import Scenario, parse_scenario
from tests.session.virtual_table import VirtualTable
from tests.skirmish2d6.fights import A, B, act, fight, fighter, game

SCENARIO = (
    Path(__file__).resolve().parents[2]
    / "assistant"
    / "data"
    / "scenarios"
    / "skirmish-cairns.toml"
)
ADAPTER = find_adapter("skirmish2d6")


def _scenario() -> Scenario:
    return parse_scenario(SCENARIO.read_text(encoding="utf-8"), SCENARIO.name)


def _live(seed: int) -> tuple[LiveGame, list[str], BattleRecord]:
    scenario = _scenario()
    ruleset, state = start_game(scenario)
    ai = {side.name: find_controller("skirmish-ai") for side in scenario.sides}
    record = play_battle(state, ruleset, ai, SeededDice(seed))
    human = state.side_of_role(Role.HUMAN)
    assert human is not None
    # The player's own actions, drive-backs of their own models included.
    plan = tuple(
        a for a in record.actions if a.unit_id and state.unit(a.unit_id).side == human.name
    )
    said: list[str] = []
    live = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller("skirmish-ai"),
        dice=AutoDice(seed),
        say=said.append,
        initial=state,
        human_plan=plan,
    )
    return live, said, record


@pytest.mark.parametrize("seed", [1, 2])
def test_a_live_game_on_the_virtual_table_reaches_the_simulated_outcome(seed: int) -> None:
    live, said, record = _live(seed)
    VirtualTable(live).play()
    assert live.state.winner == record.final.winner
    assert [(u.status, u.statuses) for u in live.state.units] == [
        (u.status, u.statuses) for u in record.final.units
    ]
    assert [c for u in live.state.units for c in u.position] == pytest.approx(
        [c for u in record.final.units for c in u.position]
    )
    assert any(s.startswith("Next: ") for s in said)  # an order of several actions
    assert any(" charges " in s for s in said)
    assert any("is driven back: move it" in s for s in said)
    assert said[-1].startswith("The battle is over")


def test_a_drive_back_waits_for_the_model_to_be_moved() -> None:
    live, _said, _ = _live(1)
    table = VirtualTable(live)
    for _ in range(3000):
        table.step()
        order = live.order
        if live.stage is Stage.AI_ORDER and order is not None and order.action.kind == "drive_back":
            break
    else:
        raise AssertionError("no drive-back was ordered")
    expected = live.expected
    assert expected is not None and expected.moves
    step = live.state.step
    table.step()  # the camera sees the model moved where it was told
    assert live.state.step > step


def test_orders_are_said_in_table_terms() -> None:
    _ruleset, state = game([fighter("a", A, 10, 10, weapons=["axe"]), fighter("b", B, 10, 15)])
    charge = Action("charge", "a", target_id="b", detail=(("weapon", "axe"), ("style", "hook")))
    text = ADAPTER.order_instruction(state, Order(charge, "step 4: charge", "close"))
    assert text == (
        "A: charge B with the axe, hooking (-2 to hit; a hit staggers): "
        "roll 2D6 for the charge distance."
    )
    moves = Order((Action("move", "a", path=((10, 10), (10, 12))), Action("aim", "a")), "r", "why")
    assert ADAPTER.order_instruction(state, moves).startswith("A: move 2 inches toward ")
    assert ", then aim (plus 1 to its next shot)." in ADAPTER.order_instruction(state, moves)
    exp = ADAPTER.expectation(state, moves)
    assert (exp.x_in, exp.y_in, exp.facing_tol_deg, exp.moves) == (10, 12, 180.0, True)


def test_a_move_seen_is_read_as_a_move_or_a_charges_run() -> None:
    ruleset, state = game([fighter("a", A, 10, 10, speed=2), fighter("b", B, 10, 20)])
    unit = state.unit("a")
    path, problem = ADAPTER.observed_path(state, ruleset, unit, PieceSeen(10, 15, 0))
    assert problem == "" and path == ((10, 10), (10, 15))
    path, problem = ADAPTER.observed_path(state, ruleset, unit, PieceSeen(10, 17, 0))
    assert problem == "" and path == ((10, 10), (10, 17))  # two Moves
    seen = ("a", ((10, 10), (10, 17)), "", 0.0)
    twice = ADAPTER.observed_action(state, ruleset, "done", None, seen, None)
    assert isinstance(twice, Action) and twice.get("actions") == 2
    path, problem = ADAPTER.observed_path(state, ruleset, unit, PieceSeen(10, 29, 0))
    assert path is None and "may move 18 in" in problem
    action = ADAPTER.observed_action(
        state, ruleset, "done", None, ("a", ((10, 10), (10, 15)), "", 0), None
    )
    assert isinstance(action, Action) and action.kind == "move"
    declared = ADAPTER.observed_action(state, ruleset, "charge", "b", None, "a")
    assert isinstance(declared, Action) and declared.kind == "charge"
    state, _, _ = act(ruleset, state, fight("a", "b"), [6, 5])
    run = ADAPTER.observed_action(
        state, ruleset, "done", None, ("a", ((10, 10), (10, 19)), "", 0), None
    )
    assert isinstance(run, Action) and run.kind == "charge_move"
    assert ADAPTER.declarations(state, ADAPTER.turn(state, ruleset), "a")[0].action == "done"


def test_the_unit_card_shows_stats_statuses_and_actions_left() -> None:
    ruleset, state = game(
        [
            fighter("a", A, 10, 10, skill=3, armor=2, role="champion", weapons=["sword", "shield"]),
            fighter("b", B, 10, 20),
        ]
    )
    unit = replace(state.unit("a"), statuses=frozenset({"stunned", "wounded"}))
    state = state.with_unit(unit)
    card = ADAPTER.unit_card(state, unit)
    values = {v.label: v.value for v in card.values}
    assert card.statuses == ("wounded", "stunned")
    # Skill 3 + 1 - 1 - 3; Armor 2 + 1 - 1 + 1 (shield lost: Stunned) -> 2.
    assert (values["skill"], values["speed"], values["armor"]) == ("0", "1", "2")
    assert values["actions left"] == "3" and values["weapons"] == "sword, shield"
    state, _, _ = act(ruleset, state, Action("move", "a", path=((10, 10), (10, 11))))
    assert {v.label: v.value for v in ADAPTER.unit_card(state, state.unit("a")).values}[
        "actions left"
    ] == "2"


def test_odds_skirmish2d6(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "skirmish2d6", "--opposed", "-3"]) == 0
    out = capsys.readouterr().out
    assert "success 103/648" in out and "draw 13/162" in out and "fail 493/648" in out
    assert "Advantage 3+ 35/648" in out and "Advantage 5+ 5/432" in out
    assert main(["odds", "skirmish2d6", "--recover", "2"]) == 0
    assert "13/18" in capsys.readouterr().out
    assert main(["odds", "skirmish2d6", "--charge", "9"]) == 0
    assert "5/18" in capsys.readouterr().out
    assert main(["odds", "skirmish2d6", "--recover", "12"]) != 0
    assert "from -4 to 7, not 12" in capsys.readouterr().err


def _replay(end: tuple[float, float]) -> list[dict[str, object]]:
    game_ = GameReplayer(str(SCENARIO))
    start: GameState = game_.initial
    ysolde = start.unit("ash-champion")
    move = PieceMove("Captain Ysolde", "", (16,), ysolde.position, end, 0.0, 0.0, 2.0, 3.2)
    result = game_.replay([move])
    return [e for e in result.events if e["kind"] == "legality"]


def test_footage_of_a_legal_move_is_a_legal_activation_and_a_long_one_is_flagged() -> None:
    assert [e["legal"] for e in _replay((18, 8))] == [True]  # Speed 1 + 1 (Champion): 6 in
    assert [e["legal"] for e in _replay((18, 15))] == [True]  # two Moves
    legality = _replay((18, 22))
    assert [e["legal"] for e in legality] == [False]
    assert "may move 18 in" in str(legality[0]["reason"])


def test_the_player_drives_their_own_model_back_as_told() -> None:
    ruleset, state = game([fighter("a", A, 10, 10), fighter("b", B, 11, 10)])
    state, _, _ = act(ruleset, state, fight("a", "b"), [1, 1, 6, 6], drive=False)
    turn = ADAPTER.turn(state, ruleset)
    assert (turn.kind, turn.unit_id) == ("human", "a")
    assert ADAPTER.turn_prompt(state, turn) == (
        "A is driven back: move it 1 inch straight back, then declare done."
    )
    unit = state.unit("a")
    path, problem = ADAPTER.observed_path(state, ruleset, unit, PieceSeen(9.05, 10, 0))
    assert problem == "" and path is not None and path[-1] == pytest.approx((9, 10))
    _, problem = ADAPTER.observed_path(state, ruleset, unit, PieceSeen(7, 10, 0))
    assert problem == "A goes 1 inch straight back, no further"
    action = ADAPTER.observed_action(state, ruleset, "done", None, ("a", path, "", 0), None)
    assert isinstance(action, Action) and action.kind == "drive_back"
    assert not ruleset.validate(state, action)


def test_the_player_may_charge_with_a_hook_or_a_blow_away() -> None:
    ruleset, state = game(
        [fighter("a", A, 10, 10, weapons=["axe", "shield"]), fighter("b", B, 10, 11)]
    )
    turn = ADAPTER.turn(state, ruleset)
    words = [d.action for d in ADAPTER.declarations(state, turn, None)]
    assert "hook" in words and "blow away" not in words
    hook = ADAPTER.observed_action(state, ruleset, "hook", "b", None, "a")
    assert isinstance(hook, Action) and hook.kind == "charge"
    assert (hook.get("weapon"), hook.get("style")) == ("axe", "hook")
    assert not ruleset.validate(state, hook)


def test_sight_lines_on_the_page_name_what_blocks_them() -> None:
    units = [
        fighter("a", A, 5, 5, weapons=["bow"]),
        fighter("friend", A, 5, 10),
        fighter("b", B, 5, 15),
        fighter("c", B, 12, 15),
        fighter("d", B, 20, 5),
    ]
    wall = {
        "id": "w",
        "name": "the wall",
        "polygon": [[8, 8], [9, 8], [9, 12], [8, 12]],
        "blocks_los": True,
    }
    _, state = game(units, terrain=[wall])
    lines = {v.to_id: v for v in ADAPTER.sight_lines(state, state.unit("a"))}
    assert (lines["b"].clear, lines["b"].note) == (False, "blocked by Friend")
    assert (lines["c"].clear, lines["c"].note) == (False, "blocked by the wall")
    assert (lines["d"].clear, lines["d"].range_in) == (True, 14.0)


def test_footage_of_a_drive_back_is_read_as_the_drive_back() -> None:
    ruleset, state = game([fighter("a", A, 10, 10), fighter("b", B, 11, 10)])
    state, _, _ = act(ruleset, state, fight("a", "b"), [1, 1, 6, 6], drive=False)
    unit = state.unit("a")
    read = ADAPTER.replay_move(state, ruleset, unit, PieceSeen(8.8, 10.1, 0), 0.5)
    assert read.legal and [a.kind for a in read.actions] == ["drive_back"]
    assert not ruleset.validate(state, read.actions[0])
    far = ADAPTER.replay_move(state, ruleset, unit, PieceSeen(6, 10, 0), 0.5)
    assert not far.legal and "driven back" in far.reason

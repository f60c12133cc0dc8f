"""The d20 rules at the table through their adapter: a live game on the virtual table reaches
the simulated outcome, orders are spoken and shown, a move the camera saw is read as an
action, the unit card shows the status and the tactic, and ``soloscope odds d20``."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.cli import main
from assistant.replay.engine_replay import GameReplayer
from assistant.replay.reconstruct import PieceMove
from assistant.session.dice import AutoDice
from assistant.session.game import LiveGame, Stage
from assistant.session.observation import PieceSeen
from assistant.tables import find_adapter
from engine.actions import Action, ActionKind, Order
from engine.dice import RandomSource, SeededDice
from engine.model import GameState, Role
from engine.protocols import ControllerBase, Pending, Ruleset, find_controller
from engine.runner import controllers_for, play_battle, start_game
from engine.scenario import parse_scenario
from tests.d20.test_rules_builders import (
    ENEMIES,
    alerted,
    battle,
    enemy,
    hero,
    ruleset,
    start,
)
from tests.session.virtual_table import VirtualTable


class OwnDice(ControllerBase):
    """The status AI with dice of its own: the player's side in the simulation, whose choices
    the live game takes from the plan (so the game's own dice stay in step)."""

    name = "own-dice"
    rulesets: tuple[str, ...] = ("d20",)

    def __init__(self, dice: RandomSource) -> None:
        self.inner = find_controller("status-d20")
        self.dice = dice

    def choose_unit(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str | None:
        return self.inner.choose_unit(state, ruleset, pending, self.dice)

    def decide(self, state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource) -> Order:
        return self.inner.decide(state, ruleset, unit_id, self.dice)


SCENARIO = Path(__file__).parents[2] / "assistant" / "data" / "scenarios" / "d20-basic-battle.toml"


@pytest.mark.parametrize(("name", "seed"), [("d20-basic-battle", 1), ("d20-basic-battle", 2),
                                           ("d20-grid-skirmish", 3)])  # fmt: skip
def test_a_live_game_on_the_virtual_table_reaches_the_simulated_outcome(
    name: str, seed: int
) -> None:
    path = SCENARIO.with_name(f"{name}.toml")
    scenario = parse_scenario(path.read_text(encoding="utf-8"), path.name)
    ruleset_, state = start_game(scenario)
    human = state.side_of_role(Role.HUMAN)
    assert human is not None
    controllers = controllers_for(scenario)
    controllers[human.name] = OwnDice(SeededDice(1000 + seed))  # the plan replaces it live
    record = play_battle(state, ruleset_, controllers, SeededDice(seed))
    plan = tuple(
        a
        for a in record.actions
        if (a.unit_id and state.unit(a.unit_id).side == human.name)
        or (a.kind == ActionKind.PASS and a.side == human.name)
    )
    said: list[str] = []
    game = LiveGame(
        scenario=scenario,
        ruleset=ruleset_,
        ai=find_controller("status-d20"),
        dice=AutoDice(seed),
        say=said.append,
        initial=state,
        human_plan=plan,
    )
    VirtualTable(game).play()
    assert game.state.winner == record.final.winner
    assert game.state.round == record.final.round
    assert [(u.status, u.wounds) for u in game.state.units] == [
        (u.status, u.wounds) for u in record.final.units
    ]
    assert [u.statuses for u in game.state.units] == [u.statuses for u in record.final.units]
    assert any("attacks" in s for s in said)  # an AI attack order spoken
    assert said[-1].startswith("The battle is")


def test_orders_are_spoken_with_the_need_and_shown_with_the_ghost() -> None:
    units = [hero("h1", "F7"), enemy("e1", "F3")]
    state = alerted(start(battle(units), first=ENEMIES), "e1")
    adapter = find_adapter("d20")
    order = find_controller("status-d20").decide(state, ruleset(), "e1", SeededDice(1))
    assert order.action.kind == "move"
    text = adapter.order_text(state, order)
    # On the grid a move is said in squares, as the rules count them, never inches.
    assert text.startswith("E1 moves 3 squares to F6") and "Why:" in text
    expected = adapter.expectation(state, order)
    assert expected.cell == (5, 5) and expected.facing_tol_deg == 180.0
    view = adapter.order_view(state, order, expected)
    assert view.ghost is not None and view.path_in[-1] == order.action.path[-1]
    attack = Order(
        Action("attack", "e1", target_id="h1", detail=(("weapon", "hand weapon"),)), "r", "x"
    )
    assert (
        adapter.order_instruction(state, attack) == "E1 attacks H1 with the hand weapon (needs 6+)."
    )


def test_a_move_the_camera_saw_becomes_an_action() -> None:
    units = [hero("h1", "F12"), enemy("e1", "F1")]
    state = start(battle(units))
    adapter, rs = find_adapter("d20"), ruleset()
    unit = state.unit("h1")
    grid = state.table.grid
    assert grid is not None
    x, y = grid.centre((5, 8))
    path, problem = adapter.observed_path(state, rs, unit, PieceSeen(x + 0.2, y - 0.1, 10.0))
    assert problem == "" and path == (unit.position, (x, y))
    action = adapter.observed_action(state, rs, "done", None, ("h1", path, "", 10.0), None)
    assert isinstance(action, Action) and action.kind == "move" and not rs.validate(state, action)
    far = grid.centre((5, 6))
    path, problem = adapter.observed_path(state, rs, unit, PieceSeen(far[0], far[1], 0.0))
    assert path is None and "cannot reach" in problem
    told = adapter.observed_action(
        state, rs, "attack", "e1", ("h1", (unit.position, (x, y)), "", 0.0), None
    )
    assert isinstance(told, str) and "done" in told


def test_the_unit_card_shows_the_status_and_the_tactic() -> None:
    scenario = parse_scenario(SCENARIO.read_text(encoding="utf-8"), SCENARIO.name)
    rs, state = start_game(scenario)
    state = rs.apply(state, Action(ActionKind.CHANCE), SeededDice(3)).state
    card = find_adapter("d20").unit_card(state, state.unit("raider-chief"))
    values = {v.label: v.value for v in card.values}
    assert card.statuses == ("prepared",) and values["tactic"] == "ambitious"
    assert values["role"] == "Arch Foe"
    assert "wounds" not in values and card.wound_slots == 3  # once: the wound boxes
    archer = find_adapter("d20").unit_card(state, state.unit("raider-bow-2"))
    assert archer.ranges_in == (12.0,)


def test_soloscope_odds_d20(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "d20", "--attack", "melee"]) == 0
    assert "hit 3/4" in capsys.readouterr().out
    assert main(["odds", "d20", "--attack", "cover", "--attack-twice", "--defend-twice"]) == 0
    assert "damage 7/64" in capsys.readouterr().out
    assert main(["odds", "d20", "--attack", "sideways"]) != 0


def _replay_knight(
    forward_in: float,
) -> tuple[list[dict[str, object]], tuple[dict[str, object], ...]]:
    game = GameReplayer(str(SCENARIO))
    knight = game.initial.unit("hero-knight")
    end = (knight.x, knight.y + forward_in)
    move = PieceMove("Sir Aldo", "", (16,), knight.position, end, 0.0, 0.0, 2.0, 3.2)
    result = game.replay([move])
    return [e for e in result.events if e["kind"] == "legality"], tuple(result.activations)


def test_footage_a_move_within_the_move_unit_is_a_legal_activation() -> None:
    legality, activations = _replay_knight(2.5)  # unseen initiative and enemy action first
    assert [e["legal"] for e in legality] == [True]
    assert [a["unit"] for a in activations] == ["hero-knight"]


def test_footage_a_move_too_long_is_flagged_with_the_rules_reason() -> None:
    legality, _ = _replay_knight(5.0)
    assert [e["legal"] for e in legality] == [False]
    assert legality[0]["reason"] == "the move costs 5.00 in, more than the 3 in Move Unit"


def test_sight_lines_and_a_declared_attack_say_what_the_die_needs() -> None:
    woods = {"id": "w", "name": "the woods", "polygon": [[4, 9], [7, 9], [7, 12], [4, 12]],
             "cover": "soft"}  # fmt: skip
    bow = [{"name": "bow", "kind": "long"}]
    units = [hero("h1", "B12", weapons=bow), enemy("e1", "F2"), enemy("e2", "B4")]
    state = start(battle(units, terrain=(woods,)))
    adapter = find_adapter("d20")
    lines = {v.to_id: v for v in adapter.sight_lines(state, state.unit("h1"))}
    assert lines["e1"].clear and lines["e1"].cover == "soft" and lines["e2"].cover == "none"
    assert lines["e2"].range_in == 8.0
    shot = Action("attack", "h1", target_id="e1", detail=(("weapon", "bow"),))
    assert adapter.declared_notes(state, shot) == ("H1 attacks E1 with the bow (needs 16+).",)


def test_a_follower_of_the_chain_is_told_where_to_go() -> None:
    units = [hero(f"h{i}", f"{'BCD'[i]}12", company="Guard") for i in range(3)] + [
        enemy("e1", "L1")
    ]
    state = start(battle(units))
    grid = state.table.grid
    assert grid is not None
    move = Action("move", "h0", path=(state.unit("h0").position, grid.centre((2, 8))))
    outcome = ruleset().apply(state, move, SeededDice(1))
    said = [find_adapter("d20").event_words(outcome.state, e) for e in outcome.events]
    assert any(s and "follows in the chain: put it at" in s for s in said)


def test_the_player_moves_declares_done_then_attacks_on_the_live_table() -> None:
    """Move a figure (the camera sees it), declare done (the move), then attack with the other
    action; the spoken prompts and the dice follow the rules."""
    units = [hero("h1", "F9"), enemy("e1", "F5", wounds=3)]
    scenario = battle(units)
    rs = ruleset()
    said: list[str] = []
    game = LiveGame(
        scenario=scenario,
        ruleset=rs,
        ai=find_controller("status-d20"),
        dice=AutoDice(2),  # the heroes win the first initiative with this seed
        say=said.append,
        initial=rs.new_game(scenario),
    )
    table = VirtualTable(game)
    for _ in range(5):
        table.step()
        if game.stage is Stage.HUMAN:
            break
    assert game.stage is Stage.HUMAN and said[-1].startswith("Your turn")
    grid = game.state.table.grid
    assert grid is not None
    x, y = grid.centre((5, 5))  # F6: three squares forward, next to the enemy
    table.poses["h1"] = (x, y, 0.0)
    table.step()
    assert "moved 3.0 inches" in said[-1]
    game.declare("done", None)
    assert game.state.unit("h1").cell == (5, 5)
    assert rs.pending(game.state).unit == "h1"  # its other action is left
    game.declare("attack", "e1")
    assert "H1 attacks E1 with the hand weapon (needs 6+)." in said  # the declared note
    assert any(s.startswith("H1 attacks E1 with the hand weapon: ") for s in said)  # resolved

"""The test-only ruleset at the table through its own adapter (registered from tests/plugin
only): a live game on the virtual table reaches the simulated outcome, the unit card shows
the status, ``soloscope odds plugin-test`` answers through the adapter."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.cli import main
from assistant.session.dice import AutoDice
from assistant.session.game import LiveGame
from assistant.tables import find_adapter
from engine.actions import ActionKind
from engine.dice import SeededDice
from engine.model import Role
from engine.protocols import find_controller
from engine.runner import play_battle, start_game
from engine.scenario import parse_scenario
from tests.plugin.ruleset import NAME
from tests.session.virtual_table import VirtualTable

SCENARIO = Path(__file__).with_name("plugin.toml")


def test_a_live_game_on_the_virtual_table_reaches_the_simulated_outcome() -> None:
    scenario = parse_scenario(SCENARIO.read_text(encoding="utf-8"), SCENARIO.name)
    for seed in range(1, 7):
        ruleset, state = start_game(scenario)
        ai = {side.name: find_controller("plugin-ai") for side in scenario.sides}
        record = play_battle(state, ruleset, ai, SeededDice(seed))
        human = state.side_of_role(Role.HUMAN)
        assert human is not None
        plan = tuple(
            a
            for a in record.actions
            if (a.unit_id and state.unit(a.unit_id).side == human.name)
            or (a.kind == ActionKind.PASS and a.side == human.name)
        )
        said: list[str] = []
        game = LiveGame(
            scenario=scenario,
            ruleset=ruleset,
            ai=find_controller("plugin-ai"),
            dice=AutoDice(seed),
            say=said.append,
            initial=state,
            human_plan=plan,
        )
        VirtualTable(game).play()
        assert game.state.winner == record.final.winner, seed
        assert game.state.round == record.final.round, seed
        assert [u.position for u in game.state.units] == [u.position for u in record.final.units]
        assert [u.status for u in game.state.units] == [u.status for u in record.final.units]
        assert said[-1].startswith(f"The battle is over: {record.final.winner} win")


def test_the_unit_card_shows_the_status() -> None:
    scenario = parse_scenario(SCENARIO.read_text(encoding="utf-8"), SCENARIO.name)
    ruleset, state = start_game(scenario)
    adapter = find_adapter(NAME)
    assert adapter.unit_card(state, state.units[0]).status == "active"
    assert adapter.turn(state, ruleset).kind == "auto"  # the initiative roll


def test_odds_answer_through_the_adapter(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", NAME, "--cover", "soft"]) == 0
    assert capsys.readouterr().out.strip() == "a shot at a target in soft cover needs 5+: 33.3%"
    assert main(["odds", NAME]) == 0
    assert capsys.readouterr().out.strip().endswith("needs 4+: 50.0%")
    assert main(["odds", NAME, "--cover", "deep"]) != 0
    assert "--cover takes none, soft or hard, not deep" in capsys.readouterr().err

"""The test-only ruleset at the table through its own adapter (registered from tests/plugin
only): a live game on the virtual table reaches the simulated outcome, the unit card shows
the status and the deck, ``soloscope odds plugin-test`` answers through the adapter."""

from __future__ import annotations

from dataclasses import replace
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
from tests.plugin.ruleset import NAME, PINNED
from tests.session.virtual_table import VirtualTable

SCENARIO = Path(__file__).with_name("plugin.toml")


def test_a_live_game_on_the_virtual_table_reaches_the_simulated_outcome() -> None:
    scenario = parse_scenario(SCENARIO.read_text(encoding="utf-8"), SCENARIO.name)
    for seed in range(1, 9):
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
        assert [u.status for u in game.state.units] == [u.status for u in record.final.units]
        assert said[-1].startswith(f"The battle is over: {record.final.winner} win")


def test_the_unit_card_shows_the_status_and_the_deck() -> None:
    scenario = parse_scenario(SCENARIO.read_text(encoding="utf-8"), SCENARIO.name)
    ruleset, state = start_game(scenario)
    adapter = find_adapter(NAME)
    unit = state.units[0]
    pinned = state.with_unit(replace(unit, statuses=frozenset({PINNED})))
    card = adapter.unit_card(pinned, pinned.unit(unit.id))
    assert card.status == "active" and card.statuses == (PINNED,)
    assert [(v.label, v.value) for v in card.values] == [
        ("actions left", "0"),
        ("initiative deck", "2 to draw"),
    ]
    assert adapter.turn(state, ruleset).kind == "auto"  # the initiative draw


def test_odds_answer_through_the_adapter(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", NAME, "--need", "5"]) == 0
    assert capsys.readouterr().out.strip() == "a shot needing 5+ hits 33.3%"
    assert main(["odds", NAME, "--need", "9"]) != 0
    assert "from 1 to 6, not 9" in capsys.readouterr().err

"""The seed-000 board memo (remembered path searches) never changes a battle: a battle played
after other battles, on other tables, gives the same events as one played from a cold start.
"""

from __future__ import annotations

from pathlib import Path

from engine.dice import SeededDice
from engine.rulesets.narrative_board import clear_board_memo
from engine.runner import controllers_for, play_battle, start_game
from engine.scenario import parse_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "assistant" / "data" / "scenarios"


def _battle(name: str, seed: int) -> list[dict]:
    scenario = parse_scenario((SCENARIOS / f"{name}.toml").read_text(encoding="utf-8"), name)
    ruleset, state = start_game(scenario)
    record = play_battle(state, ruleset, controllers_for(scenario), SeededDice(seed))
    return [ev.to_json() for ev in record.events]


def test_remembered_searches_do_not_change_a_battle() -> None:
    clear_board_memo()
    cold = _battle("ford-at-dawn", 4)
    _battle("crossroads-ambush", 4)
    _battle("watchtower-coop", 4)
    warm = _battle("ford-at-dawn", 4)  # the memo now holds searches of all three tables
    assert warm == cold
    clear_board_memo()
    assert _battle("ford-at-dawn", 4) == cold

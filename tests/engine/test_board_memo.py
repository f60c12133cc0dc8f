"""The board memo (remembered path searches) is a game's own and never changes a battle: a
battle played again from the same starting state, with the memo full of the first one's
searches, gives the same events as one from a cold start; another game's memo is another."""

from __future__ import annotations

from pathlib import Path

from engine.board import clear_board_memo
from engine.dice import SeededDice
from engine.model import GameState
from engine.protocols import Ruleset
from engine.runner import controllers_for, play_battle, start_game
from engine.scenario import Scenario, parse_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "assistant" / "data" / "scenarios"


def _start(name: str) -> tuple[Scenario, Ruleset, GameState]:
    scenario = parse_scenario((SCENARIOS / f"{name}.toml").read_text(encoding="utf-8"), name)
    ruleset, state = start_game(scenario)
    return scenario, ruleset, state


def _battle(start: tuple[Scenario, Ruleset, GameState], seed: int) -> list[dict]:
    scenario, ruleset, state = start
    record = play_battle(state, ruleset, controllers_for(scenario), SeededDice(seed))
    assert record.final.memo is state.memo  # the states of one game share its memo
    return [ev.to_json() for ev in record.events]


def test_remembered_searches_do_not_change_a_battle() -> None:
    ford = _start("ford-at-dawn")
    assert len(ford[2].memo) == 0
    cold = _battle(ford, 4)
    assert len(ford[2].memo) > 0
    other = _start("crossroads-ambush")
    assert other[2].memo is not ford[2].memo
    _battle(other, 4)
    _battle(ford, 5)
    warm = _battle(ford, 4)  # the memo now holds the searches of two ford battles
    assert warm == cold
    clear_board_memo(ford[2])
    assert len(ford[2].memo) == 0
    assert _battle(ford, 4) == cold


def test_the_memo_is_not_part_of_the_state() -> None:
    _, _, a = _start("ford-at-dawn")
    _, _, b = _start("ford-at-dawn")
    assert a == b and hash(a) == hash(b) and a.memo is not b.memo
    assert "memo=" not in repr(a)

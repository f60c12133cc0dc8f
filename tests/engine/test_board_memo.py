"""The board memo (remembered path searches) is a game's own and never changes a battle: a
battle played again from the same starting state, with the memo full of the first one's
searches, gives the same events as one from a cold start; another game's memo is another."""

from __future__ import annotations

import gc
import pickle
import weakref
from dataclasses import fields, replace
from pathlib import Path

import pytest

from engine.board import board_memo, clear_board_memo, per_state
from engine.boards.open import open_terrain
from engine.dice import SeededDice
from engine.memo import SHARED_TERRAINS, BoardMemo
from engine.model import GameState
from engine.protocols import Ruleset
from engine.rulesets.firefight_lite.board import squares
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


def test_a_per_state_answer_is_computed_once_from_the_arguments_given() -> None:
    """per_state takes the computation's arguments (no closure made per call): it is called
    with them once per state, and the answer is then found without calling it."""
    _, _, state = _start("ford-at-dawn")
    calls: list[tuple[object, ...]] = []

    def compute(*args: object) -> int:
        calls.append(args)
        return len(calls)

    assert per_state(state, ("test", 1), compute, "a", 2) == 1
    assert per_state(state, ("test", 1), compute, "b", 3) == 1  # found: not computed again
    assert calls == [("a", 2)]
    moved = replace(state, step=state.step + 1)
    assert per_state(moved, ("test", 1), compute, "c", 4) == 2  # another state, its own answer


def test_the_memo_is_not_part_of_the_state() -> None:
    _, _, a = _start("ford-at-dawn")
    _, _, b = _start("ford-at-dawn")
    assert a == b and hash(a) == hash(b) and a.memo is not b.memo
    assert "memo=" not in repr(a)


def _module_caches(path: Path) -> list[str]:
    """Module-level names bound to an empty (or one-``None``) list, dict or set literal, or
    decorated as a cache, in one engine source file, outside the registries of the catalogue."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in tree.body:
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        empty = (isinstance(value, ast.Dict) and not value.keys) or (
            isinstance(value, ast.List | ast.Set)
            and all(isinstance(e, ast.Constant) and e.value is None for e in value.elts)
        )
        if empty and isinstance(target, ast.Name):
            out.append(f"{path.name}: {target.id}")
    return out


def test_no_module_level_cache_holds_game_state() -> None:
    """Answers about a game live in its memo only (issue 25): no module global is a slot or a
    table filled as games are played (the catalogue's registries excepted)."""
    engine = Path(__file__).resolve().parents[2] / "engine"
    found = [
        hit
        for path in sorted(engine.rglob("*.py"))
        if path.name != "catalogue.py"
        for hit in _module_caches(path)
    ]
    assert found == []


def test_rulesets_and_states_stay_unwritten_after_play() -> None:
    """A ruleset object keeps nothing of a game, and no answer is written into a frozen state."""
    for name in ("bosworth-street", "skirmish-cairns", "dungeon-crawl", "d20-basic-battle"):
        scenario, ruleset, state = _start(name)
        before = dict(vars(ruleset))
        record = play_battle(state, ruleset, controllers_for(scenario), SeededDice(3))
        for s in (state, record.final):
            assert set(vars(s)) <= {f.name for f in fields(s)} | {"_hash"}, name
        assert vars(ruleset) == before, name


def _terrain_answers(state: GameState) -> object:
    return board_memo(state).terrain_answers


def test_games_of_one_scenario_share_their_terrain_answers() -> None:
    """The answers about the terrain (a grid game's squares, an open table's shapes) are built
    once per scenario object and ruleset: a second game reads the first one's (issue 25)."""
    for name in ("bosworth-street", "dungeon-crawl", "d20-basic-battle", "ford-at-dawn"):
        scenario, ruleset, first = _start(name)
        play_battle(first, ruleset, controllers_for(scenario), SeededDice(2))
        second = ruleset.new_game(scenario)
        assert second.memo is not first.memo, name
        shared = _terrain_answers(first)
        assert _terrain_answers(second) is shared and len(shared) > 0, name  # type: ignore[arg-type]
        assert open_terrain(second) is open_terrain(first), name
    _, ruleset, first = _start("bosworth-street")
    board = squares(first).board
    other_parse = _start("bosworth-street")[2]  # another scenario object: its own answers
    assert squares(other_parse).board is not board


def test_a_game_on_changed_terrain_answers_for_that_terrain() -> None:
    """A game whose terrain changes answers from the store of the new terrain (shared with a
    game that changes it alike, compared by value); the scenario's store keeps its answers for
    the other games, and clearing a game's memo keeps them too. Past ``SHARED_TERRAINS``
    terrains a game answers from a store of its own."""
    scenario, ruleset, first = _start("bosworth-street")
    board = squares(first).board
    shared = _terrain_answers(first)
    second = ruleset.new_game(scenario)
    changed = replace(second, terrain=second.terrain[1:])
    assert squares(changed).board is not board
    assert _terrain_answers(changed) is not shared
    alike = ruleset.new_game(scenario)
    alike = replace(alike, terrain=alike.terrain[1:])
    assert alike.terrain is not changed.terrain
    assert squares(alike).board is squares(changed).board
    third = ruleset.new_game(scenario)
    assert squares(third).board is board  # the shared answers were never cleared
    clear_board_memo(third)
    assert len(third.memo) == 0 and squares(third).board is board
    boards = []  # kept alive: their ids stay theirs
    for n in range(SHARED_TERRAINS + 1):
        game = ruleset.new_game(scenario)
        boards.append(squares(replace(game, terrain=game.terrain[:1] * n)).board)
    again = ruleset.new_game(scenario)
    assert squares(replace(again, terrain=())).board is boards[0]
    last = replace(again, terrain=again.terrain[:1] * SHARED_TERRAINS)
    assert squares(last).board is not boards[-1]  # that one was its game's own


def test_the_shared_answers_are_no_part_of_the_scenario() -> None:
    """Playing a scenario leaves it equal to a fresh parse of its file; a copy or a pickle of
    it starts with no answers, and another ruleset's games keep theirs apart."""
    scenario, ruleset, state = _start("bosworth-street")
    squares(state)
    fresh = _start("bosworth-street")[0]
    assert scenario == fresh
    for copy in (pickle.loads(pickle.dumps(scenario)), scenario.model_copy(deep=True)):
        assert copy == scenario
        game = ruleset.new_game(copy)
        assert squares(game).board is not squares(state).board
    other = scenario.game_memo("d20").for_terrain(state.terrain)  # same terrain, other rules
    assert other.terrain_answers is not _terrain_answers(state)


@pytest.mark.parametrize(
    "name", ["bosworth-street", "dungeon-crawl", "d20-basic-battle", "crossroads-ambush"]
)
def test_a_finished_game_is_freed_without_the_cycle_collector(name: str) -> None:
    """A state holds its memo; the memo must not hold the states back (a reference cycle per
    game would leave every finished game to the cycle collector, a cost on every game)."""
    scenario, ruleset, state = _start(name)
    memo = weakref.ref(state.memo)
    gc.collect()
    gc.disable()
    try:
        record = play_battle(state, ruleset, controllers_for(scenario), SeededDice(3))
        assert record.final.memo is memo()
        del record, state
        assert memo() is None
    finally:
        gc.enable()


class _Thing:
    """Something a memo answers for, or an answer (both can be weakly referenced)."""


def test_a_states_answers_go_with_the_state() -> None:
    """A state's answers are its own: they are dropped when the state is (the memo holds
    neither), so long games keep no dead states' answers alive."""
    memo = BoardMemo()
    state, other = _Thing(), _Thing()
    answer = _Thing()
    memo.answers_for(state)[("k",)] = answer
    assert memo.answers_for(state)[("k",)] is answer
    memo.answers_for(other)[("k",)] = 1
    kept = weakref.ref(answer)
    gc.disable()
    try:
        del answer, state
        assert kept() is None  # no cycle collector needed
        assert memo.answers_for(other) == {("k",): 1}
        answer = _Thing()
        memo.answers_for(other)[("last",)] = answer  # ``other`` is the last state asked
        kept = weakref.ref(answer)
        del answer, other
        assert kept() is None
    finally:
        gc.enable()

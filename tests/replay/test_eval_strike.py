"""The strike system read back from footage alone (issue 26 item 2) on an evaluation seed:
strike-causeway seed 101, its first 8 actions (6 moves, the Ranger Scout struck down and taken
off, then two more moves), rendered and replayed (tests/replay/eval_cut.py): rounds, fallen
and winner as played."""

from __future__ import annotations

import pytest

import assistant.replay.engine_branches as engine_branches
from assistant.replay.engine_replay import GameReplayer
from tests.replay.engine_rolls_battle import battle_footage
from tests.replay.eval_cut import assert_as_played, eval_cut


def test_strike_cut_on_an_evaluation_seed_replays_as_played(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    assert_as_played(eval_cut(tmp_path_factory, "strike-causeway", 101, 8))


def test_the_likeliest_oracle_pools_alone_open_the_round(monkeypatch: pytest.MonkeyPatch) -> None:
    # the Oracle pool (eight d6 a side) is weighed at its exact odds, its likeliest pools
    # tried first (engine.chance.likeliest): with no spread results at all, the first moves
    # of strike-causeway seed 1 still read as legal (the pool is no dead end)
    footage = battle_footage("strike-causeway", 1)
    monkeypatch.setattr(engine_branches, "SAMPLES", 0)
    result = GameReplayer("strike-causeway").replay(footage.moves[:2])
    legality = [e for e in result.events if e["kind"] == "legality"]
    assert legality and all(e["legal"] for e in legality), [e["text"] for e in legality]

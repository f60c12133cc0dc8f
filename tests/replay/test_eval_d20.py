"""The d20 system read back from footage alone (issue 26 item 2) on an evaluation seed:
d20-grid-skirmish seed 101, its first 22 actions (13 moves, the last in round 2), rendered and
replayed (tests/replay/eval_cut.py): rounds, fallen and winner as played."""

from __future__ import annotations

import pytest

from tests.replay.eval_cut import assert_as_played, eval_cut


def test_d20_cut_on_an_evaluation_seed_replays_as_played(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    assert_as_played(eval_cut(tmp_path_factory, "d20-grid-skirmish", 101, 22))

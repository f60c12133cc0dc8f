"""The card AI on its own streets read back from footage alone (issue 26 item 2) on an
evaluation seed: bosworth-street seed 101 (filmed in 4K, as its 10 mm tags need), its first 10
actions (4 moves; the cards drawn are never shown), rendered and replayed
(tests/replay/eval_cut.py): rounds, fallen and winner as played."""

from __future__ import annotations

import pytest

from tests.replay.eval_cut import assert_as_played, eval_cut


def test_cards_cut_on_an_evaluation_seed_replays_as_played(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    assert_as_played(eval_cut(tmp_path_factory, "bosworth-street", 101, 10, "4k"))

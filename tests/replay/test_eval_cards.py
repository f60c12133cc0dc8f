"""The card AI on its own streets read back from footage alone (issue 26 item 2) on an
evaluation seed: bosworth-street seed 103 (filmed in 4K, as its 10 mm tags need), its first 14
actions (3 moves over two rounds; the cards drawn are never shown), rendered and replayed
(tests/replay/eval_cut.py): rounds, fallen and winner as played.

Each moved figure hides its own tag where it is put down (81 %, 32 % and 100 % covered), and
the rests between the moves are about 2 s: the settle judge waited 3 s before taking the
figure's unexplained patch into the background, so the second and third moves read as one and
round 2 went unread. A still patch the size of a piece put down now settles the board
(vision/settle.py)."""

from __future__ import annotations

import pytest

from tests.replay.eval_cut import assert_as_played, eval_cut


def test_cards_cut_on_an_evaluation_seed_replays_as_played(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    cut = eval_cut(tmp_path_factory, "bosworth-street", 103, 14, "4k")
    assert cut.footage["moves"] == 3, cut.footage
    assert_as_played(cut)

"""The Dungeon Crawl read back from footage alone (issue 26 item 2) on an evaluation seed:
dungeon-crawl seed 102, its first 17 actions (13 moves; the Magic User fells Goblin 6, which
is taken off, then the Thief moves), rendered with its rolls in the dice tray as the benchmark
films it, and replayed (tests/replay/eval_cut.py): rounds, fallen and winner as played.

The goblin's removal is seen as a removal: its empty cell, between figures and walls, stands
out from the cells around it more than the figure did, which read as "a figure still stands
there" until the picture also asked whether the place kept the figure's colours
(assistant/replay/presence.py). Before, it read as a tag hidden, and the replay read round 2
and no fall (issue 26 item 3; the replay's reading of such a lost tag is
tests/replay/test_eval_lost_tag.py)."""

from __future__ import annotations

import pytest

from tests.replay.eval_cut import assert_as_played, eval_cut


def test_dungeon_cut_on_an_evaluation_seed_replays_as_played(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    cut = eval_cut(tmp_path_factory, "dungeon-crawl", 102, 17, dice="tray")
    assert (cut.footage["removed"], cut.footage["hidden"]) == (1, 0), cut.footage
    assert_as_played(cut)

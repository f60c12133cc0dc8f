"""The Dungeon Crawl read back from footage alone (issue 26 item 2) on an evaluation seed:
dungeon-crawl seed 102, its first 17 actions (13 moves; the Magic User fells Goblin 6, which
is taken off, then the Thief moves), rendered with its rolls in the dice tray as the benchmark
films it, and replayed (tests/replay/eval_cut.py): rounds, fallen and winner as played.

The tracker reads the goblin's removal as its tag hidden under its own figure (never seen
again). The fireball's die, seen in the tray, says the Magic User's attack happened; the
goblin it fells costs one misreading (the removal read as hidden), not the three of a model
the footage keeps on the table, and a story that ends the round to spend that die elsewhere
pays full price for its passes and the round begun (the seen die vouches only for the step
that rolled it). Before, the replay read round 2 and no fall (issue 26 item 3)."""

from __future__ import annotations

import pytest

from tests.replay.eval_cut import assert_as_played, eval_cut


def test_dungeon_cut_on_an_evaluation_seed_replays_as_played(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    assert_as_played(eval_cut(tmp_path_factory, "dungeon-crawl", 102, 17, dice="tray"))

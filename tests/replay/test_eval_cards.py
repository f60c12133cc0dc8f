"""The replay of a short cut of bosworth-street on an evaluation seed from the footage alone (issue 26
item 2): rounds, fallen and winner as played (tests/replay/eval_cut.py)."""

from __future__ import annotations

import pytest

from tests.replay.eval_cut import eval_cut


def test_cards_cut_on_an_evaluation_seed_replays_as_played(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    cut = eval_cut(tmp_path_factory, "bosworth-street", 103, 14, "4k")
    assert cut.engine_events
    assert cut.game["rounds"] == cut.rounds
    assert set(cut.game["fallen"]) == cut.fallen
    assert cut.game["winner"] == cut.winner

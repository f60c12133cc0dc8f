"""The engine's unseen steps are worked out once per state and seen dice in a replay (the
searches for a battle's removals reach the same states again), and remembering them changes
nothing the replay concludes."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import assistant.replay.engine_unseen as unseen
from assistant.replay.engine_replay import GameReplayer
from tests.replay.engine_rolls_battle import battle_footage

SCENARIO, SEED = "crossroads-ambush", 3


def test_each_state_s_unseen_steps_are_worked_out_once(monkeypatch: pytest.MonkeyPatch) -> None:
    footage = battle_footage(SCENARIO, SEED)
    worked: Counter[object] = Counter()
    work = unseen._steps

    def counted(game: Any, state: Any, seen: Any = None) -> Any:
        worked[(state, None if seen is None else tuple(seen))] += 1
        return work(game, state, seen)

    monkeypatch.setattr(unseen, "_steps", counted)
    game = GameReplayer(SCENARIO)
    remembered = game.replay(footage.moves, footage.removals, None, rolls=footage.rolls)
    assert worked and max(worked.values()) == 1

    # the same replay with nothing remembered: every step worked out afresh
    monkeypatch.setattr(unseen, "steps_from", lambda g, state, seen=None: work(g, state, seen))
    afresh = GameReplayer(SCENARIO).replay(
        footage.moves, footage.removals, None, rolls=footage.rolls
    )
    assert afresh == remembered
    assert game.unseen_steps  # kept for the replay just made, emptied by the next
    game.replay([], [])
    assert not game.unseen_steps

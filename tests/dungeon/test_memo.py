"""The Dungeon Crawl's answers kept per state in the game's memo (issue 25: the enemy
decision asks the same state several times; nothing is written into the frozen state)."""

from __future__ import annotations

from dataclasses import replace

from engine.protocols import PendingKind
from tests.dungeon.boards import acting, ruleset, started

FIGURES = (
    ("h1", "fighting_man", (0, 0), 180.0, "hero"),
    ("e1", "goblin", (3, 3), 0.0, "enemy"),
)


def test_a_states_decision_point_is_worked_out_once() -> None:
    """The same state answers ``pending`` with the one object; a state derived from it, even
    an equal one, gets its own answer (the memo is keyed by the state object)."""
    state = acting(started(5, 5, FIGURES), "e1")
    first = ruleset().pending(state)
    assert first.kind is PendingKind.CHOOSE_UNIT and first.candidates == ("e1",)
    assert ruleset().pending(state) is first
    twin = replace(state)
    assert ruleset().pending(twin) == first and ruleset().pending(twin) is not first
    assert "turn-order" not in str(vars(state))  # kept in the memo, not on the state

"""The replay's unseen steps come from the engine's decision driver (engine/decision.py), as
its short search before a move does: a choice the footage does not show branches over every
option the rules name (the table adapter's turn once listed none), and a side a person plays
at the table answers with stand-ins while the AI's side is asked for its orders."""

from __future__ import annotations

from assistant.replay.engine_replay import GameReplayer
from assistant.replay.engine_unseen import _steps
from engine.actions import Action, ActionKind
from engine.dice import SeededDice
from engine.protocols import PendingKind


def test_an_unseen_choice_branches_over_every_option() -> None:
    game = GameReplayer("bosworth-street")
    state = game.initial
    dice = SeededDice(1)
    while game.ruleset.pending(state).kind is PendingKind.CHANCE:
        state = game.ruleset.apply(state, Action(ActionKind.CHANCE), dice).state
    pending = game.ruleset.pending(state)
    assert pending.kind is PendingKind.CHOICE and pending.options == ("first", "second")
    steps = _steps(game, state)
    firsts = {after.rules.first for after, *_ in steps}  # type: ignore[attr-defined]
    other = next(s.name for s in state.sides if s.name != pending.side)
    assert len(steps) == 2 and firsts == {pending.side, other}

"""Two things a live game keeps for any ruleset (moved here from the old plug-in tests): a
CHOICE the player makes among named options on the page, and the AI's memory saved and
restored with the game."""

from __future__ import annotations

from pathlib import Path

from assistant.scenarios import load_game
from assistant.session.dice import AutoDice
from assistant.session.game import LiveGame, Stage
from assistant.session.store import load_saved, saver
from assistant.session.view import build_view
from engine.protocols import PendingKind, find_controller
from tests.session.virtual_table import VirtualTable, planned_game

CHOICE_SCENARIOS = ("strike-causeway", "bosworth-street")
MEMORY_SCENARIOS = ("d20-basic-battle", "d20-grid-skirmish")


def test_the_player_chooses_among_named_options_on_the_page() -> None:
    """At a CHOICE the page offers the options; a declared option is applied, an unknown
    word is answered in one sentence and changes nothing."""
    for name in CHOICE_SCENARIOS:
        for seed in range(1, 6):
            scenario, ruleset, state = load_game(name)
            said: list[str] = []
            ai = find_controller(scenario.scenario.ai_controller)
            game = LiveGame(scenario, ruleset, ai, AutoDice(seed), said.append, state)
            table = VirtualTable(game)
            for _ in range(200):
                table.step()
                if game.stage is Stage.HUMAN:
                    break
            pending = game.ruleset.pending(game.state)
            if pending.kind is not PendingKind.CHOICE:
                continue
            view = build_view(game)
            assert view.prompt is not None
            assert [o.action for o in view.prompt.options] == list(pending.options)
            step = game.state.step
            game.declare("sideways", None)
            assert game.state.step == step and said[-1].startswith("Choose one of: ")
            game.declare(pending.options[0], None)
            assert game.state.step > step  # applied (and the game moved on)
            return
    raise AssertionError("the player never had to choose")


def test_the_ai_memory_is_saved_and_restored_with_the_game(tmp_path: Path) -> None:
    for name in MEMORY_SCENARIOS:
        for seed in range(1, 4):
            game = planned_game(name, seed, AutoDice(seed), [])
            save = tmp_path / f"{name}-{seed}.json"
            game.on_saved = saver(save, name, seed)
            VirtualTable(game).play()
            if not any(m for _, m in game.state.memory):
                continue
            restored, _, _ = load_saved(save, lambda _text: None)
            assert restored.state.memory == game.state.memory
            assert restored.state == game.state
            return
    raise AssertionError("the AI never kept a memory")

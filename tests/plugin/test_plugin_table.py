"""The test-only ruleset at the table through its own adapter (registered from tests/plugin
only): a live game on the virtual table reaches the simulated outcome, the unit card shows
the status and the deck, ``soloscope odds plugin-test`` answers through the adapter."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.session.dice import AutoDice
from assistant.session.game import LiveGame
from assistant.tables import find_adapter
from engine.actions import ActionKind
from engine.dice import SeededDice
from engine.model import Role
from engine.protocols import find_controller
from engine.runner import play_battle, start_game
from engine.scenario import parse_scenario
from tests.plugin.ruleset import NAME, PINNED
from tests.session.virtual_table import VirtualTable

SCENARIO = Path(__file__).with_name("plugin.toml")


def test_a_live_game_on_the_virtual_table_reaches_the_simulated_outcome() -> None:
    scenario = parse_scenario(SCENARIO.read_text(encoding="utf-8"), SCENARIO.name)
    remembered = pinned_said = 0
    for seed in range(1, 9):
        ruleset, state = start_game(scenario)
        ai = {side.name: find_controller("plugin-ai") for side in scenario.sides}
        record = play_battle(state, ruleset, ai, SeededDice(seed))
        human = state.side_of_role(Role.HUMAN)
        assert human is not None
        plan = tuple(
            a
            for a in record.actions
            if (a.unit_id and state.unit(a.unit_id).side == human.name)
            or (a.kind in (ActionKind.PASS, ActionKind.CHOOSE) and a.side == human.name)
        )
        said: list[str] = []
        game = LiveGame(
            scenario=scenario,
            ruleset=ruleset,
            ai=find_controller("plugin-ai"),
            dice=AutoDice(seed),
            say=said.append,
            initial=state,
            human_plan=plan,
        )
        VirtualTable(game).play()
        assert game.state.winner == record.final.winner, seed
        assert game.state.round == record.final.round, seed
        assert [u.status for u in game.state.units] == [u.status for u in record.final.units]
        ai_side = state.side_of_role(Role.AI)
        assert ai_side is not None
        memory = game.state.memory_of(ai_side.name)  # the AI's last target, kept live too
        assert memory == record.final.memory_of(ai_side.name), seed
        remembered += bool(memory)
        pinned_said += any(s.endswith(" is pinned.") for s in said)
        assert said[-1].startswith(f"The battle is over: {record.final.winner} win")
    assert remembered, "the AI never kept a target in any game"
    assert pinned_said, "the adapter's words for a shot that pins were never spoken"


def test_the_unit_card_shows_the_status_and_the_deck() -> None:
    scenario = parse_scenario(SCENARIO.read_text(encoding="utf-8"), SCENARIO.name)
    ruleset, state = start_game(scenario)
    adapter = find_adapter(NAME)
    unit = state.units[0]
    pinned = state.with_unit(replace(unit, statuses=frozenset({PINNED})))
    card = adapter.unit_card(pinned, pinned.unit(unit.id))
    assert card.status == "active" and card.statuses == (PINNED,)
    assert [(v.label, v.value) for v in card.values] == [
        ("actions left", "0"),
        ("initiative deck", "2 to draw"),
    ]
    assert adapter.turn(state, ruleset).kind == "auto"  # the initiative draw


def test_odds_answer_through_the_adapter(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", NAME, "--need", "5"]) == 0
    assert capsys.readouterr().out.strip() == "a shot needing 5+ hits 33.3%"
    assert main(["odds", NAME, "--need", "9"]) != 0
    assert "from 1 to 6, not 9" in capsys.readouterr().err


def _live(seed: int, plan_for_human: bool = True) -> tuple[LiveGame, list[str]]:
    scenario = parse_scenario(SCENARIO.read_text(encoding="utf-8"), SCENARIO.name)
    ruleset, state = start_game(scenario)
    ai = {side.name: find_controller("plugin-ai") for side in scenario.sides}
    record = play_battle(state, ruleset, ai, SeededDice(seed))
    human = state.side_of_role(Role.HUMAN)
    assert human is not None
    plan = tuple(
        a
        for a in record.actions
        if (a.unit_id and state.unit(a.unit_id).side == human.name)
        or (a.kind in (ActionKind.PASS, ActionKind.CHOOSE) and a.side == human.name)
    )
    said: list[str] = []
    game = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller("plugin-ai"),
        dice=AutoDice(seed),
        say=said.append,
        initial=state,
        human_plan=plan if plan_for_human else (),
    )
    return game, said


def test_an_order_of_two_actions_is_spoken_whole_then_step_by_step() -> None:
    """The AI's "shoot twice" order: the second shot is taken from the order (as the runner
    does) and spoken as its next step, not decided again."""
    for seed in range(1, 9):
        game, said = _live(seed)
        VirtualTable(game).play()
        whole = [i for i, s in enumerate(said) if s.endswith("Why: shoot twice.")]
        steps = [i for i, s in enumerate(said) if s.startswith("Next: ")]
        if whole and steps:
            assert steps[0] > whole[0] and " shoots " in said[steps[0]]
            return
    raise AssertionError("no two-shot order was carried out in 8 seeds")


def test_the_ai_memory_is_saved_and_restored_with_the_game(tmp_path: Path) -> None:
    from assistant.session.store import load_saved, saver

    for seed in range(1, 9):
        game, _ = _live(seed)
        save = tmp_path / f"game-{seed}.json"
        game.on_saved = saver(save, str(SCENARIO), seed)
        VirtualTable(game).play()
        if not any(m for _, m in game.state.memory):
            continue
        restored, _, _ = load_saved(save, lambda _text: None)
        assert restored.state.memory == game.state.memory
        assert restored.state == game.state
        return
    raise AssertionError("the AI never kept a memory in 8 seeds")


def test_the_player_chooses_among_named_options_on_the_page() -> None:
    """At a CHOICE the page offers the options; a declared option is applied, an unknown
    word is answered in one sentence and changes nothing."""
    from assistant.session.game import Stage
    from assistant.session.view import build_view
    from engine.protocols import PendingKind

    for seed in range(1, 20):
        game, said = _live(seed, plan_for_human=False)
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
        assert game.state.step == step + 1
        assert game.ruleset.pending(game.state).kind is not PendingKind.CHOICE
        return
    raise AssertionError("the player never had to choose in 19 seeds")

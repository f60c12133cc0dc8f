"""The battle a demo films is the battle ``simulate`` plays: the footage's moves come from the
same actions (orders of several actions followed as the runner follows them, the controllers'
memory kept), and the stand-in player's own rolls travel in its declarations so that the table
rolls them too and its dice run as in the simulation."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.demo_clips import Outcome
from assistant.footage import (
    battle_moves,
    battle_scene,
    write_battle_footage,
    write_declarations,
)
from assistant.scenarios import bundled_scenarios, load_game
from assistant.session.dice import AutoDice
from assistant.session.game import LiveGame, Stage
from assistant.session.start import read_declarations, read_stand_in_rolls
from engine.dice import SeededDice
from engine.protocols import find_controller
from engine.runner import controllers_for, play_battle
from tests.session.virtual_table import VirtualTable
from vision.render.camera import Camera
from vision.render.sequence import Fetch, Sequence, moves_script

ALL = [b.name for b in bundled_scenarios()]


@pytest.mark.parametrize("name", ALL)
def test_the_filmed_battle_is_the_simulated_battle(name: str) -> None:
    scenario, ruleset, state = load_game(name)
    for seed in (1, 2):
        simulated = play_battle(state, ruleset, controllers_for(scenario), SeededDice(seed))
        filmed = battle_moves(scenario, ruleset, state, seed)
        assert filmed.actions == simulated.actions, (name, seed)
        assert filmed.final == simulated.final
        assert len(filmed.stand_in_rolls) == len(filmed.human_actions)
        # the hand can carry out every change: nothing is lifted that is not on the table
        Sequence(battle_scene(scenario, state), Camera.overhead("720p"), moves_script(filmed.moves))


def test_a_figure_an_event_brings_on_is_fetched_onto_the_table() -> None:
    scenario, ruleset, state = load_game("bosworth-market")
    filmed = battle_moves(scenario, ruleset, state, 1)
    entering = [m for m in filmed.moves if getattr(m, "entering", None) is not None]
    assert entering, "seed 1 brings a neutral figure on"
    script = moves_script(filmed.moves)
    assert [a.piece.name for a in script if isinstance(a, Fetch)] == [m.piece for m in entering]


@pytest.mark.parametrize("name", ["bosworth-street", "d20-grid-skirmish"])
def test_the_stand_in_players_rolls_keep_the_table_on_the_simulated_battle(
    name: str, tmp_path: Path
) -> None:
    """Their stand-ins (``random``, ``status-d20``) roll the game's dice as they decide; the
    table rolls the same before each declaration and reaches the simulated outcome."""
    scenario, ruleset, state = load_game(name)
    seed = 1
    simulated = play_battle(state, ruleset, controllers_for(scenario), SeededDice(seed))
    filmed = battle_moves(scenario, ruleset, state, seed)
    assert any(filmed.stand_in_rolls)
    declarations = tmp_path / "battle.declarations.jsonl"
    write_declarations(declarations, filmed)
    plan, rolls = read_declarations(declarations), read_stand_in_rolls(declarations)
    assert rolls == tuple(filmed.stand_in_rolls)

    def table(plan_rolls: tuple[tuple[int, ...], ...]) -> LiveGame:
        game = LiveGame(
            scenario=scenario,
            ruleset=ruleset,
            ai=find_controller(scenario.scenario.ai_controller),
            dice=AutoDice(seed),
            say=lambda text: None,
            initial=state,
            human_plan=plan,
            plan_rolls=plan_rolls,
        )
        player = VirtualTable(game)
        for _ in range(6000):
            if game.stage is Stage.OVER:
                break
            player.step()
        return game

    played = table(rolls)
    assert played.stage is Stage.OVER
    assert Outcome.of(played.state) == Outcome.of(simulated.final)
    # without them the game's dice run otherwise: another battle, which the declarations stop
    # fitting (the table waits for a declaration that never comes)
    assert Outcome.of(table(()).state) != Outcome.of(simulated.final)


def test_the_footage_writes_the_stand_ins_rolls_beside_its_declarations(tmp_path: Path) -> None:
    scenario, ruleset, state = load_game("d20-grid-skirmish")
    meta = write_battle_footage(
        scenario,
        "d20-grid-skirmish",
        ruleset,
        state,
        1,
        tmp_path,
        resolution="720p",
        fps=1.0,
        max_actions=12,
    )
    rolls = read_stand_in_rolls(tmp_path / meta["declarations"])
    filmed = battle_moves(scenario, ruleset, state, 1, 12)
    assert rolls == tuple(filmed.stand_in_rolls) and any(rolls)


def test_a_declarations_line_with_bad_rolls_is_named(tmp_path: Path) -> None:
    from assistant.errors import UserError

    path = tmp_path / "d.jsonl"
    path.write_text('{"kind": "pass", "side": "A", "stand_in_rolls": [6, "x"]}\n')
    with pytest.raises(UserError, match=r"d.jsonl: line 1: stand_in_rolls must be a list"):
        read_stand_in_rolls(path)

"""A saved game resumes in the very wait it was saved in: the AI's order is not decided again
(other dice, another card), nothing said is logged twice, and what it waits for is said again
aloud."""

from __future__ import annotations

from pathlib import Path

from assistant.live_commands import Command
from assistant.session.game import LiveGame, Stage
from assistant.session.store import load_saved, saver
from assistant.session.waiting import order_json
from tests.session.test_live_game import _game
from tests.session.virtual_table import VirtualTable


def _saved_at(tmp_path: Path, game: LiveGame, table: VirtualTable, stage: Stage) -> Path:
    save_file = tmp_path / "game.json"
    game.on_saved = saver(save_file, game.scenario.scenario.name, 2)
    table.run_until(stage)
    game.flush()
    return save_file


def _resumed(save_file: Path, game: LiveGame) -> tuple[LiveGame, list[str]]:
    heard: list[str] = []
    resumed, _, _ = load_saved(save_file, heard.append)
    resumed.human_plan = game.human_plan
    resumed.resume()
    return resumed, heard


def test_a_card_order_waiting_for_its_move_is_not_drawn_again(tmp_path: Path) -> None:
    game, said, _ = _game("bosworth-street", 2)
    table = VirtualTable(game)
    for _ in range(3):  # the third order of the card AI: its cards were drawn from a shuffle
        table.step()
    save_file = _saved_at(tmp_path, game, table, Stage.AI_ORDER)
    resumed, heard = _resumed(save_file, game)
    assert resumed.stage is Stage.AI_ORDER and order_json(resumed.order) == order_json(game.order)
    assert [a.text for a in resumed.announcements] == said  # nothing logged again
    assert heard == [game.adapter.order_text(game.state, game.order)]  # said again, aloud
    going_on = VirtualTable(resumed)
    going_on.poses = dict(table.poses)
    for _ in range(40):
        table.step()
        going_on.step()
    assert resumed.state == game.state and len(resumed.steps) == len(game.steps)
    assert [a.text for a in resumed.announcements] == said


def test_fallen_models_are_still_to_be_taken_off(tmp_path: Path) -> None:
    game, said, _ = _game("crossroads-ambush", 3)
    table = VirtualTable(game)
    save_file = _saved_at(tmp_path, game, table, Stage.REMOVAL)
    resumed, heard = _resumed(save_file, game)
    assert resumed.stage is Stage.REMOVAL and resumed.removals == game.removals
    names = " and ".join(sorted(game.state.unit(u).name for u in game.removals))
    assert heard == [f"Take {names} off the table."]
    assert [a.text for a in resumed.announcements] == said


def test_a_roll_asked_for_is_asked_again_aloud_only(tmp_path: Path) -> None:
    game, said, _ = _game("crossroads-ambush", 1, plan=False, physical=True)
    table = VirtualTable(game)
    save_file = tmp_path / "game.json"
    game.on_saved = saver(save_file, "crossroads-ambush", 1)
    game.observe(table.observation())
    game.command(Command(kind="dice", value=5))  # the initiative: the player's side first
    for _ in range(50):  # the player passes until the rules want a roll
        if game.stage is Stage.DICE:
            break
        if game.stage is Stage.HUMAN:
            game.declare("pass", None)
        else:
            table.step()
    resumed, heard = _resumed(save_file, game)
    assert resumed.stage is Stage.DICE and heard == [said[-1]] and said[-1].startswith("Roll a")
    assert [a.text for a in resumed.announcements] == said
    for live in (game, resumed):
        live.command(Command(kind="dice", value=4))
    assert resumed.state == game.state

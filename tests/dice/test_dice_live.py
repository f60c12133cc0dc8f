"""Camera dice at the virtual table (``play --dice camera``): every roll of a narrative battle
(initiative, attacks, a rout check) is rolled into a rendered tray and read by the camera;
a wrong count and a cocked die ask for a re-roll; a typed value corrects a reading."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
import pytest

from assistant.live_commands import Command
from assistant.scenarios import load_game
from assistant.session.camera_dice import (
    CameraDice,
    camera_dice_reader,
    problem_words,
    values_words,
    where_in_tray,
)
from assistant.session.dice import NeedRoll, QueuedDice
from assistant.session.game import LiveGame, Stage
from assistant.session.observation import Observation
from calibration.profile import TableProfile
from engine.actions import ActionKind
from engine.dice import SeededDice
from engine.model import Role
from engine.protocols import find_controller
from engine.runner import controllers_for, play_battle
from tests.session.virtual_table import VirtualTable
from vision.dice import DiceRead, DieFound, DieUnread, Unreadable, tray_view
from vision.render import Camera
from vision.render.dice import LOOKS, DiceScene, PlacedDie, cocked_against_wall, tray_beside_table
from vision.render.dice_draw import render_dice
from vision.render.dice_sets import calibrated_profile
from vision.types import Frame

SCENARIO, SEED = "crossroads-ambush", 5
"""A battle whose nine rolls include attacks and a rout check (seeded)."""

TRAY = tray_beside_table()
CAMERA = Camera.overhead("1080p")


@lru_cache(maxsize=16)
def tray_image(values: tuple[int, ...], cocked: bool = False) -> np.ndarray:
    """The table camera's picture of the tray holding dice showing ``values``."""
    spots = [(60.0, 70.0, 20.0), (130.0, 90.0, 65.0), (95.0, 40.0, 140.0)]
    dice = []
    for value, (u, v, yaw) in zip(values, spots, strict=False):
        x, y = TRAY.to_world(u, v)
        dice.append(PlacedDie(x, y, value, 16.0, LOOKS["white"], yaw_deg=yaw))
    if cocked:
        dice[-1] = cocked_against_wall(TRAY, dice[-1], "top", 30.0)
    image, _ = render_dice(DiceScene(TRAY, tuple(dice)), CAMERA)
    return image


@lru_cache(maxsize=1)
def profile() -> TableProfile:
    return calibrated_profile(tray_image(()))


def _game() -> tuple[LiveGame, list[str], list[int]]:
    scenario, ruleset, state = load_game(SCENARIO)
    seeded = SeededDice(SEED)
    record = play_battle(state, ruleset, controllers_for(scenario), seeded)
    human = state.side_of_role(Role.HUMAN)
    assert human is not None
    plan = tuple(
        a
        for a in record.actions
        if (a.unit_id and state.unit(a.unit_id).side == human.name)
        or (a.kind == ActionKind.PASS and a.side == human.name)
    )
    said: list[str] = []
    game = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller(scenario.scenario.ai_controller),
        dice=QueuedDice(),
        say=said.append,
        initial=state,
        human_plan=plan,
    )
    return game, said, [r.result for r in seeded.rolls]


class Tray:
    """Frames of the tray for the camera dice, at 0.25 s apart."""

    def __init__(self, dice: CameraDice) -> None:
        self.dice = dice
        self.t = 0.0

    def show(self, image: np.ndarray, frames: int = 4, buttons: tuple[str, ...] = ()) -> None:
        for _ in range(frames):
            self.t += 0.25
            self.dice.look(self.t, image, buttons)

    def roll(self, values: tuple[int, ...], cocked: bool = False) -> None:
        """The player picks up the dice and rolls: an empty tray, then the dice at rest."""
        self.show(tray_image(()), 1)
        self.show(tray_image(values, cocked))


def _view_for(image: np.ndarray):
    p = profile()
    assert p.tray is not None
    return tray_view(p.mapping(), p.tray, (image.shape[1], image.shape[0]))


def test_a_narrative_battle_rolled_into_the_tray() -> None:
    game, said, script = _game()
    dice = CameraDice(game, _view_for)
    tray = Tray(dice)
    table = VirtualTable(game)
    rolls = iter(script)
    mismatch_shown = False
    for _ in range(3000):
        if game.stage is Stage.OVER:
            break
        if game.stage is not Stage.DICE:
            table.step()
            continue
        value = next(rolls)
        assert said[-1].startswith("Roll 1 die into the tray for ")
        if not mismatch_shown:
            # two dice where one is wanted: said plainly, nothing entered
            tray.roll((value, 3))
            assert said[-1] == "I see 2 dice; roll just 1 die."
            assert game.stage is Stage.DICE and dice.reading is None
            mismatch_shown = True
        tray.roll((value,))
        assert said[-1].startswith(f"I read {values_words([value])}. Press done")
        tray.show(tray_image((value,)), 1, buttons=("done",))
        assert said[-1] != f"I read {values_words([value])}."  # it went on
    assert game.stage is Stage.OVER
    logged = [r for step in game.steps for r in step.rolls]
    assert [r.result for r in logged] == script
    purposes = {r.purpose.split(":")[0] for r in logged}
    assert {"initiative", "attack", "rout check"} <= purposes
    # the same battle as the simulation with the same dice
    scenario, ruleset, state = load_game(SCENARIO)
    record = play_battle(state, ruleset, controllers_for(scenario), SeededDice(SEED))
    assert game.state.winner == record.final.winner


def test_a_cocked_die_is_rolled_again_and_a_typed_value_wins() -> None:
    game, said, _ = _game()
    dice = CameraDice(game, _view_for)
    tray = Tray(dice)
    table = VirtualTable(game)
    while game.stage is not Stage.DICE:
        table.step()
    tray.roll((4,), cocked=True)
    assert "cocked near the top wall: re-roll it." in said[-1]
    assert game.stage is Stage.DICE
    tray.roll((6,))
    assert said[-1].startswith("I read a six.")
    before = len(game.dice.entered) + len(game.steps)
    game.command(Command(kind="dice", value=2))  # the player types the value instead
    assert len(game.dice.entered) + len(game.steps) > before
    tray.show(tray_image((6,)), 1, buttons=("done",))  # a late press enters nothing more
    assert game.steps[0].rolls[0].result == 2


def test_the_reader_wrapper_uses_done_for_a_reading_and_shows_the_tray() -> None:
    game, said, _ = _game()

    class Inner:
        def read(self, frame: Frame) -> Observation:
            return Observation(t=frame.t, settled=True, buttons=self.buttons)

        def topdown_jpeg(self, frame: Frame) -> bytes | None:
            return bytes(cv2.imencode(".jpg", np.zeros((300, 300, 3), np.uint8))[1])

    inner = Inner()
    inner.buttons = ()
    reader = camera_dice_reader(inner, game, profile())
    table = VirtualTable(game)
    while game.stage is not Stage.DICE:
        table.step()
    image = tray_image((5,))
    for k in range(6):
        reader.read(Frame(k, 0.3 * k, tray_image(()) if k == 0 else image))
    assert said[-1].startswith("I read a five.")
    assert reader.topdown_jpeg(Frame(6, 1.8, image)) != inner.topdown_jpeg(Frame(6, 1.8, image))
    inner.buttons = ("done",)
    obs = reader.read(Frame(7, 2.1, image))
    assert obs.buttons == ()  # used to confirm the roll, not passed on as "declare done"
    assert game.stage is not Stage.DICE or len(game.dice.entered) == 1


def test_words() -> None:
    assert values_words([6, 6, 6, 6, 5, 5]) == "four sixes and two fives"
    assert values_words([4]) == "a four"
    assert values_words([1, 6, 6]) == "two sixes and a one"
    cocked = DieUnread(Unreadable.COCKED, 10.0, 10.0, (100.0, 140.0))
    assert where_in_tray(cocked, (200.0, 150.0)) == "near the top wall"
    read = DiceRead(tuple(DieFound(3, 0.0, 0.0, 1.0) for _ in range(10)), (cocked,), (200.0, 150.0))
    assert problem_words(read, 11) == (
        "I see 11 dice, but one is cocked near the top wall: re-roll it."
    )


@pytest.mark.parametrize("sides", [8, 20])
def test_other_dice_are_typed(sides: int) -> None:
    game, _, _ = _game()
    dice = CameraDice(game, _view_for)
    text = dice.prompt(NeedRoll(sides, "a table"))
    assert "enter the result on the page" in text

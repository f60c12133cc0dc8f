"""The live assistant on rendered footage: the whole battle, a misplaced AI move corrected, an
illegal player move flagged, an unknown tag, and footage that ends mid-game then resumes.

Footage comes from the project's table renderer (the virtual camera) and the bundled sample
clip; frames go through the real detector and tracker.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import pytest

from assistant.footage import battle_scene, overhead_camera
from assistant.scenarios import load_game
from assistant.session.dice import AutoDice
from assistant.session.game import LiveGame, Stage
from assistant.session.start import SessionOptions, run_session
from engine.dice import SeededDice
from engine.protocols import find_controller
from engine.runner import controllers_for, play_battle
from tests.session.virtual_table import VirtualTable
from vision.render.clip import write_clip
from vision.render.effects import Effects
from vision.render.scene import PlacedPiece
from vision.render.sequence import HandLeave, Lift, Place, Wait, render_sequence
from vision.types import PieceSpec, TagId, TagMount

SAMPLE = Path(__file__).resolve().parents[2] / "sample_footage"
SCENARIO = "crossroads-ambush"


def _first_order_game(seed: int) -> LiveGame:
    """A live game at a virtual table, advanced to its first AI order or player turn."""
    scenario, ruleset, state = load_game(SCENARIO)
    game = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller(scenario.scenario.ai_controller),
        dice=AutoDice(seed),
        say=lambda text: None,
        initial=state,
    )
    VirtualTable(game).step()
    return game


def _seed_where(stage: Stage) -> int:
    for seed in range(1, 50):
        game = _first_order_game(seed)
        if game.stage is stage and (stage is not Stage.AI_ORDER or game.expected.moves):  # type: ignore[union-attr]
            return seed
    raise AssertionError(f"no seed starts with {stage}")


def _render(tmp: Path, script: list, extra: tuple[PlacedPiece, ...] = ()) -> Path:
    scenario, _, state = load_game(SCENARIO)
    scene = battle_scene(scenario, state)
    scene = replace(scene, pieces=scene.pieces + extra)
    camera = overhead_camera(scenario, "1080p")
    frames = render_sequence(
        scene, camera, script, 10.0, effects=Effects(noise_sigma=1.5, jpeg_quality=None)
    )
    video = tmp / "clip.mp4"
    write_clip(video, tmp / "clip.truth.json", frames, fps=10.0, scene=scene, camera=camera)
    return video


def _play(tmp: Path, video: Path, seed: int, **extra: object) -> tuple[LiveGame, list[str]]:
    opts = SessionOptions(
        source=str(video),
        scenario=SCENARIO,
        seed=seed,
        speech="off",
        serve=False,
        out=tmp / "run",
        **extra,
    )
    result = run_session(opts, echo=lambda text: None)
    return result.game, [a.text for a in result.game.announcements]


def test_misplaced_ai_move_is_corrected_on_footage(tmp_path: Path) -> None:
    seed = _seed_where(Stage.AI_ORDER)
    exp = _first_order_game(seed).expected
    assert exp is not None
    script = [
        Wait(2.0),
        Lift(exp.unit_id),
        Place(exp.x_in + 1.0, exp.y_in, exp.heading_deg),
        HandLeave(),
        Wait(2.5),
        Lift(exp.unit_id),
        Place(exp.x_in, exp.y_in, exp.heading_deg),
        HandLeave(),
        Wait(2.5),
    ]
    game, said = _play(tmp_path, _render(tmp_path, script), seed)
    corrections = [s for s in said if s.startswith("Move ") and "to the left" in s]
    assert corrections, said
    assert len(game.steps) >= 2, said  # initiative, then the AI's order carried out
    assert said.index(corrections[0]) < len(said) - 1


def test_illegal_player_move_is_flagged_on_footage(tmp_path: Path) -> None:
    seed = _seed_where(Stage.HUMAN)
    state = load_game(SCENARIO)[2]
    unit = state.unit("crossbow")
    script = [
        Wait(2.0),
        Lift(unit.id),
        Place(unit.x, unit.y + 9.0, unit.heading_deg),
        HandLeave(),
        Wait(2.5),
    ]
    game, said = _play(tmp_path, _render(tmp_path, script), seed)
    flagged = [s for s in said if "not legal" in s]
    assert flagged and "more than its 6 inch move" in flagged[0], said
    assert game.stage is not Stage.OVER and len(game.steps) == 1  # only the initiative roll


def test_unknown_tag_is_reported_once(tmp_path: Path) -> None:
    stranger = PlacedPiece(
        PieceSpec("stranger", (TagMount(TagId(37), forward_mm=0.0, size_mm=14.0),), 32.0),
        21.5,
        6.0,
        0.0,
        figure=None,
    )
    seed = _seed_where(Stage.HUMAN)
    _, said = _play(tmp_path, _render(tmp_path, [Wait(6.0)], extra=(stranger,)), seed)
    mentions = [s for s in said if "tag 37" in s]
    assert len(mentions) == 1 and "not part of this scenario" in mentions[0]


def _sample_meta() -> dict:
    path = SAMPLE / "crossroads-seed3.json"
    if not path.is_file():
        pytest.skip("sample_footage/crossroads-seed3.json is missing")
    return json.loads(path.read_text())


def test_demo_footage_reaches_the_simulated_outcome(tmp_path: Path) -> None:
    meta = _sample_meta()
    scenario, ruleset, state = load_game(meta["scenario"])
    simulated = play_battle(state, ruleset, controllers_for(scenario), SeededDice(meta["seed"]))
    game, said = _play(
        tmp_path,
        SAMPLE / meta["video"],
        meta["seed"],
        declarations=SAMPLE / meta["declarations"],
    )
    assert game.stage is Stage.OVER, said[-5:]
    assert game.state.winner == simulated.final.winner == meta["winner"]
    assert game.state.round == simulated.final.round
    assert [u.status for u in game.state.units] == [u.status for u in simulated.final.units]


def _split(video: Path, at_frame: int, tmp: Path) -> tuple[Path, Path]:
    cap = cv2.VideoCapture(str(video))
    fps = cap.get(cv2.CAP_PROP_FPS)
    parts = (tmp / "part_a.mp4", tmp / "part_b.mp4")
    writers = None
    index = 0
    while True:
        ok, image = cap.read()
        if not ok:
            break
        if writers is None:
            h, w = image.shape[:2]
            writers = [
                cv2.VideoWriter(str(p), cv2.VideoWriter_fourcc(*"mp4v"), fps, (w, h)) for p in parts
            ]
        writers[0 if index < at_frame else 1].write(image)
        index += 1
    cap.release()
    assert writers is not None
    for w in writers:
        w.release()
    return parts


def test_footage_ending_mid_game_is_saved_and_resumes(tmp_path: Path) -> None:
    meta = _sample_meta()
    truth = json.loads((SAMPLE / meta["truth"]).read_text())
    middle = len(truth["frames"]) // 2
    cut = next(f["frame"] for f in truth["frames"][middle:] if f["settled"])
    part_a, part_b = _split(SAMPLE / meta["video"], cut, tmp_path)
    declarations = SAMPLE / meta["declarations"]
    first, said = _play(tmp_path, part_a, meta["seed"], declarations=declarations)
    assert first.stage is not Stage.OVER
    assert any("ended before the battle did" in s for s in said)
    saved = tmp_path / "run" / "game.json"
    assert saved.is_file()
    opts = SessionOptions(
        source=str(part_b),
        speech="off",
        serve=False,
        resume=tmp_path / "run",
        declarations=declarations,
    )
    resumed = run_session(opts, echo=lambda text: None).game
    assert resumed.stage is Stage.OVER
    assert resumed.state.winner == meta["winner"]

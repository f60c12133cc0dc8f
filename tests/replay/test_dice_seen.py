"""Dice in the tray beside the table: rendered into footage, and read back by the replay
(issue 10: the camera sees every roll)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from assistant.footage import footage_tray, overhead_camera, write_battle_footage
from assistant.replay.dice_seen import SEEN, TrayWatch
from assistant.replay.run import ReplayOptions, ReplayResult, run_replay
from calibration.profile import build_profile
from calibration.table import CORNER_IDS
from engine.runner import start_game
from engine.scenario import parse_scenario
from tests.replay.dice_seen_truth import roll_scores
from vision.detector import Detector
from vision.render.dice_footage import ClearDice, ShowDice, roll_for
from vision.render.effects import Effects
from vision.render.scene import Scene, TableSpec
from vision.render.sequence import Sequence, Wait, render_sequence

STRIKE = Path(__file__).resolve().parents[1] / "strike" / "strike-duel.toml"
STRIKE_SEED = 14
"""A short battle: ten d6 rolls (the oracle pools, the roll-off), two moves, two removals."""


def _scenario(path: Path) -> Any:
    return parse_scenario(path.read_text(encoding="utf-8"), path.name)


def _table_scenario(width_in: float) -> Any:
    class _Table:
        def __init__(self, w: float) -> None:
            self.width_in = self.depth_in = w

    class _Scenario:
        table = _Table(width_in)

    return _Scenario()


@pytest.mark.parametrize("width_in", [24.0, 36.0])
def test_the_tray_is_in_view_of_the_footage_camera(width_in: float) -> None:
    """Both tray tags and the whole rolling area lie inside the overhead camera's picture, on
    the 24 x 24 in and the 36 x 36 in table."""
    scenario = _table_scenario(width_in)
    camera = overhead_camera(scenario)
    tray = footage_tray(scenario)
    corners = [(x, y, 0.0) for x, y in tray.corners_mm()]
    far = tray.to_world(tray.width_mm + tray.tag_mm, tray.depth_mm + tray.tag_mm)
    near = tray.to_world(-tray.tag_mm, -tray.tag_mm)
    px = camera.project([*corners, (*far, 0.0), (*near, 0.0)])
    assert (px[:, 0] > 8).all() and (px[:, 0] < camera.width_px - 8).all()
    assert (px[:, 1] > 8).all() and (px[:, 1] < camera.height_px - 8).all()
    assert tray.x_mm > width_in * 25.4  # off the play area


def _watch_clip(
    values: list[tuple[int, ...]], fps: float = 4.0, width_in: float = 24.0
) -> tuple[TrayWatch, Sequence]:
    scenario = _table_scenario(width_in)
    tray = footage_tray(scenario)
    scene = Scene(table=TableSpec(width_in, width_in), tray=tray)
    camera = overhead_camera(scenario)
    script: list[Any] = [Wait(0.5)]
    for k, v in enumerate(values):
        script += [ShowDice(roll_for(k + 1, tray, v)), ClearDice()]
    seq = Sequence(scene, camera, script)
    frames = list(render_sequence(scene, camera, seq, fps, effects=Effects(noise_sigma=1.5)))
    sightings = Detector().detect(frames[0][0].image)
    corners = {int(s.tag_id): np.asarray(s.corners_px) for s in sightings if s.tag_id in CORNER_IDS}
    profile = build_profile(corners, (camera.width_px, camera.height_px), width_in, width_in)
    watch = TrayWatch(profile)
    for frame, _ in frames:
        watch.look(frame.t, frame.image, sightings)
    return watch, seq


@pytest.mark.parametrize("width_in", [24.0, 36.0])
def test_rendered_dice_are_read_back_roll_by_roll(width_in: float) -> None:
    """Each ShowDice of the script is one roll found in the rendered frames, at the time the
    dice came to rest, with the values shown (the reader may call one of them unreadable: then
    it is "unknown" with no values, never a wrong value); the empty tray between rolls is no
    roll. On the 2 ft and the 3 ft table (the camera higher, the dice smaller in the picture)."""
    shown = [(2,), (5,), (6,), (4, 3)]
    watch, seq = _watch_clip(shown, width_in=width_in)
    starts = [seg.t0 for seg in seq.segments if seg.dice]
    assert len(watch.rolls) == len(shown)
    for roll, t0, values in zip(watch.rolls, starts, shown, strict=True):
        assert abs(roll.t_s - t0) <= 0.3
        if roll.known == SEEN:
            assert sorted(roll.values) == sorted(values)
        else:
            assert roll.values == ()
    assert sum(r.known == SEEN for r in watch.rolls) >= len(shown) - 1
    assert watch.reads <= 2 * len(shown) + 2  # read once per settled state, not every frame


def test_a_clip_with_no_dice_shows_no_roll() -> None:
    watch, _ = _watch_clip([])
    assert watch.view is not None  # the tray is found
    assert watch.rolls == []


def test_footage_without_a_tray_replays_as_before(replay: ReplayResult) -> None:
    """The standard rendered battle has no tray: no roll events, no rolls in the summary."""
    doc = json.loads((replay.out_dir / "timeline.json").read_text())
    assert not [e for e in doc["events"] if e["kind"] == "roll"]
    assert "rolls" not in doc["summary"]


@pytest.mark.slow
def test_a_short_battle_with_the_tray_gives_the_replay_every_roll(tmp_path: Path) -> None:
    """``soloscope footage --dice tray`` of a short battle: the replay from the footage alone
    finds the rolls in order with their values (a floor, not perfection)."""
    scenario = _scenario(STRIKE)
    ruleset, state = start_game(scenario)
    meta = write_battle_footage(
        scenario, str(STRIKE), ruleset, state, STRIKE_SEED, tmp_path / "clip", fps=5.0, dice="tray"
    )
    assert meta["dice"] == "tray"
    assert len(meta["rolls"]) == 10
    assert [r["t"] for r in meta["rolls"]] == sorted(r["t"] for r in meta["rolls"])
    assert all(r["purpose"] for r in meta["rolls"])
    run_replay(
        ReplayOptions(tmp_path / "clip" / meta["video"], tmp_path / "r", scenario=str(STRIKE))
    )
    doc = json.loads((tmp_path / "r" / "timeline.json").read_text())
    score = roll_scores(meta["rolls"], doc["events"])
    assert score["recall"] >= 0.9, score
    assert score["precision"] >= 0.9, score
    assert score["right"] >= 0.9 * score["matched"], score
    rolls = [e for e in doc["events"] if e["kind"] == "roll" and e.get("source") == "tray"]
    assert all(e["known"] in ("seen", "unknown") for e in rolls)
    assert doc["summary"]["rolls"]["seen"] + doc["summary"]["rolls"]["unknown"] == len(rolls)


def test_the_live_table_reader_never_calls_the_tray_an_unknown_tag() -> None:
    """The tray's tags 48/49 in view beside the table (dice in it) are not "a tag not part of
    this scenario" for the live session, nor tracked as pieces."""
    from assistant.footage import battle_scene
    from assistant.scenarios import load_game
    from assistant.session.reader import TableReader

    scenario, _, state = load_game("crossroads-ambush")
    tray = footage_tray(scenario)
    scene = replace(battle_scene(scenario, state), tray=tray)
    camera = overhead_camera(scenario)
    script = [Wait(0.2), ShowDice(roll_for(3, tray, (4,)), seconds=1.0)]
    frames = [f for f, _ in render_sequence(scene, camera, script, 4.0)]
    sightings = Detector().detect(frames[0].image)
    assert {48, 49} <= {int(s.tag_id) for s in sightings}
    corners = {int(s.tag_id): np.asarray(s.corners_px) for s in sightings if s.tag_id in CORNER_IDS}
    profile = build_profile(corners, (camera.width_px, camera.height_px), 24.0, 24.0)
    reader = TableReader(scenario, profile)
    observations = [reader.read(f) for f in frames]
    assert all(obs.unknown_tags == () for obs in observations)
    tracked = {int(p.tag_id) for p in reader.tracker.update(9.0, 99, sightings).tags}
    assert not tracked & {48, 49}

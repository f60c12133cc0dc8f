"""track, play and replay map the table themselves when given no profile, and judge the set-up
as calibrate does (issue 24): a camera tilted too far, or one that moved while the table was
mapped, is refused by calibrate; track and play refuse it from a live camera with the same
reason, and say that reason as a warning on footage, which cannot be filmed again (as the
replay does)."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import pytest
from synth_table import SynthCamera, corner_synth_tags, grid_tags, render

from assistant.cli import main
from assistant.errors import UserError
from assistant.replay.run import ReplayOptions, run_replay
from assistant.table_fit import checked_profile
from vision.detector import Detector
from vision.sources import open_source

TAGS = grid_tags(6, 16, 20.0)  # ids 16-21: base tags of the crossroads-ambush scenario


def _folder(root: Path, cameras: list[SynthCamera]) -> Path:
    for i, cam in enumerate(cameras):
        cv2.imwrite(str(root / f"f{i:02d}.png"), render(cam, corner_synth_tags() + TAGS))
    return root


@pytest.fixture(scope="module")
def setups(tmp_path_factory) -> dict[str, Path]:
    """Image folders of two set-ups calibrate refuses, each with 20 mm tags at 1080p: a camera
    tilted 40 degrees, and a camera sliding 2 mm a frame."""
    tilted = SynthCamera(tilt_deg=40.0, height_mm=700.0, focal_px=1000.0)
    sliding = [SynthCamera(centre_mm=(304.8 + 2.0 * i, 304.8)) for i in range(4)]
    return {
        "tilted": _folder(tmp_path_factory.mktemp("tilted"), [tilted] * 3),
        "moving": _folder(tmp_path_factory.mktemp("moving"), sliding),
    }


#: How each set-up's refusal starts and ends in calibrate's words.
REASONS = {
    "tilted": re.compile(r"the camera is tilted 40 deg .*? straight above the table's centre"),
    "moving": re.compile(r"the camera moved while the table was mapped .*? and keep it still"),
}


def _calibrate_reason(setup: str, source: Path, tmp_path: Path, capsys) -> str:
    """calibrate's sentence refusing this set-up (20 mm tags)."""
    args = ["calibrate", "--source", str(source), "--tag-mm", "20"]
    assert main([*args, "--save", str(tmp_path / "p.json")]) == 2
    err = capsys.readouterr().err
    found = REASONS[setup].search(err)
    assert found, err
    return found.group(0)


@pytest.mark.parametrize("setup", ["tilted", "moving"])
def test_from_a_camera_the_set_up_is_refused_with_calibrates_reason(
    setups, setup, tmp_path, capsys
):
    reason = _calibrate_reason(setup, setups[setup], tmp_path, capsys)
    frames = list(open_source(str(setups[setup])))
    with pytest.raises(UserError) as refused:
        checked_profile(frames, Detector(), 24, 24, source="0", tag_mm=20.0, live=True)
    assert reason in str(refused.value) and "would not track reliably" in str(refused.value)
    _, _, said = checked_profile(frames, Detector(), 24, 24, source="clip", tag_mm=20.0, live=False)
    assert any(reason in w and w.startswith("calibrate would refuse") for w in said)


@pytest.mark.parametrize("setup", ["tilted", "moving"])
def test_track_of_footage_says_calibrates_reason(setups, setup, tmp_path, capsys):
    reason = _calibrate_reason(setup, setups[setup], tmp_path, capsys)
    assert main(["track", str(setups[setup]), "--json", "--tag-mm", "20"]) == 0
    captured = capsys.readouterr()
    said = [line for line in captured.err.splitlines() if "calibrate would refuse" in line]
    assert any(reason in line for line in said), captured.err
    assert captured.out and "Traceback" not in captured.err


def test_play_of_footage_says_calibrates_reason_before_the_game(setups, tmp_path, capsys):
    reason = _calibrate_reason("moving", setups["moving"], tmp_path, capsys)
    args = ["play", "--source", str(setups["moving"]), "--scenario", "crossroads-ambush"]
    code = main([*args, "--no-page", "--speech", "off", "--out", str(tmp_path / "run")])
    out = capsys.readouterr().out
    assert code == 0, out
    warning = next(line for line in out.splitlines() if "calibrate would refuse" in line)
    assert warning.startswith("Warning: ") and reason in warning


@pytest.mark.parametrize("setup", ["tilted", "moving"])
def test_replay_goes_ahead_and_says_what_calibrate_would_refuse(setups, setup, tmp_path, capsys):
    reason = _calibrate_reason(setup, setups[setup], tmp_path, capsys)
    result = run_replay(ReplayOptions(footage=setups[setup], out_dir=tmp_path / "replay"))
    said = [w for w in result.warnings if "calibrate would refuse" in w]
    assert any(reason in w for w in said), result.warnings


def test_a_still_straight_camera_is_judged_for_the_tags_in_use(tmp_path, capsys):
    """At 1.43 px/mm, 10 mm tags are refused and 20 mm ones are not: track judges --tag-mm;
    the replay judges the scenario's smallest base tag, or without a scenario the smallest tag
    it sees."""
    still = _folder(tmp_path, [SynthCamera()] * 3)
    assert main(["track", str(still), "--json", "--tag-mm", "20"]) == 0
    assert "calibrate would refuse" not in capsys.readouterr().err
    assert main(["track", str(still), "--json", "--tag-mm", "10"]) == 0
    assert "10 mm tags are 14 px wide" in capsys.readouterr().err
    bare = run_replay(ReplayOptions(footage=still, out_dir=tmp_path / "bare"))
    assert not [w for w in bare.warnings if "calibrate would refuse" in w]
    options = ReplayOptions(footage=still, out_dir=tmp_path / "game", scenario="crossroads-ambush")
    assert not [w for w in run_replay(options).warnings if "calibrate would refuse" in w]


def test_a_replay_without_scenario_judges_the_tags_it_sees(tmp_path):
    small = tmp_path / "small"
    small.mkdir()
    tags = corner_synth_tags() + grid_tags(6, 16, 10.0)
    for i in range(3):
        cv2.imwrite(str(small / f"f{i:02d}.png"), render(SynthCamera(), tags, noise_seed=i))
    result = run_replay(ReplayOptions(footage=small, out_dir=tmp_path / "replay"))
    said = [w for w in result.warnings if "calibrate would refuse" in w]
    assert len(said) == 1 and re.search(r"\b10(\.\d)? mm tags are 14 px wide", said[0]), said

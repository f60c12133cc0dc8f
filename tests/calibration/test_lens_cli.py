"""``soloscope calibrate --lens``: folders and videos of real board photos in, a report out,
the intrinsics saved into the profile (kept entries untouched), bad input as one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from assistant.cli import main
from assistant.lens_cli import save_intrinsics
from calibration.intrinsics import from_arrays
from calibration.profile import load_intrinsics

REALDATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "realdata"
CHARUCO_DIR = REALDATA / "opencv_contrib" / "calib"
CHESS_DIR = REALDATA / "swatbotics_apriltag" / "calibration"
TUTORIAL_FLAGS = [
    "--board-dictionary",
    "DICT_6X6_250",
    "--squares",
    "5x7",
    "--square-mm",
    "40",
    "--marker-mm",
    "20",
]


@pytest.fixture
def charuco_folder(tmp_path: Path) -> Path:
    if not CHARUCO_DIR.is_dir():
        pytest.skip(f"real ChArUco photos not found under {CHARUCO_DIR}")
    folder = tmp_path / "views"
    folder.mkdir()
    for p in sorted(CHARUCO_DIR.glob("img_0*.jpg")):
        shutil.copy(p, folder / p.name)
    return folder


def test_folder_to_lens_only_profile(
    charuco_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    profile = tmp_path / "profile.json"
    args = ["calibrate", "--lens", "--source", str(charuco_folder), *TUTORIAL_FLAGS]
    assert main([*args, "--save", str(profile)]) == 0
    out = capsys.readouterr().out
    assert "views used: 3 of 3" in out and "reprojection error" in out
    assert "no board seen in these parts of the image: bottom left" in out
    data = json.loads(profile.read_text())
    assert data["version"] == 1 and set(data) == {"version", "intrinsics"}
    intr = load_intrinsics(profile)
    assert intr is not None and intr.image_size_px == (640, 480)
    assert abs(intr.fx_px / 452.51 - 1) < 0.025


def test_existing_profile_keeps_its_other_entries(charuco_folder: Path, tmp_path: Path) -> None:
    profile = tmp_path / "profile.json"
    before = {"version": 1, "table": {"width_in": 24, "depth_in": 24}, "intrinsics": None}
    profile.write_text(json.dumps(before))
    args = ["calibrate", "--lens", "--source", str(charuco_folder), *TUTORIAL_FLAGS]
    assert main([*args, "--save", str(profile)]) == 0
    after = json.loads(profile.read_text())
    assert after["table"] == before["table"]
    assert after["intrinsics"]["image_size_px"] == [640, 480]


def test_unreadable_profile_is_left_alone(
    charuco_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    profile = tmp_path / "profile.json"
    profile.write_text("{not json")
    args = ["calibrate", "--lens", "--source", str(charuco_folder), *TUTORIAL_FLAGS]
    assert main([*args, "--save", str(profile)]) == 2
    assert profile.read_text() == "{not json"
    assert "not changed" in capsys.readouterr().err


def test_video_keeps_only_new_views(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Six photos whose board places differ by 12 % of the image or more.
    photos = [p for k, p in enumerate(sorted(CHESS_DIR.glob("*.JPG"))) if k in (0, 2, 4, 6, 10, 12)]
    if len(photos) < 6:
        pytest.skip(f"chessboard photos not found under {CHESS_DIR}")
    video = tmp_path / "board.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 3.0, (816, 612))
    for p in photos:
        image = cv2.imread(str(p))
        for _ in range(3):  # the board held still: one view, not three
            writer.write(image)
    writer.release()
    args = ["calibrate", "--lens", "--source", str(video), "--board", "chessboard"]
    assert main([*args, "--pattern", "7x5", "--square-mm", "30"]) == 0
    out = capsys.readouterr().out
    assert "views used: 6 of 6" in out
    assert "looked at 18 images" in out


def test_no_board_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "blank"
    folder.mkdir()
    for k in range(3):
        cv2.imwrite(str(folder / f"{k}.png"), np.full((120, 160), 200, np.uint8))
    assert main(["calibrate", "--lens", "--source", str(folder)]) == 2
    err = capsys.readouterr().err.strip()
    assert "at least 3 views, found it in 0 of 3" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--squares", "5by7"], "--squares must look like 5x7"),
        (["--marker-mm", "30"], "must be positive and below --square-mm"),
        (["--board-dictionary", "DICT_NOPE"], "unknown ArUco dictionary"),
    ],
)
def test_bad_board_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], says: str
) -> None:
    assert main(["calibrate", "--lens", "--source", str(tmp_path), *flags]) == 2
    assert says in capsys.readouterr().err


def test_fixed_camera_controls_are_kept_beside_the_other_camera_settings(tmp_path: Path) -> None:
    profile = tmp_path / "profile.json"
    profile.write_text(json.dumps({"version": 1, "camera_settings": {"source": "0"}}))
    intr = from_arrays(np.diag([900.0, 900.0, 1.0]), [], (1920, 1080), "test")
    said = save_intrinsics(profile, intr, {"focus_automatic_continuous": 0, "focus_absolute": 40})
    assert said.startswith("updated")
    data = json.loads(profile.read_text())
    assert data["camera_settings"] == {
        "source": "0",
        "v4l2_controls": {"focus_automatic_continuous": 0, "focus_absolute": 40},
    }
    assert load_intrinsics(profile) == intr

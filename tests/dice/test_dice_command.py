"""``soloscope dice IMAGE_OR_SRC [--json]``: the contract line, the profile's tray, the whole
picture when there is no tray, plain one-line errors; and the reader on real photographs when
there are some (``../shared/realdata/dice``)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import cv2
import pytest

from assistant.cli import main
from calibration.profile import save_profile
from tests.dice.test_dice_live import profile as table_profile
from tests.dice.test_dice_live import tray_image
from vision.dice.train.realset import REALDATA, load_photos, match_points
from vision.render.dice import TRAY_SURFACES, DiceScene, random_roll, tray_beside_table
from vision.render.dice_draw import camera_over_tray, render_dice


@pytest.fixture(scope="module")
def roll(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("dice") / "roll.png"
    cv2.imwrite(str(path), tray_image((6, 2, 5)))
    return path


def test_json_is_the_contract(roll: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", str(roll), "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    record = json.loads(lines[0])
    assert list(record) == ["dice", "unreadable"]
    assert record["unreadable"] == 0
    assert sorted(d["value"] for d in record["dice"]) == [2, 5, 6]
    for d in record["dice"]:
        assert list(d) == ["value", "x", "y", "confidence"]
        assert 0.0 <= d["confidence"] <= 1.0
        assert 1500 < d["x"] < 1920 and 0 < d["y"] < 1080  # the tray is right of the table


def test_with_the_profile_and_in_words(
    roll: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "profile.json"
    save_profile(table_profile(), path)
    assert main(["dice", str(roll), "--profile", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "3 dice read: 6 5 2 (total 13)"


def test_a_photo_without_a_tray(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A close photo of dice on a cloth, no tags: the whole picture is read."""
    surface, colour = TRAY_SURFACES["dark_felt"]
    tray = tray_beside_table(surface=surface, surface_bgr=colour, tags=False)
    dice = random_roll(4, tray, 5, looks=("white", "red"), touching=0.0)
    image, truth = render_dice(DiceScene(tray, dice), camera_over_tray(tray, "1080p"))
    path = tmp_path / "photo.jpg"
    cv2.imwrite(str(path), image)
    assert main(["dice", str(path), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert Counter(d["value"] for d in record["dice"]) == Counter(d.value for d in truth.dice)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["dice", "no-such-picture.png"], "does not exist"),
        (["dice", "{roll}", "--max-frames", "0"], "--max-frames must be 1 or more"),
        (["dice", "{roll}", "--profile", "no-such-profile.json"], "does not exist"),
    ],
)
def test_bad_input_is_one_line(
    roll: Path, args: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([a.replace("{roll}", str(roll)) for a in args]) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1


def test_a_profile_of_another_resolution_is_refused(
    roll: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from dataclasses import replace

    path = tmp_path / "4k.json"
    save_profile(replace(table_profile(), image_size_px=(3840, 2160)), path)
    assert main(["dice", str(roll), "--profile", str(path)]) == 2
    assert "calibrate at this resolution" in capsys.readouterr().err


def test_real_photographs(capsys: pytest.CaptureFixture[str]) -> None:
    """``soloscope dice`` on real photos kept outside the project (``labels.json`` names each
    photo's dice): every value given lies on a labelled die of that value or on one whose
    value nobody can tell, in the command's own JSON."""
    if not (REALDATA / "labels.json").is_file():
        pytest.skip(f"no labelled real dice photos at {REALDATA} (../shared/realdata is absent)")
    photos = [p for p in load_photos() if p.source == "matteop65"][:3]
    for photo in photos:
        assert main(["dice", str(REALDATA / photo.file), "--json"]) == 0
        record = json.loads(capsys.readouterr().out)
        points = [(d["x"], d["y"]) for d in record["dice"]]
        for d, j in zip(record["dice"], match_points(photo, points), strict=True):
            assert j is not None, (photo.file, d)
            assert photo.dice[j].value in (d["value"], None), (photo.file, d)
        assert len(record["dice"]) + record["unreadable"] <= len(photo.dice)


def test_an_unsure_die_is_named_with_its_guess() -> None:
    """A die read under the confidence the reader gives values at is said unsure, with the
    value it looks like, and never listed among the dice read."""
    from assistant.commands.dice import describe
    from vision.dice import DiceRead, DieFound, DieUnread, Unreadable

    reading = DiceRead(
        (DieFound(5, 10.0, 20.0, 0.97),),
        (DieUnread(Unreadable.UNSURE, 40.0, 60.0, guess=4, confidence=0.72),),
    )
    assert describe(reading) == [
        "1 die read: 5 (total 5)",
        "unsure at x=40, y=60 px: it looks like a 4 (confidence 0.72); check it",
    ]
    assert reading.to_json()["unreadable"] == 1

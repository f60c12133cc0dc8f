"""The photo reader on real photographs of dice (``../shared/realdata/dice``, kept outside the
project; every test here skips when it is absent): the share read right on the tuning and on
the held-out photos, what a confidence of 0.9 or more is worth, unsure dice asked about with
their guess, and no die reported where there is none."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.dice.rolls import FLOORS
from vision.dice import SURE, DiceRead, Unreadable, read_dice
from vision.dice.train.realset import REALDATA, Photo, RealScore, load_photos

FOOTAGE = "sample_footage/crossroads-seed3"


def _photos() -> list[Photo]:
    if not (REALDATA / "labels.json").is_file():
        pytest.skip(f"no labelled real dice photos at {REALDATA} (../shared/realdata is absent)")
    return load_photos()


@lru_cache(maxsize=1)
def _readings() -> tuple[tuple[Photo, DiceRead], ...]:
    """Every labelled photo and the reader's reading of it (read once per test process)."""
    return tuple((p, read_dice(p.image())) for p in load_photos())


def _score(held_out: bool) -> RealScore:
    score = RealScore()
    for photo, reading in _readings():
        if photo.held_out == held_out:
            score.add(photo, reading)
    return score


@pytest.mark.parametrize("half", ["tuning", "held_out"])
def test_share_read_right(half: str) -> None:
    _photos()
    score = _score(half == "held_out")
    floor = FLOORS["real_photos"][half]["right_share"]
    assert score.right_share >= floor, score.line()


def test_a_value_given_is_right() -> None:
    """Of the values given (confidence 0.9 or more), at most 1 % wrong, on both halves."""
    _photos()
    score = _score(False)
    score.merge(_score(True))
    given = [ok for c, ok in score.confidences if c >= SURE]
    assert len(given) == score.right + score.wrong
    wrong = given.count(False)
    limit = FLOORS["real_photos"]["wrong_share_of_given"]
    assert wrong <= limit * len(given), "\n".join([score.line(), *score.wrong_cases])


def test_unsure_dice_carry_their_guess() -> None:
    _photos()
    unsure = [u for _, r in _readings() for u in r.unreadable if u.reason is Unreadable.UNSURE]
    assert unsure, "the real set has dice the reader cannot read surely"
    for u in unsure:
        assert u.guess in range(1, 7)
        assert 0.0 < u.confidence < SURE


def _empty_windows(photo: Photo, size: int = 160) -> list[tuple[int, int]]:
    """Top-left corners of windows of the photo that hold no labelled die (with a margin)."""
    h, w = photo.image().shape[:2]
    out = []
    for y in range(0, h - size + 1, size):
        for x in range(0, w - size + 1, size):
            if all(
                not (x - 40 <= d.x <= x + size + 40 and y - 40 <= d.y <= y + size + 40)
                for d in photo.dice
            ):
                out.append((x, y))
    return out


def test_no_die_where_there_is_none() -> None:
    """Every part of a real photo that holds no die (paper, felt, tray walls, desk, grid
    paper, the fisheye's dark border), read as a picture of its own: no die reported."""
    photos = _photos()
    seen = []
    windows = 0
    for photo in photos:
        image = photo.image()
        for x, y in _empty_windows(photo):
            reading = read_dice(image[y : y + 160, x : x + 160])
            windows += 1
            if reading.count:
                seen.append((photo.file, x, y, reading.values, len(reading.unreadable)))
    assert windows > 80
    assert not seen, seen


def test_no_value_on_the_footage_table() -> None:
    """The table of the sample footage, read as a whole picture of its own (no tray) on frames
    with no roll in the tray: the table holds no dice, and no value is ever given."""
    meta = json.loads(Path(f"{FOOTAGE}.json").read_text())
    busy = [(r["t"] - 0.6, r["t_out"] + 0.6) for r in meta["rolls"]]
    cap = cv2.VideoCapture(f"{FOOTAGE}.mp4")
    fps = float(meta["fps"])
    frames = 0
    try:
        index = 0
        while cap.grab():  # every frame decoded, only the frames looked at converted
            t = index / fps
            index += 1
            if (index - 1) % 100 or any(a <= t <= b for a, b in busy):
                continue
            ok, frame = cap.retrieve()
            assert ok, t
            table = np.ascontiguousarray(frame[:, :1400])  # the tray lies right of x = 1400
            assert read_dice(table).dice == (), t
            frames += 1
    finally:
        cap.release()
    assert frames >= 10

"""The dice renderer: seeded rolls that fit the tray, and truth that matches the picture."""

from __future__ import annotations

import numpy as np

from vision.render.dice import (
    COCKED_DEG,
    LOOKS,
    DiceScene,
    PlacedDie,
    cocked_against_wall,
    random_roll,
    tray_beside_table,
)
from vision.render.dice_draw import camera_over_tray, render_dice
from vision.render.dice_geometry import die_pose
from vision.render.effects import Effects

TRAY = tray_beside_table()


def test_rolls_fit_the_tray_and_are_seeded() -> None:
    dice = random_roll(3, TRAY, 40, sizes_mm=(12.0, 16.0, 19.0), touching=0.5, cocked=2)
    assert dice == random_roll(3, TRAY, 40, sizes_mm=(12.0, 16.0, 19.0), touching=0.5, cocked=2)
    assert len(dice) == 40 and sum(d.cocked for d in dice) == 2
    area = TRAY.polygon()
    flat = [d for d in dice if not d.cocked]
    for i, a in enumerate(flat):
        assert area.contains(a.footprint())
        for b in flat[i + 1 :]:
            assert a.footprint().intersection(b.footprint()).area < 0.1
    touching = sum(
        1
        for a in flat
        if any(a is not b and a.footprint().distance(b.footprint()) < 1.0 for b in flat)
    )
    assert touching >= 10


def test_poses_rest_on_the_floor_with_the_value_up() -> None:
    for value in range(1, 7):
        die = PlacedDie(0.0, 0.0, value, 16.0, yaw_deg=33.0, tilt_deg=3.0, tilt_dir_deg=120.0)
        pose = die_pose(die)
        assert pose.face_up() == value
        assert 7.5 < pose.centre_mm[2] < 9.0
    leaning = cocked_against_wall(TRAY, PlacedDie(0.0, 0.0, 4), "top", 30.0)
    assert leaning.cocked and leaning.tilt_deg > COCKED_DEG


def test_truth_matches_the_picture() -> None:
    x, y = TRAY.to_world(100.0, 75.0)
    dice = (
        PlacedDie(x, y, 6, 16.0, LOOKS["white"], yaw_deg=20.0),
        PlacedDie(x + 40.0, y, 3, 16.0, LOOKS["red"], yaw_deg=0.0, tilt_deg=30.0),
    )
    camera = camera_over_tray(TRAY, "720p")
    image, truth = render_dice(DiceScene(TRAY, dice), camera, effects=Effects.clean())
    white, red = truth.dice
    assert white.readable and white.value == 6 and white.visible == 1.0
    assert red.cocked and not red.readable
    cx, cy = (round(v) for v in white.centre_px)
    # a six has no centre pip: its face is bright there
    patch = image[cy - 2 : cy + 3, cx - 2 : cx + 3].astype(float)
    assert patch.mean() > 150
    corners = np.array(white.top_corners_px)
    assert 30 < np.linalg.norm(corners[1] - corners[0]) < 70  # 16 mm at about 3 px/mm
    assert set(truth.tags_px) == {48, 49}

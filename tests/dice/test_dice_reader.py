"""The d6 reader on rendered trays: 1 to 40 dice, 1080p and 4K, light and dark trays, white,
cream and red dice (plus yellow, blue and green), seen by the table camera with side faces
showing. Held: no value wrong, no side face counted as a die, touching dice told apart, a cocked
die reported unreadable, and the share read exactly at least the floors in
``accuracy_floors.json``."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.dice.rolls import FLOORS, read
from vision.dice import Unreadable, read_dice, tray_view
from vision.dice.faces import LAYOUT_MASKS, face_candidates
from vision.dice.pips import LAYOUTS, Pip, Polarity
from vision.render import Camera
from vision.render.dice import LOOKS, DiceScene, PlacedDie, tray_beside_table
from vision.render.dice_draw import render_dice
from vision.render.dice_sets import DiceSet, Score, calibrated_profile

SETS: dict[str, tuple[DiceSet, tuple[int, ...]]] = {
    "1080p_dark_felt_1": (DiceSet(n=1), (1, 2, 3)),
    "1080p_light_paper_12": (DiceSet(n=12, surface="light_paper"), (1, 2)),
    "4k_light_wood_12": (DiceSet(n=12, resolution="4k", surface="light_wood"), (1,)),
    "1080p_dark_felt_40": (DiceSet(n=40), (1,)),
    "4k_black_felt_40": (DiceSet(n=40, resolution="4k", surface="black_felt"), (1,)),
    "1080p_colours_12": (
        DiceSet(n=12, surface="dark_wood", looks=("yellow", "blue", "green")),
        (1,),
    ),
}


@pytest.mark.parametrize("name", sorted(SETS))
def test_rendered_trays(name: str) -> None:
    spec, seeds = SETS[name]
    score = Score()
    for seed in seeds:
        shot, reading = read(spec, seed)
        score.add(reading, shot.truth)
    floor = FLOORS["sets"][name]
    assert score.wrong == 0, score.line()
    assert score.extra == 0, f"a side face or a speck counted as a die: {score.line()}"
    assert score.not_flat_read == 0, score.line()
    assert score.exact_share >= floor["exact_share"], score.line()
    assert score.missed <= floor["missed"], score.line()


TRAY = tray_beside_table()
CAMERA = Camera.overhead("1080p")


def _read(dice: list[PlacedDie]):
    image, truth = render_dice(DiceScene(TRAY, tuple(dice)), CAMERA)
    profile = calibrated_profile(image)
    assert profile.tray is not None
    view = tray_view(profile.mapping(), profile.tray, (image.shape[1], image.shape[0]))
    return read_dice(image, view), truth


def _at(u: float, v: float, value: int, yaw: float = 0.0, look: str = "white") -> PlacedDie:
    x, y = TRAY.to_world(u, v)
    return PlacedDie(x, y, value, 16.0, LOOKS[look], yaw_deg=yaw)


def _nearest_value(reading, x: float, y: float) -> int | None:
    best = min(reading.dice, key=lambda d: math.hypot(d.x_px - x, d.y_px - y), default=None)
    if best is None or math.hypot(best.x_px - x, best.y_px - y) > 12:
        return None
    return best.value


def test_touching_dice_are_told_apart() -> None:
    """A row of three white dice pressed together, face to face, and a pair of another
    colour corner to corner: every one read, none merged."""
    yaw = 12.0
    a = math.radians(yaw)
    step = np.array([math.cos(a), -math.sin(a)]) * 16.2
    row = [_at(60 + k * step[0], 80 + k * step[1], v, yaw) for k, v in enumerate((2, 5, 3))]
    pair = [
        _at(140, 60, 4, 45.0, "red"),
        _at(140 + 8.0 + 8.0 * math.sqrt(2) + 0.3, 60, 6, 0.0, "red"),
    ]
    reading, truth = _read(row + pair)
    assert len(reading.dice) == 5 and not reading.unreadable
    for t in truth.dice:
        assert _nearest_value(reading, *t.centre_px) == t.value


def test_a_cocked_die_is_reported_not_read() -> None:
    flat = _at(100, 75, 5, 10.0)
    leaning = PlacedDie(
        flat.x_mm - 19.0,
        flat.y_mm,
        6,
        16.0,
        LOOKS["white"],
        yaw_deg=90.0,
        tilt_deg=32.0,
        tilt_dir_deg=90.0,
    )
    reading, _ = _read([flat, leaning])
    assert reading.count == 2
    assert [d.value for d in reading.dice] == [5]
    assert [u.reason for u in reading.unreadable] == [Unreadable.COCKED]


def test_side_faces_are_not_counted() -> None:
    """Single dice across the tray, each showing two side faces with pips to the camera."""
    dice = [_at(u, v, value, yaw) for u, v, value, yaw in [(20, 20, 6, 30), (180, 130, 5, 60)]]
    reading, _ = _read(dice)
    assert sorted(reading.values) == [5, 6] and not reading.unreadable


def _pips(points: np.ndarray, diameter: float = 8.0) -> list[Pip]:
    return [
        Pip(float(x), float(y), diameter / 2, diameter / 2, 0.0, Polarity.DARK, 80.0, 200.0)
        for x, y in points
    ]


@pytest.mark.parametrize("value", range(1, 7))
@pytest.mark.parametrize("turn", [0.0, 17.0, 45.0, 71.0])
def test_lattice_finds_each_face(value: int, turn: float) -> None:
    step = 13.0
    c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    pts = np.array(
        [[100 + step * (c * i - s * j), 80 + step * (s * i + c * j)] for i, j in LAYOUTS[value]]
    )
    faces = face_candidates(_pips(pts), (8.0, 20.0))
    if value == 1:
        assert faces == []  # a lone pip is judged by the reader (its face around it)
        return
    assert faces[0].value == value
    assert faces[0].residual < 0.05
    assert abs(faces[0].step - step) < 0.5


def test_layouts_are_distinct_under_turns() -> None:
    assert sorted(set(LAYOUT_MASKS.values())) == [1, 2, 3, 4, 5, 6]
    assert len(LAYOUT_MASKS) == 1 + 2 + 2 + 1 + 1 + 2


def test_two_touching_faces_never_make_one() -> None:
    """Two fours side by side: eight pips on one row of lattice places would fit no face."""
    step = 13.0
    side = step / 0.27
    pts = [(100 + dx + step * i, 80 + step * j) for dx in (0.0, side) for i, j in LAYOUTS[4]]
    faces = face_candidates(_pips(np.array(pts)), (8.0, 20.0))
    assert all(f.value <= 4 for f in faces)
    assert sum(1 for f in faces if f.value == 4) >= 2

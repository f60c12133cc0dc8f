"""The dice reader's two nets and what they are trained on: the committed weights are small
and load without PyTorch, the face reader's crop is the one trained on (centred, turned, sized
by the die), the finder marks a drawn die where it is, and the procedural pictures are seeded
and tell the truth of their dice."""

from __future__ import annotations

import json
import math

import cv2
import numpy as np
import pytest

from vision.dice import DiceRead, net
from vision.dice.net import CROP_PX, CROP_SIDES, crop
from vision.dice.train.scene import draw_scene


def test_the_weights_are_small_and_described() -> None:
    files = [net.FINDER_FILE, net.FACES_FILE, net.META_FILE]
    assert sum(f.stat().st_size for f in files) <= 5 * 1024 * 1024
    meta = json.loads(net.META_FILE.read_text())
    assert 0.3 <= meta["temperature"] <= 6.0
    assert 0.0 < meta["find_threshold"] < 1.0
    assert meta["faces"]["tuning_photos"] > 0 and meta["finder"]["windows"] > 0


def test_the_crop_is_centred_turned_and_sized_by_the_die() -> None:
    image = np.zeros((200, 300, 3), np.uint8)
    cv2.rectangle(image, (130, 70), (169, 109), (255, 255, 255), -1)  # a 40 px square
    cv2.circle(image, (160, 80), 4, (0, 0, 255), -1)  # a red mark near its top-right corner
    c = crop(image, (149.5, 89.5), 40.0)
    assert c.shape == (CROP_PX, CROP_PX, 3)
    inside = (c[..., 1] > 128).mean()
    assert abs(inside - 1 / CROP_SIDES**2) < 0.06  # the die fills 1/1.5^2 of the crop
    red = np.argwhere((c[..., 2] > 128) & (c[..., 1] < 100)).mean(axis=0)
    assert red[0] < CROP_PX / 2 and red[1] > CROP_PX / 2  # top right, as in the picture
    turned = crop(image, (149.5, 89.5), 40.0, 90.0)
    red = np.argwhere((turned[..., 2] > 128) & (turned[..., 1] < 100)).mean(axis=0)
    assert not (red[0] < CROP_PX / 2 and red[1] > CROP_PX / 2)  # moved by the quarter turn
    big = cv2.resize(image, None, fx=6, fy=6, interpolation=cv2.INTER_NEAREST)
    shrunk = crop(big, (149.5 * 6 + 2.5, 89.5 * 6 + 2.5), 240.0)
    assert np.abs(shrunk.astype(int) - c.astype(int)).mean() < 12  # the same view, any size


def test_the_finder_marks_a_drawn_die() -> None:
    rng = np.random.default_rng(5)
    for _ in range(20):
        scene = draw_scene(rng, (192, 192), (20.0, 40.0), max_dice=3, cocked_share=0.0)
        inside = [d for d in scene.dice if 20 < d.x < 172 and 20 < d.y < 172]
        if inside:
            break
    spots = net.find(scene.image, 16.0 / 30.0)
    for d in inside:
        assert any(math.hypot(s.x - d.x, s.y - d.y) < 0.35 * d.side for s in spots), (d, spots)


def test_procedural_pictures_are_seeded_and_true() -> None:
    a = draw_scene(np.random.default_rng(11), (128, 128), (16.0, 40.0))
    b = draw_scene(np.random.default_rng(11), (128, 128), (16.0, 40.0))
    assert np.array_equal(a.image, b.image) and a.dice == b.dice
    for d in a.dice:
        assert d.value in range(1, 7)
        assert 16.0 * 0.6 <= d.side <= 40.0 * 1.6
        if not d.cocked:
            assert len(d.pips) == d.value
            for x, y, _ in d.pips:
                assert math.hypot(x - d.x, y - d.y) < 0.5 * math.sqrt(2) * d.side


def test_the_learned_reader_on_the_held_out_real_photos() -> None:
    """The learned reader alone on the real photos never used to train or calibrate it: it
    finds nearly every die (read or asked about), and the values it gives with the confidence
    the dice reader takes from it alone (:data:`vision.dice.agree.ALONE`) are right."""
    import pytest

    from tests.dice.rolls import FLOORS
    from vision.dice.agree import ALONE
    from vision.dice.learned import read_learned
    from vision.dice.train.realset import REALDATA, RealScore, load_photos

    if not (REALDATA / "labels.json").is_file():
        pytest.skip(f"no labelled real dice photos at {REALDATA} (../shared/realdata is absent)")
    floors = FLOORS["learned_real_photos"]
    score = RealScore()
    for photo in load_photos():
        if photo.held_out:
            score.add(photo, read_learned(photo.image()))
    assert score.missed <= floors["held_out_missed"], score.line()
    assert score.right_share >= floors["held_out_right_share"], score.line()
    alone = [ok for c, ok in score.confidences if c >= ALONE]
    assert alone.count(False) <= 0.01 * len(alone), "\n".join([score.line(), *score.wrong_cases])


def test_a_big_die_is_given_only_where_the_pip_counter_finds_its_face() -> None:
    """The big rounded dice of a close photo (about 200 px) have a small dished five, which
    the face reader, seeing the die shrunk, takes for a six at 0.96-0.99: on a die that big the
    pip counter must find a face of the value, and finds none there (a tuning photo)."""
    import pytest

    from vision.dice.learned import read_learned
    from vision.dice.train.realset import REALDATA, load_photos, match

    if not (REALDATA / "labels.json").is_file():
        pytest.skip(f"no labelled real dice photos at {REALDATA} (../shared/realdata is absent)")
    photo = next(p for p in load_photos() if p.file == "rune55-14.jpg")
    assert not photo.held_out
    five = next(j for j, d in enumerate(photo.dice) if d.value == 5 and d.y < 300 and d.x > 300)
    got = match(photo, read_learned(photo.image()))[0][five]
    assert got is None or got[0] in (None, 5), got  # unsure (asked about), or read right


def test_the_temperature_is_fitted_on_the_probabilities_the_reader_gives() -> None:
    """The calibration reads each spot as the reader does (the same quarter turns)."""
    from vision.dice.learned import photo_spots
    from vision.dice.train.calibrate import mean_prob, reader_logits
    from vision.dice.train.data import Picture

    scene = draw_scene(np.random.default_rng(3), (160, 160), (24.0, 40.0), max_dice=3)
    logits, _ = reader_logits([Picture(scene.image, scene.dice)])
    assert logits.shape[1] == net.TURNS
    spots = photo_spots(scene.image)
    assert len(spots) == len(logits) > 0
    got = mean_prob(logits, net.meta().temperature)
    assert np.allclose(got, net.read_faces(scene.image, spots), atol=1e-4)


def test_a_value_the_pip_counter_counts_at_two_thresholds_is_confirmed() -> None:
    """A five of a tuning photo (nellbyler-7.jpg, about 31 px) that the face reader gives at
    0.83 and the pip counter counts at two of its thresholds is read."""
    import pytest

    from vision.dice.learned import read_learned
    from vision.dice.train.realset import REALDATA, load_photos, match

    if not (REALDATA / "labels.json").is_file():
        pytest.skip(f"no labelled real dice photos at {REALDATA} (../shared/realdata is absent)")
    photo = next(p for p in load_photos() if p.file == "nellbyler-7.jpg")
    assert not photo.held_out
    five = min(
        (j for j, d in enumerate(photo.dice) if d.value == 5),
        key=lambda j: math.hypot(photo.dice[j].x - 443, photo.dice[j].y - 334),
    )
    got = match(photo, read_learned(photo.image()))[0][five]
    assert got is not None and got[0] == 5, got


def test_the_pip_counter_is_not_asked_about_a_value_the_tray_reader_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In a tray's view the tray reader reads first; a value it gives at SURE or more that the
    face reader reads too on that die is not counted again (only its confidence could change),
    and the dice reader's values stay as they are with every die counted."""
    import vision.dice.learned as learned
    from tests.dice.rolls import rendered, view_of
    from vision.dice import SURE, read_dice
    from vision.dice.agree import agree
    from vision.dice.reader import read_view as read_pips
    from vision.render.dice_sets import DiceSet

    spec, seed = DiceSet(n=12, surface="light_paper"), 1
    image, view = rendered(spec, seed).image, view_of(spec, seed)
    asked: list[int] = []
    count = learned.count_pips

    def counting(*args: object, **kwargs: object) -> object:
        asked.append(1)
        return count(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(learned, "count_pips", counting)
    pips = read_pips(image, view)
    every = agree(pips, learned.read_view(image, view), tray=True)
    asked_every = len(asked)
    asked.clear()
    got = read_dice(image, view)
    assert asked_every > 0 and len(asked) < asked_every / 2

    def values(read: DiceRead) -> list[tuple[object, ...]]:
        return [(d.value, round(d.x_px), round(d.y_px)) for d in read.dice] + [
            (d.reason, d.guess, round(d.x_px), round(d.y_px)) for d in read.unreadable
        ]

    assert values(got) == values(every)
    assert all(d.confidence >= SURE for d in got.dice)

"""The synthetic camera's webcam faults (vision/render/faults.py): each does what it names, where
it should, as strong as its docstring says; off, they cost nothing; seeded, they repeat."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from assistant.cli import main
from vision.render import Camera, Effects, random_scene
from vision.render.faults import (
    DESK_LAMP,
    EXPOSURE_DRIFT_EV,
    FAULT_DISTORTION,
    FAULTS,
    GLARE_CORE_DN,
    GLARE_SHEEN_DN,
    GLARE_STICKER,
    MJPEG_QUALITY,
    NO_FAULTS,
    VIGNETTE,
    CameraFaults,
    glare_spot_mm,
    noise_sigma_dn,
    parse_faults,
)
from vision.render.pipeline import JpegLink
from vision.render.sequence import HandLeave, HandTo, Hover, Sequence, Wait, render_sequence

FPS = 5.0
PLAIN = Effects(vignette=0.0, light_gradient=0.0, blur_sigma_px=0.0, noise_sigma=0.0)
"""No optics and no static noise (JPEG 90 kept): what a fault adds stands out alone."""


@pytest.fixture(scope="module")
def camera():
    return Camera.overhead("720p", height_mm=800)


@pytest.fixture(scope="module")
def scene():
    return random_scene(seed=3, n_pieces=10, tag_size_mm=16.0, base_diameter_mm=40.0)


SWEEP = (Wait(0.4), Hover(((4.0, 4.0), (20.0, 20.0)), seconds=1.0), HandLeave(), Wait(0.2))


def clip(scene, camera, names, script=SWEEP, seed=1, effects=PLAIN):
    faults = CameraFaults(tuple(names))
    return list(
        render_sequence(scene, camera, script, FPS, effects=effects, seed=seed, faults=faults)
    )


def test_fault_names_presets_and_a_bad_name():
    assert parse_faults("noise, MJPEG").names == ("noise", "mjpeg")  # the pipeline's order
    assert parse_faults("webcam").names == FAULTS
    assert parse_faults("none") == parse_faults("") == parse_faults(None) == NO_FAULTS
    assert not NO_FAULTS and NO_FAULTS.key() == "none"
    assert parse_faults("glare,blur").key() == "blur+glare"
    with pytest.raises(ValueError, match="unknown camera fault 'fog'"):
        parse_faults("noise,fog")


def test_no_faults_render_exactly_as_before(scene, camera):
    plain = list(render_sequence(scene, camera, SWEEP, FPS, effects=Effects(), seed=2))
    none = list(
        render_sequence(scene, camera, SWEEP, FPS, effects=Effects(), seed=2, faults=NO_FAULTS)
    )
    assert len(plain) == len(none)
    assert all(np.array_equal(a.image, b.image) for (a, _), (b, _) in zip(plain, none, strict=True))


def test_every_fault_repeats_for_a_seed_and_noise_changes_with_it(scene, camera):
    a = clip(scene, camera, FAULTS, seed=4)
    b = clip(scene, camera, FAULTS, seed=4)
    c = clip(scene, camera, FAULTS, seed=5)
    assert all(np.array_equal(x.image, y.image) for (x, _), (y, _) in zip(a, b, strict=True))
    assert not np.array_equal(a[0][0].image, c[0][0].image)


def _hand_frames(frames):
    return [i for i, (_, t) in enumerate(frames) if t.hand_over_table]


def test_blur_smears_the_moving_hand_only(scene, camera):
    sharp = clip(scene, camera, ())
    blurred = clip(scene, camera, ("blur",))
    moving = _hand_frames(sharp)[1:-1]
    assert moving
    smeared = []
    for i in range(len(sharp)):
        diff = np.abs(sharp[i][0].image.astype(int) - blurred[i][0].image).max(axis=2) > 24
        if i not in moving:
            assert not diff.any(), i  # no hand, or a hand that has not moved yet: no blur
            continue
        assert diff.any(), i
        smeared.append(int(diff.sum()))
        # the smear lies along the hand's edges: the sharp hand's own edges blur away
        edges = cv2.Canny(cv2.cvtColor(sharp[i][0].image, cv2.COLOR_BGR2GRAY), 60, 120) > 0
        assert (diff & cv2.dilate(edges.astype(np.uint8), np.ones((5, 5))).astype(bool)).any()
    assert max(smeared) > 2000  # at full speed, 450 mm/s: 13 px at 720p
    # a hand held still is not blurred
    still = (Wait(0.2), HandTo(12.0, 12.0, seconds=0.4), Wait(0.8))
    a, b = clip(scene, camera, (), still), clip(scene, camera, ("blur",), still)
    assert np.array_equal(a[-1][0].image, b[-1][0].image)


def test_glare_lights_tag_stickers_only(scene, camera):
    x_mm, y_mm = glare_spot_mm(camera)  # a piece's tag (16 mm ahead of its centre) there
    first = scene.pieces[0]
    ahead = first.spec.tags[0].forward_mm
    scene = scene.with_piece_at(first.name, x_mm / 25.4, (y_mm + ahead) / 25.4, 180.0)
    effects = replace(PLAIN, jpeg_quality=None)
    plain = clip(scene, camera, (), (Wait(0.2),), effects=effects)
    glare = clip(scene, camera, ("glare",), (Wait(0.2),), effects=effects)
    a, b = plain[0][0].image.astype(int), glare[0][0].image.astype(int)
    brighter = (b - a).max(axis=2)
    assert (b >= a).all()
    peak = GLARE_CORE_DN + GLARE_SHEEN_DN
    assert peak - 15 <= brighter.max() <= peak + 1  # the highlight's centre on the tag
    stickers = np.zeros(a.shape[:2], np.uint8)
    for tag in plain[0][1].tags:
        quad = np.asarray(tag.corners_px)
        c = quad.mean(axis=0)
        sticker = (quad - c) * (GLARE_STICKER + 0.2) + c  # and its edge's anti-aliasing
        cv2.fillConvexPoly(stickers, np.round(sticker).astype(np.int32), 1)
    assert not brighter[stickers == 0].any()  # the mat is matt


def test_exposure_drifts_and_steps_down_under_the_hand(scene, camera):
    still = clip(scene, camera, ("exposure",), (Wait(3.6),))
    means = [float(f.image.mean()) for f, _ in still]
    gain = 2.0 ** (EXPOSURE_DRIFT_EV * math.sin(2 * math.pi * 1.6 / 7.0) / 2.2)
    assert max(means) / min(means) > 1.1
    assert means[8] / means[0] == pytest.approx(gain, rel=0.03)  # t = 1.6 s, below white
    hand = (Wait(0.2), HandTo(12.0, 12.0, seconds=0.3), Wait(2.0))
    drift = clip(scene, camera, ("exposure",), hand)
    plain = clip(scene, camera, (), hand)
    ratio = [
        float(f.image.mean()) / float(p.image.mean())
        for (f, _), (p, _) in zip(drift, plain, strict=True)
    ]
    expected_late = 2.0 ** ((EXPOSURE_DRIFT_EV * math.sin(2 * math.pi * 2.4 / 7.0) - 0.3) / 2.2)
    assert ratio[-1] == pytest.approx(expected_late, rel=0.03)  # settled on the hand's step


def test_noise_is_fresh_each_frame_and_as_strong_as_the_photon_curve(scene, camera):
    effects = replace(PLAIN, jpeg_quality=None)
    clean = clip(scene, camera, (), (Wait(0.4),), effects=effects)
    noisy = clip(scene, camera, ("noise",), (Wait(0.4),), effects=effects)
    grey = cv2.cvtColor(clean[0][0].image, cv2.COLOR_BGR2GRAY)
    flat = cv2.erode((cv2.Laplacian(grey, cv2.CV_16S) == 0).astype(np.uint8), np.ones((3, 3))) > 0
    d0 = noisy[0][0].image.astype(float) - clean[0][0].image
    d1 = noisy[1][0].image.astype(float) - clean[1][0].image
    level = float(clean[0][0].image[flat].mean())
    assert d0[flat].std() == pytest.approx(noise_sigma_dn(level), rel=0.2)
    assert abs(np.corrcoef(d0[flat].ravel(), d1[flat].ravel())[0, 1]) < 0.1


def test_mjpeg_is_the_webcam_quality_instead_of_the_link_default(scene, camera):
    effects = Effects()
    assert CameraFaults(("mjpeg",)).post(effects, 0) == (JpegLink(MJPEG_QUALITY),)
    assert NO_FAULTS.post(effects, 0) == (JpegLink(90),)
    assert NO_FAULTS.post(replace(effects, jpeg_quality=None), 0) == ()


def test_vignette_darkens_the_corners(scene, camera):
    assert CameraFaults(("vignette",)).effects(Effects()).vignette == VIGNETTE
    effects = replace(PLAIN, jpeg_quality=None)
    a = clip(scene, camera, (), (Wait(0.2),), effects=effects)[0][0].image.astype(float)
    b = clip(scene, camera, ("vignette",), (Wait(0.2),), effects=effects)[0][0].image.astype(float)
    assert b[:8, :8].mean() / a[:8, :8].mean() == pytest.approx(1 - VIGNETTE, abs=0.03)
    h, w = a.shape[:2]
    centre = (slice(h // 2 - 4, h // 2 + 4), slice(w // 2 - 4, w // 2 + 4))
    assert b[centre].mean() / a[centre].mean() > 0.98


def test_distortion_is_the_cameras_lens_and_its_truth(scene, camera):
    frames = clip(scene, camera, ("distortion",), (Wait(0.2),))
    truth = frames[0][1]
    assert truth.camera.dist == FAULT_DISTORTION
    assert CameraFaults(("distortion",)).camera(truth.camera) == truth.camera  # idempotent
    # the truth's corners are where the faulty lens puts them: a corner tag is dark there
    grey = cv2.cvtColor(frames[0][0].image, cv2.COLOR_BGR2GRAY)
    for tag in truth.tags[:4]:
        x, y = np.asarray(tag.corners_px).mean(axis=0)
        quad = np.asarray(tag.corners_px)
        inner = (quad - (x, y)) * 0.9 + (x, y)
        mask = np.zeros_like(grey)
        cv2.fillConvexPoly(mask, np.round(inner).astype(np.int32), 1)
        assert grey[mask > 0].mean() < 160  # the black square (and its cells) is there


def test_the_lamps_shadow_is_darker_and_longer_than_the_rooms(scene, camera):
    still = (Wait(0.2), HandTo(12.0, 12.0, seconds=0.4), Wait(0.4))
    effects = replace(PLAIN, jpeg_quality=None)
    base = clip(scene, camera, (), (Wait(0.2),), effects=effects)[0][0].image.astype(float)
    soft = clip(scene, camera, (), still, effects=effects)[-1][0].image.astype(float)
    hard = clip(scene, camera, ("shadow",), still, effects=effects)[-1][0].image.astype(float)

    def shade(image):
        ratio = (image.sum(axis=2) + 1) / (base.sum(axis=2) + 1)
        return ratio[(ratio < 0.95) & (ratio > 0.2)]

    assert shade(hard).size > 2 * shade(soft).size
    assert np.median(shade(hard)) == pytest.approx(1 - DESK_LAMP.strength, abs=0.08)


def test_a_still_and_a_clip_rendered_with_faults(tmp_path, capsys):
    out = tmp_path / "still.png"
    assert main(["render", "--out", str(out), "--faults", "glare,distortion", "--seed", "3"]) == 0
    doc = json.loads(out.with_suffix(".json").read_text())
    assert doc["faults"] == ["glare", "distortion"]
    assert doc["camera"]["dist"] == list(FAULT_DISTORTION)
    scene = tmp_path / "scene.json"
    script = [{"action": "wait", "seconds": 0.5}]
    scene.write_text(
        json.dumps({"camera": {"resolution": "720p"}, "random": {"n_pieces": 3}, "script": script})
    )
    clip_out = tmp_path / "clip.mp4"
    args = ["render", str(scene), "--out", str(clip_out), "--fps", "4", "--faults", "webcam"]
    assert main([*args, "--quiet"]) == 0
    assert "with camera faults blur+glare+shadow" in capsys.readouterr().out


@pytest.mark.parametrize(
    "command", [["render", "--out", "{tmp}/x.png"], ["footage", "duel", "--out", "{tmp}/f"]]
)
def test_an_unknown_fault_is_one_sentence(tmp_path, capsys, command):
    args = [a.format(tmp=tmp_path) for a in command]
    assert main([*args, "--faults", "mjpeg,fog"]) != 0
    err = capsys.readouterr().err
    assert "--faults: unknown camera fault 'fog'" in err and "Traceback" not in err


def test_footage_with_faults_lists_them_and_films_through_the_faulty_lens(tmp_path):
    from tests.render.test_progress import DUEL

    scenario = tmp_path / "duel.toml"
    scenario.write_text(DUEL, encoding="utf-8")
    out = tmp_path / "f"
    args = ["footage", str(scenario), "--fps", "2", "--resolution", "720p", "--out", str(out)]
    assert main([*args, "--quiet", "--faults", "distortion,noise"]) == 0
    meta = json.loads((out / "battle.json").read_text())
    assert meta["faults"] == ["distortion", "noise"]
    truth = json.loads((out / "battle.truth.json").read_text())
    assert truth["camera"]["dist"] == list(FAULT_DISTORTION)


def test_a_script_made_for_another_lens_is_refused(scene, camera):
    seq = Sequence(scene, camera, (Wait(0.2),))
    with pytest.raises(ValueError, match=r"faults\.camera"):
        list(render_sequence(scene, camera, seq, FPS, faults=CameraFaults(("distortion",))))
    lens = CameraFaults(("distortion",)).camera(camera)
    ok = Sequence(scene, lens, (Wait(0.2),))
    frames = list(render_sequence(scene, lens, ok, FPS, faults=CameraFaults(("distortion",))))
    assert frames[0][1].camera.dist == FAULT_DISTORTION

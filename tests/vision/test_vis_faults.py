"""Issue 24: the tracking floors hold under each webcam fault of the synthetic camera
(vision/render/faults.py), at the tag sizes the kit asks for under a 1080p and a 4K webcam.

Each fault alone, and all of them at once but the glare, is tracked over a short clip (3 fps: rest, a hand sweeping over the table, rest;
tests/vision/fault_clips.py), the faults that are post-processes sharing one render per camera.
Measured on the project's own renderer."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tests.vision.fault_clips import MM, Score, clip_camera, clip_scene, kit_tag_mm, score_faults
from vision.render.faults import FAULTS, GLARE_CORE_SIGMA_MM, PRESETS, CameraFaults, glare_spot_mm
from vision.render.frame import render_clean

FLOORS = json.loads(Path(__file__).with_name("accuracy_floors.json").read_text())["camera_faults"]
RESOLUTIONS = ("1080p", "4k")
ALL_BUT_GLARE = CameraFaults(tuple(f for f in PRESETS["webcam"] if f != "glare"))
"""Every fault at once but the glare: with the exposure drifting up and the noise on top of
the highlight, the tag in it is lost (measured: benchmarks/vision_bench.py, ``webcam``)."""
CASES = [CameraFaults()] + [CameraFaults((f,)) for f in FAULTS] + [ALL_BUT_GLARE]


@pytest.fixture(scope="module")
def scores() -> dict[str, dict[str, Score]]:
    """Every case's score at each camera size (rendered once per test session: the file runs
    on one worker)."""
    return {res: score_faults(res, CASES) for res in RESOLUTIONS}


def test_the_clips_use_the_kits_tags_and_one_lies_in_the_glare():
    assert kit_tag_mm("1080p") == 18.0 and kit_tag_mm("4k") == 10.0
    for resolution in RESOLUTIONS:
        cam = clip_camera(resolution)
        _, truth = render_clean(clip_scene(resolution, cam), cam.scaled(0.25))
        x, y = glare_spot_mm(cam)
        lit = [
            t
            for t in truth.tags
            if t.visible and math.hypot(t.x_in * MM - x, t.y_in * MM - y) < GLARE_CORE_SIGMA_MM
        ]
        assert lit and all(t.size_mm == kit_tag_mm(resolution) for t in lit), resolution


@pytest.mark.parametrize("resolution", RESOLUTIONS)
@pytest.mark.parametrize("faults", [c.key() for c in CASES])
def test_tracking_floors_hold_under_the_fault(scores, resolution, faults):
    s = scores[resolution][faults]
    figures = f"{faults} at {resolution}: {s}"
    assert s.frames >= 9 and s.visible >= 8 * s.frames, figures  # the clip was tracked
    assert s.recall >= FLOORS["recall"], figures
    assert s.false_ids <= FLOORS["false_ids"], figures
    assert s.centre_rms_mm <= FLOORS["centre_rms_mm"], figures
    assert s.heading_rms_deg <= FLOORS["heading_rms_deg"], figures

"""The pipeline on the bundled sample footage (a rendered battle with its ground truth): tags
found, none misplaced, no false ids, the settled flag within 0.2 s of the truth."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.intrinsics import from_arrays
from calibration.profile import build_profile
from vision.detector import Detector
from vision.tracker import TablePipeline, Tracker
from vision.types import Frame, TagState

FOOTAGE = Path(__file__).resolve().parents[2] / "sample_footage"
CLIP = FOOTAGE / "crossroads-seed3.mp4"
TRUTH = FOOTAGE / "crossroads-seed3.truth.json"
N_FRAMES = 250
FLOORS = json.loads(Path(__file__).with_name("accuracy_floors.json").read_text())["sample_footage"]


@pytest.fixture(scope="module")
def tracked():
    if not (CLIP.is_file() and TRUTH.is_file()):
        pytest.skip(f"sample footage {CLIP.name} or its truth is not in {FOOTAGE}")
    from vision.render.clip import load_truth

    truth = load_truth(TRUTH)
    cap = cv2.VideoCapture(str(CLIP))
    frames = []
    while len(frames) < N_FRAMES:
        ok, image = cap.read()
        if not ok:
            break
        frames.append(Frame(len(frames), len(frames) / truth.fps, image))
    cap.release()
    cam = truth.camera
    k = np.array([[cam.fx, 0, cam.cx], [0, cam.fy, cam.cy], [0, 0, 1.0]])
    lens = from_arrays(k, cam.dist, (cam.width_px, cam.height_px), "renderer truth")
    sightings = Detector().detect(frames[0].image)
    corners = {s.tag_id: s.corners_px for s in sightings if s.tag_id < 4}
    profile = build_profile(corners, (cam.width_px, cam.height_px), intrinsics=lens)
    pipe = TablePipeline(Detector(), Tracker(profile, pieces=list(truth.pieces)))
    snaps = [pipe.process(f) for f in frames]
    return frames, snaps, truth.frames[: len(frames)]


def test_tags_found_and_none_misplaced(tracked):
    _, snaps, truths = tracked
    visible = found = 0
    for snap, truth in zip(snaps[5:], truths[5:], strict=True):
        got = {p.tag_id: p for p in snap.tags if p.state == TagState.SEEN}
        on_table = {t.tag_id for t in truth.tags}
        assert set(got) <= on_table, f"false ids {set(got) - on_table} in frame {snap.frame_index}"
        for t in truth.tags:
            if t.tag_id < 4 or not t.visible:
                continue
            visible += 1
            p = got.get(t.tag_id)
            if p is None:
                continue
            found += 1
            err = math.hypot(p.x_in - t.x_in, p.y_in - t.y_in) * 25.4
            assert err <= FLOORS["misplaced_mm"], (snap.frame_index, t.tag_id, err)
    assert found / visible >= FLOORS["recall"]


def test_settled_flag_within_a_fifth_of_a_second(tracked):
    frames, snaps, truths = tracked
    times = np.array([f.t for f in frames])
    settled = np.array([t.settled for t in truths])
    for frame, snap in zip(frames, snaps, strict=True):
        if frame.t < 0.5:
            continue
        near = np.abs(times - frame.t) <= FLOORS["settled_tolerance_s"] + 1e-6
        assert snap.settled in set(settled[near].tolist()), frame.index

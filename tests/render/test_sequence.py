"""Scripted clips: hand actions, settled flags, camera nudges and the clip writer."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from vision.detector import Detector
from vision.errors import VisionError
from vision.render import Camera, Effects, random_scene
from vision.render.clip import load_truth, render_clip, write_clip
from vision.render.sequence import (
    Carry,
    HandLeave,
    Hover,
    Lift,
    NudgeCamera,
    PieceMove,
    PieceRemoval,
    Place,
    Sequence,
    Wait,
    moves_script,
    render_sequence,
)

FPS = 8.0


@pytest.fixture(scope="module")
def scene():
    return random_scene(11, n_pieces=6, base_diameter_mm=32.0, tag_size_mm=16.0)


@pytest.fixture(scope="module")
def camera():
    return Camera.overhead("1080p")


def _ids(image: np.ndarray) -> set[int]:
    return {int(s.tag_id) for s in Detector().detect(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))}


def test_a_carried_piece_leaves_the_table_and_lands_at_its_new_pose(scene, camera):
    name = scene.pieces[0].name
    tag_id = int(scene.pieces[0].spec.tags[0].tag_id)
    script = (
        Wait(0.5),
        Lift(name),
        Carry(((12.0, 14.0),)),
        Place(12.0, 12.0, 90.0),
        HandLeave(),
        Wait(0.5),
    )
    frames = list(render_sequence(scene, camera, script, FPS, effects=Effects.clean()))
    truths = [t for _, t in frames]
    assert truths[0].settled and truths[-1].settled
    unsettled = [t for t in truths if not t.settled]
    assert unsettled, "the hand over the table must unsettle the board"
    assert all(t.hand_over_table for t in unsettled)
    carried = [t for t in truths if not next(p for p in t.pieces if p.name == name).on_table]
    assert carried and all(not t.settled for t in carried)
    assert all(tag_id not in {g.tag_id for g in t.tags} for t in carried)
    end = next(p for p in truths[-1].pieces if p.name == name)
    assert end.on_table and (end.x_in, end.y_in, end.heading_deg) == (12.0, 12.0, 90.0)
    tag = truths[-1].tag(tag_id)
    assert abs(tag.x_in - 12.0) < 0.5 and tag.heading_deg == 90.0
    # The detector agrees: gone while carried, back at the end.
    mid = next(i for i, t in enumerate(truths) if t in carried)
    assert tag_id not in _ids(frames[mid][0].image)
    if tag.visible:
        assert tag_id in _ids(frames[-1][0].image)


def test_a_hovering_hand_hides_tags_without_moving_pieces(scene, camera):
    path = tuple((p.x_in, p.y_in) for p in scene.pieces[:4])
    seq = Sequence(scene, camera, (Wait(0.2), Hover(path), HandLeave(), Wait(0.3)))
    truths = [t for _, t in render_sequence(scene, camera, seq, FPS, effects=Effects.clean())]
    first = {p.name: (p.x_in, p.y_in, p.heading_deg) for p in truths[0].pieces}
    for t in truths:
        assert {p.name: (p.x_in, p.y_in, p.heading_deg) for p in t.pieces} == first
    hidden = [t for t in truths if t.hand_over_table]
    assert hidden and all(not t.settled for t in hidden)
    covered = {g.tag_id for t in hidden for g in t.tags if not g.visible}
    visible_at_start = {g.tag_id for g in truths[0].tags if g.visible}
    assert covered & visible_at_start, "the hand should cover some tag that was in view"
    assert truths[-1].settled


def test_a_camera_nudge_moves_the_view_and_unsettles_while_it_lasts(scene, camera):
    seq = Sequence(scene, camera, (Wait(0.3), NudgeCamera(4.0, -2.0, 0.5, 0.5), Wait(0.3)))
    truths = [t for _, t in render_sequence(scene, camera, seq, FPS, effects=Effects.clean())]
    assert truths[0].settled and truths[-1].settled
    assert any(not t.settled for t in truths)
    assert truths[-1].camera != camera
    before = np.asarray(truths[0].tag(0).corners_px)
    after = np.asarray(truths[-1].tag(0).corners_px)
    assert np.linalg.norm(before - after, axis=1).min() > 1.0


def test_moves_convert_to_a_script(scene, camera):
    a, b = scene.pieces[1].name, scene.pieces[2].name
    script = moves_script(
        [PieceMove(a, 6.0, 6.0, 45.0, via_in=((8.0, 8.0),)), PieceRemoval(b)], settle_s=0.5
    )
    seq = Sequence(scene, camera, script)
    final = seq.final_scene
    assert final.piece(a).x_in == 6.0 and final.piece(a).heading_deg == 45.0
    with pytest.raises(KeyError):
        final.piece(b)
    assert seq.state_at(seq.duration_s).hand is None
    with pytest.raises(ValueError, match="nothing in hand"):
        Sequence(scene, camera, (Place(1.0, 1.0, 0.0),))


def test_the_clip_writer_round_trips(tmp_path, scene):
    camera = Camera.overhead("720p")
    name = scene.pieces[3].name
    script = (Wait(0.25), Lift(name), Place(20.0, 4.0, 180.0), HandLeave(), Wait(0.25))
    mp4, truth_json = tmp_path / "clip.mp4", tmp_path / "clip.json"
    n = render_clip(mp4, truth_json, scene, camera, script, fps=FPS, seed=2)
    cap = cv2.VideoCapture(str(mp4))
    read = 0
    while True:
        ok, image = cap.read()
        if not ok:
            break
        assert image.shape == (720, 1280, 3)
        read += 1
    cap.release()
    assert read == n == Sequence(scene, camera, script).n_frames(FPS)
    doc = json.loads(truth_json.read_text())
    assert doc["version"] == 1 and doc["fps"] == FPS and len(doc["frames"]) == n
    assert {"K", "dist", "rvec", "tvec"} <= set(doc["camera"])
    loaded = load_truth(truth_json)
    assert loaded.camera == camera and len(loaded.frames) == n
    assert [f.frame for f in loaded.frames] == list(range(n))
    assert loaded.frames[0].settled and not all(f.settled for f in loaded.frames)
    last = next(p for p in loaded.frames[-1].pieces if p.name == name)
    assert (last.x_in, last.y_in, last.heading_deg, last.on_table) == (20.0, 4.0, 180.0, True)
    assert {p.name for p in loaded.pieces} == {p.name for p in scene.pieces}


def test_compact_gzipped_truth_round_trips(tmp_path, scene):
    camera = Camera.overhead("720p")
    frames = render_sequence(scene, camera, (Wait(0.25),), FPS)
    path = tmp_path / "t.json.gz"
    n = write_clip(
        tmp_path / "c.mp4", path, frames, fps=FPS, scene=scene, camera=camera, compact=True
    )
    assert path.read_bytes()[:2] == b"\x1f\x8b"
    loaded = load_truth(path)
    assert len(loaded.frames) == n == 3
    tag = loaded.frames[0].tag(int(scene.pieces[0].spec.tags[0].tag_id))
    assert tag.corners_px == () and tag.x_in == pytest.approx(scene.pieces[0].x_in, abs=1.0)
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 7}')
    with pytest.raises(VisionError, match="unknown ground-truth version 7"):
        load_truth(bad)

"""The frame pipeline (vision.render.pipeline): a clip drawn in layers — the board once per
board state, the hand per frame in the region it covers, still frames repeated — gives the
same pictures and truth as drawing every frame whole, and the clip writer keeps the encoder
busy on one thread while frames are drawn on another."""

from __future__ import annotations

import time
import warnings
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from vision.errors import VisionError
from vision.render import Camera, Effects, random_scene
from vision.render.clip import prefetched, write_clip
from vision.render.effects import apply_optics
from vision.render.frame import render_clean
from vision.render.hand import SKIN_BGR, HandPose
from vision.render.pipeline import FramePipeline, Instant, PictureBuffer
from vision.render.sequence import (
    Carry,
    Fetch,
    HandLeave,
    Hover,
    Lift,
    Place,
    Sequence,
    Wait,
    render_sequence,
    sequence_pictures,
)

FPS = 6.0
NO_NOISE = replace(Effects(), noise_sigma=0.0, jpeg_quality=None)
"""The optics of the default effects (light falloff, blur), no noise: the same every time."""


@pytest.fixture(scope="module")
def scene():
    return random_scene(11, n_pieces=8, base_diameter_mm=32.0, tag_size_mm=16.0)


@pytest.fixture(scope="module")
def camera():
    return Camera.overhead("720p")


def _script(scene):
    name = scene.pieces[0].name
    return (
        Wait(0.4),
        Lift(name),
        Carry(((12.0, 14.0),)),
        Place(12.0, 12.0, 90.0),
        HandLeave(),
        Wait(0.5),
        Hover(tuple((p.x_in, p.y_in) for p in scene.pieces[1:4])),
        HandLeave(),
        Wait(0.4),
    )


def test_frames_drawn_in_layers_equal_frames_drawn_whole(scene, camera):
    """The pictures (through the optics, without noise) and the truth, frame by frame: the
    boards after a lift and a placing drawn only where the piece was and is, the hand only
    where it reaches."""
    seq = Sequence(scene, camera, _script(scene))
    frames = list(render_sequence(scene, camera, seq, FPS, effects=NO_NOISE))
    assert len(frames) == seq.n_frames(FPS)
    with_hand = 0
    for frame, truth in frames:
        st = seq.state_at(frame.t)
        with_hand += st.hand is not None
        whole, whole_truth = render_clean(
            st.scene,
            st.camera,
            st.hand,
            off_table=st.off_table,
            frame=frame.index,
            t=frame.t,
            moving=st.moving,
        )
        assert np.array_equal(apply_optics(whole, NO_NOISE), frame.image), frame.index
        assert whole_truth == truth, frame.index
    assert with_hand > 10  # the hand was drawn in many of them, over the board and its tags
    assert any(not t.visible and t.covered_fraction > 0 for _, tr in frames for t in tr.tags)


def test_still_frames_repeat_and_each_board_state_is_drawn_once(scene, camera):
    seq = Sequence(scene, camera, _script(scene))
    pipeline = FramePipeline(scene.table, effects=Effects(noise_sigma=2.0, jpeg_quality=None))
    images = []
    for i in range(seq.n_frames(FPS)):
        st = seq.state_at(i / FPS)
        now = Instant(st.scene, st.camera, st.hand, st.off_table, st.dice, st.moving)
        image, truth = pipeline.frame(now, i, i / FPS)
        assert (truth.frame, truth.t) == (i, i / FPS)
        images.append(image)
    # the board before the lift, with the piece in the hand, and after it is set down; the
    # last two only where the piece was and is
    assert pipeline.boards_drawn == 3 and pipeline.boards_in_part == 2
    assert images[1] is images[0]  # the still start: the same picture (and noise)
    assert pipeline.frames_drawn < len(images)
    moving = [i for i in range(1, len(images)) if images[i] is not images[i - 1]]
    assert moving and all(not np.array_equal(images[i], images[i - 1]) for i in moving)


def test_a_post_process_runs_on_every_drawn_frame_and_can_ask_for_every_frame(scene, camera):
    seen: list[int] = []

    class Count:
        per_frame = True

        def __call__(self, image, shot):
            seen.append(shot.truth.frame)
            return image

    seq = Sequence(scene, camera, (Wait(1.0),))
    frames = list(render_sequence(scene, camera, seq, FPS, effects=NO_NOISE, post=(Count(),)))
    assert seen == [f.index for f, _ in frames]  # still, but processed frame by frame


def test_a_piece_fetched_from_beside_the_table_is_set_down(scene, camera):
    newcomer = replace(
        scene.pieces[0], spec=replace(scene.pieces[0].spec, name="newcomer", tags=())
    )
    script = (Fetch(newcomer, 6.0, 6.0), Place(6.0, 6.0, 45.0), HandLeave(), Wait(0.3))
    seq = Sequence(scene, camera, script)
    assert seq.final_scene.piece("newcomer").heading_deg == 45.0
    early = seq.state_at(0.2)
    assert [p.name for p in early.off_table] == ["newcomer"] and early.hand is not None
    with pytest.raises(ValueError, match="on the table already"):
        Sequence(scene, camera, (Fetch(scene.pieces[1], 1.0, 1.0),))


def test_the_writer_raises_what_drawing_the_frames_raised(tmp_path: Path, scene, camera):
    def frames():
        yield from render_sequence(scene, camera, (Wait(0.3),), FPS, effects=NO_NOISE)
        raise VisionError("the renderer broke")

    with pytest.raises(VisionError, match="the renderer broke"):
        write_clip(
            tmp_path / "x.mp4", tmp_path / "x.json", frames(), fps=FPS, scene=scene, camera=camera
        )


def test_prefetched_keeps_the_order_and_stops_with_its_consumer():
    assert list(prefetched(iter(range(50)), depth=2)) == list(range(50))
    made: list[int] = []

    def endless():
        n = 0
        while True:
            made.append(n)
            yield n
            n += 1

    taken = prefetched(endless(), depth=2)
    assert [next(taken) for _ in range(3)] == [0, 1, 2]
    taken.close()  # the consumer stops: the thread making items stops too
    count = len(made)
    assert count <= 3 + 2 + 2
    time.sleep(0.3)
    assert len(made) == count


def test_a_forearm_reaching_far_past_the_picture_is_drawn_whole(scene):
    """A low camera over a small board: the forearm reaches far outside the view, where the
    lens model no longer holds (it threw pixel coordinates of 10^8 before)."""
    low = Camera.overhead("720p", table_width_in=12, table_depth_in=12, height_mm=430)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        image, truth = render_clean(scene, low, HandPose(6.0, 0.5, 150.0))
    assert truth.hand_over_table
    bottom = image[-40:, 540:740].reshape(-1, 3).astype(int)
    skin = np.abs(bottom - np.array(SKIN_BGR)).sum(axis=1) < 60
    assert skin.mean() > 0.2  # the forearm runs out of the picture's bottom edge


def test_the_writers_buffer_paints_each_picture_whole(scene, camera):
    """The clip writer keeps one frame and pastes only what changes into it: each frame it
    writes equals the picture made whole."""
    seq = Sequence(scene, camera, _script(scene))
    buffer = PictureBuffer()
    patched = 0
    for _, _, picture, _ in sequence_pictures(scene, camera, seq, FPS, effects=NO_NOISE):
        patched += picture.box is not None
        assert np.array_equal(buffer.paint(picture), picture.image())
    assert patched > 10

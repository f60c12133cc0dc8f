"""Short rendered clips under each webcam fault, tracked and scored against their ground truth:
shared by the fault tests (tests/vision/test_vis_faults.py) and benchmarks/vision_bench.py.

A clip is a table of 20 pieces (one with its tag in the ceiling light's highlight) carrying the tags the kit sizes for the camera
(``calibration.kit_sizes``: the smallest tag read everywhere on a 2 ft table under a nominal
1080p or 4K webcam at its mounting height), resting, a hand sweeping over it, resting again.
Faults that change what the picture is made from (the lens, the optics, the shadow's light) are
rendered for themselves; the others are post-processes of one shared render
(:data:`RENDERED`), applied to its recorded frames as the renderer would.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from calibration.intrinsics import Intrinsics, from_arrays
from calibration.kit_sizes import reliable_mm
from calibration.kit_view import CAMERAS, nominal_height_mm, nominal_view
from calibration.profile import build_profile
from calibration.quality import reliable_tag_px
from vision.detector import Detector, to_grey
from vision.render import Camera, Effects, Scene, random_scene
from vision.render.faults import CameraFaults, glare_spot_mm
from vision.render.frame import FrameTruth, Image
from vision.render.pipeline import Shot
from vision.render.sequence import HandLeave, Hover, Wait, sequence_pictures
from vision.tracker import TablePipeline, Tracker
from vision.types import BoardSnapshot, Frame, TagState

MM = 25.4
TABLE_IN = 24.0
RENDERED = ("vignette", "distortion", "shadow")
"""Faults rendered for themselves; the rest post-process a shared render."""
BASE_MM = {"1080p": 40.0, "4k": 25.0}
"""The bases the kit's tags go on, millimetres (DESIGN's 25 mm base carries a 10 mm tag)."""
CONFIRMING_FRAMES = 3
"""Frames at the start of a clip while the tracker confirms its tags: not scored."""


def kit_tag_mm(resolution: str) -> float:
    """The tag side the kit asks for under a nominal ``resolution`` webcam over a 2 ft
    table, millimetres."""
    view = nominal_view(resolution, TABLE_IN, TABLE_IN)
    return reliable_mm(view.px_per_mm(), reliable_tag_px(CAMERAS[resolution]))


def clip_camera(resolution: str) -> Camera:
    """The nominal webcam over the 2 ft table, straight down at the kit's mounting height."""
    height = nominal_height_mm(TABLE_IN, TABLE_IN, resolution)
    return Camera.overhead(resolution, height_mm=height)


def truth_intrinsics(cam: Camera) -> Intrinsics:
    """The renderer's true lens, standing in for a lens calibration."""
    k = np.array([[cam.fx, 0, cam.cx], [0, cam.fy, cam.cy], [0, 0, 1.0]])
    return from_arrays(k, cam.dist, (cam.width_px, cam.height_px), "renderer truth")


@dataclass(frozen=True)
class Score:
    """Tracking accuracy over a clip's frames after confirmation."""

    frames: int
    recall: float
    """Of the tags the renderer says are visible (corner tags aside), the fraction seen."""
    false_ids: int
    """Ids reported as seen that are not on the table."""
    centre_rms_mm: float
    heading_rms_deg: float
    visible: int
    """Visible tag sightings scored."""


@dataclass
class _Recorder:
    """A post-process that keeps every frame's picture and shot (and changes nothing)."""

    frames: list[tuple[Image, Shot]]
    per_frame: bool = True

    def __call__(self, image: Image, shot: Shot) -> Image:
        self.frames.append((image, shot))
        return image


def clip_scene(resolution: str, cam: Camera) -> Scene:
    """The clip's table: 20 pieces with the kit's tags, the first one's tag in the ceiling
    light's highlight (``glare``), facing the player."""
    scene = random_scene(
        seed=11,
        n_pieces=20,
        tag_size_mm=kit_tag_mm(resolution),
        base_diameter_mm=BASE_MM[resolution],
    )
    x_mm, y_mm = glare_spot_mm(cam)
    tag_ahead_mm = scene.pieces[0].spec.tags[0].forward_mm
    scene = scene.with_piece_at(scene.pieces[0].name, x_mm / MM, (y_mm + tag_ahead_mm) / MM, 180.0)
    return scene


def record(
    resolution: str, rendered: CameraFaults, fps: float, seed: int
) -> list[tuple[Image, Shot]]:
    """The clip's frames before post-processing, rendered with the faults of ``rendered``."""
    cam = rendered.camera(clip_camera(resolution))
    scene = clip_scene(resolution, cam)
    path = ((3.0, 4.0), (12.0, 20.0), (21.0, 5.0))
    script = (Wait(1.0), Hover(path, seconds=1.6), HandLeave(), Wait(1.0))
    frames: list[tuple[Image, Shot]] = []
    recorder = _Recorder(frames)
    for _ in sequence_pictures(
        scene, cam, script, fps, effects=Effects(), seed=seed, post=(recorder,), faults=rendered
    ):
        pass
    return frames


def processed(
    frames: Iterable[tuple[Image, Shot]], faults: CameraFaults, seed: int
) -> Iterator[tuple[Frame, FrameTruth]]:
    """The recorded frames through the post-processing ``faults`` add (the link's JPEG
    included), as the renderer would have made them."""
    stages = faults.post(faults.effects(Effects()), seed)
    last: tuple[Image, Image] | None = None
    for image, shot in frames:
        if last is not None and last[0] is image and not any(s.per_frame for s in stages):
            out = last[1]  # a still picture: the renderer repeats the frame
        else:
            out = image
            for stage in stages:
                out = stage(out, shot)
        last = (image, out)
        yield Frame(shot.truth.frame, shot.truth.t, out), shot.truth


def track(frames: list[tuple[Frame, FrameTruth]]) -> Score:
    """Calibrate on the first frame (the renderer's lens as the lens calibration), track the
    clip, score it after confirmation."""
    first, truth = frames[0]
    cam = truth.camera
    seen = Detector().detect(to_grey(first.image))
    corners = {x.tag_id: x.corners_px for x in seen if x.tag_id < 4}
    profile = build_profile(
        corners, (cam.width_px, cam.height_px), TABLE_IN, TABLE_IN, intrinsics=truth_intrinsics(cam)
    )
    pipe = TablePipeline(Detector(profile.dictionary), Tracker(profile))
    snaps = [pipe.process(frame) for frame, _ in frames]
    return score_snapshots(snaps, [truth for _, truth in frames], CONFIRMING_FRAMES)


def score_snapshots(
    snapshots: Iterable[BoardSnapshot], truths: Iterable[FrameTruth], first_frame: int
) -> Score:
    """The tracker's snapshots scored against the frames' truth from frame ``first_frame``
    on (corner tags aside)."""
    found = visible = scored = 0
    false_ids: set[int] = set()
    err: list[float] = []
    hdg: list[float] = []
    for snap, truth in zip(snapshots, truths, strict=True):
        if snap.frame_index < first_frame:
            continue
        scored += 1
        got = {p.tag_id: p for p in snap.tags if p.state == TagState.SEEN}
        false_ids |= set(got) - {t.tag_id for t in truth.tags}
        for t in truth.tags:
            if t.tag_id < 4 or not t.visible:
                continue
            visible += 1
            p = got.get(t.tag_id)
            if p is None:
                continue
            found += 1
            err.append(math.hypot(p.x_in - t.x_in, p.y_in - t.y_in) * MM)
            hdg.append((p.heading_deg - t.heading_deg + 180.0) % 360.0 - 180.0)
    return Score(
        frames=scored,
        recall=found / max(visible, 1),
        false_ids=len(false_ids),
        centre_rms_mm=math.sqrt(float(np.mean(np.square(err)))) if err else math.nan,
        heading_rms_deg=math.sqrt(float(np.mean(np.square(hdg)))) if hdg else math.nan,
        visible=visible,
    )


def score_faults(
    resolution: str, faults: Iterable[CameraFaults], fps: float = 3.0, seed: int = 1
) -> dict[str, Score]:
    """Each set of faults' score at ``resolution`` (by :meth:`CameraFaults.key`), the faults
    that share a render scored on one render, one render held at a time."""
    groups: dict[tuple[str, ...], list[CameraFaults]] = {}
    for f in faults:
        rendered = tuple(n for n in f.names if n in RENDERED)
        groups.setdefault(rendered, []).append(f)
    scores: dict[str, Score] = {}
    for rendered, members in groups.items():
        frames = record(resolution, CameraFaults(rendered), fps, seed)
        for f in members:
            scores[f.key()] = track(list(processed(frames, f, seed)))
    return scores

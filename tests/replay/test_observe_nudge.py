"""A camera bumped by a few millimetres between two frames: the replay's observer re-fits the
table mapping on the frame after the bump, not at its next whole-frame search.

Once, a bump of 4 mm and 0.4 degrees in the middle of a rendered ford-at-dawn battle changed
the picture only along sharp edges; the corner tags' old sightings stood, the drift check saw
nothing for two seconds, and four pieces (two of them terrain) were read as moved."""

from __future__ import annotations

import numpy as np

from assistant.footage import battle_scene, overhead_camera
from assistant.replay.observe import FrameObserver, make_detector
from assistant.scenarios import load_game
from calibration.profile import build_profile
from calibration.table import CORNER_IDS
from vision.render.effects import Effects, apply_effects
from vision.render.frame import render_clean

FPS = 10.0


def _frames() -> list[np.ndarray]:
    scenario, _, state = load_game("ford-at-dawn")
    scene = battle_scene(scenario, state)
    camera = overhead_camera(scenario)
    rng = np.random.default_rng(3)
    still, _ = render_clean(scene, camera)
    # the bump takes 0.2 s: one frame half way, then the camera at rest in its new place
    half, _ = render_clean(scene, camera.nudged(2.0, -1.0, 0.2))
    moved, _ = render_clean(scene, camera.nudged(4.0, -2.0, 0.4))
    effects = Effects(noise_sigma=1.5, jpeg_quality=None)
    shots = (still, still, still, half, moved, moved, moved, moved)
    return [apply_effects(img, effects, rng) for img in shots]


def test_a_small_bump_is_refitted_on_the_next_frame() -> None:
    frames = _frames()
    detector = make_detector()
    corners = {
        int(s.tag_id): np.array(s.corners_px)
        for s in detector.detect(np.asarray(frames[0][:, :, 1]))
        if s.tag_id in CORNER_IDS
    }
    assert len(corners) == 4
    h, w = frames[0].shape[:2]
    observer = FrameObserver(build_profile(corners, (w, h)), detector)
    refits = []
    for i, image in enumerate(frames):
        mapping = observer.tracker.mapping
        observer.observe(i / FPS, i, image)
        if observer.tracker.mapping is not mapping:
            refits.append(i)
    # the bump is seen as it happens (frame 3) and where the camera comes to rest (frame 4);
    # the whole frame is searched only every 2 s
    assert refits and refits[0] == 3 and 4 in refits, refits

"""The virtual camera: orientation conventions, pose angles, distortion maps, serialisation."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.render import NO_DISTORTION, Camera, Effects, random_scene, render_frame
from vision.render.camera import ideal_canvas
from vision.render.effects import add_noise

CENTRE = (304.8, 304.8, 0.0)


def test_the_far_edge_is_at_the_top_and_x_grows_to_the_right():
    cam = Camera.overhead("1080p", dist=NO_DISTORTION)
    c, right, far = cam.project([CENTRE, (404.8, 304.8, 0.0), (304.8, 404.8, 0.0)])
    assert c == pytest.approx((cam.cx, cam.cy), abs=1e-6)
    assert right[0] > c[0] + 100 and right[1] == pytest.approx(c[1], abs=1e-6)
    assert far[1] < c[1] - 100 and far[0] == pytest.approx(c[0], abs=1e-6)


def test_tilt_yaw_and_roll_turn_the_view_as_documented():
    tilted = Camera.overhead("1080p", dist=NO_DISTORTION, tilt_deg=5.0)
    assert tilted.project([CENTRE])[0][1] > tilted.cy + 50, "looking toward +y: centre drops"
    rolled = Camera.overhead("1080p", dist=NO_DISTORTION, roll_deg=5.0)
    assert rolled.project([CENTRE])[0][0] < rolled.cx - 50, "looking toward +x: centre moves left"
    yawed = Camera.overhead("1080p", dist=NO_DISTORTION, yaw_deg=90.0)
    c, east = yawed.project([CENTRE, (404.8, 304.8, 0.0)])
    assert east[1] < c[1] - 100, "with yaw 90 the image's up is +x"


def test_opencv_pose_matches_the_projection():
    cam = Camera.overhead("4k", tilt_deg=2.0, yaw_deg=-3.0, roll_deg=1.0)
    pts = np.array([[0.0, 0.0, 0.0], [609.6, 609.6, 3.0], [100.0, 500.0, 50.0]])
    px, _ = cv2.projectPoints(pts, cam.rvec, cam.tvec, cam.camera_matrix, cam.dist_coeffs)
    assert np.allclose(px.reshape(-1, 2), cam.project(pts))
    assert Camera.from_dict(cam.to_dict()) == cam
    centre_cam = cam.to_camera([cam.position_mm])[0]
    assert np.allclose(centre_cam, 0.0, atol=1e-9)


def test_the_lens_maps_invert_the_distortion():
    cam = Camera.overhead("1080p", dist=(-0.12, 0.05, 0.001, -0.001, 0.0))
    canvas = ideal_canvas(cam)
    rng = np.random.default_rng(0)
    u = rng.integers(0, cam.width_px, 500)
    v = rng.integers(0, cam.height_px, 500)
    ix = canvas.map_x[v, u] - canvas.pad_left
    iy = canvas.map_y[v, u] - canvas.pad_top
    rays = np.stack([(ix - cam.cx) / cam.fx, (iy - cam.cy) / cam.fy, np.ones(500)], axis=1)
    px, _ = cv2.projectPoints(rays, np.zeros(3), np.zeros(3), cam.camera_matrix, cam.dist_coeffs)
    assert np.abs(px.reshape(-1, 2) - np.stack([u, v], axis=1)).max() < 0.02


def test_motion_blur_longer_than_a_cell_loses_tags():
    from vision.detector import Detector

    scene = random_scene(4, n_pieces=8, base_diameter_mm=40.0, tag_size_mm=16.0)
    cam = Camera.overhead("1080p")

    def read(effects: Effects) -> int:
        image, _ = render_frame(scene, cam, effects=effects)
        return len(Detector().detect(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)))

    sharp = read(Effects())
    smeared = read(Effects(motion_blur_px=12.0, motion_angle_deg=30.0))
    assert sharp >= 8 and smeared <= sharp // 2


def test_sensor_noise_falls_on_every_colour_channel():
    """A sensor's noise is in each of blue, green and red (a scalar sigma once filled blue only)."""
    flat = np.full((120, 160, 3), 128, np.uint8)
    noisy = add_noise(flat, Effects(noise_sigma=3.0), np.random.default_rng(1))
    spread = (noisy.astype(np.float32) - 128).reshape(-1, 3).std(axis=0)
    assert spread == pytest.approx([3.0, 3.0, 3.0], rel=0.15)

"""Table homography, camera pose and pixel <-> table mapping at a height, on exactly projected
corner points (no images): a pinhole camera over a 24 x 24 in table."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from calibration.errors import CalibrationError
from calibration.intrinsics import from_arrays
from calibration.pose import (
    POSE_ASSUMED_FOCAL,
    POSE_FROM_HOMOGRAPHY,
    POSE_FROM_INTRINSICS,
    estimate_focal_px,
)
from calibration.profile import build_profile
from calibration.table import apply_homography, corner_layout, fit_table_homography

MM = 25.4


def camera(tilt_deg: float = 0.0, height_mm: float = 900.0, f: float = 1360.0):
    """K, rvec, tvec of a camera looking down at the table centre (tilted about x)."""
    k = np.array([[f, 0, 960.0], [0, f, 540.0], [0, 0, 1]])
    r0 = np.array([[1.0, 0, 0], [0, -1, 0], [0, 0, -1]])
    rt, _ = cv2.Rodrigues(np.array([math.radians(tilt_deg), 0.0, 0.0]))
    r = rt @ r0
    c = np.array([304.8, 304.8 - height_mm * math.tan(math.radians(tilt_deg)), height_mm])
    rvec, _ = cv2.Rodrigues(r)
    return k, rvec, -r @ c


def project(pts_in, height_mm, k, rvec, tvec, dist=None):
    pts = np.asarray(pts_in, dtype=np.float64).reshape(-1, 2) * MM
    obj = np.hstack([pts, np.full((len(pts), 1), height_mm)])
    p, _ = cv2.projectPoints(obj, rvec, tvec, k, dist)
    return p.reshape(-1, 2)


def corner_pixels(k, rvec, tvec, dist=None, noise_px=0.0, seed=0, width=24.0, depth=24.0):
    rng = np.random.default_rng(seed)
    out = {}
    for i, c in corner_layout(width, depth).items():
        out[i] = project(c, 0.0, k, rvec, tvec, dist) + rng.normal(0, noise_px, (4, 2))
    return out


def test_corner_layout_puts_inner_corners_on_the_play_area_corners():
    lay = corner_layout(24, 36, 40)
    s = 40 / MM
    assert lay[0][1] == (0.0, 0.0)  # tag 0: top-right corner (up = +y) touches (0, 0)
    assert lay[1][0] == (24.0, 0.0)
    assert lay[2][3] == (24.0, 36.0)
    assert lay[3][2] == (0.0, 36.0)
    assert lay[0][3] == pytest.approx((-s, -s))


def test_fit_is_exact_on_exact_points_and_reports_scale():
    k, rvec, tvec = camera()
    fit = fit_table_homography(
        {i: list(map(tuple, c)) for i, c in corner_pixels(k, rvec, tvec).items()}, 24, 24
    )
    assert fit.reprojection_rms_mm < 1e-3
    assert fit.inliers == 16
    assert fit.px_per_mm_min == pytest.approx(1360 / 900, rel=0.01)


def test_fit_survives_one_bad_corner():
    k, rvec, tvec = camera()
    px = corner_pixels(k, rvec, tvec, noise_px=0.1)
    px[2][1] += (25.0, -18.0)
    fit = fit_table_homography({i: list(map(tuple, c)) for i, c in px.items()}, 24, 24)
    assert fit.inliers == 15
    assert fit.reprojection_max_mm > 10  # the bad corner is reported, not hidden
    good = {i: c for i, c in corner_pixels(k, rvec, tvec).items()}
    h_inv = np.linalg.inv(fit.matrix())
    lay = corner_layout(24, 24)
    for i in (0, 1, 3):
        back = apply_homography(h_inv, good[i])
        assert np.abs(back - np.array(lay[i])).max() * MM < 0.2


def test_fit_needs_two_corner_tags():
    k, rvec, tvec = camera()
    px = corner_pixels(k, rvec, tvec)
    with pytest.raises(CalibrationError, match="corner tags"):
        fit_table_homography({0: list(map(tuple, px[0]))}, 24, 24)


@pytest.mark.parametrize("tilt", [0.0, 4.0, 20.0])
def test_tags_3mm_up_map_within_a_tenth_of_a_mm_without_intrinsics(tilt):
    k, rvec, tvec = camera(tilt)
    prof = build_profile(corner_pixels(k, rvec, tvec, noise_px=0.1), (1920, 1080))
    m = prof.mapping()
    pts = np.array([(x, y) for x in np.linspace(0, 24, 5) for y in np.linspace(0, 24, 5)])
    back = m.to_table_in(project(pts, 3.0, k, rvec, tvec), 3.0)
    err_mm = np.linalg.norm(back - pts, axis=1) * MM
    flat_mm = (
        np.linalg.norm(m.to_table_in(project(pts, 3.0, k, rvec, tvec), 0.0) - pts, axis=1) * MM
    )
    assert np.sqrt((err_mm**2).mean()) < 0.1
    assert flat_mm.max() > 1.0  # the uncorrected error this height correction removes
    expected = POSE_ASSUMED_FOCAL if tilt < 5 else POSE_FROM_HOMOGRAPHY
    assert prof.pose.source == expected


def test_focal_length_is_estimated_from_a_tilted_view():
    k, rvec, tvec = camera(20.0)
    fit = fit_table_homography(
        {i: list(map(tuple, c)) for i, c in corner_pixels(k, rvec, tvec, noise_px=0.15).items()},
        24,
        24,
    )
    f = estimate_focal_px(fit.matrix(), (1920, 1080))
    assert f == pytest.approx(1360, rel=0.02)


def test_with_intrinsics_distorted_pixels_and_terrain_heights_map_back():
    dist = np.array([-0.06, 0.02, 0.0, 0.0, 0.0])
    k, rvec, tvec = camera(6.0)
    intr = from_arrays(k, dist, (1920, 1080), "test truth")
    prof = build_profile(
        corner_pixels(k, rvec, tvec, dist, noise_px=0.1), (1920, 1080), intrinsics=intr
    )
    assert prof.pose.source == POSE_FROM_INTRINSICS
    assert prof.pose.centre_mm[2] == pytest.approx(900, abs=3)
    assert prof.pose.tilt_deg == pytest.approx(6.0, abs=0.3)
    m = prof.mapping()
    pts = np.array([(x, y) for x in np.linspace(0, 24, 5) for y in np.linspace(0, 24, 5)])
    for h in (3.0, 50.0):
        px = project(pts, h, k, rvec, tvec, dist)
        err = np.linalg.norm(m.to_table_in(px, h) - pts, axis=1) * MM
        assert err.max() < 0.2, h
        assert np.abs(m.to_pixels(pts, h) - px).max() < 0.25  # corner noise 0.1 px


def test_bad_table_size_is_refused():
    with pytest.raises(CalibrationError, match="positive"):
        corner_layout(0, 24)

"""Drift re-fitting after a camera bump (exact projected corners) and the quality report's
refusals and warnings."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from calibration.drift import DriftMonitor
from calibration.profile import build_profile
from calibration.quality import assess
from calibration.table import corner_layout

MM = 25.4


def camera(dx_mm=0.0, yaw_deg=0.0, f=1400.0, height=950.0):
    k = np.array([[f, 0, 960.0], [0, f, 540.0], [0, 0, 1]])
    r0 = np.array([[1.0, 0, 0], [0, -1, 0], [0, 0, -1]])
    ry, _ = cv2.Rodrigues(np.array([0.0, 0.0, math.radians(yaw_deg)]))
    r = ry @ r0
    rvec, _ = cv2.Rodrigues(r)
    return k, rvec, -r @ np.array([304.8 + dx_mm, 304.8, height])


def project(pts_mm, cam):
    k, rvec, tvec = cam
    p, _ = cv2.projectPoints(np.asarray(pts_mm, dtype=np.float64), rvec, tvec, k, None)
    return p.reshape(-1, 2)


def corners(cam, ids=(0, 1, 2, 3), width=24.0):
    lay = corner_layout(width, 24)
    return {i: project([[x * MM, y * MM, 0.0] for x, y in lay[i]], cam) for i in ids}


@pytest.mark.parametrize("ids", [(0, 1, 2, 3), (0, 2, 3), (1, 2)])
def test_bump_is_refitted_and_tags_stay_put(ids):
    before = camera()
    after = camera(dx_mm=3.0, yaw_deg=0.3)
    prof = build_profile(corners(before), (1920, 1080))
    mon = DriftMonitor(prof)
    assert mon.check(corners(before)).refitted is False
    tag = np.array([[250.0, 400.0, 3.0], [500.0, 100.0, 3.0], [60.0, 560.0, 3.0]])
    stale = mon.mapping.to_table_in(project(tag, after), 3.0) * MM
    assert np.linalg.norm(stale - tag[:, :2], axis=1).max() > 2.0
    check = mon.check(corners(after, ids))
    assert check.refitted and check.moved_mm > 1.0 and "moved by" in (check.warning or "")
    fixed = mon.mapping.to_table_in(project(tag, after), 3.0) * MM
    assert np.linalg.norm(fixed - tag[:, :2], axis=1).max() < 0.3
    again = mon.check(corners(after, ids))
    assert not again.refitted and again.warning is None


def test_lost_corner_tags_keep_the_mapping_and_warn_once():
    prof = build_profile(corners(camera()), (1920, 1080))
    mon = DriftMonitor(prof)
    first, second = mon.check({}), mon.check({})
    assert first.warning and "keeping the last table mapping" in first.warning
    assert second.warning is None and mon.mapping == prof.mapping()


def _image() -> np.ndarray:
    rng = np.random.default_rng(0)
    img = rng.integers(60, 180, (1080, 1920), dtype=np.uint8)
    for c in corners(camera()).values():
        cv2.fillConvexPoly(img, np.round(c).astype(np.int32), 0)
    return img


def test_good_setup_passes_and_reports_its_figures():
    cam = camera()
    prof = build_profile(corners(cam), (1920, 1080))
    q = assess(prof, _image(), corners(cam), tag_mm=20.0)
    assert q.ok, q.refusals
    assert q.smallest_reliable_tag_mm == pytest.approx(24 / (1400 / 950), rel=0.02)
    assert any("no lens calibration" in w for w in q.warnings)
    assert len(q.lines()) >= 7


def test_wrong_table_size_and_small_tags_are_refused():
    cam = camera()
    px = corners(cam, width=24.0)
    prof = build_profile(px, (1920, 1080), width_in=30.0)  # player said 30 in, tags say 24
    q = assess(prof, _image(), px, tag_mm=10.0)
    assert not q.ok
    text = " ".join(q.refusals)
    assert "--width/--depth" in text and "at least" in text


def test_blur_and_glare_are_warned():
    cam = camera()
    px = corners(cam)
    prof = build_profile(px, (1920, 1080))
    img = cv2.GaussianBlur(_image(), (0, 0), 3.0)
    img[400:700, 700:1200] = 255
    q = assess(prof, img, px, tag_mm=20.0)
    text = " ".join(q.warnings)
    assert "blurred" in text and "glare" in text


def test_tags_under_the_reliable_size_are_a_warning_with_their_margin():
    cam = camera()  # 1400 / 950 = 1.47 px/mm
    px = corners(cam)
    prof = build_profile(px, (1920, 1080))
    q = assess(prof, _image(), px, tag_mm=14.0)  # 20.6 px: below 24, above 16
    assert q.ok, q.refusals
    assert q.tag_px_min == pytest.approx(14 * 1400 / 950, rel=0.02)
    assert q.margin_px == pytest.approx(q.tag_px_min - 24)
    assert any("14 mm tags are 21 px wide" in w and "at least 16.2 mm" in w for w in q.warnings)
    assert (
        "detection margin: 14 mm tags span 21 px at the far edge; reliable from 24 px; "
        "margin -3 px" in q.lines()
    )
    good = assess(prof, _image(), px, tag_mm=20.0)
    assert not any("px wide" in w for w in good.warnings)
    assert any(line.endswith("margin +6 px") for line in good.lines())
    hopeless = assess(prof, _image(), px, tag_mm=10.0)  # 14.7 px
    assert not hopeless.ok and any("under the 16 px" in r for r in hopeless.refusals)

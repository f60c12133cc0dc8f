"""Profile JSON: round trips, version dispatch, lens-only files and clear errors."""

from __future__ import annotations

import json
import math

import cv2
import numpy as np
import pytest

from calibration.errors import CalibrationError
from calibration.intrinsics import Intrinsics, from_arrays
from calibration.profile import (
    PROFILE_VERSION,
    build_profile,
    load_intrinsics,
    load_profile,
    save_profile,
)
from calibration.table import corner_layout


def _corners(dist=None):
    k = np.array([[1300.0, 0, 960], [0, 1300.0, 540], [0, 0, 1]])
    r0 = np.array([[1.0, 0, 0], [0, -1, 0], [0, 0, -1]])
    rt, _ = cv2.Rodrigues(np.array([math.radians(3.0), 0.0, 0.0]))
    r = rt @ r0
    rvec, _ = cv2.Rodrigues(r)
    tvec = -r @ np.array([304.8, 260.0, 900.0])
    out = {}
    for i, c in corner_layout(24, 24).items():
        obj = np.array([[x * 25.4, y * 25.4, 0.0] for x, y in c])
        p, _ = cv2.projectPoints(obj, rvec, tvec, k, dist)
        out[i] = p.reshape(4, 2)
    return out, k


@pytest.mark.parametrize("with_intrinsics", [False, True])
def test_profile_round_trips(tmp_path, with_intrinsics):
    dist = np.array([-0.05, 0.01, 0, 0, 0]) if with_intrinsics else None
    corners, k = _corners(dist)
    intr = from_arrays(k, dist, (1920, 1080), "test") if with_intrinsics else None
    prof = build_profile(
        corners, (1920, 1080), intrinsics=intr, tag_heights_mm={8: 25.0}, camera_settings={"a": 1}
    )
    path = tmp_path / "p.json"
    save_profile(prof, path)
    data = json.loads(path.read_text())
    assert data["version"] == PROFILE_VERSION
    assert (data["intrinsics"] is None) != with_intrinsics
    again = load_profile(path)
    assert again == prof
    px = np.array([[500.0, 400.0], [1500.0, 900.0]])
    assert np.allclose(again.mapping().to_table_in(px, 3.0), prof.mapping().to_table_in(px, 3.0))
    assert again.tag_height_mm(8) == 25.0 and again.tag_height_mm(20) == 3.0


def test_unknown_version_is_named(tmp_path):
    p = tmp_path / "p.json"
    p.write_text('{"version": 7}')
    with pytest.raises(CalibrationError, match="version 7"):
        load_profile(p)


def test_lens_only_profile(tmp_path):
    intr = Intrinsics(
        ((1000.0, 0.0, 960.0), (0.0, 1000.0, 540.0), (0.0, 0.0, 1.0)),
        (0.1, 0.0, 0.0, 0.0, 0.0),
        (1920, 1080),
        "charuco",
    )
    p = tmp_path / "lens.json"
    p.write_text(json.dumps({"version": 1, "intrinsics": intr.to_dict()}))
    assert load_intrinsics(p) == intr
    with pytest.raises(CalibrationError, match="only lens intrinsics"):
        load_profile(p)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"version": 1, "homography": 3}', "malformed"),
    ],
)
def test_bad_files_say_what_is_wrong(tmp_path, text, message):
    p = tmp_path / "p.json"
    p.write_text(text)
    with pytest.raises(CalibrationError, match=message):
        load_profile(p)


def test_missing_file(tmp_path):
    with pytest.raises(CalibrationError, match="does not exist"):
        load_profile(tmp_path / "nope.json")


def test_intrinsics_scale_with_resolution():
    intr = Intrinsics(
        ((1000.0, 0.0, 960.0), (0.0, 1000.0, 540.0), (0.0, 0.0, 1.0)), (), (1920, 1080)
    )
    big = intr.scaled_to((3840, 2160))
    assert big.fx_px == 2000.0 and big.cx_px == 1920.0
    with pytest.raises(CalibrationError, match="aspect"):
        intr.scaled_to((1000, 1000))

"""Camera controls: reading v4l2-ctl's listing, what "fixed" means, and clear reports when a
camera or control is missing; a round trip on a real camera when one is attached."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from vision.camera_controls import (
    apply_controls,
    fix_controls,
    fixed_controls,
    parse_list_ctrls,
    read_controls,
)

# The layout of `v4l2-ctl -d /dev/video0 --list-ctrls` for a UVC webcam (kernel >= 5.15 names;
# the values are illustrative).
LISTING_NEW = """
User Controls

                     brightness 0x00980900 (int)    : min=0 max=255 step=1 default=128 value=128
                       contrast 0x00980901 (int)    : min=0 max=255 step=1 default=128 value=128
        white_balance_automatic 0x0098090c (bool)   : default=1 value=1
                           gain 0x00980913 (int)    : min=0 max=255 step=1 default=0 value=31
           power_line_frequency 0x00980918 (menu)   : min=0 max=2 default=2 value=2 (60 Hz)
      white_balance_temperature 0x0098091a (int)    : min=2000 max=6500 step=1 default=4000 value=4312 flags=inactive

Camera Controls

                  auto_exposure 0x009a0901 (menu)   : min=0 max=3 default=3 value=3 (Aperture Priority Mode)
         exposure_time_absolute 0x009a0902 (int)    : min=3 max=2047 step=1 default=250 value=166 flags=inactive
                 focus_absolute 0x009a090a (int)    : min=0 max=250 step=5 default=0 value=45 flags=inactive
     focus_automatic_continuous 0x009a090c (bool)   : default=1 value=1
"""

# The same controls under the names of older kernels (before 5.15 renamed them).
LISTING_OLD = """
                     exposure_auto 0x009a0901 (menu)   : min=0 max=3 default=3 value=1
                 exposure_absolute 0x009a0902 (int)    : min=3 max=2047 step=1 default=250 value=200
                        focus_auto 0x009a090c (bool)   : default=1 value=0
    white_balance_temperature_auto 0x0098090c (bool)   : default=1 value=0
"""

MISSING_INDEX = 97


def test_parse_listing_with_current_names() -> None:
    values = parse_list_ctrls(LISTING_NEW)
    assert values["focus_automatic_continuous"] == 1
    assert values["focus_absolute"] == 45
    assert values["auto_exposure"] == 3
    assert values["exposure_time_absolute"] == 166
    assert values["white_balance_temperature"] == 4312
    assert values["power_line_frequency"] == 2
    assert "User" not in values and len(values) == 10


def test_older_names_read_as_current_ones() -> None:
    values = parse_list_ctrls(LISTING_OLD)
    assert values == {
        "auto_exposure": 1,
        "exposure_time_absolute": 200,
        "focus_automatic_continuous": 0,
        "white_balance_automatic": 0,
    }


def test_fixed_turns_automatic_modes_off_and_pins_the_settled_values() -> None:
    fixed = fixed_controls(parse_list_ctrls(LISTING_NEW))
    assert fixed == {
        "focus_automatic_continuous": 0,
        "auto_exposure": 1,
        "white_balance_automatic": 0,
        "focus_absolute": 45,
        "exposure_time_absolute": 166,
        "white_balance_temperature": 4312,
        "gain": 31,
    }
    # Automatic modes go first, so the pinned values are not overridden.
    assert list(fixed)[:3] == [
        "focus_automatic_continuous",
        "auto_exposure",
        "white_balance_automatic",
    ]


def test_missing_camera_is_reported_not_raised() -> None:
    if Path(f"/dev/video{MISSING_INDEX}").exists():
        pytest.skip(f"/dev/video{MISSING_INDEX} exists on this machine")
    assert read_controls(MISSING_INDEX) == {}
    failed = apply_controls(MISSING_INDEX, {"focus_auto": 0, "focus_absolute": 30})
    assert failed == [
        f"focus_automatic_continuous=0 (no camera /dev/video{MISSING_INDEX})",
        f"focus_absolute=30 (no camera /dev/video{MISSING_INDEX})",
    ]
    assert apply_controls(MISSING_INDEX, {}) == []
    settings, failed = fix_controls(MISSING_INDEX)
    assert settings == {} and len(failed) == 1 and f"camera {MISSING_INDEX}" in failed[0]


def test_round_trip_on_a_real_camera() -> None:
    if not Path("/dev/video0").exists() or shutil.which("v4l2-ctl") is None:
        pytest.skip("needs a camera at /dev/video0 and v4l2-ctl (package v4l-utils)")
    before = read_controls(0)
    if not before:
        pytest.skip("camera 0 lists no focus/exposure/white-balance controls")
    try:
        settings, failed = fix_controls(0)
        now = read_controls(0)
        for name, value in settings.items():
            if not any(f.startswith(f"{name}=") for f in failed):
                assert now[name] == value, name
    finally:
        apply_controls(0, before)

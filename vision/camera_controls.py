"""Camera controls on Linux (V4L2): fix focus, exposure and white balance while calibrating, and
put the same values back when tracking starts.

Auto-focus hunting and auto-exposure are the top complaints in trackers' issue lists (DESIGN §1):
a lens that refocuses changes the intrinsics, and an exposure that follows a hand over the table
changes the tags' contrast. At calibration time :func:`fix_controls` switches the automatic modes
off and pins the values the camera had settled on; the profile keeps them; :func:`apply_controls`
restores them before tracking.

Control names are V4L2's (``v4l2-ctl --list-ctrls``), e.g. ``focus_automatic_continuous``,
``focus_absolute``, ``auto_exposure`` (1 = manual, 3 = aperture priority),
``exposure_time_absolute`` (units of 100 µs), ``white_balance_automatic``,
``white_balance_temperature`` (kelvin), ``gain``. Older kernels name some differently
(``focus_auto``, ``exposure_auto``, ``exposure_absolute``, ``white_balance_temperature_auto``); both
spellings are understood. With ``v4l2-ctl`` installed (package v4l-utils) it is used; otherwise
OpenCV's ``CAP_PROP_*`` properties are tried. Nothing here raises for a missing camera or tool:
reads return what could be read, writes return what could not be set.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

import cv2

V4L2_CTL_TIMEOUT_S = 5.0

MANUAL_EXPOSURE = 1
"""V4L2 ``auto_exposure`` menu value for manual exposure."""

_ALIASES = {
    "focus_auto": "focus_automatic_continuous",
    "exposure_auto": "auto_exposure",
    "exposure_absolute": "exposure_time_absolute",
    "white_balance_temperature_auto": "white_balance_automatic",
}
"""Older kernels' control names -> current names."""

_AUTO_OFF = {
    "focus_automatic_continuous": 0,
    "auto_exposure": MANUAL_EXPOSURE,
    "white_balance_automatic": 0,
}
"""The automatic modes and the value that switches each off."""

_PINNED = ("focus_absolute", "exposure_time_absolute", "white_balance_temperature", "gain")
"""Manual values kept as the camera had them when fixed."""

_ORDER = (*_AUTO_OFF, *_PINNED)
"""Automatic modes are set before the values they would otherwise override."""

_CV_PROPS = {
    "focus_automatic_continuous": cv2.CAP_PROP_AUTOFOCUS,
    "focus_absolute": cv2.CAP_PROP_FOCUS,
    "auto_exposure": cv2.CAP_PROP_AUTO_EXPOSURE,
    "exposure_time_absolute": cv2.CAP_PROP_EXPOSURE,
    "white_balance_automatic": cv2.CAP_PROP_AUTO_WB,
    "white_balance_temperature": cv2.CAP_PROP_WB_TEMPERATURE,
    "gain": cv2.CAP_PROP_GAIN,
}
"""The same controls through OpenCV's V4L2 backend, when v4l2-ctl is not installed."""

_LINE = re.compile(r"^\s*([a-z0-9_]+)\s+0x[0-9a-f]+\s+\((\w+)\)\s*:\s*(.*)$")
_VALUE = re.compile(r"\bvalue=(-?\d+)")


def canonical_name(name: str) -> str:
    """A control's current V4L2 name (older spellings mapped to the new ones)."""
    return _ALIASES.get(name, name)


def parse_list_ctrls(text: str) -> dict[str, int]:
    """Control values from ``v4l2-ctl --list-ctrls`` output, by canonical name (button and
    class lines, which have no value, are left out)."""
    values: dict[str, int] = {}
    for line in text.splitlines():
        m = _LINE.match(line)
        if not m:
            continue
        v = _VALUE.search(m.group(3))
        if v:
            values[canonical_name(m.group(1))] = int(v.group(1))
    return values


def _device(device_index: int) -> str:
    return f"/dev/video{device_index}"


def _v4l2_ctl() -> str | None:
    return shutil.which("v4l2-ctl")


def _run(args: list[str]) -> tuple[int, str]:
    try:
        done = subprocess.run(
            args, capture_output=True, text=True, timeout=V4L2_CTL_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return 1, str(exc)
    return done.returncode, done.stdout if done.returncode == 0 else (done.stderr or done.stdout)


def _device_names(tool: str, device_index: int) -> dict[str, str]:
    """Canonical name -> the name this device's driver uses."""
    code, out = _run([tool, "-d", _device(device_index), "--list-ctrls"])
    names: dict[str, str] = {}
    if code == 0:
        for line in out.splitlines():
            m = _LINE.match(line)
            if m:
                names[canonical_name(m.group(1))] = m.group(1)
    return names


def read_controls(device_index: int) -> dict[str, int]:
    """The camera's focus, exposure, white-balance and gain controls now, by canonical V4L2
    name; empty when there is no such camera or nothing can be read."""
    tool = _v4l2_ctl()
    if tool is not None:
        code, out = _run([tool, "-d", _device(device_index), "--list-ctrls"])
        if code != 0:
            return {}
        every = parse_list_ctrls(out)
        return {k: every[k] for k in _ORDER if k in every}
    return _read_with_opencv(device_index)


def _open_capture(device_index: int) -> cv2.VideoCapture | None:
    if not Path(_device(device_index)).exists():
        return None
    cap = cv2.VideoCapture(device_index, cv2.CAP_V4L2)
    if not cap.isOpened():
        cap.release()
        return None
    return cap


def _read_with_opencv(device_index: int) -> dict[str, int]:
    cap = _open_capture(device_index)
    if cap is None:
        return {}
    try:
        values = {}
        for name, prop in _CV_PROPS.items():
            v = cap.get(prop)
            if v != -1:
                values[name] = round(v)
        return values
    finally:
        cap.release()


def fixed_controls(current: Mapping[str, int]) -> dict[str, int]:
    """The settings that hold the camera where it is: automatic modes off, focus, exposure,
    white balance and gain pinned at their current values (only controls the camera has)."""
    current = {canonical_name(k): v for k, v in current.items()}
    fixed = {name: off for name, off in _AUTO_OFF.items() if name in current}
    fixed.update({name: current[name] for name in _PINNED if name in current})
    return fixed


def apply_controls(device_index: int, controls: Mapping[str, int]) -> list[str]:
    """Set the controls (canonical or older V4L2 names; automatic modes first) and read them
    back; returns one entry per control that could not be set, saying why."""
    wanted = {canonical_name(k): int(v) for k, v in controls.items()}
    ordered = [k for k in _ORDER if k in wanted] + [k for k in wanted if k not in _ORDER]
    if not ordered:
        return []
    if not Path(_device(device_index)).exists():
        return [f"{k}={wanted[k]} (no camera {_device(device_index)})" for k in ordered]
    tool = _v4l2_ctl()
    if tool is not None:
        return _apply_with_v4l2_ctl(tool, device_index, wanted, ordered)
    return _apply_with_opencv(device_index, wanted, ordered)


def _apply_with_v4l2_ctl(
    tool: str, device_index: int, wanted: dict[str, int], ordered: list[str]
) -> list[str]:
    names = _device_names(tool, device_index)
    failed = []
    for name in ordered:
        if name not in names:
            failed.append(f"{name}={wanted[name]} (the camera has no such control)")
            continue
        code, out = _run([tool, "-d", _device(device_index), "-c", f"{names[name]}={wanted[name]}"])
        if code != 0:
            failed.append(f"{name}={wanted[name]} ({out.strip() or 'refused'})")
    now = read_controls(device_index)
    for name in ordered:
        if name in names and name in now and now[name] != wanted[name]:
            entry = f"{name}={wanted[name]} (reads back {now[name]})"
            if not any(f.startswith(f"{name}=") for f in failed):
                failed.append(entry)
    return failed


def _apply_with_opencv(device_index: int, wanted: dict[str, int], ordered: list[str]) -> list[str]:
    cap = _open_capture(device_index)
    if cap is None:
        return [f"{k}={wanted[k]} (cannot open camera {device_index})" for k in ordered]
    failed = []
    try:
        for name in ordered:
            prop = _CV_PROPS.get(name)
            if prop is None:
                failed.append(f"{name}={wanted[name]} (not settable without v4l2-ctl)")
            elif not cap.set(prop, wanted[name]) or round(cap.get(prop)) != wanted[name]:
                failed.append(f"{name}={wanted[name]} (the driver refused it)")
    finally:
        cap.release()
    return failed


def fix_controls(device_index: int) -> tuple[dict[str, int], list[str]]:
    """Fix the camera where it has settled (for calibration): returns the settings to keep in
    the profile and what could not be set."""
    settings = fixed_controls(read_controls(device_index))
    if not settings:
        return {}, [
            f"focus, exposure and white balance (cannot read camera {device_index}'s controls)"
        ]
    return settings, apply_controls(device_index, settings)

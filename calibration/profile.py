"""The table profile: everything needed to turn a camera's pixels into table inches, saved as
versioned JSON with one loader per version.

Version 1 layout::

    {"version": 1, "created": ISO time, "table": {"width_in", "depth_in"},
     "dictionary": "DICT_4X4_50", "corner_tag_mm": 40.0,
     "corner_layout": {"0": [[x_in, y_in] x4], ...},
     "image_size_px": [w, h], "homography": 3x3 (table inches -> undistorted pixels),
     "fit": {"corner_ids", "reprojection_rms_mm", ...}, "intrinsics": {...} | null,
     "pose": {"rvec", "tvec_mm", "camera_matrix", "source", ...},
     "camera_settings": {...}, "tag_heights_mm": {"default": 3.0, "by_id": {"8": 25.0}}}

Version 2 adds ``"tray": {"corners_in", "tag_ids", "tag_mm", "floor_mm"} | null``: the dice tray
(:mod:`calibration.tray`); a version-1 file loads with no tray.

Version 3 adds ``"kit": PATH | null``: the kit file (``calibration.kit_file``) whose tag sizes
this camera reads, relative to the profile's folder unless absolute; a version-1 or -2 file
loads with no kit.

A file holding only ``{"version": 1, "intrinsics": {...}}`` (written by lens calibration before
the table was calibrated) is a lens-only profile: :func:`load_intrinsics` reads it,
:func:`load_profile` says the table part is missing.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.errors import CalibrationError
from calibration.intrinsics import Intrinsics
from calibration.pose import CameraPose, TableMapping, pose_from_points
from calibration.safe_files import write_json_atomic
from calibration.table import (
    CORNER_TAG_MM,
    Corners,
    TableFit,
    corner_layout,
    fit_table_homography,
)
from calibration.tray import TrayRegion

PROFILE_VERSION = 3
DEFAULT_TAG_HEIGHT_MM = 3.0


@dataclass(frozen=True)
class TableProfile:
    """A calibrated camera-over-table set-up (table inches, pixels, millimetres as named)."""

    width_in: float
    depth_in: float
    dictionary: str
    fit: TableFit
    pose: CameraPose
    image_size_px: tuple[int, int]
    """(width, height) of the frames the profile was made from, pixels."""
    intrinsics: Intrinsics | None = None
    corner_tag_mm: float = CORNER_TAG_MM
    camera_settings: Mapping[str, Any] = field(default_factory=dict)
    """What the camera was set to at calibration (format, resolution, focus, exposure...)."""
    default_tag_height_mm: float = DEFAULT_TAG_HEIGHT_MM
    """Height of base-top tags above the table, millimetres."""
    tag_heights_mm: Mapping[int, float] = field(default_factory=dict)
    """Per-id tag heights (terrain tags), millimetres."""
    created: str = ""
    """ISO 8601 UTC time of calibration."""
    tray: TrayRegion | None = None
    """The dice tray, when one was seen at calibration."""
    kit: str = ""
    """The kit file this camera's tag sizes come from, as saved (relative to the profile's
    folder unless absolute); "" for none (:func:`profile_kit_path`)."""

    @property
    def corner_layout(self) -> dict[int, Corners]:
        """Table inches of every corner tag's four corners (OpenCV order)."""
        return corner_layout(self.width_in, self.depth_in, self.corner_tag_mm)

    def mapping(self) -> TableMapping:
        """The pixel <-> table mapping this profile describes."""
        return TableMapping(self.fit.homography, self.pose, self.intrinsics)

    def tag_height_mm(self, tag_id: int) -> float:
        """The plane height of a tag above the table, millimetres."""
        return float(self.tag_heights_mm.get(tag_id, self.default_tag_height_mm))

    def with_mapping(self, fit: TableFit, pose: CameraPose) -> TableProfile:
        """The same profile with a re-fitted table mapping (after drift)."""
        return replace(self, fit=fit, pose=pose)

    def with_tray(self, tray: TrayRegion | None) -> TableProfile:
        """The same profile with the dice tray ``tray``."""
        return replace(self, tray=tray)

    def with_kit(self, kit_path: Path | None, profile_path: Path) -> TableProfile:
        """The same profile naming the kit file ``kit_path`` (None: no kit), stored relative
        to the folder of ``profile_path`` where the profile will be saved."""
        if kit_path is None:
            return replace(self, kit="")
        try:
            stored = os.path.relpath(kit_path.resolve(), profile_path.resolve().parent)
        except ValueError:  # another drive
            stored = str(kit_path.resolve())
        return replace(self, kit=stored)

    def to_dict(self) -> dict[str, Any]:
        """The current version's JSON object."""
        return {
            "version": PROFILE_VERSION,
            "created": self.created,
            "table": {"width_in": self.width_in, "depth_in": self.depth_in},
            "dictionary": self.dictionary,
            "corner_tag_mm": self.corner_tag_mm,
            "corner_layout": {
                str(k): [list(p) for p in v] for k, v in sorted(self.corner_layout.items())
            },
            "image_size_px": list(self.image_size_px),
            "homography": [list(r) for r in self.fit.homography],
            "fit": {
                "corner_ids": list(self.fit.corner_ids),
                "reprojection_rms_mm": self.fit.reprojection_rms_mm,
                "reprojection_max_mm": self.fit.reprojection_max_mm,
                "px_per_mm_min": self.fit.px_per_mm_min,
                "px_per_mm_max": self.fit.px_per_mm_max,
                "inliers": self.fit.inliers,
            },
            "intrinsics": None if self.intrinsics is None else self.intrinsics.to_dict(),
            "pose": self.pose.to_dict(),
            "camera_settings": dict(self.camera_settings),
            "tag_heights_mm": {
                "default": self.default_tag_height_mm,
                "by_id": {str(k): v for k, v in sorted(self.tag_heights_mm.items())},
            },
            "tray": None if self.tray is None else self.tray.to_dict(),
            "kit": self.kit or None,
        }


def build_profile(
    corners_px: Mapping[int, Any],
    image_size_px: tuple[int, int],
    width_in: float = 24.0,
    depth_in: float = 24.0,
    *,
    intrinsics: Intrinsics | None = None,
    dictionary: str = "DICT_4X4_50",
    corner_tag_mm: float = CORNER_TAG_MM,
    camera_settings: Mapping[str, Any] | None = None,
    default_tag_height_mm: float = DEFAULT_TAG_HEIGHT_MM,
    tag_heights_mm: Mapping[int, float] | None = None,
) -> TableProfile:
    """Calibrate the table from corner-tag pixels (raw, id -> four corners in OpenCV order)."""
    fit, pose = fit_mapping(
        corners_px, image_size_px, width_in, depth_in, intrinsics, corner_tag_mm
    )
    return TableProfile(
        width_in=float(width_in),
        depth_in=float(depth_in),
        dictionary=dictionary,
        fit=fit,
        pose=pose,
        image_size_px=(int(image_size_px[0]), int(image_size_px[1])),
        intrinsics=None if intrinsics is None else intrinsics.scaled_to(image_size_px),
        corner_tag_mm=corner_tag_mm,
        camera_settings=dict(camera_settings or {}),
        default_tag_height_mm=default_tag_height_mm,
        tag_heights_mm=dict(tag_heights_mm or {}),
        created=datetime.now(UTC).isoformat(timespec="seconds"),
    )


def fit_mapping(
    corners_px: Mapping[int, Any],
    image_size_px: tuple[int, int],
    width_in: float,
    depth_in: float,
    intrinsics: Intrinsics | None = None,
    corner_tag_mm: float = CORNER_TAG_MM,
) -> tuple[TableFit, CameraPose]:
    """Fit the homography (on undistorted corner pixels) and the camera pose from corner tags."""
    intr = None if intrinsics is None else intrinsics.scaled_to(image_size_px)
    raw = {int(k): np.asarray(v, dtype=np.float64).reshape(4, 2) for k, v in corners_px.items()}
    if intr is not None and any(intr.dist_coeffs):
        k = intr.matrix()
        und = {
            i: cv2.undistortPoints(p.reshape(-1, 1, 2), k, intr.distortion(), P=k).reshape(4, 2)
            for i, p in raw.items()
        }
    else:
        und = raw
    fit = fit_table_homography(
        {i: [tuple(p) for p in v] for i, v in und.items()}, width_in, depth_in, corner_tag_mm
    )
    layout = corner_layout(width_in, depth_in, corner_tag_mm)
    ids = fit.corner_ids
    table_pts = np.array([p for i in ids for p in layout[i]])
    image_pts = np.array([p for i in ids for p in raw[i]])
    pose = pose_from_points(table_pts, image_pts, fit.matrix(), image_size_px, intr)
    return fit, pose


def save_profile(profile: TableProfile, path: str | Path) -> None:
    """Write the profile as JSON; keeps nothing else of an existing file."""
    p = Path(path)
    try:
        write_json_atomic(p, profile.to_dict(), indent=2)
    except OSError as exc:
        raise CalibrationError(f"cannot write profile {p}: {exc.strerror}") from exc


def _read_json(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise CalibrationError(f"profile {p} does not exist") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise CalibrationError(f"cannot read profile {p}: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"profile {p} is not valid JSON (line {exc.lineno})") from exc
    except RecursionError:
        raise CalibrationError(f"profile {p} is nested too deep to be a profile") from None
    if not isinstance(data, dict):
        raise CalibrationError(f"profile {p} must hold a JSON object")
    return data


def load_intrinsics(path: str | Path) -> Intrinsics | None:
    """The lens intrinsics stored in a profile file (full or lens-only), or None."""
    data = _read_json(path)
    raw = data.get("intrinsics")
    return None if raw is None else Intrinsics.from_dict(raw)


def _load_v1(data: dict[str, Any], where: str) -> TableProfile:
    if "homography" not in data:
        raise CalibrationError(
            f"profile {where} holds only lens intrinsics: calibrate the table into it with "
            f"`soloscope calibrate --source SRC --save {where}`"
        )
    try:
        table = data["table"]
        width_in, depth_in = float(table["width_in"]), float(table["depth_in"])
        f = data["fit"]
        h = np.array(data["homography"], dtype=np.float64).reshape(3, 3)
        if not np.all(np.isfinite(h)) or not (0 < width_in <= 240 and 0 < depth_in <= 240):
            raise ValueError("the homography and the table size must be finite numbers")
        fit = TableFit(
            homography=tuple(tuple(float(v) for v in row) for row in h),
            corner_ids=tuple(int(i) for i in f["corner_ids"]),
            reprojection_rms_mm=float(f["reprojection_rms_mm"]),
            reprojection_max_mm=float(f["reprojection_max_mm"]),
            px_per_mm_min=float(f["px_per_mm_min"]),
            px_per_mm_max=float(f["px_per_mm_max"]),
            inliers=int(f["inliers"]),
        )
        size = data["image_size_px"]
        heights = data.get("tag_heights_mm", {})
        intr_raw = data.get("intrinsics")
        return TableProfile(
            width_in=width_in,
            depth_in=depth_in,
            dictionary=str(data["dictionary"]),
            fit=fit,
            pose=CameraPose.from_dict(data["pose"]),
            image_size_px=(int(size[0]), int(size[1])),
            intrinsics=None if intr_raw is None else Intrinsics.from_dict(intr_raw),
            corner_tag_mm=float(data.get("corner_tag_mm", CORNER_TAG_MM)),
            camera_settings=dict(data.get("camera_settings") or {}),
            default_tag_height_mm=float(heights.get("default", DEFAULT_TAG_HEIGHT_MM)),
            tag_heights_mm={int(k): float(v) for k, v in heights.get("by_id", {}).items()},
            created=str(data.get("created", "")),
        )
    except CalibrationError as exc:
        raise CalibrationError(f"profile {where}: {exc}") from exc
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError) as exc:
        raise CalibrationError(f"profile {where}: missing or malformed field {exc}") from None


def _load_v2(data: dict[str, Any], where: str) -> TableProfile:
    profile = _load_v1(data, where)
    raw = data.get("tray")
    if raw is None:
        return profile
    try:
        return profile.with_tray(TrayRegion.from_dict(raw))
    except CalibrationError as exc:
        raise CalibrationError(f"profile {where}: {exc}") from exc
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError) as exc:
        raise CalibrationError(f"profile {where}: malformed tray ({exc})") from None


def _load_v3(data: dict[str, Any], where: str) -> TableProfile:
    profile = _load_v2(data, where)
    raw = data.get("kit")
    if raw is not None and not isinstance(raw, str):
        raise CalibrationError(f"profile {where}: 'kit' must be a file name or null")
    return replace(profile, kit=raw or "")


LOADERS: dict[int, Callable[[dict[str, Any], str], TableProfile]] = {
    1: _load_v1,
    2: _load_v2,
    3: _load_v3,
}
"""One loader per profile version."""


def profile_kit_path(profile: TableProfile, profile_path: str | Path) -> Path | None:
    """The kit file a profile read from ``profile_path`` names, or None."""
    if not profile.kit:
        return None
    kit = Path(profile.kit)
    return kit if kit.is_absolute() else Path(profile_path).parent / kit


def load_profile(path: str | Path) -> TableProfile:
    """Read a profile file of any known version; CalibrationError names the file and the fault."""
    data = _read_json(path)
    version = data.get("version")
    loader = LOADERS.get(version) if isinstance(version, int) else None
    if loader is None:
        raise CalibrationError(
            f"profile {path} has version {version!r}; this soloscope reads versions "
            f"{sorted(LOADERS)}"
        )
    return loader(data, str(path))

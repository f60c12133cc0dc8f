"""The camera a kit is sized for: a nominal webcam named by its resolution, mounted as the README
says, or the camera a calibrated profile measured.

A nominal webcam looks straight down over the middle of the table with a 50 degree vertical
field of view and a webcam's mild barrel distortion (the project's renderer uses the same
lens, ``vision.render.camera``), just high enough to take in the play area and its corner tags
(70 mm of border: a 40 mm tag and room around it), and at least 0.8 m above a table (the README
mounting; a printed grid board, being small, is framed closely). On a 2 ft table that is
0.80 m, on a 3 ft table 1.13 m.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.errors import CalibrationError
from calibration.intrinsics import Intrinsics
from calibration.pose import CameraPose, TableMapping
from calibration.profile import TableProfile
from calibration.quality import tag_scale_px_per_mm
from calibration.table import MM_PER_IN

CAMERAS: dict[str, tuple[int, int]] = {
    "720p": (1280, 720),
    "1080p": (1920, 1080),
    "4k": (3840, 2160),
}
"""Nominal webcams by name: image (width, height) in pixels."""
NOMINAL_VFOV_DEG = 50.0
"""A nominal webcam's vertical field of view, degrees (the renderer's ``Camera.overhead``)."""
NOMINAL_DISTORTION: tuple[float, float, float, float, float] = (-0.06, 0.02, 0.0, 0.0, 0.0)
"""A nominal webcam's lens distortion, OpenCV's (k1, k2, p1, p2, k3): the renderer's
``WEBCAM_DISTORTION``."""
FRAME_BORDER_MM = 70.0
"""Room the view keeps beyond each edge of the play area, millimetres (the corner tags)."""
TABLE_CAMERA_MIN_MM = 800.0
"""The README's mounting height for a table, millimetres: at least 0.8 m."""


def framed_span_mm(width_in: float, depth_in: float, image_size_px: tuple[int, int]) -> float:
    """How much of the table, top to bottom of the picture, the view must take in to show the
    play area and its corner tags, millimetres."""
    aspect = image_size_px[0] / image_size_px[1]
    return max(depth_in, width_in / aspect) * MM_PER_IN + 2.0 * FRAME_BORDER_MM


def nominal_height_mm(
    width_in: float, depth_in: float, camera: str = "1080p", *, board: bool = False
) -> float:
    """How high above the table a nominal webcam is mounted, millimetres: just high enough to
    frame the play area and its corner tags, and at least 0.8 m over a table (``board``: a
    printed grid board, framed closely)."""
    span = framed_span_mm(width_in, depth_in, CAMERAS[camera])
    height = span / 2.0 / math.tan(math.radians(NOMINAL_VFOV_DEG) / 2.0)
    return height if board else max(TABLE_CAMERA_MIN_MM, height)


@dataclass(frozen=True)
class CameraView:
    """A camera over a table, as far as sizing tags goes: how many pixels a tag's side gets at
    the worst place on the play area, at any height above the table."""

    kind: str
    """"1080p", "4k", "720p" (a nominal webcam) or "profile"."""
    words: str
    """For people: "a 1080p webcam 0.80 m above the table"."""
    mapping: TableMapping
    width_in: float
    depth_in: float
    image_size_px: tuple[int, int]
    camera_height_mm: float
    """The camera's height above the table, millimetres."""
    vfov_deg: float
    """Its vertical field of view, degrees."""
    _scales: dict[float, float] = field(default_factory=dict, compare=False, repr=False)

    def px_per_mm(self, height_mm: float = 3.0) -> float:
        """The smallest scale a tag ``height_mm`` above the table gets anywhere on the play
        area, pixels per millimetre of its side (lens and perspective included)."""
        key = round(height_mm, 3)
        if key not in self._scales:
            self._scales[key] = tag_scale_px_per_mm(
                self.mapping, self.width_in, self.depth_in, height_mm
            )
        return self._scales[key]

    def lower_camera(
        self, px_have: float, px_want: float, height_mm: float = 3.0
    ) -> tuple[float, float]:
        """Where the camera would have to be for a tag spanning ``px_have`` pixels to span
        ``px_want``: (its height above the table in millimetres, the vertical field of view in
        degrees it would then need to take in the play area and its corner tags)."""
        above = self.camera_height_mm - height_mm
        new_height = height_mm + above * px_have / px_want
        span = framed_span_mm(self.width_in, self.depth_in, self.image_size_px)
        vfov = math.degrees(2.0 * math.atan(span / 2.0 / new_height))
        return new_height, vfov


def _straight_down(centre_mm: tuple[float, float, float]) -> tuple[np.ndarray, np.ndarray]:
    """World-to-camera rotation and translation of a camera at ``centre_mm`` looking straight
    down, the far edge of the table at the top of the picture."""
    rot = np.array([[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]])
    return rot, -rot @ np.asarray(centre_mm, dtype=np.float64)


def nominal_view(
    camera: str,
    width_in: float,
    depth_in: float,
    *,
    board: bool = False,
    height_mm: float | None = None,
) -> CameraView:
    """A nominal webcam (``camera``: a name of :data:`CAMERAS`) mounted straight down over the
    middle of a ``width_in`` x ``depth_in`` table at ``height_mm`` (default: the mounting height
    :func:`nominal_height_mm` gives)."""
    if camera not in CAMERAS:
        raise CalibrationError(f"unknown camera {camera!r}; expected one of {sorted(CAMERAS)}")
    if width_in <= 0 or depth_in <= 0:
        raise CalibrationError(f"table size must be positive, got {width_in} x {depth_in} in")
    w, h = CAMERAS[camera]
    up = (
        nominal_height_mm(width_in, depth_in, camera, board=board)
        if height_mm is None
        else height_mm
    )
    if up <= 50.0:
        raise CalibrationError(f"a camera {up:g} mm above the table is too low")
    f = (h / 2.0) / math.tan(math.radians(NOMINAL_VFOV_DEG) / 2.0)
    matrix = ((f, 0.0, (w - 1) / 2.0), (0.0, f, (h - 1) / 2.0), (0.0, 0.0, 1.0))
    rot, tvec = _straight_down((width_in * MM_PER_IN / 2.0, depth_in * MM_PER_IN / 2.0, up))
    homography = np.array(matrix) @ np.column_stack(
        [rot[:, 0] * MM_PER_IN, rot[:, 1] * MM_PER_IN, tvec]
    )
    homography /= homography[2, 2]
    rvec, _ = cv2.Rodrigues(rot)
    pose = CameraPose(
        rvec=tuple(float(v) for v in rvec.reshape(3)),  # type: ignore[arg-type]
        tvec_mm=tuple(float(v) for v in tvec),  # type: ignore[arg-type]
        camera_matrix=matrix,
        source=f"nominal {camera} webcam",
    )
    lens = Intrinsics(matrix, NOMINAL_DISTORTION, (w, h), f"nominal {camera} webcam")
    mapping = TableMapping(tuple(tuple(float(v) for v in row) for row in homography), pose, lens)
    label = "4K" if camera == "4k" else camera
    return CameraView(
        kind=camera,
        words=f"a {label} webcam {up / 1000:.2f} m above the table",
        mapping=mapping,
        width_in=width_in,
        depth_in=depth_in,
        image_size_px=(w, h),
        camera_height_mm=up,
        vfov_deg=NOMINAL_VFOV_DEG,
    )


def profile_view(profile: TableProfile, where: str) -> CameraView:
    """The camera a calibrated profile (read from ``where``) measured."""
    w, h = profile.image_size_px
    fy = float(profile.pose.camera_matrix[1][1])
    up = profile.pose.centre_mm[2]
    return CameraView(
        kind="profile",
        words=f"the camera of {where} ({w}x{h}, {up / 1000:.2f} m above the table)",
        mapping=profile.mapping(),
        width_in=profile.width_in,
        depth_in=profile.depth_in,
        image_size_px=(w, h),
        camera_height_mm=up,
        vfov_deg=math.degrees(2.0 * math.atan(h / 2.0 / fy)),
    )

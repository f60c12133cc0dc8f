"""The camera's pose over the table and the pixel <-> table mapping at a given height.

World frame: millimetres from the play area's left front corner, +x right, +y away from the
player, +z up from the table top. A tag whose plane is ``height_mm`` above the table is mapped by
taking the table-plane point its pixel's ray hits (the homography) and sliding it toward the point
under the camera by the ratio of heights: exact for a pinhole camera, and it needs only the
camera's centre. With lens intrinsics the pixels are undistorted first (points, never frames) and
the pose comes from solvePnP; without them the focal length is estimated from the homography
(principal point at the image centre, square pixels), or assumed when the view is too square-on
to tell (an overhead camera), and the source says which.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from calibration.errors import CalibrationError
from calibration.intrinsics import Intrinsics
from calibration.table import MM_PER_IN, apply_homography, local_px_per_mm

F64 = npt.NDArray[np.float64]

#: Focal length assumed when the homography cannot tell it, as a fraction of the image width:
#: a 70 degree horizontal field of view, the common webcam (and DESIGN's 3.4 px/mm at 0.8 m, 4K).
ASSUMED_FOCAL_PER_WIDTH = 0.71
#: Below this camera tilt the focal length is not estimated from the homography: measured on
#: projected corners with 0.15 px noise at 1080p, 4 deg tilt gives +-6 %, 2 deg -25 %.
MIN_TILT_FOR_FOCAL_DEG = 5.0

POSE_FROM_INTRINSICS = "intrinsics"
POSE_FROM_HOMOGRAPHY = "estimated from the table mapping"
POSE_ASSUMED_FOCAL = "assumed focal length (no intrinsics; view too square-on to estimate)"


@dataclass(frozen=True)
class CameraPose:
    """Where the camera is over the table and the pinhole matrix used to find it."""

    rvec: tuple[float, float, float]
    """Rodrigues rotation, world (table mm) to camera."""
    tvec_mm: tuple[float, float, float]
    """Translation world to camera, millimetres."""
    camera_matrix: tuple[tuple[float, float, float], ...]
    """3x3 pinhole matrix in pixels used for the pose (measured or estimated)."""
    source: str
    """POSE_FROM_INTRINSICS, POSE_FROM_HOMOGRAPHY or POSE_ASSUMED_FOCAL."""

    @property
    def centre_mm(self) -> tuple[float, float, float]:
        """The camera's optical centre in table millimetres (z = height above the table)."""
        r, _ = cv2.Rodrigues(np.array(self.rvec, dtype=np.float64))
        c = -r.T @ np.array(self.tvec_mm, dtype=np.float64)
        return float(c[0]), float(c[1]), float(c[2])

    @property
    def tilt_deg(self) -> float:
        """Angle between the optical axis and straight down, degrees."""
        r, _ = cv2.Rodrigues(np.array(self.rvec, dtype=np.float64))
        axis_world = r.T @ np.array([0.0, 0.0, 1.0])
        cos = float(np.clip(-axis_world[2], -1.0, 1.0))
        return float(np.degrees(np.arccos(cos)))

    @property
    def focal_px(self) -> float:
        """Focal length in pixels (fx)."""
        return float(self.camera_matrix[0][0])

    def to_dict(self) -> dict[str, object]:
        """JSON-ready dict."""
        return {
            "rvec": list(self.rvec),
            "tvec_mm": list(self.tvec_mm),
            "camera_matrix": [list(r) for r in self.camera_matrix],
            "source": self.source,
            "centre_mm": list(self.centre_mm),
            "tilt_deg": self.tilt_deg,
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> CameraPose:
        """Read :meth:`to_dict`'s output; raises CalibrationError naming a bad field."""
        try:
            rvec = tuple(float(v) for v in data["rvec"])
            tvec = tuple(float(v) for v in data["tvec_mm"])
            m = np.array(data["camera_matrix"], dtype=np.float64).reshape(3, 3)
            source = str(data["source"])
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(f"pose: missing or malformed field ({exc})") from exc
        if len(rvec) != 3 or len(tvec) != 3:
            raise CalibrationError("pose: rvec and tvec_mm need three numbers each")
        return CameraPose(
            rvec=(rvec[0], rvec[1], rvec[2]),
            tvec_mm=(tvec[0], tvec[1], tvec[2]),
            camera_matrix=_rows(m),
            source=source,
        )


def _rows(m: F64) -> tuple[tuple[float, float, float], ...]:
    return tuple((float(r[0]), float(r[1]), float(r[2])) for r in m)


def estimate_focal_px(homography_in: F64, image_size_px: tuple[int, int]) -> float | None:
    """Focal length in pixels from a table->pixel homography (table inches), assuming square
    pixels and the principal point at the image centre; None when the constraints cannot tell."""
    w, h = image_size_px
    shift = np.array([[1.0, 0.0, -w / 2.0], [0.0, 1.0, -h / 2.0], [0.0, 0.0, 1.0]])
    hm = shift @ homography_in @ np.diag([1.0 / MM_PER_IN, 1.0 / MM_PER_IN, 1.0])
    hm = hm / np.linalg.norm(hm[:2, :2])
    h1, h2 = hm[:, 0], hm[:, 1]
    a = np.array([h1[0] * h2[0] + h1[1] * h2[1], h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2])
    b = np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
    denom = float(a @ a)
    if denom <= 0:
        return None
    inv_f2 = -float(a @ b) / denom
    if inv_f2 <= 0:
        return None
    f = float(1.0 / np.sqrt(inv_f2))
    if not (0.3 * w <= f <= 4.0 * w):
        return None
    return f


def solve_pose(
    table_in: npt.ArrayLike,
    image_px: npt.ArrayLike,
    camera_matrix: F64,
    dist_coeffs: F64 | None,
    source: str,
) -> CameraPose:
    """Camera pose from table points (inches, z = 0) and their pixels, by solvePnP (IPPE, or the
    iterative solver where IPPE fails, then Levenberg-Marquardt refinement)."""
    obj = np.asarray(table_in, dtype=np.float64).reshape(-1, 2) * MM_PER_IN
    obj3 = np.hstack([obj, np.zeros((obj.shape[0], 1))])
    img = np.asarray(image_px, dtype=np.float64).reshape(-1, 1, 2)
    dist = np.zeros(5) if dist_coeffs is None else dist_coeffs
    ok, rvec, tvec = cv2.solvePnP(obj3, img, camera_matrix, dist, flags=cv2.SOLVEPNP_IPPE)
    if not ok or not (np.all(np.isfinite(rvec)) and np.all(np.isfinite(tvec))):
        # IPPE gives NaN for an exactly square-on view; the iterative solver does not
        ok, rvec, tvec = cv2.solvePnP(obj3, img, camera_matrix, dist, flags=cv2.SOLVEPNP_ITERATIVE)
    if not ok or not (np.all(np.isfinite(rvec)) and np.all(np.isfinite(tvec))):
        raise CalibrationError("could not find the camera's pose from the corner tags")
    rvec, tvec = cv2.solvePnPRefineLM(obj3, img, camera_matrix, dist, rvec, tvec)
    r = rvec.ravel()
    t = tvec.ravel()
    pose = CameraPose(
        rvec=(float(r[0]), float(r[1]), float(r[2])),
        tvec_mm=(float(t[0]), float(t[1]), float(t[2])),
        camera_matrix=_rows(camera_matrix),
        source=source,
    )
    if pose.centre_mm[2] <= 0:
        raise CalibrationError("the corner tags put the camera below the table: check the tag ids")
    return pose


def pose_from_points(
    table_in: npt.ArrayLike,
    image_px: npt.ArrayLike,
    homography_in: F64,
    image_size_px: tuple[int, int],
    intrinsics: Intrinsics | None,
) -> CameraPose:
    """The camera pose from matched table points (inches) and raw pixels: with intrinsics by
    solvePnP; without, with the focal length estimated from the homography or assumed."""
    if intrinsics is not None:
        intr = intrinsics.scaled_to(image_size_px)
        return solve_pose(
            table_in, image_px, intr.matrix(), intr.distortion(), POSE_FROM_INTRINSICS
        )
    w, h = image_size_px
    f = estimate_focal_px(homography_in, image_size_px)
    source = POSE_FROM_HOMOGRAPHY
    if f is not None:
        k = np.array([[f, 0, w / 2.0], [0, f, h / 2.0], [0, 0, 1.0]])
        pose = solve_pose(table_in, image_px, k, None, source)
        if pose.tilt_deg >= MIN_TILT_FOR_FOCAL_DEG:
            return pose
    f = ASSUMED_FOCAL_PER_WIDTH * w
    k = np.array([[f, 0, w / 2.0], [0, f, h / 2.0], [0, 0, 1.0]])
    return solve_pose(table_in, image_px, k, None, POSE_ASSUMED_FOCAL)


@dataclass(frozen=True)
class TableMapping:
    """Pixels <-> table inches at any height above the table, for one camera set-up."""

    homography: tuple[tuple[float, ...], ...]
    """3x3, table inches (z = 0) -> undistorted pixels."""
    pose: CameraPose
    intrinsics: Intrinsics | None = None
    """Lens intrinsics at the image size in use, or None (pixels then taken as undistorted)."""

    def __post_init__(self) -> None:
        h = np.array(self.homography, dtype=np.float64)
        object.__setattr__(self, "_h", h)
        object.__setattr__(self, "_h_inv", np.linalg.inv(h))
        object.__setattr__(self, "_centre", np.array(self.pose.centre_mm))

    def matrix(self) -> F64:
        """The homography, table inches -> undistorted pixels."""
        return np.asarray(self.__dict__["_h"], dtype=np.float64)

    def undistort_px(self, points_px: npt.ArrayLike) -> F64:
        """Raw pixels -> undistorted pixels (identity without intrinsics). Nx2."""
        pts = np.asarray(points_px, dtype=np.float64).reshape(-1, 2)
        if self.intrinsics is None or not any(self.intrinsics.dist_coeffs):
            return pts
        k = self.intrinsics.matrix()
        out = cv2.undistortPoints(pts.reshape(-1, 1, 2), k, self.intrinsics.distortion(), P=k)
        return np.asarray(out.reshape(-1, 2), dtype=np.float64)

    def distort_px(self, points_px: npt.ArrayLike) -> F64:
        """Undistorted pixels -> raw pixels (identity without intrinsics). Nx2."""
        pts = np.asarray(points_px, dtype=np.float64).reshape(-1, 2)
        if self.intrinsics is None or not any(self.intrinsics.dist_coeffs):
            return pts
        k = self.intrinsics.matrix()
        norm = (pts - k[:2, 2]) / np.array([k[0, 0], k[1, 1]])
        obj = np.hstack([norm, np.ones((norm.shape[0], 1))])
        out, _ = cv2.projectPoints(obj, np.zeros(3), np.zeros(3), k, self.intrinsics.distortion())
        return np.asarray(out.reshape(-1, 2), dtype=np.float64)

    def to_table_in(self, points_px: npt.ArrayLike, height_mm: float = 0.0) -> F64:
        """Raw pixels -> table inches (Nx2) for points on a plane ``height_mm`` above the table."""
        p0 = apply_homography(self.__dict__["_h_inv"], self.undistort_px(points_px))
        if height_mm == 0.0:
            return p0
        c = self.__dict__["_centre"]
        c_in = c[:2] / MM_PER_IN
        ratio = (c[2] - height_mm) / c[2]
        return np.asarray(c_in + (p0 - c_in) * ratio, dtype=np.float64)

    def to_pixels(self, points_in: npt.ArrayLike, height_mm: float = 0.0) -> F64:
        """Table inches on a plane ``height_mm`` above the table -> raw pixels (Nx2)."""
        pts = np.asarray(points_in, dtype=np.float64).reshape(-1, 2)
        if height_mm != 0.0:
            c = self.__dict__["_centre"]
            c_in = c[:2] / MM_PER_IN
            pts = c_in + (pts - c_in) * (c[2] / (c[2] - height_mm))
        return self.distort_px(apply_homography(self.__dict__["_h"], pts))

    def table_px_per_mm(self, x_in: float, y_in: float) -> float:
        """Local scale at a table point, undistorted pixels per millimetre."""
        return local_px_per_mm(self.matrix(), x_in, y_in)

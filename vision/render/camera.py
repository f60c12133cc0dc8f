"""The virtual camera: a pinhole with lens distortion, posed above the table.

World frame (millimetres): origin at the play area's left front corner, +x right, +y away from
the player, z up. The camera looks down; with yaw 0 the far edge of the table (large y) is at
the top of the image. Pixels follow OpenCV: (0, 0) is the centre of the top-left pixel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

import cv2
import numpy as np
import numpy.typing as npt

MM_PER_INCH = 25.4

#: Image sizes (width, height) in pixels of the named presets.
RESOLUTIONS: dict[str, tuple[int, int]] = {
    "720p": (1280, 720),
    "1080p": (1920, 1080),
    "4k": (3840, 2160),
}

#: Mild barrel distortion (k1, k2, p1, p2, k3) of a typical webcam lens.
WEBCAM_DISTORTION: tuple[float, float, float, float, float] = (-0.06, 0.02, 0.0, 0.0, 0.0)
NO_DISTORTION: tuple[float, float, float, float, float] = (0.0, 0.0, 0.0, 0.0, 0.0)

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Camera:
    """A pinhole camera with Brown-Conrady distortion, posed in the table's world frame.

    Intrinsics in pixels; position in millimetres; angles in degrees.
    """

    width_px: int
    height_px: int
    fx: float
    fy: float
    cx: float
    cy: float
    dist: tuple[float, float, float, float, float] = NO_DISTORTION
    """OpenCV's (k1, k2, p1, p2, k3)."""
    position_mm: tuple[float, float, float] = (304.8, 304.8, 800.0)
    """Centre of projection in world millimetres (x, y, height above the table)."""
    yaw_deg: float = 0.0
    """Direction of the image's "up" on the table, degrees clockwise from +y."""
    tilt_deg: float = 0.0
    """Optical axis tipped from straight down toward the image's up direction, degrees."""
    roll_deg: float = 0.0
    """Optical axis tipped toward the image's right, degrees."""

    @classmethod
    def overhead(
        cls,
        resolution: str = "1080p",
        *,
        table_width_in: float = 24.0,
        table_depth_in: float = 24.0,
        height_mm: float = 800.0,
        vfov_deg: float = 50.0,
        tilt_deg: float = 0.0,
        yaw_deg: float = 0.0,
        roll_deg: float = 0.0,
        dist: tuple[float, float, float, float, float] = WEBCAM_DISTORTION,
    ) -> Camera:
        """A preset camera ``height_mm`` above the table centre.

        ``resolution`` is one of :data:`RESOLUTIONS`; ``vfov_deg`` is the vertical field of
        view (50 degrees frames a 2 ft table and its corner tags from 0.8 m).
        """
        if resolution not in RESOLUTIONS:
            raise ValueError(
                f"unknown resolution {resolution!r}; expected one of {sorted(RESOLUTIONS)}"
            )
        if height_mm <= 50:
            raise ValueError(f"camera height_mm={height_mm} must be above 50 mm")
        w, h = RESOLUTIONS[resolution]
        f = (h / 2.0) / math.tan(math.radians(vfov_deg) / 2.0)
        centre = (table_width_in * MM_PER_INCH / 2.0, table_depth_in * MM_PER_INCH / 2.0)
        return cls(
            width_px=w,
            height_px=h,
            fx=f,
            fy=f,
            cx=(w - 1) / 2.0,
            cy=(h - 1) / 2.0,
            dist=tuple(float(v) for v in dist),  # type: ignore[arg-type]
            position_mm=(centre[0], centre[1], float(height_mm)),
            yaw_deg=yaw_deg,
            tilt_deg=tilt_deg,
            roll_deg=roll_deg,
        )

    def nudged(self, dx_mm: float = 0.0, dy_mm: float = 0.0, dyaw_deg: float = 0.0) -> Camera:
        """The same camera moved by (dx, dy) millimetres and turned by ``dyaw_deg``."""
        x, y, z = self.position_mm
        return replace(self, position_mm=(x + dx_mm, y + dy_mm, z), yaw_deg=self.yaw_deg + dyaw_deg)

    def scaled(self, factor: float) -> Camera:
        """The same camera with an image ``factor`` times as wide and high (same view)."""
        return replace(
            self,
            width_px=max(1, round(self.width_px * factor)),
            height_px=max(1, round(self.height_px * factor)),
            fx=self.fx * factor,
            fy=self.fy * factor,
            cx=(self.cx + 0.5) * factor - 0.5,
            cy=(self.cy + 0.5) * factor - 0.5,
        )

    @cached_property
    def camera_matrix(self) -> FloatArray:
        """The 3x3 intrinsic matrix K (pixels)."""
        return np.array([[self.fx, 0.0, self.cx], [0.0, self.fy, self.cy], [0.0, 0.0, 1.0]])

    @property
    def dist_coeffs(self) -> FloatArray:
        """Distortion coefficients (k1, k2, p1, p2, k3) as a numpy vector."""
        return np.array(self.dist, dtype=np.float64)

    @property
    def has_distortion(self) -> bool:
        """True when any distortion coefficient is non-zero."""
        return any(abs(v) > 0 for v in self.dist)

    @cached_property
    def rotation(self) -> FloatArray:
        """World-to-camera rotation matrix (rows are the camera's x, y, z axes in world)."""
        yaw, tilt, roll = (math.radians(a) for a in (self.yaw_deg, self.tilt_deg, self.roll_deg))
        up = np.array([math.sin(yaw), math.cos(yaw), 0.0])
        zw = np.array([0.0, 0.0, 1.0])
        z_c = math.cos(tilt) * -zw + math.sin(tilt) * up
        y_c = -(math.cos(tilt) * up + math.sin(tilt) * zw)
        x_c = np.cross(y_c, z_c)
        z_r = math.cos(roll) * z_c + math.sin(roll) * x_c
        x_r = math.cos(roll) * x_c - math.sin(roll) * z_c
        return np.stack([x_r, y_c, z_r])

    @cached_property
    def tvec(self) -> FloatArray:
        """World-to-camera translation (millimetres), OpenCV's tvec."""
        return -self.rotation @ np.asarray(self.position_mm, dtype=np.float64)

    @cached_property
    def rvec(self) -> FloatArray:
        """World-to-camera rotation as OpenCV's Rodrigues vector."""
        r, _ = cv2.Rodrigues(self.rotation)
        return r.reshape(3)

    def to_camera(self, points_mm: npt.ArrayLike) -> FloatArray:
        """World points (N, 3) in millimetres to camera coordinates (N, 3), millimetres."""
        p = np.asarray(points_mm, dtype=np.float64).reshape(-1, 3)
        return p @ self.rotation.T + self.tvec

    def project(self, points_mm: npt.ArrayLike) -> FloatArray:
        """World points (N, 3) in millimetres to distorted image pixels (N, 2)."""
        p = np.asarray(points_mm, dtype=np.float64).reshape(-1, 1, 3)
        px, _ = cv2.projectPoints(p, self.rvec, self.tvec, self.camera_matrix, self.dist_coeffs)
        return px.reshape(-1, 2)

    def px_per_mm_at_table(self) -> float:
        """Approximate image scale on the table plane under the camera, pixels per millimetre."""
        return max(self.fx, self.fy) / max(self.position_mm[2], 1.0)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready description: intrinsics, distortion, pose and OpenCV's K, rvec, tvec."""
        return {
            "width_px": self.width_px,
            "height_px": self.height_px,
            "fx": self.fx,
            "fy": self.fy,
            "cx": self.cx,
            "cy": self.cy,
            "dist": list(self.dist),
            "position_mm": list(self.position_mm),
            "yaw_deg": self.yaw_deg,
            "tilt_deg": self.tilt_deg,
            "roll_deg": self.roll_deg,
            "K": self.camera_matrix.tolist(),
            "rvec": self.rvec.tolist(),
            "tvec": self.tvec.tolist(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Camera:
        """Inverse of :meth:`to_dict` (K, rvec and tvec are derived, so ignored)."""
        try:
            return cls(
                width_px=int(data["width_px"]),  # type: ignore[call-overload]
                height_px=int(data["height_px"]),  # type: ignore[call-overload]
                fx=float(data["fx"]),  # type: ignore[arg-type]
                fy=float(data["fy"]),  # type: ignore[arg-type]
                cx=float(data["cx"]),  # type: ignore[arg-type]
                cy=float(data["cy"]),  # type: ignore[arg-type]
                dist=tuple(float(v) for v in data.get("dist", NO_DISTORTION)),  # type: ignore[arg-type,attr-defined]
                position_mm=tuple(float(v) for v in data["position_mm"]),  # type: ignore[arg-type,attr-defined]
                yaw_deg=float(data.get("yaw_deg", 0.0)),  # type: ignore[arg-type]
                tilt_deg=float(data.get("tilt_deg", 0.0)),  # type: ignore[arg-type]
                roll_deg=float(data.get("roll_deg", 0.0)),  # type: ignore[arg-type]
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"bad camera description {data!r}: {exc}") from exc


@dataclass(frozen=True)
class IdealCanvas:
    """The undistorted pinhole image the scene is drawn into before the lens is applied.

    It is larger than the output by ``pad_*`` pixels so that barrel distortion finds source
    pixels for every output pixel; its principal point is shifted by the padding.
    """

    width_px: int
    height_px: int
    pad_left: int
    pad_top: int
    map_x: npt.NDArray[np.float32] | None
    """For each output pixel, the canvas x to sample (None when there is no distortion)."""
    map_y: npt.NDArray[np.float32] | None
    fixed_maps: tuple[npt.NDArray[np.int16], npt.NDArray[np.uint16]] | None
    """The same maps in OpenCV's fast fixed-point form, for ``cv2.remap``."""


def ideal_canvas(camera: Camera) -> IdealCanvas:
    """The padded undistorted canvas and remap maps for ``camera`` (cached per intrinsics)."""
    return _ideal_canvas(
        camera.width_px, camera.height_px, camera.fx, camera.fy, camera.cx, camera.cy, camera.dist
    )


@lru_cache(maxsize=8)
def _ideal_canvas(
    w: int,
    h: int,
    fx: float,
    fy: float,
    cx: float,
    cy: float,
    dist: tuple[float, float, float, float, float],
) -> IdealCanvas:
    if not any(abs(v) > 0 for v in dist):
        return IdealCanvas(w, h, 0, 0, None, None, None)
    k = np.array([[fx, 0.0, cx], [0.0, fy, cy], [0.0, 0.0, 1.0]])
    d = np.array(dist, dtype=np.float64)
    # The maps are smooth: solve the inverse distortion on a coarse grid and interpolate.
    step = 8
    gx = np.arange(0, w + step, step, dtype=np.float64)
    gy = np.arange(0, h + step, step, dtype=np.float64)
    mx, my = np.meshgrid(gx, gy)
    pts = np.stack([mx.ravel(), my.ravel()], axis=1).reshape(-1, 1, 2)
    und = cv2.undistortPoints(
        pts,
        k,
        d,
        P=k,
        criteria=(cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-6),
    ).reshape(len(gy), len(gx), 2)
    pad_left = max(0, math.ceil(-und[..., 0].min()) + 2)
    pad_top = max(0, math.ceil(-und[..., 1].min()) + 2)
    pad_right = max(0, math.ceil(und[..., 0].max() - (w - 1)) + 2)
    pad_bottom = max(0, math.ceil(und[..., 1].max() - (h - 1)) + 2)
    ux = _bilinear_upsample(und[..., 0], step, w, h)
    uy = _bilinear_upsample(und[..., 1], step, w, h)
    map_x = (ux + pad_left).astype(np.float32)
    map_y = (uy + pad_top).astype(np.float32)
    m1, m2 = cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)
    return IdealCanvas(
        width_px=w + pad_left + pad_right,
        height_px=h + pad_top + pad_bottom,
        pad_left=pad_left,
        pad_top=pad_top,
        map_x=map_x,
        map_y=map_y,
        fixed_maps=(m1, m2),
    )


def _bilinear_upsample(grid: FloatArray, step: int, w: int, h: int) -> npt.NDArray[np.float32]:
    """Sample a grid whose node (i, j) sits at pixel (j*step, i*step) at every pixel of w x h
    (along x first, on the grid's rows only, then along y)."""
    xs = np.arange(w, dtype=np.float64) / step
    ys = np.arange(h, dtype=np.float64) / step
    x0 = np.minimum(xs.astype(np.int64), grid.shape[1] - 2)
    y0 = np.minimum(ys.astype(np.int64), grid.shape[0] - 2)
    fx = (xs - x0)[None, :]
    fy = (ys - y0)[:, None]
    rows = grid[:, x0] * (1 - fx) + grid[:, x0 + 1] * fx
    return (rows[y0] * (1 - fy) + rows[y0 + 1] * fy).astype(np.float32)

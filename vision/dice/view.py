"""How the dice reader looks at a tray: a top-down picture of it at die-top height.

The tray is resampled to ``px_per_mm`` on a plane ``plane_mm`` above its floor (the top of a
16 mm die by default), so that the top face of a die lying flat is a square of its true size.
Side faces are vertical: on that plane they appear as strips on the side of each die toward the
point under the camera (the nadir), as wide as the die's height times its distance from the
nadir over the camera's height: :meth:`DiceView.parallax_px` gives that displacement.

Without a tray (a photo of some dice) the view is the image itself, with the nadir at the image
centre and the camera's distance guessed from a common webcam's field of view.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from calibration.pose import ASSUMED_FOCAL_PER_WIDTH, TableMapping
from calibration.table import MM_PER_IN
from calibration.tray import TrayRegion

F64 = npt.NDArray[np.float64]
Image = npt.NDArray[np.uint8]

VIEW_PX_PER_MM = 3.0
"""Scale of the top-down view: a 16 mm die is 48 px, a 3 mm pip 9 px."""
DIE_TOP_MM = 16.0
"""Height of the view's plane above the tray floor: the top of a common 16 mm die."""
DIE_SIDES_MM = (9.0, 26.0)
"""The die sizes the reader looks for, millimetres (mini dice to big 25 mm ones)."""


@dataclass(frozen=True)
class DiceView:
    """A top-down picture to read dice in, and how it relates to the camera image.

    ``maps`` (x, y) give for each view pixel the image pixel it samples (None: the view is the
    image itself, scaled by ``scale``).
    """

    maps: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]] | None
    size_px: tuple[int, int]
    """(width, height) of the view, pixels."""
    die_side_px: tuple[float, float]
    """Smallest and largest die side the reader accepts, view pixels."""
    nadir_px: tuple[float, float]
    """The point under the camera, view pixels (may lie outside the view)."""
    camera_px: float
    """The camera's height above the view's plane, in view pixels."""
    px_per_mm: float | None = None
    """View pixels per millimetre on the tray (None without a tray)."""
    scale: float = 1.0
    """View pixels per image pixel when there are no maps."""
    tray_mm: tuple[float, float] | None = None
    """Width and depth of the tray, millimetres (None without a tray)."""
    valid: npt.NDArray[np.uint8] | None = None
    """255 where the view shows the tray (not a tag or outside the image), or None: all."""
    floor: npt.NDArray[np.uint8] | None = None
    """255 where the floor seen through the view lies inside the tray: on the far side from the
    nadir the view's plane shows the floor beyond the tray's edge (a rim of paper or wall),
    since the view is at die-top height; None: all."""

    def render(self, image: Image) -> Image:
        """The view of a camera image (BGR)."""
        if self.maps is None:
            if self.scale == 1.0:
                return image
            w, h = self.size_px
            return np.asarray(cv2.resize(image, (w, h), interpolation=cv2.INTER_AREA))
        return np.asarray(
            cv2.remap(
                image,
                self.maps[0],
                self.maps[1],
                cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_REPLICATE,
            )
        )

    def to_image_px(self, points: npt.ArrayLike) -> F64:
        """View pixels (N, 2) to camera image pixels."""
        p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        if self.maps is None:
            return p / self.scale
        mx, my = self.maps
        out = np.empty_like(p)
        for i, (x, y) in enumerate(p):
            out[i] = (_bilinear(mx, x, y), _bilinear(my, x, y))
        return out

    def to_tray_mm(self, points: npt.ArrayLike) -> F64 | None:
        """View pixels (N, 2) to tray millimetres (right, up) from its near-left corner."""
        if self.px_per_mm is None or self.tray_mm is None:
            return None
        p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        return np.stack(
            [p[:, 0] / self.px_per_mm, self.tray_mm[1] - p[:, 1] / self.px_per_mm], axis=1
        )

    def parallax_px(self, at: npt.ArrayLike, height_px: float) -> F64:
        """Where the foot of a vertical edge ``height_px`` tall appears relative to its top,
        for a die at view point ``at``: toward the nadir, (x, y) view pixels."""
        p = np.asarray(at, dtype=np.float64).reshape(2)
        n = np.asarray(self.nadir_px, dtype=np.float64)
        return np.asarray((n - p) * (height_px / max(self.camera_px, 1.0)), dtype=np.float64)


def _bilinear(m: npt.NDArray[np.float32], x: float, y: float) -> float:
    h, w = m.shape
    x = min(max(x, 0.0), w - 1.001)
    y = min(max(y, 0.0), h - 1.001)
    x0, y0 = int(x), int(y)
    fx, fy = x - x0, y - y0
    top = m[y0, x0] * (1 - fx) + m[y0, x0 + 1] * fx
    bottom = m[y0 + 1, x0] * (1 - fx) + m[y0 + 1, x0 + 1] * fx
    return float(top * (1 - fy) + bottom * fy)


def tray_view(
    mapping: TableMapping,
    tray: TrayRegion,
    image_size_px: tuple[int, int],
    *,
    px_per_mm: float = VIEW_PX_PER_MM,
    plane_mm: float = DIE_TOP_MM,
    die_sides_mm: tuple[float, float] = DIE_SIDES_MM,
) -> DiceView:
    """The top-down view of ``tray`` through ``mapping`` (its table inches, raw pixels)."""
    w_mm, d_mm = tray.width_mm, tray.depth_mm
    cols, rows = max(2, round(w_mm * px_per_mm)), max(2, round(d_mm * px_per_mm))
    xs = (np.arange(cols, dtype=np.float64) + 0.5) / px_per_mm
    ys = d_mm - (np.arange(rows, dtype=np.float64) + 0.5) / px_per_mm
    gx, gy = np.meshgrid(xs, ys)
    table_in = tray.to_table_in(np.stack([gx.ravel(), gy.ravel()], axis=1))
    height = tray.floor_mm + plane_mm
    px = mapping.to_pixels(table_in, height).reshape(rows, cols, 2)
    map_x = px[..., 0].astype(np.float32)
    map_y = px[..., 1].astype(np.float32)
    iw, ih = image_size_px
    valid = ((map_x >= 0) & (map_x <= iw - 1) & (map_y >= 0) & (map_y <= ih - 1)).astype(
        np.uint8
    ) * 255
    centre = np.asarray(mapping.pose.centre_mm, dtype=np.float64)
    nadir_uv = tray.to_tray_mm(centre[:2] / MM_PER_IN)[0]
    nadir = (nadir_uv[0] * px_per_mm - 0.5, (d_mm - nadir_uv[1]) * px_per_mm - 0.5)
    out = max(centre[2] - tray.floor_mm, 1.0) / max(centre[2] - height, 1.0)
    fu = nadir_uv[0] + (gx - nadir_uv[0]) * out
    fv = nadir_uv[1] + (gy - nadir_uv[1]) * out
    floor = ((fu >= 0) & (fu <= w_mm) & (fv >= 0) & (fv <= d_mm)).astype(np.uint8) * 255
    return DiceView(
        maps=(map_x, map_y),
        size_px=(cols, rows),
        die_side_px=(die_sides_mm[0] * px_per_mm, die_sides_mm[1] * px_per_mm),
        nadir_px=(float(nadir[0]), float(nadir[1])),
        camera_px=float(max(centre[2] - height, 1.0) * px_per_mm),
        px_per_mm=px_per_mm,
        tray_mm=(w_mm, d_mm),
        valid=valid,
        floor=floor,
    )


def image_view(image_size_px: tuple[int, int], die_side_px: tuple[float, float]) -> DiceView:
    """The whole image as the view, resized so that dice between ``die_side_px`` (image pixels)
    come out about as large as in a tray view (a 16 mm die at 3 px/mm: 48 px)."""
    w, h = image_size_px
    mid = (die_side_px[0] * die_side_px[1]) ** 0.5
    scale = float(np.clip(DIE_TOP_MM * VIEW_PX_PER_MM / max(mid, 1.0), 0.1, 4.0))
    vw, vh = max(2, round(w * scale)), max(2, round(h * scale))
    return DiceView(
        maps=None,
        size_px=(vw, vh),
        die_side_px=(die_side_px[0] * scale, die_side_px[1] * scale),
        nadir_px=((vw - 1) / 2.0, (vh - 1) / 2.0),
        camera_px=ASSUMED_FOCAL_PER_WIDTH * vw,
        scale=scale,
    )

"""Drawing primitives on the undistorted canvas: the mat warp, tags, filled 3D shapes.

Every shape is given in world millimetres and projected through the pinhole (no distortion;
the lens is applied to the finished canvas). Shapes drawn after a tag are remembered as
occluders so the tag's visibility can be judged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.render.camera import Camera, IdealCanvas, ideal_canvas
from vision.render.mat import FLOOR_BGR, MatTexture
from vision.render.scene import PlacedTag

_SHIFT = 4  # sub-pixel bits for cv2 polygon drawing
_SCALE = float(1 << _SHIFT)
INK_BGR = (28, 28, 30)
PAPER_BGR = (228, 230, 232)

Points = npt.NDArray[np.float64]


@dataclass
class Canvas:
    """The undistorted image being drawn, with its projection and the occluders drawn so far."""

    camera: Camera
    ideal: IdealCanvas
    image: npt.NDArray[np.uint8]
    occluders: list[npt.NDArray[np.int32]] = field(default_factory=list)
    """Filled polygons in drawing order (canvas pixels << _SHIFT)."""

    @classmethod
    def for_camera(cls, camera: Camera) -> Canvas:
        """A blank canvas for ``camera``."""
        ideal = ideal_canvas(camera)
        image = np.empty((ideal.height_px, ideal.width_px, 3), np.uint8)
        return cls(camera=camera, ideal=ideal, image=image)

    def project(self, points_mm: npt.ArrayLike) -> Points:
        """World points (N, 3) in mm to undistorted canvas pixels (N, 2)."""
        pc = self.camera.to_camera(points_mm)
        z = np.maximum(pc[:, 2], 1e-6)
        u = self.camera.fx * pc[:, 0] / z + self.camera.cx + self.ideal.pad_left
        v = self.camera.fy * pc[:, 1] / z + self.camera.cy + self.ideal.pad_top
        return np.stack([u, v], axis=1)

    def hull(self, pts_px: Points) -> npt.NDArray[np.int32]:
        """The convex hull of canvas points as an occluder (canvas pixels << _SHIFT, (N, 2))."""
        return cv2.convexHull((pts_px * _SCALE).astype(np.int32)).reshape(-1, 2)

    def plane_homography(self, z_mm: float) -> Points:
        """3x3 homography from table (x, y) millimetres at height ``z_mm`` to canvas pixels."""
        r = self.camera.rotation
        t = self.camera.tvec
        k = np.array(
            [
                [self.camera.fx, 0.0, self.camera.cx + self.ideal.pad_left],
                [0.0, self.camera.fy, self.camera.cy + self.ideal.pad_top],
                [0.0, 0.0, 1.0],
            ]
        )
        m = np.stack([r[:, 0], r[:, 1], r[:, 2] * z_mm + t], axis=1)
        return k @ m

    def draw_mat(self, texture: MatTexture) -> None:
        """Fill the canvas with the table texture seen through the camera."""
        h = self.plane_homography(0.0) @ texture.texture_to_table_mm()
        cv2.warpPerspective(
            texture.image,
            h,
            (self.image.shape[1], self.image.shape[0]),
            dst=self.image,
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=FLOOR_BGR,
        )

    def fill_convex(self, pts_px: Points, color: tuple[int, int, int], occluder: bool) -> None:
        """Fill the convex hull of canvas points with ``color`` (anti-aliased)."""
        if len(pts_px) < 3:
            return
        hull = self.hull(pts_px)
        cv2.fillConvexPoly(self.image, hull, color, cv2.LINE_AA, _SHIFT)
        if occluder:
            self.occluders.append(hull)

    def fill_poly(self, pts_px: Points, color: tuple[int, int, int], occluder: bool) -> None:
        """Fill a simple (possibly concave) polygon of canvas points with ``color``."""
        poly = (pts_px * _SCALE).astype(np.int32).reshape(-1, 1, 2)
        cv2.fillPoly(self.image, [poly], color, cv2.LINE_AA, _SHIFT)
        if occluder:
            self.occluders.append(poly.reshape(-1, 2))

    def draw_tag(self, tag: PlacedTag, dictionary: cv2.aruco.Dictionary) -> int:
        """Draw a tag with its white margin; returns the occluder count at drawing time."""
        black = self.project(tag.corners_mm())
        outer = self.project(tag.corners_mm(tag.margin_mm))
        cell_px = float(np.linalg.norm(black[1] - black[0])) / 6.0
        k = int(np.clip(np.ceil(cell_px * 2.0), 3, 48))
        margin_px = max(1, round(tag.margin_mm / tag.size_mm * 6.0 * k))
        src = _tag_image(tag.tag_id, k, margin_px, dictionary)
        n = 6 * k
        a, b = margin_px - 0.5, margin_px + n - 0.5
        src_black = np.array([[a, a], [b, a], [b, b], [a, b]], np.float32)
        x0 = max(int(np.floor(outer[:, 0].min())) - 1, 0)
        y0 = max(int(np.floor(outer[:, 1].min())) - 1, 0)
        x1 = min(int(np.ceil(outer[:, 0].max())) + 2, self.image.shape[1])
        y1 = min(int(np.ceil(outer[:, 1].max())) + 2, self.image.shape[0])
        if x1 <= x0 or y1 <= y0:
            return len(self.occluders)
        dst = (black - np.array([x0, y0])).astype(np.float32)
        h = cv2.getPerspectiveTransform(src_black, dst)
        size = (x1 - x0, y1 - y0)
        warped = cv2.warpPerspective(src, h, size, flags=cv2.INTER_LINEAR)
        alpha = cv2.warpPerspective(
            np.full(src.shape[:2], 255, np.uint8), h, size, flags=cv2.INTER_LINEAR
        )
        roi = self.image[y0:y1, x0:x1]
        a_f = alpha.astype(np.float32)[..., None] / 255.0
        ink = warped.astype(np.float32)[..., None] / 255.0
        colour = np.array(INK_BGR, np.float32) * (1 - ink) + np.array(PAPER_BGR, np.float32) * ink
        roi[:] = (roi.astype(np.float32) * (1 - a_f) + colour * a_f + 0.5).astype(np.uint8)
        return len(self.occluders)

    def covered_fraction(self, tag: PlacedTag, drawn_before: int, grow_mm: float = 0.0) -> float:
        """Fraction of the tag's square (grown by ``grow_mm``) covered by later occluders."""
        quad = self.project(tag.corners_mm(grow_mm))
        later = self.occluders[drawn_before:]
        if not later:
            return 0.0
        x0 = int(np.floor(quad[:, 0].min()))
        y0 = int(np.floor(quad[:, 1].min()))
        x1 = int(np.ceil(quad[:, 0].max())) + 1
        y1 = int(np.ceil(quad[:, 1].max())) + 1
        size = (y1 - y0, x1 - x0)
        off = np.array([x0, y0], np.int32) << _SHIFT
        tag_mask = np.zeros(size, np.uint8)
        cv2.fillConvexPoly(
            tag_mask, ((quad * _SCALE).astype(np.int32) - off), 1, cv2.LINE_8, _SHIFT
        )
        area = int(tag_mask.sum())
        if area == 0:
            return 0.0
        occ = np.zeros(size, np.uint8)
        lo = np.array([x0, y0]) * _SCALE
        hi = np.array([x1, y1]) * _SCALE
        for poly in later:
            if (poly.max(axis=0) < lo).any() or (poly.min(axis=0) > hi).any():
                continue
            cv2.fillPoly(occ, [(poly - off).reshape(-1, 1, 2)], 1, cv2.LINE_8, _SHIFT)
        return float((tag_mask & occ).sum()) / area


@dataclass
class ImageCanvas(Canvas):
    """A canvas that is (a region of) the camera's finished image: shapes are projected
    through the lens, and drawn straight into the picture (what lies above everything, the
    hand, is drawn so after the lens). ``origin`` is the region's top-left pixel in the
    image (x, y)."""

    origin: tuple[int, int] = (0, 0)

    @classmethod
    def over(
        cls, camera: Camera, image: npt.NDArray[np.uint8], origin: tuple[int, int] = (0, 0)
    ) -> ImageCanvas:
        """Draw over ``image``, the region at ``origin`` of ``camera``'s picture."""
        h, w = image.shape[:2]
        flat = IdealCanvas(w, h, 0, 0, None, None, None)
        return cls(camera=camera, ideal=flat, image=image, origin=origin)

    def project(self, points_mm: npt.ArrayLike) -> Points:
        """World points (N, 3) in mm to pixels of this region of the image (lens included).

        The lens model holds within the picture only; a point far outside it (a forearm
        reaching past the edge) is first drawn in toward the view, to 1.5 times the radius of
        the picture's corners, where the model still holds and lies outside the picture."""
        cam = self.camera
        pc = cam.to_camera(points_mm)
        z = np.maximum(pc[:, 2], 1e-6)
        x, y = pc[:, 0] / z, pc[:, 1] / z
        corner = math.hypot(
            max(cam.cx, cam.width_px - cam.cx) / cam.fx,
            max(cam.cy, cam.height_px - cam.cy) / cam.fy,
        )
        r = np.hypot(x, y)
        pull = np.minimum(1.0, 1.5 * corner / np.maximum(r, 1e-12))
        x, y = x * pull, y * pull
        k1, k2, p1, p2, k3 = cam.dist
        r2 = x * x + y * y
        radial = 1.0 + r2 * (k1 + r2 * (k2 + r2 * k3))
        xd = x * radial + 2.0 * p1 * x * y + p2 * (r2 + 2.0 * x * x)
        yd = y * radial + p1 * (r2 + 2.0 * y * y) + 2.0 * p2 * x * y
        u = cam.fx * xd + cam.cx - self.origin[0]
        v = cam.fy * yd + cam.cy - self.origin[1]
        return np.stack([u, v], axis=1)


@lru_cache(maxsize=512)
def _tag_image(
    tag_id: int, cell_px: int, margin_px: int, dictionary: cv2.aruco.Dictionary
) -> npt.NDArray[np.uint8]:
    """The marker (black border included) with a white margin, ``cell_px`` pixels per cell."""
    marker = cv2.aruco.generateImageMarker(dictionary, tag_id, 6 * cell_px, borderBits=1)
    return cv2.copyMakeBorder(
        marker, margin_px, margin_px, margin_px, margin_px, cv2.BORDER_CONSTANT, value=255
    )


@lru_cache(maxsize=4)
def aruco_dictionary(name: str = "DICT_4X4_50") -> cv2.aruco.Dictionary:
    """OpenCV's predefined dictionary called ``name`` (e.g. "DICT_4X4_50")."""
    if not name.startswith("DICT_") or not hasattr(cv2.aruco, name):
        raise ValueError(f"unknown ArUco dictionary {name!r}")
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))


def ring(
    cx: float, cy: float, z: float, rx: float, ry: float, fwd: Points, right: Points, n: int = 20
) -> Points:
    """Points (n, 3) of a horizontal ellipse in world mm: semi-axes ``rx`` along ``right``
    and ``ry`` along ``fwd``, centred at (cx, cy) at height z."""
    a = np.linspace(0.0, 2 * np.pi, n, endpoint=False)
    xy = (
        np.array([cx, cy])[None, :]
        + (rx * np.cos(a))[:, None] * right[None, :]
        + (ry * np.sin(a))[:, None] * fwd[None, :]
    )
    return np.column_stack([xy, np.full(n, z)])

"""A small synthetic overhead view for the vision tests: a textured table, the four corner tags
and flat square tags at given heights, projected by an ideal pinhole camera (no distortion).

Independent of the project renderer on purpose: it checks the pipeline against plain
cv2.aruco.generateImageMarker + cv2.warpPerspective geometry.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

MM_PER_IN = 25.4


@dataclass(frozen=True)
class SynthTag:
    """A tag to draw: id, centre (table mm), heading (deg clockwise from +y), side, height (mm)."""

    tag_id: int
    x_mm: float
    y_mm: float
    heading_deg: float = 0.0
    size_mm: float = 10.0
    height_mm: float = 3.0
    margin_mm: float = 1.0

    def corners_mm(self, grow_mm: float = 0.0) -> npt.NDArray[np.float64]:
        """3D corners (4, 3) in OpenCV order (top-left first as printed, up = heading)."""
        h = math.radians(self.heading_deg)
        up = np.array([math.sin(h), math.cos(h)])
        right = np.array([math.cos(h), -math.sin(h)])
        s = self.size_mm / 2 + grow_mm
        c = np.array([self.x_mm, self.y_mm])
        pts = [c - right * s + up * s, c + right * s + up * s, c + right * s - up * s]
        pts.append(c - right * s - up * s)
        return np.array([[p[0], p[1], self.height_mm] for p in pts])


@dataclass(frozen=True)
class SynthCamera:
    """Ideal pinhole camera above the table: focal length px, image size, height mm, tilt deg
    (tipped toward the far side, stepped back toward the player to look at the table centre)."""

    width_px: int = 1920
    height_px: int = 1080
    focal_px: float = 1360.0
    height_mm: float = 950.0
    tilt_deg: float = 0.0
    centre_mm: tuple[float, float] = (304.8, 304.8)

    def k(self) -> npt.NDArray[np.float64]:
        """Camera matrix."""
        f = self.focal_px
        return np.array([[f, 0, self.width_px / 2], [0, f, self.height_px / 2], [0, 0, 1.0]])

    def rt(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Rotation and translation world mm -> camera."""
        r0 = np.array([[1.0, 0, 0], [0, -1, 0], [0, 0, -1]])
        rt, _ = cv2.Rodrigues(np.array([-math.radians(self.tilt_deg), 0.0, 0.0]))
        r = rt @ r0
        off = self.height_mm * math.tan(math.radians(self.tilt_deg))
        c = np.array([self.centre_mm[0], self.centre_mm[1] - off, self.height_mm])
        return r, -r @ c

    def project(self, pts_mm: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """Project Nx3 world mm points to pixels."""
        r, t = self.rt()
        rv, _ = cv2.Rodrigues(r)
        p, _ = cv2.projectPoints(np.asarray(pts_mm, dtype=np.float64), rv, t, self.k(), None)
        return np.asarray(p.reshape(-1, 2), dtype=np.float64)


def corner_synth_tags(width_in: float = 24, depth_in: float = 24) -> list[SynthTag]:
    """The four 40 mm corner tags, diagonally outside the play-area corners, flat on the table."""
    w, d, h = width_in * MM_PER_IN, depth_in * MM_PER_IN, 20.0
    centres = [(-h, -h), (w + h, -h), (w + h, d + h), (-h, d + h)]
    return [SynthTag(i, x, y, 0.0, 40.0, 0.0, 3.0) for i, (x, y) in enumerate(centres)]


def _marker(tag_id: int, size_mm: float, margin_mm: float, px_per_mm: int) -> np.ndarray:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    side = round(size_mm * px_per_mm)
    m = cv2.aruco.generateImageMarker(dictionary, tag_id, side)
    pad = round(margin_mm * px_per_mm)
    return cv2.copyMakeBorder(m, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)


def render(
    cam: SynthCamera,
    tags: list[SynthTag],
    *,
    width_in: float = 24,
    depth_in: float = 24,
    seed: int = 0,
    noise_seed: int | None = None,
    noise: float = 2.0,
    blur_sigma: float = 0.6,
) -> npt.NDArray[np.uint8]:
    """A grey overhead image of a textured table with the given tags (and nothing else).
    ``seed`` fixes the table texture, ``noise_seed`` the sensor noise (default: ``seed``)."""
    rng = np.random.default_rng(seed)
    # table texture, 1 px = 2 mm, mid-grey with smooth blotches
    tw = int((width_in * MM_PER_IN + 200) / 2)
    td = int((depth_in * MM_PER_IN + 200) / 2)
    tex = rng.normal(0, 1, (td // 8 + 2, tw // 8 + 2)).astype(np.float32)
    tex = cv2.resize(tex, (tw, td), interpolation=cv2.INTER_CUBIC)
    tex = np.clip(120 + 25 * tex, 40, 200).astype(np.uint8)
    # texture pixel (u, v) -> world mm: x = 2u - 100, y = (td - v) * 2 - 100
    a = np.array([[2.0, 0, -100], [0, -2.0, 2 * td - 100], [0, 0, 1]])
    r, t = cam.rt()
    k = cam.k()
    hw = k @ np.column_stack([r[:, 0], r[:, 1], t])
    img = cv2.warpPerspective(tex, hw @ a, (cam.width_px, cam.height_px), flags=cv2.INTER_LINEAR)
    for tag in sorted(tags, key=lambda tg: tg.height_mm):
        ppm = 8
        m = _marker(tag.tag_id, tag.size_mm, tag.margin_mm, ppm)
        n = m.shape[0]
        src = np.array([[0, 0], [n, 0], [n, n], [0, n]], dtype=np.float64) - 0.5
        dst = cam.project(tag.corners_mm(grow_mm=tag.margin_mm))
        hm = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
        x0, y0 = np.floor(dst.min(axis=0)).astype(int) - 2
        x1, y1 = np.ceil(dst.max(axis=0)).astype(int) + 2
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, cam.width_px), min(y1, cam.height_px)
        if x1 <= x0 or y1 <= y0:
            continue
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1.0]])
        size = (int(x1 - x0), int(y1 - y0))
        patch = cv2.warpPerspective(m, shift @ hm, size, flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full_like(m, 255), shift @ hm, size, flags=cv2.INTER_AREA)
        roi = img[y0:y1, x0:x1].astype(np.float32)
        alpha = mask.astype(np.float32) / 255
        img[y0:y1, x0:x1] = (roi * (1 - alpha) + patch * alpha).astype(np.uint8)
    out = img.astype(np.float32)
    if blur_sigma > 0:
        out = cv2.GaussianBlur(out, (0, 0), blur_sigma)
    noise_rng = rng if noise_seed is None else np.random.default_rng(noise_seed)
    out += noise_rng.normal(0, noise, out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def grid_tags(
    n: int, first_id: int = 4, size_mm: float = 10.0, height_mm: float = 3.0, seed: int = 1
) -> list[SynthTag]:
    """``n`` tags on a jittered grid over a 24 in table, random headings."""
    rng = np.random.default_rng(seed)
    cols = math.ceil(math.sqrt(n))
    step = 600.0 / cols
    tags = []
    for k in range(n):
        cx = (k % cols + 0.5) * step + rng.uniform(-step / 5, step / 5)
        cy = (k // cols + 0.5) * step + rng.uniform(-step / 5, step / 5)
        tags.append(SynthTag(first_id + k, cx, cy, float(rng.uniform(0, 360)), size_mm, height_mm))
    return tags

"""The dice tray's surface as a top-down texture: felt fibres, wood grain or smooth paper."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.render.dice import TrayLook

PAPER_BGR: tuple[int, int, int] = (232, 234, 233)
"""The white paper of a printed tray sheet around the rolling area."""


def _noise(
    rng: np.random.Generator, shape: tuple[int, int], cell_px: float
) -> npt.NDArray[np.float32]:
    """Smooth value noise in about [-1, 1] with features about ``cell_px`` pixels across."""
    h, w = shape
    gh, gw = max(2, int(h / max(cell_px, 1.0)) + 2), max(2, int(w / max(cell_px, 1.0)) + 2)
    small = rng.uniform(-1.0, 1.0, size=(gh, gw)).astype(np.float32)
    return np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC), np.float32)


@lru_cache(maxsize=8)
def tray_texture(tray: TrayLook, px_per_mm: float) -> npt.NDArray[np.uint8]:
    """The rolling area seen from above at ``px_per_mm``: row 0 is the far side (+v), column 0
    the left side; BGR."""
    rng = np.random.default_rng(tray.seed + 7919)
    w = max(2, round(tray.width_mm * px_per_mm))
    h = max(2, round(tray.depth_mm * px_per_mm))
    colour = np.array(tray.surface_bgr, np.float32)
    k = px_per_mm
    if tray.surface == "felt":
        tone = 0.07 * _noise(rng, (h, w), 12 * k) + 0.05 * _noise(rng, (h, w), 1.5 * k)
        img = colour * (1.0 + tone[..., None])
        img += rng.normal(0.0, 5.0, (h, w, 1)).astype(np.float32)
        fibres = np.zeros((h, w), np.float32)
        for _ in range(int(tray.width_mm * tray.depth_mm / 60)):
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            a = rng.uniform(0, np.pi)
            length = rng.uniform(0.8, 2.5) * k
            p0 = (int(x), int(y))
            p1 = (int(x + length * np.cos(a)), int(y + length * np.sin(a)))
            cv2.line(fibres, p0, p1, float(rng.uniform(-1.0, 1.0)), 1, cv2.LINE_AA)
        img += (fibres * 22.0)[..., None]
    elif tray.surface == "wood":
        rows = np.arange(h, dtype=np.float32)[:, None]
        warp = 6.0 * k * _noise(rng, (h, w), 60 * k) + rows
        bands = np.sin(warp / (2.2 * k) + 3.0 * _noise(rng, (h, w), 25 * k))
        grain = 0.10 * bands + 0.06 * _noise(rng, (h, w), 8 * k)
        streak = np.repeat(_noise(rng, (h, 1), 0.7 * k), w, axis=1) * 0.05
        img = colour * (1.0 + (grain + streak)[..., None])
        img += rng.normal(0.0, 3.0, (h, w, 1)).astype(np.float32)
        for _ in range(int(tray.depth_mm / 25)):
            y = rng.uniform(0, h)
            pts = np.stack(
                [np.linspace(0, w, 12), y + 2 * k * np.cumsum(rng.normal(0, 0.3, 12))], axis=1
            )
            shade = tuple(float(c) * 0.75 for c in colour)
            cv2.polylines(img, [pts.astype(np.int32)], False, shade, max(1, round(0.3 * k)))
    elif tray.surface == "paper":
        img = colour * (1.0 + 0.02 * _noise(rng, (h, w), 20 * k)[..., None])
        img += rng.normal(0.0, 2.0, (h, w, 1)).astype(np.float32)
    else:
        raise ValueError(f"unknown tray surface {tray.surface!r}; expected felt, wood or paper")
    return np.clip(img, 0, 255).astype(np.uint8)


def texture_to_world(tray: TrayLook, px_per_mm: float, rows: int) -> npt.NDArray[np.float64]:
    """3x3 homography from :func:`tray_texture` pixels to world (x, y) millimetres."""
    r, up = tray.axes()
    s = 1.0 / px_per_mm
    ox, oy = tray.x_mm, tray.y_mm
    top = (rows - 1) * s
    return np.array(
        [
            [r[0] * s, -up[0] * s, ox + up[0] * top],
            [r[1] * s, -up[1] * s, oy + up[1] * top],
            [0.0, 0.0, 1.0],
        ]
    )

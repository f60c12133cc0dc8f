"""The procedural, seeded table texture: a wooden table top with a gaming mat on the play area.

The texture is a top-down image of the table plane at a fixed scale (pixels per millimetre),
rendered once per table and warped into each frame with the table-plane homography.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.render.grid_board import paint_grid_board
from vision.render.scene import TableSpec

FLOOR_BGR: tuple[int, int, int] = (48, 52, 58)
"""Colour seen beyond the table's edge."""

MAX_TEXTURE_PX = 4096
"""Longest side of a mat texture, pixels."""

_MAT_COLOURS: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    # (base colour, secondary colour) in BGR
    "grass": ((62, 118, 84), (48, 92, 110)),
    "felt": ((70, 86, 64), (82, 100, 76)),
    "desert": ((120, 168, 196), (98, 140, 170)),
}


@dataclass(frozen=True)
class MatTexture:
    """A top-down image of the table plane.

    Pixel (col, row) shows the table point x_mm = (col - origin_px) / px_per_mm,
    y_mm = (rows - 1 - row - origin_px) / px_per_mm, i.e. +y is up in the texture.
    """

    image: npt.NDArray[np.uint8]
    px_per_mm: float
    origin_px: float
    """Texture pixels from the texture's left (and bottom) edge to the play area's corner."""

    def texture_to_table_mm(self) -> npt.NDArray[np.float64]:
        """3x3 homography from texture pixels to table millimetres (z = 0)."""
        rows = self.image.shape[0]
        s = 1.0 / self.px_per_mm
        return np.array(
            [
                [s, 0.0, -self.origin_px * s],
                [0.0, -s, (rows - 1 - self.origin_px) * s],
                [0.0, 0.0, 1.0],
            ]
        )


def mat_texture(table: TableSpec, px_per_mm: float) -> MatTexture:
    """The table's texture at about ``px_per_mm`` (cached per table and scale).

    The scale is capped so that the texture's longer side stays within
    :data:`MAX_TEXTURE_PX` (big tables at 4K get a slightly softer mat, never a huge array).
    """
    longest_mm = max(table.width_mm, table.depth_mm) + 2 * (table.border_mm + 60.0)
    cap = MAX_TEXTURE_PX / longest_mm
    scale = float(np.clip(round(min(px_per_mm, cap) * 4) / 4, 0.25, 6.0))
    return _mat_texture(table, scale)


def _noise(
    rng: np.random.Generator, shape: tuple[int, int], cell_px: float
) -> npt.NDArray[np.float32]:
    """Smooth value noise in [-1, 1] with features about ``cell_px`` pixels across."""
    h, w = shape
    gh, gw = max(2, int(h / cell_px) + 2), max(2, int(w / cell_px) + 2)
    small = rng.uniform(-1.0, 1.0, size=(gh, gw)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


@lru_cache(maxsize=4)
def _mat_texture(table: TableSpec, px_per_mm: float) -> MatTexture:
    if table.mat not in _MAT_COLOURS:
        raise ValueError(f"unknown mat {table.mat!r}; expected one of {sorted(_MAT_COLOURS)}")
    rng = np.random.default_rng(table.seed)
    extra_mm = table.border_mm + 60.0
    origin = extra_mm * px_per_mm
    w = round((table.width_mm + 2 * extra_mm) * px_per_mm)
    h = round((table.depth_mm + 2 * extra_mm) * px_per_mm)
    img = np.empty((h, w, 3), np.float32)
    img[:] = FLOOR_BGR

    # Wooden table top: a warm colour with grain along x.
    t0 = round((extra_mm - table.border_mm) * px_per_mm)
    tx1, ty1 = w - t0, h - t0
    grain = _noise(rng, (ty1 - t0, 1), 3.0 * px_per_mm)
    grain = np.repeat(grain, tx1 - t0, axis=1) * 0.5 + 0.5 * _noise(
        rng, (ty1 - t0, tx1 - t0), 40 * px_per_mm
    )
    wood = np.array([70, 105, 140], np.float32)
    img[t0:ty1, t0:tx1] = wood + grain[..., None] * np.array([10, 14, 18], np.float32)

    # The mat on the play area: multi-octave noise blending two colours, plus speckle.
    m0 = round(origin)
    mx1 = round(origin + table.width_mm * px_per_mm)
    my0 = h - 1 - round(origin + table.depth_mm * px_per_mm)
    my1 = h - round(origin)
    shape = (my1 - my0, mx1 - m0)
    base, second = (np.array(c, np.float32) for c in _MAT_COLOURS[table.mat])
    blend = (
        0.5 + 0.35 * _noise(rng, shape, 120 * px_per_mm) + 0.15 * _noise(rng, shape, 25 * px_per_mm)
    )
    blend = np.clip(blend, 0.0, 1.0)[..., None]
    mat = base * (1 - blend) + second * blend
    fine = _noise(rng, shape, 1.2 * px_per_mm) * 10.0 + rng.normal(0, 4.0, shape).astype(np.float32)
    mat += fine[..., None]
    img[my0:my1, m0:mx1] = mat
    out = np.clip(img, 0, 255).astype(np.uint8)
    _clutter(out[my0:my1, m0:mx1], rng, px_per_mm, base)
    if table.board is not None:
        paint_grid_board(out, table.board, px_per_mm, origin)
    return MatTexture(image=out, px_per_mm=px_per_mm, origin_px=origin)


def _clutter(
    mat: npt.NDArray[np.uint8],
    rng: np.random.Generator,
    px_per_mm: float,
    base: npt.NDArray[np.float32],
) -> None:
    """Printed-looking details: a dirt road, craters, rocks and faint grid lines (in place).

    Low contrast and no dark squares, so that nothing decodes as a tag.
    """
    h, w = mat.shape[:2]
    road = tuple(int(v) for v in np.clip(base * 0.7 + np.array([30, 45, 60]), 0, 255))
    pts = np.stack([np.linspace(0, w, 6), rng.uniform(0.2 * h, 0.8 * h, 6)], axis=1).astype(
        np.int32
    )
    cv2.polylines(mat, [pts], False, road, int(28 * px_per_mm), cv2.LINE_AA)
    for _ in range(int(rng.integers(6, 12))):
        c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        r = int(rng.uniform(8, 30) * px_per_mm)
        shade = tuple(int(v) for v in np.clip(base * rng.uniform(0.75, 0.9), 0, 255))
        cv2.circle(mat, c, r, shade, -1, cv2.LINE_AA)
        cv2.circle(mat, c, r, tuple(min(255, v + 25) for v in shade), max(1, r // 8), cv2.LINE_AA)
    for _ in range(int(rng.integers(20, 40))):
        c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        axes = (int(rng.uniform(1, 4) * px_per_mm) + 1, int(rng.uniform(1, 3) * px_per_mm) + 1)
        grey = int(rng.uniform(110, 170))
        cv2.ellipse(mat, c, axes, float(rng.uniform(0, 180)), 0, 360, (grey, grey, grey), -1)
    step = round(6 * 25.4 * px_per_mm)
    line = tuple(int(v) for v in np.clip(base * 1.12, 0, 255))
    for x in range(step, w, step):
        cv2.line(mat, (x, 0), (x, h - 1), line, 1, cv2.LINE_AA)
    for y in range(h - 1 - step, 0, -step):
        cv2.line(mat, (0, y), (w - 1, y), line, 1, cv2.LINE_AA)

"""Die material: the pixels of a tray view that are dice rather than the tray.

The tray's colour is estimated cell by cell (robust medians of the pixels that look like the tray,
so that uneven light and a few dice in a cell do not matter) and every pixel is scored by its
Lab distance from it. Darker-than-tray pixels of the same hue (shadows) do not count: a die's
shadow is not a die.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

Grey = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]

MIN_MATERIAL_DISTANCE = 20.0
"""The least Lab distance from the tray that counts as die material."""
NOISE_SIGMAS = 6.0
"""Die material stands this many robust standard deviations of the tray's texture above it."""
SHADOW_WEIGHT = 0.0
"""Weight of a darker-than-tray lightness difference in the distance: none, since shadows and
the shaded sides of white dice are as dark as that; dice are lighter or more coloured than the
tray (dark pips lie inside their faces and are filled in)."""
CHROMA_WEIGHT = 1.5
"""Weight of a colour (a, b) difference in the distance."""


def material_distance(lab: F32, tray: F32) -> F32:
    """Per-pixel distance from the tray's colour (Lab, OpenCV's 8-bit scaling)."""
    dl = lab[..., 0] - tray[..., 0]
    dc = np.hypot(lab[..., 1] - tray[..., 1], lab[..., 2] - tray[..., 2])
    out = np.sqrt(
        np.maximum(dl, 0.0) ** 2
        + (SHADOW_WEIGHT * np.minimum(dl, 0.0)) ** 2
        + (CHROMA_WEIGHT * dc) ** 2
    )
    return np.asarray(out, dtype=np.float32)


def tray_colour(lab: F32, valid: Grey, cell_px: int) -> F32:
    """The tray's colour at every pixel (Lab), from cell medians of tray-looking pixels."""
    h, w = lab.shape[:2]
    inside = valid > 0
    if not inside.any():
        return np.zeros_like(lab)
    first = np.median(lab[inside], axis=0).astype(np.float32)
    near = inside & (material_distance(lab, first[None, None, :]) < 1.5 * MIN_MATERIAL_DISTANCE)
    gh, gw = max(1, round(h / cell_px)), max(1, round(w / cell_px))
    grid = np.zeros((gh, gw, 3), np.float32)
    known = np.zeros((gh, gw), bool)
    for i in range(gh):
        ys = slice(i * h // gh, (i + 1) * h // gh)
        for j in range(gw):
            xs = slice(j * w // gw, (j + 1) * w // gw)
            sel = near[ys, xs]
            if sel.sum() >= 0.15 * sel.size:
                grid[i, j] = np.median(lab[ys, xs][sel], axis=0)
                known[i, j] = True
    if not known.any():
        grid[:] = first
    else:
        idx = np.argwhere(known)
        for i, j in np.argwhere(~known):
            k = int(np.argmin(((idx - (i, j)) ** 2).sum(axis=1)))
            grid[i, j] = grid[tuple(idx[k])]
    return np.asarray(cv2.resize(grid, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)


def material_mask(
    lab: F32, valid: Grey, cell_px: int, hole_px: float, tray_only: Grey | None = None
) -> tuple[Grey, F32, float]:
    """255 where a pixel is die material (holes under ``hole_px`` squared filled), the tray's
    colour (Lab per pixel) and the distance cut used. The tray's colour is learnt where
    ``tray_only`` (default ``valid``) is set."""
    tray = tray_colour(lab, valid if tray_only is None else tray_only, cell_px)
    dist = material_distance(lab, tray)
    learn = valid if tray_only is None else tray_only
    seen = dist[learn > 0]
    cut = MIN_MATERIAL_DISTANCE
    if seen.size:
        # the tray is most of the picture: its texture (wood grain, felt) sets the noise
        mid = float(np.median(seen))
        spread = 1.4826 * float(np.median(np.abs(seen - mid)))
        cut = max(cut, mid + NOISE_SIGMAS * spread)
    mask = ((dist > cut) & (valid > 0)).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return fill_holes(mask, hole_px * hole_px), tray, cut


def unlike_tray(lab: F32, tray: F32) -> F32:
    """Per-pixel distance from the tray's colour counting darker as much as lighter: a die's
    shaded side face is unlike the tray even where it is darker than it."""
    dl = lab[..., 0] - tray[..., 0]
    dc = np.hypot(lab[..., 1] - tray[..., 1], lab[..., 2] - tray[..., 2])
    return np.asarray(np.sqrt(dl**2 + (CHROMA_WEIGHT * dc) ** 2), dtype=np.float32)


def fill_holes(mask: Grey, max_area: float) -> Grey:
    """The mask with its enclosed holes smaller than ``max_area`` pixels filled."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    out = mask.copy()
    if hierarchy is None:
        return out
    for c, hier in zip(contours, hierarchy[0], strict=True):
        if hier[3] >= 0 and cv2.contourArea(c) < max_area:
            cv2.drawContours(out, [c], -1, 255, -1)
    return out

"""Pips: small round spots of another colour on a die face, and the face patterns they make.

Pips are found on the lightness channel with OpenCV's morphological black-hat (dark pips on a
light face: white, cream, yellow dice) and top-hat (light pips on a dark face: red, blue dice),
each spot cut at half its own peak and measured by its moments (centre, axes, fill). Which spots
belong to one face, and what the face shows, is decided in :mod:`vision.dice.faces`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

import cv2
import numpy as np
import numpy.typing as npt

F64 = npt.NDArray[np.float64]
Grey = npt.NDArray[np.uint8]

MIN_PIP_CONTRAST = 12.0
"""Weakest pip accepted: lightness difference from its face (0-255 scale)."""


class Polarity(StrEnum):
    """Whether pips are darker or lighter than their face."""

    DARK = "dark"
    LIGHT = "light"


@dataclass(frozen=True)
class Pip:
    """One pip candidate in the view (pixels)."""

    x: float
    y: float
    major: float
    """Semi-axis along the spot's long direction, pixels."""
    minor: float
    """Semi-axis across, pixels."""
    angle: float
    """Direction of the long axis, radians from +x (image rows down)."""
    polarity: Polarity
    contrast: float
    """Lightness difference between the spot and its face (0-255 scale)."""
    face_l: float
    """Lightness of the face just around the spot (0-255)."""

    @property
    def xy(self) -> F64:
        """Centre as an array (x, y)."""
        return np.array([self.x, self.y])

    @property
    def diameter(self) -> float:
        """Mean diameter, pixels."""
        return self.major + self.minor

    @property
    def roundness(self) -> float:
        """Minor over major axis (1: a circle)."""
        return self.minor / max(self.major, 1e-9)


def pip_responses(lightness: Grey, kernel_px: int) -> dict[Polarity, npt.NDArray[np.float32]]:
    """How much each pixel stands out from its surroundings as a dark or a light spot smaller
    than ``kernel_px`` (OpenCV black-hat and top-hat)."""
    k = max(3, int(kernel_px) | 1)
    ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    return {
        Polarity.DARK: cv2.morphologyEx(lightness, cv2.MORPH_BLACKHAT, ker).astype(np.float32),
        Polarity.LIGHT: cv2.morphologyEx(lightness, cv2.MORPH_TOPHAT, ker).astype(np.float32),
    }


def _blob_detector(diameter_px: tuple[float, float]) -> cv2.SimpleBlobDetector:
    """OpenCV's blob detector tuned for pips on a response map: spots that persist over
    several thresholds, fairly round and convex (a side face's pips are flattened ellipses, a
    groove is a long line)."""
    lo, hi = diameter_px
    p = cv2.SimpleBlobDetector_Params()
    p.minThreshold = MIN_PIP_CONTRAST
    p.maxThreshold = 220
    p.thresholdStep = 6
    p.minRepeatability = 2
    p.minDistBetweenBlobs = max(2.0, 0.6 * lo)
    p.filterByColor = True
    p.blobColor = 255
    p.filterByArea = True
    p.minArea = max(4.0, 0.4 * math.pi * (lo / 2) ** 2)
    p.maxArea = 1.6 * math.pi * (hi / 2) ** 2
    p.filterByCircularity = True
    p.minCircularity = 0.55
    p.filterByInertia = True
    p.minInertiaRatio = 0.2
    p.filterByConvexity = True
    p.minConvexity = 0.8
    return cv2.SimpleBlobDetector_create(p)


def find_pips(
    lightness: Grey,
    responses: dict[Polarity, npt.NDArray[np.float32]],
    where: Grey,
    diameter_px: tuple[float, float],
) -> list[Pip]:
    """Pip candidates of both polarities inside the mask ``where`` (255: on a die), with
    diameters between ``diameter_px`` (view pixels): OpenCV's SimpleBlobDetector on each
    response, then each spot's axes from the response's moments around it."""
    lo, hi = diameter_px
    detector = _blob_detector(diameter_px)
    pips: list[Pip] = []
    h, w = lightness.shape
    for polarity, resp in responses.items():
        r8 = np.clip(resp, 0, 255).astype(np.uint8)
        for kp in detector.detect(r8):
            px, py = kp.pt
            if where[min(h - 1, round(py)), min(w - 1, round(px))] == 0:
                continue
            rad = 0.55 * kp.size + 1.5
            x0, x1 = max(0, int(px - rad)), min(w, int(px + rad) + 2)
            y0, y1 = max(0, int(py - rad)), min(h, int(py + rad) + 2)
            win = resp[y0:y1, x0:x1]
            gy, gx = np.mgrid[y0:y1, x0:x1]
            inside = (gx - px) ** 2 + (gy - py) ** 2 <= rad * rad
            peak = float(win[inside].max()) if inside.any() else 0.0
            own = inside & (win >= 0.5 * peak)
            area = int(own.sum())
            if peak < MIN_PIP_CONTRAST or area < 3:
                continue
            pip = _measure(gx[own], gy[own], win[own] - 0.5 * peak, area, polarity)
            if pip is None or not lo <= pip.diameter <= hi * 1.3:
                continue
            ring = _ring_lightness(
                lightness, where, pip, 75.0 if polarity is Polarity.DARK else 25.0
            )
            if ring is None:
                continue
            pips.append(Pip(pip.x, pip.y, pip.major, pip.minor, pip.angle, polarity, peak, ring))
    return pips


def _measure(
    xs: npt.NDArray[np.intp],
    ys: npt.NDArray[np.intp],
    weights: npt.NDArray[np.float32],
    area: int,
    polarity: Polarity,
) -> Pip | None:
    """Centre (response-weighted) and axes (from the spot's second moments) of one spot."""
    wt = weights.astype(np.float64) + 1e-6
    cx = float((xs * wt).sum() / wt.sum())
    cy = float((ys * wt).sum() / wt.sum())
    mx, my = float(xs.mean()), float(ys.mean())
    cov = np.cov(np.stack([xs - mx, ys - my]).astype(np.float64)) + np.eye(2) / 12.0
    ev, evec = np.linalg.eigh(cov)
    major, minor = 2.0 * math.sqrt(max(ev[1], 1e-6)), 2.0 * math.sqrt(max(ev[0], 1e-6))
    if minor < 0.7:
        return None
    angle = math.atan2(float(evec[1, 1]), float(evec[0, 1]))
    return Pip(cx, cy, major, minor, angle, polarity, 0.0, 0.0)


def _ring_lightness(lightness: Grey, where: Grey, pip: Pip, percent: float) -> float | None:
    """Lightness of the face around a pip: a percentile of a ring around it (the upper part
    for a dark pip, whose ring also catches the die's darker rounded edge), or None when the
    ring leaves the image or the die."""
    r_in, r_out = 1.25 * pip.major + 1.0, 1.7 * pip.major + 2.0
    h, w = lightness.shape
    x0, x1 = int(pip.x - r_out), int(pip.x + r_out) + 2
    y0, y1 = int(pip.y - r_out), int(pip.y + r_out) + 2
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        return None
    ys, xs = np.mgrid[y0:y1, x0:x1]
    d2 = (xs - pip.x) ** 2 + (ys - pip.y) ** 2
    sel = (d2 >= r_in**2) & (d2 <= r_out**2)
    if (where[y0:y1, x0:x1][sel] == 0).mean() > 0.5:
        return None
    ring = lightness[y0:y1, x0:x1][sel]
    if ring.size == 0:
        return None
    return float(np.percentile(ring, percent))


# --- face patterns ------------------------------------------------------------------------

LAYOUTS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (1, 1), (-1, 1)),
    5: ((-1, -1), (1, -1), (1, 1), (-1, 1), (0, 0)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}
"""Face value -> pip places in units of the pip offset, in the face's own axes."""

GRID = tuple((i, j) for i in (-1, 0, 1) for j in (-1, 0, 1))
"""The nine places a pip can take on any face."""

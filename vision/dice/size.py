"""How big the dice are in an image with no tray to measure by: from their pips.

Pips are searched at a few scales (OpenCV black-hat and top-hat, then SimpleBlobDetector); a pip
counts when a like pip lies within four diameters of it (faces have several pips; a speck of
texture rarely has a twin). The die's side is about five and a half pip diameters.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

PIP_OVER_SIDE = 0.18
"""Typical pip diameter over the die's side."""
WORK_SIDE_PX = 1280
"""Images are searched at most this wide."""


def estimate_die_side(image: npt.NDArray[np.uint8]) -> tuple[float, float]:
    """The range of die sides (image pixels) the image most likely shows."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    shrink = min(1.0, WORK_SIDE_PX / max(h, w))
    small = cv2.resize(grey, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    best: tuple[int, float] | None = None
    for kernel in (7, 11, 17, 25, 37, 55):
        ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kernel, kernel))
        for op in (cv2.MORPH_BLACKHAT, cv2.MORPH_TOPHAT):
            resp = cv2.morphologyEx(small, op, ker)
            sizes = _paired_pips(resp, kernel)
            if len(sizes) >= 2 and (best is None or len(sizes) > best[0]):
                best = (len(sizes), float(np.median(sizes)))
    if best is None:
        mid = min(h, w) / 12.0
        return (mid / 2.0, mid * 2.0)
    side = best[1] / PIP_OVER_SIDE / shrink
    return (side / 1.45, side * 1.45)


def _paired_pips(resp: npt.NDArray[np.uint8], kernel: int) -> list[float]:
    """Diameters of round spots in a response map that have a like spot nearby."""
    p = cv2.SimpleBlobDetector_Params()
    p.minThreshold = 15
    p.maxThreshold = 220
    p.thresholdStep = 10
    p.filterByColor = True
    p.blobColor = 255
    p.filterByArea = True
    p.minArea = max(6.0, math.pi * (kernel / 6.0) ** 2)
    p.maxArea = math.pi * (kernel / 2.0) ** 2
    p.filterByCircularity = True
    p.minCircularity = 0.7
    p.filterByInertia = True
    p.minInertiaRatio = 0.5
    kps = cv2.SimpleBlobDetector_create(p).detect(resp)
    if len(kps) < 2:
        return []
    xy = np.array([k.pt for k in kps])
    d = np.array([k.size for k in kps])
    out = []
    for i in range(len(kps)):
        near = np.linalg.norm(xy - xy[i], axis=1)
        like = (near > 0) & (near < 4.0 * d[i]) & (np.abs(d - d[i]) < 0.3 * d[i])
        if like.any():
            out.append(float(d[i]))
    return out

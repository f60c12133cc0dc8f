"""The two small networks of the dice reader, run with OpenCV's DNN module (no PyTorch needed):

- the *finder* (``models/dice_finder.onnx``): a fully-convolutional net that turns a colour
  picture into a heat map of die-top centres (one cell per :data:`STRIDE` pixels) and the
  die's side at each cell; it sees dice of :data:`FIND_SIDE_PX` pixels, so a picture is shrunk
  to bring its dice into that range;
- the *face reader* (``models/dice_faces.onnx``): a small classifier of one die's crop
  (:func:`crop`, :data:`CROP_PX` square, the die's side :data:`CROP_SIDES` times inside it) into
  :data:`CLASSES`: not a die, the values 1-6, or a die not lying flat.

Both are made by ``python -m vision.dice.train`` (``make train-dice``), which writes them and
``models/dice_nets.json`` (the face reader's temperature and how the nets were made).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]

MODELS = Path(__file__).with_name("models")
"""Where the trained nets live (committed; about 0.3 MB in all)."""
FINDER_FILE = MODELS / "dice_finder.onnx"
FACES_FILE = MODELS / "dice_faces.onnx"
META_FILE = MODELS / "dice_nets.json"

STRIDE = 4
"""Pixels of the finder's input per heat-map cell."""
FIND_SIDE_PX = (8.0, 32.0)
"""Die sides (pixels of its input) the finder is trained on."""
FIND_NOMINAL_PX = 16.0
"""The side the finder's size output is relative to, pixels."""
PAD = 16
"""The finder's input sides are multiples of this (four halvings)."""
CROP_PX = 32
"""Side of the face reader's input, pixels."""
CROP_SIDES = 1.5
"""A crop spans this many die sides (the die and a rim of what lies around it)."""
CLASSES = ("none", "1", "2", "3", "4", "5", "6", "cocked")
"""The face reader's classes, in output order."""
COCKED = 7
"""Index of "a die not lying flat"."""
TURNS = 2
"""Quarter turns of each crop the face reader reads and averages its probabilities over
(test-time augmentation). Two, not four: on the tuning photos the dice reader read 104 of 133
dice right with two and 102 with four (four flatten more right readings under 0.9; both with
the pip counter's checks of :mod:`vision.dice.learned`), at half the face reader's time. The
temperature fitted for two turns on the calibration photos is the one committed (0.827)."""


def to_blob(images: npt.NDArray[np.uint8]) -> F32:
    """Images (N, H, W, 3 BGR uint8) as the nets' input: NCHW float, about -2..2."""
    x = images.astype(np.float32).transpose(0, 3, 1, 2)
    return np.ascontiguousarray((x - 127.5) / 64.0)


def crop(
    image: Image,
    centre_px: tuple[float, float],
    side_px: float,
    turn_deg: float = 0.0,
    size_px: int = CROP_PX,
    interpolation: int = cv2.INTER_LINEAR,
) -> Image:
    """The face reader's view of a die: a ``size_px`` square (:data:`CROP_PX` unless told)
    around ``centre_px`` spanning :data:`CROP_SIDES` die sides (``side_px``), turned by
    ``turn_deg`` (BGR; outside the picture its edge is repeated), sampled with
    ``interpolation`` (an OpenCV flag)."""
    span = side_px * CROP_SIDES
    factor = span / size_px
    cx, cy = centre_px
    src = image
    if factor > 1.6:  # shrink the neighbourhood first: no aliasing of small pips
        k = 1.2 / factor
        r = int(span * 0.75) + 2
        x0, y0 = max(0, int(cx) - r), max(0, int(cy) - r)
        x1, y1 = min(image.shape[1], int(cx) + r), min(image.shape[0], int(cy) + r)
        if x1 - x0 < 2 or y1 - y0 < 2:
            return np.zeros((size_px, size_px, 3), np.uint8)
        part = image[y0:y1, x0:x1]
        w, h = max(1, round(part.shape[1] * k)), max(1, round(part.shape[0] * k))
        src = cv2.resize(part, (w, h), interpolation=cv2.INTER_AREA)
        kx, ky = w / part.shape[1], h / part.shape[0]
        cx, cy = (cx - x0 + 0.5) * kx - 0.5, (cy - y0 + 0.5) * ky - 0.5
        factor = span * math.sqrt(kx * ky) / size_px
    a = math.radians(turn_deg)
    ca, sa = math.cos(a) * factor, math.sin(a) * factor
    c = (size_px - 1) / 2.0
    # crop pixel (u, v) samples the image at centre + R(turn) * factor * (u - c, v - c)
    m = np.array([[ca, -sa, cx - ca * c + sa * c], [sa, ca, cy - sa * c - ca * c]], np.float64)
    out = cv2.warpAffine(
        src,
        m,
        (size_px, size_px),
        flags=interpolation | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(out, np.uint8)


@dataclass(frozen=True)
class Spot:
    """A die-top centre the finder saw."""

    x: float
    """Pixels of the picture searched."""
    y: float
    side: float
    """The die's side, pixels."""
    score: float
    """The heat map's peak, 0-1."""


@dataclass(frozen=True)
class NetMeta:
    """What ``dice_nets.json`` says about the nets."""

    temperature: float
    """The face reader's logits are divided by this before the softmax (fitted on the
    calibration photos)."""
    find_threshold: float
    """Least heat-map peak that is a die."""


@lru_cache(maxsize=1)
def _nets() -> tuple[cv2.dnn.Net, cv2.dnn.Net, NetMeta]:
    """The two nets and their settings, loaded once per process."""
    finder = cv2.dnn.readNetFromONNX(str(FINDER_FILE))
    faces = cv2.dnn.readNetFromONNX(str(FACES_FILE))
    meta = json.loads(META_FILE.read_text())
    return finder, faces, NetMeta(float(meta["temperature"]), float(meta["find_threshold"]))


def meta() -> NetMeta:
    """The nets' settings."""
    return _nets()[2]


def find(image: Image, scale: float, threshold: float | None = None) -> list[Spot]:
    """The die-top centres in ``image`` (BGR) seen by the finder with the picture shrunk
    (or grown) by ``scale``: picture pixels, best first."""
    finder, _, m = _nets()
    h, w = image.shape[:2]
    sw, sh = max(PAD, round(w * scale)), max(PAD, round(h * scale))
    small = cv2.resize(
        image, (sw, sh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    )
    pw, ph = -(-sw // PAD) * PAD, -(-sh // PAD) * PAD
    if (pw, ph) != (sw, sh):
        small = cv2.copyMakeBorder(small, 0, ph - sh, 0, pw - sw, cv2.BORDER_REPLICATE)
    finder.setInput(to_blob(small[None]))
    out = finder.forward()[0]
    heat = 1.0 / (1.0 + np.exp(-out[0]))
    size = out[1]
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (
        heat >= (m.find_threshold if threshold is None else threshold)
    )
    spots = []
    gh, gw = heat.shape
    for gy, gx in zip(*np.nonzero(peaks), strict=True):
        y0, y1, x0, x1 = max(0, gy - 1), min(gh, gy + 2), max(0, gx - 1), min(gw, gx + 2)
        wts = heat[y0:y1, x0:x1]
        yy, xx = np.mgrid[y0:y1, x0:x1]
        fx = float((wts * xx).sum() / wts.sum())
        fy = float((wts * yy).sum() / wts.sum())
        x = (fx + 0.5) * STRIDE - 0.5
        y = (fy + 0.5) * STRIDE - 0.5
        if x >= sw or y >= sh:
            continue
        side = FIND_NOMINAL_PX * math.exp(float(size[gy, gx]))
        sx, sy = w / sw, h / sh
        spots.append(
            Spot(
                (x + 0.5) * sx - 0.5,
                (y + 0.5) * sy - 0.5,
                side * math.sqrt(sx * sy),
                float(heat[gy, gx]),
            )
        )
    spots.sort(key=lambda s: -s.score)
    return spots


def read_faces(image: Image, spots: list[Spot]) -> npt.NDArray[np.float64]:
    """The face reader's probabilities (N, 8) for the dice at ``spots`` (picture pixels): the
    mean over :data:`TURNS` quarter turns of each crop, after the temperature."""
    if not spots:
        return np.zeros((0, len(CLASSES)), np.float64)
    _, faces, m = _nets()
    crops = []
    for s in spots:
        c = crop(image, (s.x, s.y), s.side)
        crops.extend(np.rot90(c, k) for k in range(TURNS))
    faces.setInput(to_blob(np.ascontiguousarray(np.stack(crops))))
    logits = faces.forward().reshape(len(spots), TURNS, len(CLASSES)).astype(np.float64)
    z = logits / m.temperature
    z -= z.max(axis=2, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=2, keepdims=True)
    return np.asarray(p.mean(axis=1))

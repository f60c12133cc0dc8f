"""The face reader's temperature, fitted on the calibration photos as the reader reads them
(no PyTorch: the exported nets through OpenCV)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice.net import FACES_FILE, TURNS, crop, to_blob
from vision.dice.train.data import Picture, spot_label

F64 = npt.NDArray[np.float64]


def reader_logits(pictures: list[Picture]) -> tuple[F64, npt.NDArray[np.int64]]:
    """The face reader's logits (N, :data:`~vision.dice.net.TURNS` quarter turns, 8) at the
    finder's spots on
    ``pictures`` and the class each spot truly is: the value of the labelled die it lies on
    (within half a side), 0 when it lies on none; spots on dice of unknown value left out."""
    from vision.dice.learned import photo_spots

    net = cv2.dnn.readNetFromONNX(str(FACES_FILE))
    crops, labels = [], []
    for pic in pictures:
        for s in photo_spots(pic.image):
            label = spot_label(pic, s)
            if label is None:
                continue
            c = crop(pic.image, (s.x, s.y), s.side)
            crops.extend(np.rot90(c, k) for k in range(TURNS))
            labels.append(label)
    if not labels:
        return np.zeros((0, TURNS, 8)), np.zeros(0, np.int64)
    net.setInput(to_blob(np.ascontiguousarray(np.stack(crops))))
    logits = net.forward().reshape(len(labels), TURNS, -1).astype(np.float64)
    return logits, np.array(labels, np.int64)


def mean_prob(logits: F64, t: float) -> F64:
    """The reader's probabilities: the mean over the quarter turns of the softmax of the
    logits over ``t``."""
    z = logits / t
    z = z - z.max(axis=2, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=2, keepdims=True)
    return np.asarray(p.mean(axis=1))


def fit_temperature(pictures: list[Picture]) -> tuple[float, str]:
    """The temperature (0.5-6) that minimises the reader's negative log-likelihood on
    ``pictures``, and a line of how the values it gives at 0.9 or more fare there."""
    logits, y = reader_logits(pictures)
    if not len(y):
        return 1.0, "no calibration spots"
    best_t, best_nll = 1.0, math.inf
    for t in np.exp(np.linspace(math.log(0.5), math.log(6.0), 80)):
        p = mean_prob(logits, float(t))
        nll = float(-np.log(np.clip(p[np.arange(len(y)), y], 1e-9, 1.0)).mean())
        if nll < best_nll:
            best_t, best_nll = float(t), nll
    p = mean_prob(logits, best_t)
    pred = p.argmax(axis=1)
    given = (p.max(axis=1) >= 0.9) & (pred > 0) & (pred < 7)
    right = int((pred[given] == y[given]).sum())
    return best_t, (
        f"temperature {best_t:.3f} (NLL {best_nll:.4f}) on {len(y)} spots of the calibration "
        f"photos ({int((y > 0).sum())} on dice): {int(given.sum())} values given, {right} right"
    )

"""Fits the photo reader's confidence model: a logistic regression from a face's features
(:func:`vision.dice.photo.features`) to the chance that its value is right.

    .venv/bin/python -m vision.dice.train.confidence     # writes vision/dice/confidence.json

Trained on the *tuning* photos of the real set (``../shared/realdata/dice``, see
:mod:`vision.dice.train.realset`) only: every face the reader finds there is an example, right when
it lies on a labelled die of its value, wrong when it lies on a die of another value or on no
die at all (faces on dice labelled uncertain are left out). The held-out photos are never
looked at here; ``benchmarks/dice_bench.py`` reports the model on both halves.
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from calibration.safe_files import write_atomic
from vision.dice.photo import FEATURES, WEIGHTS_FILE, features, photo_faces
from vision.dice.size import estimate_die_side
from vision.dice.train.realset import REALDATA, load_photos, match_points
from vision.dice.view import image_view

F64 = np.ndarray

L2 = 0.05
"""Ridge penalty on the weights (not the bias): the examples are a few hundred."""


def examples(held_out: bool = False) -> tuple[F64, F64]:
    """Features (N, F) and labels (N: 1 right, 0 wrong) of every face the reader finds on the
    tuning photos (or the held-out ones)."""
    xs, ys = [], []
    for ph in load_photos():
        if ph.held_out != held_out:
            continue
        image = ph.image()
        view = image_view((image.shape[1], image.shape[0]), estimate_die_side(image))
        faces, typical, _scale = photo_faces(image, view)
        points = [tuple(view.to_image_px(f.fit.centre)[0]) for f in faces]
        for f, j in zip(faces, match_points(ph, points), strict=True):
            truth = None if j is None else ph.dice[j].value
            if j is not None and truth is None:
                continue  # a die whose value nobody can tell
            xs.append(features(f, typical))
            ys.append(1.0 if truth == f.value else 0.0)
    return np.array(xs), np.array(ys)


def fit(x: F64, y: F64, l2: float = L2, rounds: int = 50) -> F64:
    """Logistic regression by Newton's method: weights (F) then bias."""
    a = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(a.shape[1])
    penalty = np.full(a.shape[1], l2)
    penalty[-1] = 0.0
    for _ in range(rounds):
        p = 1.0 / (1.0 + np.exp(-np.clip(a @ w, -30, 30)))
        grad = a.T @ (p - y) + penalty * w
        hess = (a * (p * (1 - p))[:, None]).T @ a + np.diag(penalty) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    return w


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(WEIGHTS_FILE), help="weights file to write")
    args = parser.parse_args(argv)
    if not (REALDATA / "labels.json").is_file():
        print(f"no labelled photos at {REALDATA}", file=sys.stderr)
        return 2
    x, y = examples()
    w = fit(x, y)
    weights = {
        "about": "weights of vision.dice.photo's confidence (logistic regression), "
        "written by python -m vision.dice.train.confidence from the tuning photos",
        "features": list(FEATURES),
        "weights": [round(float(v), 5) for v in w],
        "examples": {"faces": len(y), "right": int(y.sum())},
    }
    write_atomic(args.out, json.dumps(weights, indent=1) + "\n")
    print(f"{len(y)} faces ({int(y.sum())} right) -> {args.out}")
    for name, v in zip((*FEATURES, "bias"), w, strict=True):
        print(f"  {name:<12} {v:+.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

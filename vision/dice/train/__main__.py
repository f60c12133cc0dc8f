"""Train the dice finder and face reader and write them to ``vision/dice/models``.

    make train-dice        # installs the CPU build of PyTorch into .venv, then runs:
    python -m vision.dice.train [--part all|faces|faces-tune|finder|finder-tune|calibrate]

``faces`` trains the face reader from scratch on procedural pictures, the project's renders
and many degraded crops of the tuning photos' dice (``--photo-repeats`` per die);
``faces-tune`` trains the committed face reader further on the tuning photos' dice cut as the
reader cuts them, strongly degraded (run ``calibrate`` after it); ``finder``
trains the finder from scratch and ``finder-tune`` is its second stage, from the first
stage's weights (``dice_finder.pt`` beside the nets, not committed) on fewer procedural
pictures and the tuning photos more often; ``calibrate`` fits the face reader's temperature
once both nets are written; ``all`` does the four in turn.

Seeded (``--seed``, default 0): the same inputs give the same weights up to the float rounding
of PyTorch's CPU kernels. Measured on this project's 2-core machine while it was shared (load
6-30, ``nice``): faces 34 min (2 of them making the crops), finder 69 min, finder-tune 13 min,
calibrate under a minute (wall time, most of it waiting for the CPU). It needs
``../shared/realdata/dice`` for the tuning photos (the held-out photos are never read) and
fits the temperature on :data:`.data.CALIBRATION_PHOTOS`, which the face reader never trains on.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from pathlib import Path

import numpy as np

from calibration.safe_files import write_atomic
from vision.dice.net import FIND_SIDE_PX, META_FILE, MODELS
from vision.dice.train.data import (
    Picture,
    face_samples,
    finder_sample,
    reader_samples,
    rendered_table_pictures,
    rendered_tray_pictures,
    stack,
    synthetic_pictures,
    tuning_pictures,
)

FIND_THRESHOLD = 0.3
"""Least heat-map peak the reader takes for a die."""


def _log(start: float, text: str) -> None:
    print(f"[{(time.time() - start) / 60:5.1f} min] {text}", flush=True)


def _synthetic(args: tuple[int, int, bool]) -> list[Picture]:
    return synthetic_pictures(*args)


def build_pictures(seed: int, count: int, for_faces: bool, workers: int) -> list[Picture]:
    """``count`` procedural pictures made in ``workers`` processes (seeded per chunk)."""
    chunk = 100
    base = seed * 1_000_000 + (500_000 if for_faces else 0)
    jobs = [(base + k, min(chunk, count - k), for_faces) for k in range(0, count, chunk)]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        parts = pool.map(_synthetic, jobs)
    return [p for part in parts for p in part]


def face_data(
    rng: np.random.Generator,
    synthetic: list[Picture],
    trays: list[Picture],
    tables: list[Picture],
    photos: list[Picture],
    photo_repeats: int,
) -> tuple[np.ndarray, np.ndarray]:
    """The face reader's training crops and labels (each photo cut ``photo_repeats`` times)."""
    xs, ys = [], []
    for i, pic in enumerate(synthetic):
        x, y = face_samples(rng, pic, per_die=1, negatives=2, degraded=i % 2 == 1)
        xs += x
        ys += y
    for pic in trays:
        for _ in range(3):
            x, y = face_samples(rng, pic, per_die=1, negatives=3)
            xs += x
            ys += y
    for pic in tables:
        for _ in range(60):
            x, y = face_samples(rng, pic, per_die=0, negatives=10)
            xs += x
            ys += y
    for pic in photos:
        for _ in range(photo_repeats):
            x, y = face_samples(rng, pic, per_die=1, negatives=2, degraded=True)
            xs += x
            ys += y
    return stack(xs), np.array(ys, np.int64)


def finder_data(
    rng: np.random.Generator,
    synthetic: list[Picture],
    trays: list[Picture],
    tables: list[Picture],
    photos: list[Picture],
) -> tuple[np.ndarray, ...]:
    """The finder's training windows and targets."""
    lo, hi = (math.log(v) for v in FIND_SIDE_PX)
    samples = [finder_sample(rng, p) for p in synthetic]
    for pic in trays:
        for _ in range(6):
            samples.append(finder_sample(rng, pic, math.exp(rng.uniform(lo, hi)) / 48.0))
    for pic in tables:
        for _ in range(40):
            samples.append(finder_sample(rng, pic, rng.uniform(0.1, 0.5)))
    for pic in photos:
        side = float(np.median([d.side for d in pic.dice]))
        for _ in range(40):
            samples.append(finder_sample(rng, pic, math.exp(rng.uniform(lo, hi)) / side))
        for _ in range(12):  # dice far too big for the finder: neither they nor their pips
            samples.append(finder_sample(rng, pic, rng.uniform(60.0, 110.0) / side))
    return tuple(np.stack([s[i] for s in samples]) for i in range(5))


def renders(args: argparse.Namespace, start: float) -> tuple[list[Picture], list[Picture]]:
    """The project's renders: trays and tables."""
    first = 10_000 + args.seed * 1000
    trays = rendered_tray_pictures(range(first, first + args.trays))
    tables = rendered_table_pictures(range(20_000, 20_000 + args.tables))
    _log(start, f"{len(trays)} rendered trays, {len(tables)} rendered tables")
    return trays, tables


def train_faces(args: argparse.Namespace, start: float) -> dict[str, object]:
    """Train and write the face reader; what went into it."""
    from vision.dice.train import fit  # PyTorch is needed from here on

    rng = np.random.default_rng(args.seed)
    synthetic = build_pictures(args.seed, args.face_pictures, True, args.workers)
    _log(start, f"{len(synthetic)} procedural pictures for the face reader")
    trays, tables = renders(args, start)
    photos = [p for _, p in tuning_pictures(calibration=False)]
    x, y = face_data(rng, synthetic, trays, tables, photos, args.photo_repeats)
    _log(start, f"face reader: {len(y)} crops, per class {np.bincount(y, minlength=8).tolist()}")
    net = fit.train_faces(x, y, args.face_epochs, args.seed, lambda t: _log(start, t))
    args.out.mkdir(parents=True, exist_ok=True)
    fit.export_faces(net, args.out)
    return {
        "procedural_pictures": len(synthetic),
        "rendered_trays": len(trays),
        "rendered_tables": len(tables),
        "tuning_photos": len(photos),
        "photo_repeats": args.photo_repeats,
        "crops": len(y),
        "epochs": args.face_epochs,
    }


def tune_faces(args: argparse.Namespace, start: float) -> dict[str, object]:
    """Fine-tune the committed face reader (rebuilt from its ONNX export) and write it: the
    tuning photos' dice cut as the reader cuts them (at the finder's spots, its mistakes of
    centre and size included, :func:`.data.reader_samples`) and around their labelled centres,
    both strongly degraded; and fewer procedural pictures, trays and tables than from scratch,
    so that what the net read there stays read. What went into it."""
    from vision.dice.learned import photo_spots
    from vision.dice.net import FACES_FILE
    from vision.dice.train import fit

    rng = np.random.default_rng(args.seed + 7)
    warm = fit.faces_from_onnx(FACES_FILE)
    synthetic = build_pictures(args.seed + 7, args.tune_face_pictures, True, args.workers)
    _log(start, f"{len(synthetic)} procedural pictures for the face reader")
    trays, tables = renders(args, start)
    photos = [p for _, p in tuning_pictures(calibration=False)]
    x0, y0 = face_data(rng, synthetic, trays, tables, [], 0)
    xs, ys = [x0], [y0]
    for pic in photos:
        for _ in range(args.tune_photo_repeats):
            x, y = face_samples(rng, pic, per_die=1, negatives=1, degraded=True, strong=True)
            xs.append(stack(x))
            ys.append(np.array(y, np.int64))
        x, y = reader_samples(rng, pic, photo_spots(pic.image), args.tune_spot_repeats)
        xs.append(stack(x))
        ys.append(np.array(y, np.int64))
    x_all, y_all = np.concatenate(xs), np.concatenate(ys)
    _log(
        start,
        f"face reader: {len(y_all)} crops, per class {np.bincount(y_all, minlength=8).tolist()}",
    )
    net = fit.train_faces(
        x_all, y_all, args.tune_face_epochs, args.seed, lambda t: _log(start, t), warm
    )
    args.out.mkdir(parents=True, exist_ok=True)
    fit.export_faces(net, args.out)
    return {
        "from": "the committed face reader (its ONNX export)",
        "procedural_pictures": len(synthetic),
        "rendered_trays": len(trays),
        "rendered_tables": len(tables),
        "tuning_photos": len(photos),
        "photo_repeats": args.tune_photo_repeats,
        "spot_repeats": args.tune_spot_repeats,
        "crops": len(y_all),
        "epochs": args.tune_face_epochs,
    }


def train_finder(args: argparse.Namespace, start: float, tune: bool) -> dict[str, object]:
    """Train and write the finder; what went into it. ``tune``: the second stage, from the
    first stage's weights, on fewer new procedural pictures."""
    from vision.dice.train import fit

    rng = np.random.default_rng(args.seed + (3 if tune else 1))
    count = args.finder_tune_pictures if tune else args.finder_pictures
    synthetic = build_pictures(args.seed + (5 if tune else 0), count, False, args.workers)
    _log(start, f"{len(synthetic)} procedural pictures for the finder")
    trays, tables = renders(args, start)
    photos = [p for _, p in tuning_pictures()]
    data = finder_data(rng, synthetic, trays, tables, photos)
    _log(start, f"finder: {len(data[0])} windows")
    warm = (args.warm_finder or args.out / "dice_finder.pt") if tune else None
    epochs = args.finder_tune_epochs if tune else args.finder_epochs
    net = fit.train_finder(data, epochs, args.seed, lambda t: _log(start, t), warm)
    args.out.mkdir(parents=True, exist_ok=True)
    fit.export_finder(net, args.out)
    return {
        "procedural_pictures": len(synthetic),
        "rendered_trays": len(trays),
        "rendered_tables": len(tables),
        "tuning_photos": len(photos),
        "windows": len(data[0]),
        "epochs": epochs,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--part",
        choices=("all", "finder", "finder-tune", "faces", "faces-tune", "calibrate"),
        default="all",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--face-pictures", type=int, default=1000)
    parser.add_argument(
        "--photo-repeats", type=int, default=100, help="crops cut from each die of a tuning photo"
    )
    parser.add_argument("--finder-pictures", type=int, default=2400)
    parser.add_argument("--trays", type=int, default=30, help="project renders of a tray")
    parser.add_argument("--tables", type=int, default=4, help="project renders of the table")
    parser.add_argument("--face-epochs", type=int, default=6)
    parser.add_argument("--tune-face-pictures", type=int, default=300)
    parser.add_argument(
        "--tune-photo-repeats", type=int, default=60, help="faces-tune: crops per labelled die"
    )
    parser.add_argument(
        "--tune-spot-repeats", type=int, default=25, help="faces-tune: crops per finder spot"
    )
    parser.add_argument("--tune-face-epochs", type=int, default=4)
    parser.add_argument("--finder-tune-pictures", type=int, default=600)
    parser.add_argument("--finder-tune-epochs", type=int, default=2)
    parser.add_argument("--finder-epochs", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=MODELS)
    parser.add_argument(
        "--warm-finder",
        type=Path,
        default=None,
        help="start the finder's second stage from these PyTorch weights (default: the "
        "first stage's, dice_finder.pt beside the nets)",
    )
    args = parser.parse_args(argv)
    start = time.time()
    made: dict[str, object] = {}
    if args.part in ("all", "faces"):
        made["faces"] = train_faces(args, start)
    if args.part == "faces-tune":
        made["faces_tune"] = tune_faces(args, start)
    if args.part in ("all", "finder"):
        made["finder"] = train_finder(args, start, tune=False)
    if args.part in ("all", "finder-tune"):
        made["finder_tune"] = train_finder(args, start, tune=True)
    for part in made.values():
        assert isinstance(part, dict)
        part["minutes"] = round((time.time() - start) / 60, 1)
        part["seed"] = args.seed
    meta_file = args.out / META_FILE.name
    meta: dict[str, object] = json.loads(meta_file.read_text()) if meta_file.is_file() else {}
    meta.setdefault("version", 1)
    meta.setdefault("temperature", 1.0)
    meta["find_threshold"] = FIND_THRESHOLD
    if "faces" in made:
        meta.pop("faces_tune", None)
    meta.update(made)
    args.out.mkdir(parents=True, exist_ok=True)
    write_atomic(meta_file, json.dumps(meta, indent=2) + "\n")
    if args.part in ("all", "calibrate"):
        if args.out != MODELS:
            _log(start, "calibration reads the nets in vision/dice/models only: skipped")
        else:
            from vision.dice.train.calibrate import fit_temperature

            t, report = fit_temperature([p for _, p in tuning_pictures(calibration=True)])
            _log(start, report)
            meta["temperature"] = round(t, 4)
            meta["calibration"] = report
            write_atomic(meta_file, json.dumps(meta, indent=2) + "\n")
    _log(start, f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

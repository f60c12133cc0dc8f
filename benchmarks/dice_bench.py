"""Dice benchmark: speed and accuracy of the d6 reader on real photos and rendered trays.

Run by ``make bench`` (not by the tests): ``.venv/bin/python benchmarks/dice_bench.py``.

For rolls of 2, 12 and 40 dice at 1080p (the table camera 0.8 m up, the tray beside the play
area so that side faces show; white, cream and red dice with touching clumps; dark felt, light
paper and light wood trays in turn; webcam effects), prints the median milliseconds to read one
tray image (the top-down view is made once per set-up, as the live loop does; its cost is
printed apart) and the accuracy: dice read exactly / dice present, misread, reported unreadable,
missed, extra, and rolls whose count of dice seen is right. Then the same for harder sets (4K,
mixed sizes and colours, worn pips and glare, a cocked die per roll).

First, when ``../shared/realdata/dice`` is there, the reader on those real photos: dice with
a certain value read right (confidence 0.9 or more), wrong, unsure (asked), missed, and
readings where no die lies; overall, on the held-out photos (never used to train or calibrate
the nets) and the tuning ones apart, per source, per die size, per value; the reliability
table (values given per confidence band, share right, unsure dice with their guess included);
milliseconds per photo and per die.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.dice import DiceRead, read_dice, tray_view, view_of_image  # noqa: E402
from vision.dice.learned import read_learned  # noqa: E402
from vision.dice.train.realset import REALDATA, RealScore, load_photos  # noqa: E402
from vision.dice.types import DieFound  # noqa: E402
from vision.render.dice_sets import (  # noqa: E402
    DiceSet,
    Score,
    calibrated_profile,
    render_set,
)

SURFACES = ("dark_felt", "light_paper", "light_wood")
Image = npt.NDArray[np.uint8]


def run_set(name: str, specs: list[DiceSet], seeds: range) -> None:
    """Render, read and score every roll of a set; print its line."""
    score = Score()
    read_ms: list[float] = []
    view_ms: list[float] = []
    for i, seed in enumerate(seeds):
        spec = specs[i % len(specs)]
        shot = render_set(spec, seed)
        size = (shot.image.shape[1], shot.image.shape[0])
        t0 = time.perf_counter()
        if spec.camera == "over":  # no table in view: the tray from its own tags
            view = view_of_image(shot.image)
        else:
            profile = calibrated_profile(shot.image)
            assert profile.tray is not None
            t0 = time.perf_counter()
            view = tray_view(profile.mapping(), profile.tray, size)
        view_ms.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        reading = read_dice(shot.image, view)
        read_ms.append((time.perf_counter() - t0) * 1000)
        score.add(reading, shot.truth)
    print(
        f"{name:<34} {statistics.median(read_ms):7.1f} ms/tray "
        f"(view {statistics.median(view_ms):.0f} ms once)  {score.line()}",
        flush=True,
    )


def size_group(file: str) -> str:
    """The die size of a real photo's dice, as the set's README groups them."""
    if file.startswith("matteop65"):
        return "dice 35-65 px"
    if file.startswith("rune55") and int(file.split("-")[1].split(".")[0]) >= 4:
        return "dice 80-250 px"
    return "dice 25-50 px"


def real_photos(read: Callable[[Image], DiceRead] = read_dice, name: str = "dice reader") -> None:
    """A reader on the real photos: counts, reliability, speed."""
    if not (REALDATA / "labels.json").is_file():
        print(f"{name}, real photos: skipped ({REALDATA} is absent)")
        return
    print(f"{name}, real photos (../shared/realdata/dice; tuning and held-out photos apart)")
    halves = {False: RealScore(), True: RealScore()}
    guesses = RealScore()
    sources: dict[str, RealScore] = {}
    sizes: dict[str, RealScore] = {}
    ms: list[float] = []
    dice_seen = 0
    dice_labelled = 0
    read(load_photos()[0].image())  # load what the reader loads before timing
    for photo in load_photos():
        image = photo.image()
        t0 = time.perf_counter()
        reading = read(image)
        ms.append((time.perf_counter() - t0) * 1000)
        dice_seen += reading.count
        dice_labelled += len(photo.dice)
        score = RealScore()
        score.add(photo, reading)
        halves[photo.held_out].merge(score)
        sources.setdefault(photo.source, RealScore()).merge(score)
        sizes.setdefault(size_group(photo.file), RealScore()).merge(score)
        guessed = type(reading)(
            reading.dice
            + tuple(
                DieFound(u.guess, u.x_px, u.y_px, u.confidence)
                for u in reading.unreadable
                if u.guess is not None
            ),
            (),
        )
        guesses.add(photo, guessed)
    both = RealScore()
    both.merge(halves[False])
    both.merge(halves[True])
    print(f"  {'all photos':<24} {both.line()}")
    print(f"  {'tuning photos':<24} {halves[False].line()}")
    print(f"  {'held-out photos':<24} {halves[True].line()}")
    for name, score in sorted(sources.items()):
        print(f"  {'source ' + name:<24} {score.line()}")
    for name, score in sorted(sizes.items()):
        print(f"  {name:<24} {score.line()}")
    for value in range(1, 7):
        tally = both.per_value.get(value, {})
        total = sum(tally.values())
        print(
            f"  value {value}: right {tally.get('right', 0)}/{total}, "
            f"wrong {tally.get('wrong', 0)}, unsure {tally.get('unread', 0)}, "
            f"missed {tally.get('missed', 0)}"
        )
    for label, half in (("tuning", halves[False]), ("held-out", halves[True])):
        print(f"  reliability of the values given, {label} photos:")
        print("\n".join("  " + row for row in half.reliability()))
    print("  reliability with the unsure dice' guesses (all photos):")
    print("\n".join("  " + row for row in guesses.reliability()))
    print(
        f"  {statistics.median(ms):.0f} ms per photo (median, 640 px), "
        f"{sum(ms) / max(1, dice_labelled):.1f} ms per die in the photos, "
        f"{sum(ms) / max(1, dice_seen):.1f} ms per die seen",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=6, help="rolls per set (default 6)")
    args = parser.parse_args()
    seeds = range(1, 1 + args.rolls)
    real_photos()
    real_photos(read_learned, "the learned reader alone (vision.dice.learned)")
    print("dice reader, rendered trays (table camera 0.8 m up, tray beside the play area)")
    for n in (2, 12, 40):
        specs = [DiceSet(n=n, surface=s) for s in SURFACES]
        run_set(f"{n} dice, 1080p", specs, seeds)
    hard = {
        "12 dice, 4K": [DiceSet(n=12, resolution="4k", surface=s) for s in SURFACES],
        "12 mixed sizes and colours, 1080p": [
            DiceSet(
                n=12,
                surface=s,
                sizes_mm=(12.0, 16.0, 19.0),
                looks=("white", "cream", "red", "yellow", "blue", "green"),
            )
            for s in SURFACES
        ],
        "12 worn pips, glare, uneven light": [
            DiceSet(n=12, surface=s, worn=0.7, glare=0.8, uneven=0.25) for s in SURFACES
        ],
        "12 with one cocked die, 1080p": [DiceSet(n=12, surface=s, cocked=1) for s in SURFACES],
        "12 dice, camera over the tray": [
            DiceSet(n=12, surface=s, camera="over") for s in SURFACES
        ],
    }
    for name, specs in hard.items():
        run_set(name, specs, seeds)
    return 0


if __name__ == "__main__":
    sys.exit(main())

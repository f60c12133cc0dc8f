"""Dice benchmark: speed and accuracy of the d6 reader on rendered trays.

Run by ``make bench`` (not by the tests): ``.venv/bin/python benchmarks/dice_bench.py``.

For rolls of 2, 12 and 40 dice at 1080p (the table camera 0.8 m up, the tray beside the play
area so that side faces show; white, cream and red dice with touching clumps; dark felt, light
paper and light wood trays in turn; webcam effects), prints the median milliseconds to read one
tray image (the top-down view is made once per set-up, as the live loop does; its cost is
printed apart) and the accuracy: dice read exactly / dice present, misread, reported unreadable,
missed, extra, and rolls whose count of dice seen is right. Then the same for harder sets (4K,
mixed sizes and colours, worn pips and glare, a cocked die per roll).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.dice import read_dice, tray_view, view_of_image  # noqa: E402
from vision.render.dice_sets import (  # noqa: E402
    DiceSet,
    Score,
    calibrated_profile,
    render_set,
)

SURFACES = ("dark_felt", "light_paper", "light_wood")


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=6, help="rolls per set (default 6)")
    args = parser.parse_args()
    seeds = range(1, 1 + args.rolls)
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

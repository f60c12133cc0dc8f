"""How often a based miniature is invisible to the detector: one front tag vs a front-and-rear pair.

Renders seeded 2 ft tables of 24 pieces at random poses (vision.render), at 1080p and 4K, from
0.8 m and 1.0 m, and runs the project's detector on each image. Prints a markdown table.
The kits and the figure are described in vision/render/visibility.py.

    .venv/bin/python benchmarks/visibility_study.py [--seeds 6] [--pieces 24]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.render.visibility import markdown_table, visibility_study


def main(argv: list[str] | None = None) -> int:
    """Run the study and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=6, help="scenes per setting (default 6)")
    parser.add_argument("--pieces", type=int, default=24, help="pieces per scene (default 24)")
    parser.add_argument("--resolutions", nargs="+", default=["1080p", "4k"])
    parser.add_argument("--heights-mm", nargs="+", type=float, default=[800.0, 1000.0])
    args = parser.parse_args(argv)
    start = time.perf_counter()
    counts = visibility_study(
        args.resolutions, args.heights_mm, range(args.seeds), n_pieces=args.pieces
    )
    print(markdown_table(counts))
    print(
        f"\n{args.seeds} seeded scenes of {args.pieces} pieces per row; "
        f"{time.perf_counter() - start:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

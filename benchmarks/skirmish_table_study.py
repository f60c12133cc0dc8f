"""The 3 ft table of the 2D6 skirmish through the camera: how often a based miniature is
invisible to the detector, and how many pixels a tag spans, at the camera heights that frame a
36 x 36 in table and its corner tags.

Like ``benchmarks/visibility_study.py`` (same figures, same detector, same seeded random poses,
one tag at the front rim and the figure at the rear), but on a 36 in table with the corner
tags, from the height at which a 50-degree webcam frames it (about 1.2 m) and higher.

    .venv/bin/python benchmarks/skirmish_table_study.py [--seeds 4] [--pieces 24]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2
import numpy as np

from vision.detector import Detector
from vision.render.camera import Camera
from vision.render.effects import Effects
from vision.render.frame import render_frame
from vision.render.scene import Figure, TableSpec, random_scene
from vision.render.visibility import FIGURE, Kit

TABLE_IN = 36.0
KITS = {
    "4k": (Kit(32.0, 10.0, "front"), Kit(32.0, 14.0, "front"), Kit(40.0, 14.0, "front")),
    "1080p": (Kit(40.0, 14.0, "front"), Kit(40.0, 20.0, "front"), Kit(50.0, 25.0, "front")),
}


def _trial(
    resolution: str, height_mm: float, kit: Kit, seed: int, n: int, det: Detector
) -> tuple[int, int, float]:
    """(pieces, pieces unseen, median tag side in pixels) of one seeded table."""
    rear = -(kit.base_mm / 2.0 - FIGURE.depth_mm / 2.0 - 1.5)
    figure = Figure(FIGURE.height_mm, FIGURE.width_mm, FIGURE.depth_mm, rear)
    scene = random_scene(
        seed,
        table=TableSpec(width_in=TABLE_IN, depth_in=TABLE_IN, seed=seed),
        n_pieces=n,
        base_diameter_mm=kit.base_mm,
        tag_size_mm=kit.tag_mm,
        layout=kit.layout,
        first_id=16,
        figure=figure,
    )
    camera = Camera.overhead(
        resolution, table_width_in=TABLE_IN, table_depth_in=TABLE_IN, height_mm=height_mm
    )
    image, _ = render_frame(scene, camera, effects=Effects(), rng=np.random.default_rng(seed))
    seen = det.detect(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    read = {int(s.tag_id) for s in seen}
    sides = [
        float(np.mean([math.dist(s.corners_px[i], s.corners_px[(i + 1) % 4]) for i in range(4)]))
        for s in seen
        if int(s.tag_id) >= 16
    ]
    unseen = sum(1 for p in scene.pieces if not ({int(m.tag_id) for m in p.spec.tags} & read))
    corners = {0, 1, 2, 3} <= read
    if not corners:
        unseen += 1000  # flagged below: the corner tags must all be read
    return len(scene.pieces), unseen, float(np.median(sides)) if sides else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--pieces", type=int, default=24)
    parser.add_argument("--heights-mm", nargs="+", type=float, default=[1200.0, 1400.0])
    args = parser.parse_args()
    det = Detector()
    start = time.perf_counter()
    print("| camera | height | kit | pieces unseen | tag side (median px) | corner tags |")
    print("|---|---|---|---|---|---|")
    for res, kits in KITS.items():
        for h in args.heights_mm:
            for kit in kits:
                total = unseen = 0
                px: list[float] = []
                corners_ok = True
                for s in range(args.seeds):
                    n, u, side = _trial(res, h, kit, s, args.pieces, det)
                    if u >= 1000:
                        corners_ok, u = False, u - 1000
                    total, unseen = total + n, unseen + u
                    px.append(side)
                print(
                    f"| {res} | {h / 1000:.1f} m | {kit.label} | {100 * unseen / total:.0f} % "
                    f"| {np.median(px):.0f} | {'all read' if corners_ok else 'MISSED'} |"
                )
    print(
        f"\n{args.seeds} seeded 36 in tables of {args.pieces} pieces per row; "
        f"{time.perf_counter() - start:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

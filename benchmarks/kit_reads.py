"""How the kit's sizes read on the project's renders: detection against a tag's side in pixels,
and every bundled scenario's kit for a 1080p and a 4K webcam read at the far corners.

Part 1 renders flat tags of each size at 15 places of a 2 ft table (corners, edges, middle),
turned 0, 15, 30 and 45 degrees, through the nominal webcam, and reads each still with several
draws of sensor noise: the share read, against the side in pixels (the grounds of the kit's
24 px, and of its larger side at 4K, where the detector's smallest perimeter bites).
Part 2 sizes each bundled scenario's kit (``markers --camera``) and reads it on the still of
``tests/kit/test_kit_reads.py`` (models at the far corners, edges and inside). Prints markdown
tables. Figures are on the project's renderer only.

    .venv/bin/python benchmarks/kit_reads.py [--draws 8] [--cameras 1080p 4k]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.scenarios import bundled_scenarios
from calibration.kit_view import nominal_view
from tests.kit import test_kit_reads as reads
from vision.detector import Detector, to_grey
from vision.render import Effects, PlacedPiece, Scene, TableSpec
from vision.render.camera import Camera
from vision.render.effects import apply_effects
from vision.render.frame import render_clean
from vision.types import PieceSpec, TagId, TagMount

SIZES_MM = {"1080p": (12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0), "4k": (7.0, 8.0, 9.0, 10.0, 11.0)}


def detection_by_side(camera: str, draws: int) -> list[tuple[float, float, float]]:
    """(tag side mm, smallest side px, share read) for flat tags over a 2 ft table."""
    view = nominal_view(camera, 24.0, 24.0)
    lens = Camera.overhead(camera, height_mm=view.camera_height_mm)
    detector = Detector("DICT_4X4_50")
    out = []
    for size in SIZES_MM[camera]:
        pieces = []
        for k, (x, y) in enumerate(
            (x, y) for x in (1.0, 6.0, 12.0, 18.0, 23.0) for y in (1.0, 12.0, 23.0)
        ):
            for turn in range(4):
                tag = 16 + 4 * k + turn
                if tag > 49:
                    break
                spec = PieceSpec(f"p{tag}", (TagMount(TagId(tag), forward_mm=0.0, size_mm=size),))
                dx = (turn % 2) * 1.2 * (1 if x < 12 else -1)
                dy = (turn // 2) * 1.2 * (1 if y < 12 else -1)
                pieces.append(PlacedPiece(spec, x + dx, y + dy, 15.0 * turn, figure=None))
        clean, truth = render_clean(Scene(table=TableSpec(24, 24), pieces=tuple(pieces)), lens)
        shown = [t for t in truth.tags if t.tag_id >= 16 and t.visible]
        read = 0
        for seed in range(draws):
            image = apply_effects(clean, Effects(), np.random.default_rng(seed))
            seen = {int(s.tag_id) for s in detector.detect(to_grey(image))}
            read += sum(t.tag_id in seen for t in shown)
        px = min(
            float(
                np.linalg.norm(
                    np.roll(np.asarray(t.corners_px), 1, axis=0) - t.corners_px, axis=1
                ).min()
            )
            for t in shown
        )
        out.append((size, px, read / (draws * len(shown))))
    return out


def main(argv: list[str] | None = None) -> int:
    """Run both parts and print their tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=8, help="noise draws per still (default 8)")
    parser.add_argument("--cameras", nargs="+", default=["1080p", "4k"], choices=["1080p", "4k"])
    args = parser.parse_args(argv)
    start = time.perf_counter()
    reads.NOISE_DRAWS = args.draws
    print("| camera | tag | smallest side | read |\n|---|---|---|---|")
    for camera in args.cameras:
        for size, px, share in detection_by_side(camera, args.draws):
            print(f"| {camera} | {size:g} mm | {px:.1f} px | {100 * share:.0f} % |")
    print(
        "\n| scenario | camera | base tags | terrain tags | verdict | tags in view | read in "
        "every draw |\n|---|---|---|---|---|---|---|"
    )
    for b in bundled_scenarios():
        for camera in args.cameras:
            still = reads.render_still(b.name, camera)
            kit, plan = still.plan.kit, still.plan
            verdict = "refused" if plan.unreadable else "short" if plan.shortfalls else "reliable"
            shown = reads.visible_kit_tags(still)
            every = sum(still.reads.get(i, 0) == args.draws for i, _, _ in shown)
            sizes = {}
            for kind in ("base", "terrain"):
                found = sorted({(t.size_mm, round(t.px_min)) for t in kit.tags if t.kind == kind})
                sizes[kind] = ", ".join(f"{s:g} mm ({p} px)" for s, p in found) or "-"
            print(
                f"| {b.name} | {camera} | {sizes['base']} | {sizes['terrain']} | {verdict} | "
                f"{len(shown)} | {every} |"
            )
    print(f"\n{args.draws} noise draws per still; {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

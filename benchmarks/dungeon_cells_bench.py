"""Cell-reading accuracy on rendered boards (issue 12): the Dungeon Crawl's 15 markers laid on
the printed board at random squares, rendered by the project's synthetic camera, read by the
real detector and tracker, and each model's square read as the live session reads it.

A model set down clear of the lines (within 0.3 of a square's side of its centre) must be read
on its own square; a model set down on a line (within 0.05 of a square's side of an edge) must
be flagged "on the line" (the player is asked to centre it); no model may ever be read on a
wrong square. Models between those bands are set down too but only checked for wrong squares.

Run by ``make bench``: ``.venv/bin/python benchmarks/dungeon_cells_bench.py [--boards N]
[--seed S] [--resolution 720p]``. Exits non-zero on any wrong square.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.footage import battle_scene, overhead_camera  # noqa: E402
from assistant.scenarios import load_game  # noqa: E402
from assistant.session.reader import TableReader  # noqa: E402
from assistant.table_fit import profile_from_frames  # noqa: E402
from assistant.tables.dungeon_cells import read_cell  # noqa: E402
from engine.rulesets.dungeon.state import rules_of  # noqa: E402
from vision.detector import Detector  # noqa: E402
from vision.render.frame import render_frame  # noqa: E402
from vision.types import Frame  # noqa: E402

CLEAR_BAND = 0.30
"""Offsets up to this fraction of a square from its centre are "clear" cases."""
LINE_BAND = 0.45
"""Offsets from this fraction on (to 0.55, across the edge) are "on the line" cases."""


def main() -> int:
    """Render the boards, read them, print the counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=40)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--resolution", default="720p", choices=["720p", "1080p"])
    parser.add_argument("--verbose", action="store_true", help="name every model not seen")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    scenario, _, state = load_game("dungeon-crawl")
    grid = state.table.grid
    assert grid is not None
    walls = rules_of(state).walls
    open_cells = [c for c in grid.cells() if c not in walls]
    scene = battle_scene(scenario, state)
    camera = overhead_camera(scenario, args.resolution, board=True)
    first, _ = render_frame(scene, camera)
    profile = profile_from_frames((Frame(i, i * 0.1, first) for i in range(3)), Detector(), 8, 8)[0]
    counts = {"clear": 0, "clear_ok": 0, "line": 0, "line_flagged": 0, "between": 0}
    wrong: list[str] = []
    unseen = 0
    read_s = 0.0
    for board in range(args.boards):
        cells = rng.sample(open_cells, len(scene.pieces))
        pieces, truth = [], {}
        for piece, cell in zip(scene.pieces, cells, strict=True):
            kind = rng.choice(("clear", "clear", "line", "between"))
            cx, cy = grid.centre(cell)
            for _ in range(50):  # two bases never overlap on a real board
                if kind == "clear":
                    dx, dy = (rng.uniform(-CLEAR_BAND, CLEAR_BAND) for _ in range(2))
                else:
                    low, high = (
                        (LINE_BAND, 0.55) if kind == "line" else (CLEAR_BAND + 0.02, LINE_BAND)
                    )
                    dx = rng.choice((-1, 1)) * rng.uniform(low, high)
                    dy = rng.uniform(-CLEAR_BAND, CLEAR_BAND)
                    if rng.random() < 0.5:
                        dx, dy = dy, dx
                x, y = cx + dx * grid.cell_in, cy + dy * grid.cell_in
                placed = [t[2] for t in truth.values()]
                apart = 1.02 * piece.spec.base_diameter_mm / 25.4
                if all(math.dist((x, y), p) >= apart for p in placed):
                    break
            else:
                continue  # no room beside its neighbours: this board goes without it
            truth[piece.name] = (kind, cell, (x, y))
            pieces.append(replace(piece, x_in=x, y_in=y, heading_deg=rng.choice(range(0, 360, 45))))
        image, _ = render_frame(replace(scene, pieces=tuple(pieces)), camera)
        reader = TableReader(scenario, profile)
        start = time.perf_counter()
        obs = None
        for i in range(3):
            obs = reader.read(Frame(i, board * 10 + i * 0.5, image))
        read_s += (time.perf_counter() - start) / 3
        assert obs is not None
        for name, (kind, cell, (x, y)) in truth.items():
            seen = obs.pieces.get(name)
            if seen is None or not seen.visible:
                unseen += 1
                if args.verbose:
                    print(f"  board {board}: {name} at ({x:.2f}, {y:.2f}) not seen")
                continue
            reading = read_cell(grid, seen.x_in, seen.y_in)
            true_reading = read_cell(grid, x, y)
            counts[kind] += 1
            possible = set(true_reading.between) | {cell}
            if reading.on_line:
                if kind == "line":
                    counts["line_flagged"] += 1
                continue
            if reading.cell not in possible:
                wrong.append(f"board {board}: {name} at {cell} read on {reading.cell}")
            elif kind == "clear" and reading.cell == cell:
                counts["clear_ok"] += 1
    models = counts["clear"] + counts["line"] + counts["between"]
    print(
        f"{args.boards} rendered boards ({args.resolution}), {models} models read "
        f"({unseen} unseen): clear of the lines {counts['clear_ok']}/{counts['clear']} on their "
        f"own square; on a line {counts['line_flagged']}/{counts['line']} flagged to be centred; "
        f"between {counts['between']} (checked for wrong squares only); wrong squares "
        f"{len(wrong)}; {1000 * read_s / args.boards:.1f} ms per frame read"
    )
    for line in wrong[:10]:
        print("  " + line)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())

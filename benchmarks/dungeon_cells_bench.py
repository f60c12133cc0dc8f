"""Cell-reading accuracy on rendered boards (issue 12): the Dungeon Crawl's 15 markers laid on
the printed board at random squares, rendered by the project's synthetic camera, read by the
real detector and tracker, and each model's square read as the live session reads it.

A model set down clear of the lines (within 0.3 of a square's side of its centre) must be read
on its own square; a model set down on a line (within 0.05 of a square's side of an edge) must
be flagged "on the line" (the player is asked to centre it); no model may ever be read on a
wrong square. Models between those bands are set down too but only checked for wrong squares.

Run by ``make bench``: ``.venv/bin/python benchmarks/dungeon_cells_bench.py [--boards N]
[--seed S] [--resolution 720p] [--save-frames DIR | --frames DIR]``. Exits non-zero on any
wrong square. ``--save-frames DIR`` renders the boards into DIR (``boards.npz``: the frames;
``truth.json``: where each model was set down) and reads them; ``--frames DIR`` reads boards
rendered so instead of rendering, so two commits' readers can read the same frames
(``compare_commits.py`` does this: the renderer's own changes stay out of the reading time).
Only the reading is timed, either way, in CPU time of this process (``time.process_time``, as
the engine benches: other jobs on a shared machine count less).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.footage import battle_scene, overhead_camera  # noqa: E402
from assistant.scenarios import load_game  # noqa: E402
from assistant.session.reader import TableReader  # noqa: E402
from assistant.table_fit import profile_from_frames  # noqa: E402
from assistant.tables.dungeon_cells import read_cell  # noqa: E402
from vision.detector import Detector  # noqa: E402
from vision.render.frame import render_frame  # noqa: E402
from vision.types import Frame  # noqa: E402

CLEAR_BAND = 0.30
"""Offsets up to this fraction of a square from its centre are "clear" cases."""
LINE_BAND = 0.45
"""Offsets from this fraction on (to 0.55, across the edge) are "on the line" cases."""


Truth = dict[str, tuple[str, tuple[int, int], tuple[float, float]]]
"""Each model's case ("clear", "line", "between"), square and centre (inches), by name."""


def render_boards(
    boards: int, seed: int, resolution: str
) -> tuple[np.ndarray, list[np.ndarray], list[Truth]]:
    """The empty board's frame (for the table profile), then ``boards`` boards, each with the
    markers set down at random squares, rendered by the project's synthetic camera."""
    rng = random.Random(seed)
    scenario, _, state = load_game("dungeon-crawl")
    grid = state.table.grid
    assert grid is not None
    walls = state.rules.walls  # the dungeon's own state (read so at every commit)
    open_cells = [c for c in grid.cells() if c not in walls]
    scene = battle_scene(scenario, state)
    camera = overhead_camera(scenario, resolution, board=True)
    first, _ = render_frame(scene, camera)
    images: list[np.ndarray] = []
    truths: list[Truth] = []
    for _board in range(boards):
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
        images.append(image)
        truths.append(truth)
    return first, images, truths


def save_boards(
    folder: Path, first: np.ndarray, images: list[np.ndarray], truths: list[Truth]
) -> None:
    """Write rendered boards for ``--frames``."""
    folder.mkdir(parents=True, exist_ok=True)
    np.savez(folder / "boards.npz", first=first, boards=np.stack(images))
    (folder / "truth.json").write_text(json.dumps(truths), encoding="utf-8")


def load_boards(folder: Path) -> tuple[np.ndarray, list[np.ndarray], list[Truth]]:
    """Boards written by :func:`save_boards`."""
    with np.load(folder / "boards.npz") as saved:
        first, images = saved["first"], list(saved["boards"])
    raw: list[dict[str, Any]] = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    truths = [
        {name: (kind, (cell[0], cell[1]), (xy[0], xy[1])) for name, (kind, cell, xy) in t.items()}
        for t in raw
    ]
    return first, images, truths


def main() -> int:
    """Render the boards (or read rendered ones), read them, print the counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=40)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--resolution", default="720p", choices=["720p", "1080p"])
    parser.add_argument("--verbose", action="store_true", help="name every model not seen")
    given = parser.add_mutually_exclusive_group()
    given.add_argument("--save-frames", type=Path, help="render into this folder, then read")
    given.add_argument("--frames", type=Path, help="read boards rendered with --save-frames")
    args = parser.parse_args()
    if args.frames is not None:
        if not (args.frames / "boards.npz").is_file():
            print(f"{args.frames} holds no boards.npz: render it with --save-frames first")
            return 2
        first, images, truths = load_boards(args.frames)
    else:
        first, images, truths = render_boards(args.boards, args.seed, args.resolution)
        if args.save_frames is not None:
            save_boards(args.save_frames, first, images, truths)
    scenario, _, state = load_game("dungeon-crawl")
    grid = state.table.grid
    assert grid is not None
    resolution = f"{first.shape[0]}p"
    profile = profile_from_frames((Frame(i, i * 0.1, first) for i in range(3)), Detector(), 8, 8)[0]
    counts = {"clear": 0, "clear_ok": 0, "line": 0, "line_flagged": 0, "between": 0}
    wrong: list[str] = []
    unseen = 0
    read_s = 0.0
    for board, (image, truth) in enumerate(zip(images, truths, strict=True)):
        reader = TableReader(scenario, profile)
        start = time.process_time()
        obs = None
        for i in range(3):
            obs = reader.read(Frame(i, board * 10 + i * 0.5, image))
        read_s += (time.process_time() - start) / 3
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
    boards = len(images)
    print(
        f"{boards} rendered boards ({resolution}), {models} models read "
        f"({unseen} unseen): clear of the lines {counts['clear_ok']}/{counts['clear']} on their "
        f"own square; on a line {counts['line_flagged']}/{counts['line']} flagged to be centred; "
        f"between {counts['between']} (checked for wrong squares only); wrong squares "
        f"{len(wrong)}; {1000 * read_s / boards:.1f} ms per frame read (CPU)"
    )
    for line in wrong[:10]:
        print("  " + line)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())

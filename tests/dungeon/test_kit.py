"""The grid game's kit (issue 12): ``soloscope markers --scenario dungeon-crawl`` prints the
board at true scale (1-inch squares, letters and numbers, shaded walls, the dragon's three
squares, the corner tags outside the grid's corners) tiled over pages with alignment marks, plus
the 15 base tags; ``--grid-cell-mm`` is for a real board (a chessboard)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from assistant.cli import main
from assistant.scenarios import load_scenario
from assistant.tables.dungeon_kit import grid_board_spec
from calibration.kit import render_pdf_pages_png
from calibration.kit_grid import WALL_GREY, board_sheet
from calibration.kit_layout import PAPERS
from vision.detector import Detector

DPI = 150.0
PX_PER_MM = DPI / 25.4


def test_the_board_is_printed_at_true_scale_over_tiled_pages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "kit.pdf"
    assert main(["markers", "--scenario", "dungeon-crawl", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert (
        "added the board (8 x 8 squares of 25.4 mm, 13 wall squares) as the first 4 pages" in said
    )
    assert "soloscope calibrate --source CAMERA --width 8.0 --depth 8.0" in said
    spec = grid_board_spec(load_scenario("dungeon-crawl"))
    assert spec is not None
    sheet = board_sheet(spec, PAPERS["a4"])
    assert len(sheet.tiles) == 4 and sheet.alignment_marks
    circled = sorted(m.cell for m in spec.marks if m.circled)
    assert circled == [(0, 0), (0, 7), (7, 2)]  # the dragon's d6 squares A1, A8, H3
    assert {m.text for m in spec.marks if m.circled} == {
        "Dragon\nd6 1-2",
        "Dragon\nd6 3-4",
        "Dragon\nd6 5-6",
    }
    pages = render_pdf_pages_png(out, tmp_path / "png", DPI)
    tags = (tmp_path / "kit.tags.txt").read_text(encoding="utf-8")
    assert sum(line.strip().startswith("tag ") for line in tags.splitlines()) == 15
    detector = Detector()
    corners_mm: dict[int, np.ndarray] = {}
    for tile, page in zip(sheet.tiles, pages, strict=False):
        grey = cv2.imread(str(page), cv2.IMREAD_GRAYSCALE)
        for s in detector.detect(grey):
            pts = np.asarray(s.corners_px, dtype=np.float64) / PX_PER_MM  # page mm
            ox, oy = tile.page_origin_mm
            wx, wy = tile.window_mm[:2]
            corners_mm[int(s.tag_id)] = pts - (ox, oy) + (wx, wy)  # canvas mm
        # shading: a wall square grey, an open square white, on the page that shows them
        for cell, wall in (((2, 0), True), ((3, 0), False)):
            x, y, w, _ = sheet.cell_rect(cell)
            cx, cy = x + w / 2, y + w / 2
            if tile.shows(cx, cy) and tile.shows(x, y) and tile.shows(x + w, y + w):
                px, py = tile.to_page(cx + w * 0.3, cy + w * 0.3)
                level = int(grey[round(py * PX_PER_MM), round(px * PX_PER_MM)])
                assert abs(level - WALL_GREY) < 20 if wall else level > 240, (cell, level)
    assert set(corners_mm) == {0, 1, 2, 3}
    # each tag's inner corner touches a grid corner: tag 0's top-right, tag 1's top-left, ...
    gx, gy = sheet.grid_origin_mm
    w, d = spec.width_mm, spec.depth_mm
    inner = {0: (corners_mm[0][1], (gx, gy + d)), 1: (corners_mm[1][0], (gx + w, gy + d))}
    inner |= {2: (corners_mm[2][3], (gx + w, gy)), 3: (corners_mm[3][2], (gx, gy))}
    for tag, (seen, want) in inner.items():
        assert np.hypot(*(seen - want)) < 0.6, (tag, seen, want)  # millimetres on paper
    span = np.hypot(*(inner[1][0] - inner[0][0]))
    assert span == pytest.approx(8 * 25.4, abs=0.8)


def test_a_real_chessboard_gets_its_calibration_instead_of_printed_pages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "kit.pdf"
    args = ["markers", "--scenario", "dungeon-crawl", "--out", str(out), "--grid-cell-mm", "57"]
    assert main(args) == 0
    said = capsys.readouterr().out
    assert "--width 17.952756 --depth 17.952756" in said  # 8 x 57 mm, as the profile must say
    assert "added the board" not in said
    scaled = load_scenario(str(tmp_path / "kit.scenario.toml"))  # the same game on 57 mm squares
    assert (scaled.table.width_in, scaled.table.depth_in) == (17.952756, 17.952756)
    grid = scaled.table.grid_shape()
    assert grid is not None and grid.cell_in == pytest.approx(57 / 25.4, abs=1e-6)
    original = load_scenario("dungeon-crawl")
    assert [grid.cell_at((u.x, u.y)) for u in scaled.units] == [
        (int(u.x), 7 - int(u.y)) for u in original.units
    ]
    on_57, on_25 = grid_board_spec(scaled), grid_board_spec(original)
    assert on_57 is not None and on_25 is not None
    assert on_57.cell_mm == pytest.approx(57.0, abs=1e-3)
    assert replace(on_57, cell_mm=on_25.cell_mm) == on_25  # the same walls and marked squares
    assert main(["markers", "--out", str(out), "--grid-cell-mm", "57"]) != 0
    assert "--grid-cell-mm needs --scenario" in capsys.readouterr().err
    off_grid = tmp_path / "off.pdf"
    args = ["markers", "--scenario", "crossroads-ambush", "--out", str(off_grid)]
    assert main([*args, "--grid-cell-mm", "57"]) != 0  # not a grid game: nothing written
    assert "played on a grid" in capsys.readouterr().err and not off_grid.exists()
    bad = ["markers", "--scenario", "dungeon-crawl", "--out", str(out), "--grid-cell-mm", "2"]
    assert main(bad) != 0
    assert "5 to 120 mm" in capsys.readouterr().err

"""The generated set-up sheet draws nothing over anything else (issue 22: ``generate scenario
--seed 42 --sheet`` drew figure 21 over the centre objective, and labels over labels).

Read back from the PDF itself: every text on the map (labels, tag ids, figure numbers) has a
box of its own; every objective marker shows its yellow; every tag square its white; a figure
drawn beside its place has a dot on that place."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from fpdf import FPDF

from assistant.setup_sheet import (
    map_layout,
    page_map,
    pdf_measure,
    scenario_sheet,
    scenario_sheet_pdf,
)
from engine.dice import SeededDice
from engine.generators.scenario import generate_scenario
from engine.generators.scenario_table import ScenarioKind

pdfium = pytest.importorskip("pypdfium2")
pdfium_c = pytest.importorskip("pypdfium2.raw")

DPI = 150.0
PX_PER_MM = DPI / 25.4
PT_MM = 25.4 / 72.0
CASES = [(42, None), (7, ScenarioKind.SPAWNING), (11, ScenarioKind.TRANSPORT), (5, None)]


def _boxes_and_image(pdf: bytes) -> tuple[list[tuple[float, float, float, float]], npt.NDArray]:
    """Each text object's box (page millimetres, y down) and page 1 as an RGB image."""
    document = pdfium.PdfDocument(pdf)
    page = document[0]
    height_mm = page.get_height() * PT_MM
    boxes = []
    for obj in page.get_objects():
        if obj.type == pdfium_c.FPDF_PAGEOBJ_TEXT:
            left, bottom, right, top = obj.get_bounds()
            boxes.append(
                (left * PT_MM, height_mm - top * PT_MM, right * PT_MM, height_mm - bottom * PT_MM)
            )
    image = np.asarray(page.render(scale=DPI / 72.0, rev_byteorder=True).to_numpy())[:, :, :3]
    document.close()
    return boxes, image


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """Area (mm²) shared by two boxes."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _share(
    image: npt.NDArray,
    x: float,
    y: float,
    r_mm: float,
    rgb: tuple[int, int, int],
    inner_mm: float = 0.0,
) -> float:
    """The share of the pixels from ``inner_mm`` to ``r_mm`` round (x, y) mm that have colour
    ``rgb`` (the ring leaves out a number drawn in the middle)."""
    cx, cy, rr = x * PX_PER_MM, y * PX_PER_MM, r_mm * PX_PER_MM
    x0, y0 = max(0, int(cx - rr) - 1), max(0, int(cy - rr) - 1)
    window = image[y0 : int(cy + rr) + 2, x0 : int(cx + rr) + 2].astype(np.int16)
    yy, xx = np.mgrid[0 : window.shape[0], 0 : window.shape[1]]
    d2 = (xx + x0 - cx) ** 2 + (yy + y0 - cy) ** 2
    ring = (d2 <= rr**2) & (d2 >= (inner_mm * PX_PER_MM) ** 2)
    near = np.all(np.abs(window - np.array(rgb)) <= 8, axis=2)
    return float(near[ring].mean())


@pytest.mark.parametrize(("seed", "kind"), CASES, ids=[f"seed {s}" for s, _ in CASES])
def test_nothing_on_the_map_is_drawn_over_anything_else(
    seed: int, kind: ScenarioKind | None, tmp_path: Path
) -> None:
    gen = generate_scenario(SeededDice(seed), kind=kind)
    sheet = scenario_sheet(gen, seed)
    m, _ = page_map(sheet)
    boxes, image = _boxes_and_image(scenario_sheet_pdf(gen, seed))
    left, top = m(0, sheet.depth_in)
    right, bottom = m(sheet.width_in, 0)
    on_map = [
        b
        for b in boxes
        if left - 12 < b[2] and b[0] < right + 12 and top - 6 < b[3] and b[1] < bottom + 10
    ]
    assert len(on_map) >= len(sheet.figures) + len(sheet.objectives) + len(sheet.pieces)
    crossing = [(a, b) for a, b in itertools.combinations(on_map, 2) if _overlap(a, b) > 0.05]
    assert crossing == [], f"{len(crossing)} texts drawn over others: {crossing[:3]}"

    r = 0.5 * m.mm_per_in
    for o in sheet.objectives:  # the yellow of each marker shows (a leader dot at most on it)
        x, y = m(o.x, o.y)
        assert _share(image, x, y, r * 0.6, (255, 230, 90)) > 0.75, o.label
    for p in sheet.pieces:  # the white of each tag square shows round its id
        if p.tag is not None:
            x, y = m(p.x, p.y)
            side = max(3.0, p.tag_mm / 25.4 * m.mm_per_in)
            ring = _share(image, x, y, side * 0.48, (255, 255, 255), inner_mm=side * 0.4)
            assert ring > 0.6, (p.tag, ring)
    moved = 0
    for f in sheet.figures:  # a figure's colour shows at its place, or a dark dot does
        x, y = m(f.x, f.y)
        colour = (60, 90, 200) if f.role == "human" else (200, 60, 50)
        if _share(image, x, y, r * 0.85, colour, inner_mm=r * 0.6) < 0.5:
            moved += 1
            assert _share(image, x, y, 0.3, (0, 0, 0)) > 0.5, f.label
    if seed == 42:
        assert moved >= 1  # figure 21 stands 0.5 in from the centre objective


def test_figures_beside_their_place_keep_a_leader_line() -> None:
    """Figure 21 of seed 42 (on the centre objective) is drawn beside it, close by."""
    gen = generate_scenario(SeededDice(42))
    sheet = scenario_sheet(gen, 42)
    m, _ = page_map(sheet)
    layout = map_layout(sheet, m, pdf_measure(FPDF(unit="mm")))
    moved = [(f, p) for f, p in zip(sheet.figures, layout.figures, strict=True) if p.moved]
    assert [f.label for f, _ in moved] == ["21"]
    _, placed = moved[0]
    assert (placed.true_x, placed.true_y) == pytest.approx(m(12.0, 8.5))
    assert math.dist((placed.x, placed.y), (placed.true_x, placed.true_y)) < 4 * placed.r

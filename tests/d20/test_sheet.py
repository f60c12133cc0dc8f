"""The set-up sheet (issue 13): ``generate terrain|scenario --sheet FILE.pdf`` renders (pypdfium2),
draws every piece's outline filled by its type at a printable scale, its tag id where the tag
sits and its type, lists each tag with its centre, and shows the deployment zones."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
import pypdfium2 as pdfium
import pytest
from shapely.geometry import Polygon

from assistant.cli import main
from assistant.setup_sheet import _FILL, _ZONE_FILL, page_map, scenario_sheet, terrain_sheet
from engine.dice import SeededDice
from engine.generators.scenario import generate_scenario
from engine.generators.scenario_table import ScenarioKind
from engine.generators.terrain import generate_terrain

DPI = 100.0
PX_PER_MM = DPI / 25.4


def _render(path: Path) -> tuple[npt.NDArray[np.uint8], str, pdfium.PdfDocument]:
    doc = pdfium.PdfDocument(str(path))
    page = doc[0]
    image = np.asarray(page.render(scale=DPI / 72.0).to_numpy())[:, :, :3]  # BGR(A) -> BGR
    text = page.get_textpage().get_text_range()
    return image, text, doc


def _text_at(doc: pdfium.PdfDocument, x_mm: float, y_mm: float, half_mm: float) -> str:
    """Text inside a box round (x, y), millimetres from the top left of page 1."""
    page = doc[0]
    height_pt = page.get_height()
    pt = 72.0 / 25.4
    box = (
        (x_mm - half_mm) * pt,
        height_pt - (y_mm + half_mm) * pt,
        (x_mm + half_mm) * pt,
        height_pt - (y_mm - half_mm) * pt,
    )
    return str(page.get_textpage().get_text_bounded(*box))


def _share_of_colour(
    image: npt.NDArray[np.uint8], mask: npt.NDArray[np.bool_], rgb: tuple[int, int, int]
) -> float:
    bgr = np.array(rgb[::-1], dtype=np.int16)
    near = np.all(np.abs(image.astype(np.int16) - bgr) <= 6, axis=2)
    return float(near[mask].mean()) if mask.any() else 0.0


def _mask(shape: tuple[int, ...], ring: list[tuple[float, float]]) -> npt.NDArray[np.bool_]:
    """Pixels well inside a page polygon (millimetres)."""
    import cv2

    poly = Polygon(ring).buffer(-1.0)  # 1 mm inside the outline
    out = np.zeros(shape[:2], dtype=np.uint8)
    if poly.is_empty or poly.geom_type != "Polygon":
        return out.astype(bool)
    pts = np.round(np.asarray(poly.exterior.coords) * PX_PER_MM).astype(np.int32)
    cv2.fillPoly(out, [pts], 1)
    return out.astype(bool)


def test_terrain_sheet_shows_every_piece(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "terrain.pdf"
    assert main(["generate", "terrain", "--seed", "3", "--sheet", str(out)]) == 0
    assert f"wrote the set-up sheet to {out}" in capsys.readouterr().out
    image, text, doc = _render(out)
    sheet = terrain_sheet(generate_terrain(SeededDice(3)), "terrain, seed 3")
    m, scale = page_map(sheet)
    assert scale == 4 and "scale 1:4" in text
    assert len(sheet.pieces) > 8
    checked = 0
    for i, p in enumerate(sheet.pieces):
        ring = [m(x, y) for x, y in p.polygon]
        taken = _mask(image.shape, ring)
        for q in sheet.pieces[i + 1 :]:  # drawn over it
            if Polygon(q.polygon).intersects(Polygon(p.polygon)):
                taken &= ~_mask(image.shape, [m(x, y) for x, y in q.polygon])
        for q in sheet.pieces:  # tag squares drawn on top, with their arrows and labels
            if q.tag is not None:
                cx, cy = m(q.x, q.y)
                h = max(3.0, q.tag_mm / 25.4 * m.mm_per_in) / 2 + 4.0
                square = [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]
                taken &= ~_mask(image.shape, square)
        if taken.sum() > 60:
            assert _share_of_colour(image, taken, _FILL[p.kind]) > 0.3, p.id
            checked += 1
        assert p.type_name in text
        if p.tag is not None:
            assert f"tag {p.tag}: {p.name}" in text
            assert str(p.tag) in _text_at(doc, *m(p.x, p.y), 2.0), p.id
    assert checked >= len(sheet.pieces) // 2  # small pieces hide under their tag squares
    doc.close()


def test_scenario_sheet_shows_zones_pieces_and_figures(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "scenario.pdf"
    argv = [
        "generate",
        "scenario",
        "--seed",
        "3",
        "--scenario",
        "basic-battle",
        "--sheet",
        str(out),
    ]
    assert main([*argv, "--json"]) == 0
    assert f"wrote the set-up sheet to {out}" in capsys.readouterr().err
    image, text, doc = _render(out)
    gen = generate_scenario(SeededDice(3), kind=ScenarioKind.BASIC_BATTLE)
    sheet = scenario_sheet(gen, 3)
    m, _ = page_map(sheet)
    for label, role, ring in sheet.zones:
        assert f"{label} deploy here" in text
        zone = _mask(image.shape, [m(x, y) for x, y in ring])
        assert _share_of_colour(image, zone, _ZONE_FILL[role]) > 0.3, label
    for f in sheet.figures:
        assert f.label in _text_at(doc, *m(f.x, f.y), 2.5)
    for p in sheet.pieces:
        if p.tag is not None:
            assert str(p.tag) in _text_at(doc, *m(p.x, p.y), 2.0)
    assert "objective 1" in text
    doc.close()

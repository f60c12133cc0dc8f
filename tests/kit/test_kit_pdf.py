"""The printable kit, rendered at 600 dpi: every tag is found by the project's detector at its
declared id and place, printed sizes and both rulers are true within 0.2 mm."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from assistant.commands.markers import scenario_roster
from assistant.scenarios import load_scenario
from calibration.kit import build_kit_pdf
from calibration.kit_ids import (
    BUTTON_IDS,
    CHARUCO_DICTIONARY,
    CHARUCO_MARKER_MM,
    CHARUCO_SQUARE_MM,
    CHARUCO_SQUARES,
    CORNER_IDS,
    CORNER_TAG_MM,
    KIT_DICTIONARY,
    PIECE_IDS,
    TERRAIN_IDS,
)
from calibration.kit_layout import (
    PAPERS,
    BaseTagSpec,
    KitPage,
    KitSpec,
    Ruler,
    base_tag_offset_mm,
)
from vision.detector import Detector

pdfium = pytest.importorskip("pypdfium2", reason="pypdfium2 (test extra) renders the PDF")

DPI = 600.0
PX_PER_MM = DPI / 25.4
TOL_MM = 0.2

SPECS = {
    "a4-default": KitSpec(),
    "letter-big-bases": KitSpec(
        paper=PAPERS["letter"], piece_ids=tuple(PIECE_IDS)[:5], base_mm=32.0, tag_mm=14.0
    ),
    # A scenario's mix: 32 mm bases with a front and a rear tag, a tag off to the right, 40 mm.
    "a4-mixed-bases": KitSpec(
        bases=(
            BaseTagSpec(16, 31.75, 14.0, 5.0),
            BaseTagSpec(17, 31.75, 10.0, -8.0),
            BaseTagSpec(18, 25.0, 10.0, None, 2.0),
            BaseTagSpec(19, 40.0, 16.0, 8.0),
        )
    ),
}
FORD = load_scenario("ford-at-dawn")
_FORD_ROSTER = scenario_roster(FORD)
# A scenario's kit: its bases, and terrain tags at 20, 25 and 30 mm as the scenario gives them.
SPECS["a4-ford-at-dawn"] = KitSpec(
    bases=_FORD_ROSTER.bases,
    terrain_tag_mm=_FORD_ROSTER.terrain_tag_mm,
    roster_title=_FORD_ROSTER.title,
    roster=_FORD_ROSTER.lines,
)


@cache
def rendered(name: str) -> tuple[list[KitPage], list[npt.NDArray[np.uint8]]]:
    data, pages = build_kit_pdf(SPECS[name])
    doc = pdfium.PdfDocument(data)
    images = []
    for k in range(len(doc)):
        image = doc[k].render(scale=DPI / 72.0, grayscale=True).to_numpy()
        images.append(image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    doc.close()
    return pages, images


def _side_mm(corners: npt.NDArray[np.float64]) -> float:
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    return float(sides.mean()) / PX_PER_MM


@pytest.mark.parametrize("name", sorted(SPECS))
def test_pages_have_the_papers_size(name: str) -> None:
    pages, images = rendered(name)
    paper = SPECS[name].paper
    assert len(images) == len(pages) >= 4
    for image in images:
        h, w = image.shape
        assert abs(w / PX_PER_MM - paper.width_mm) < 0.5
        assert abs(h / PX_PER_MM - paper.height_mm) < 0.5


@pytest.mark.parametrize("name", sorted(SPECS))
def test_every_tag_found_at_its_id_place_and_size(name: str) -> None:
    pages, images = rendered(name)
    detector = Detector(KIT_DICTIONARY)
    declared_all: set[int] = set()
    for page, image in zip(pages, images, strict=True):
        declared = {t.tag_id: t for t in page.tags if t.dictionary == KIT_DICTIONARY}
        declared_all |= set(declared)
        found = detector.detect(image)
        ids = [int(s.tag_id) for s in found]
        assert sorted(ids) == sorted(declared), f"page {page.title!r}: found {sorted(ids)}"
        for s in found:
            tag = declared[int(s.tag_id)]
            corners = np.array(s.corners_px, dtype=np.float64)
            centre = corners.mean(axis=0) / PX_PER_MM
            assert np.hypot(*(centre - np.array(tag.centre_mm))) < TOL_MM, tag
            assert abs(_side_mm(corners) - tag.side_mm) < TOL_MM, (tag, _side_mm(corners))
            # Printed "up" is the page's up: the marker's first corner is its top-left.
            assert corners[0][1] < corners[3][1] and corners[0][0] < corners[1][0]
    pieces = {b.tag_id for b in SPECS[name].base_tags()}
    expected = set(CORNER_IDS) | set(BUTTON_IDS.values()) | set(TERRAIN_IDS) | pieces
    assert declared_all == expected


def test_requested_sizes_are_the_printed_sizes() -> None:
    pages, _ = rendered("a4-default")
    corners = [t for p in pages for t in p.tags if t.role == "corner"]
    assert {t.side_mm for t in corners} == {CORNER_TAG_MM}
    pieces = [c for p in pages for c in p.cells]
    assert {c.tag.side_mm for c in pieces} == {10.0}
    assert {c.offset_mm for c in pieces} == {5.0}
    pages_big, _ = rendered("letter-big-bases")
    big = [c for p in pages_big for c in p.cells]
    assert {c.tag.side_mm for c in big} == {14.0}
    assert {c.base_mm for c in big} == {32.0}
    # The tag sits forward on the base: centre ahead (page up) of the cell centre.
    for cell in big:
        ahead = cell.y_mm + cell.base_mm / 2 - cell.tag.centre_mm[1]
        assert ahead == pytest.approx(base_tag_offset_mm(32.0, 14.0)) and ahead > 0
    # Mixed bases: each tag at its own place relative to its base's centre, on a common grid.
    pages_mixed, _ = rendered("a4-mixed-bases")
    mixed = {c.tag.tag_id: c for p in pages_mixed for c in p.cells}
    for b in SPECS["a4-mixed-bases"].bases:
        cell = mixed[b.tag_id]
        centre = (cell.x_mm + cell.side_mm / 2, cell.y_mm + cell.side_mm / 2)
        assert cell.side_mm == 40.0 and cell.base_mm == b.base_mm
        assert cell.tag.centre_mm[0] - centre[0] == pytest.approx(b.right_mm)
        assert centre[1] - cell.tag.centre_mm[1] == pytest.approx(b.offset_mm())
        assert cell.tag.side_mm == b.tag_mm


def _tick_centres_px(image: npt.NDArray[np.uint8], ruler: Ruler) -> npt.NDArray[np.float64]:
    """Centres (x, px) of the long ticks: the only marks reaching 4.8-5.7 mm under the line."""
    y0 = round((ruler.y_mm + 4.8) * PX_PER_MM)
    y1 = round((ruler.y_mm + 5.7) * PX_PER_MM)
    x0 = round((ruler.x_mm - 3) * PX_PER_MM)
    x1 = round((ruler.x_mm + ruler.length_mm + 3) * PX_PER_MM)
    darkness = (255.0 - image[y0:y1, x0:x1].astype(np.float64)).mean(axis=0)
    dark = darkness > 40
    centres = []
    start = None
    for x, d in enumerate(np.append(dark, False)):
        if d and start is None:
            start = x
        elif not d and start is not None:
            xs = np.arange(start, x)
            centres.append(x0 + float((xs * darkness[start:x]).sum() / darkness[start:x].sum()))
            start = None
    return np.array(centres)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_both_rulers_on_every_page_measure_true(name: str) -> None:
    pages, images = rendered(name)
    for page, image in zip(pages, images, strict=True):
        units = sorted(r.unit for r in page.rulers)
        assert units == ["in", "mm"]
        for ruler in page.rulers:
            ticks = _tick_centres_px(image, ruler) / PX_PER_MM
            n_major = round(ruler.length_mm / ruler.major_step_mm)
            assert len(ticks) == n_major + 1, (page.title, ruler.unit, ticks)
            assert abs(ticks[0] - ruler.x_mm) < TOL_MM
            assert abs((ticks[-1] - ticks[0]) - ruler.length_mm) < TOL_MM
            assert np.all(np.abs(np.diff(ticks) - ruler.major_step_mm) < TOL_MM)
    assert pages[0].rulers[0].length_mm == 100.0
    assert pages[0].rulers[1].length_mm == pytest.approx(101.6)


def test_charuco_board_reads_as_the_lens_board() -> None:
    pages, images = rendered("a4-default")
    (k,) = [i for i, p in enumerate(pages) if p.kind == "charuco"]
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, CHARUCO_DICTIONARY))
    board = cv2.aruco.CharucoBoard(CHARUCO_SQUARES, CHARUCO_SQUARE_MM, CHARUCO_MARKER_MM, d)
    small = cv2.resize(images[k], None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    corners, ids, _mc, marker_ids = cv2.aruco.CharucoDetector(board).detectBoard(small)
    cols, rows = CHARUCO_SQUARES
    assert marker_ids is not None and sorted(marker_ids.ravel()) == list(range(len(board.getIds())))
    assert ids is not None and len(ids) == (cols - 1) * (rows - 1)
    # Corner spacing on paper = the declared square side (150 dpi here: 0.2 mm = 1.2 px).
    obj, img = board.matchImagePoints(corners, ids)
    h, _ = cv2.findHomography(obj.reshape(-1, 3)[:, :2], img.reshape(-1, 2))
    scale_px_per_mm = np.sqrt(abs(np.linalg.det(h[:2, :2])))
    assert abs(scale_px_per_mm / (PX_PER_MM / 4) - 1) < TOL_MM / (cols * CHARUCO_SQUARE_MM)
    # No table tag is read on the lens board page.
    assert Detector(KIT_DICTIONARY).detect(images[k]) == []


def test_terrain_tags_are_printed_at_the_scenarios_sizes() -> None:
    """Measured on the 600 dpi page, each terrain tag's side is the one the scenario (and its
    tag list) gives, not the kit's default."""
    pages, images = rendered("a4-ford-at-dawn")
    wanted = {t.id: t.size_mm for piece in FORD.terrain for t in piece.tags}
    assert len(set(wanted.values())) > 1  # the scenario mixes sizes
    (k,) = [i for i, p in enumerate(pages) if p.kind == "buttons_terrain"]
    found = {int(s.tag_id): s for s in Detector(KIT_DICTIONARY).detect(images[k])}
    for tag_id, size_mm in wanted.items():
        side = _side_mm(np.array(found[tag_id].corners_px, dtype=np.float64))
        assert abs(side - size_mm) < TOL_MM, (tag_id, side, size_mm)
    listing = [t.text for p in pages if p.kind == "roster" for t in p.texts]
    for tag_id, size_mm in wanted.items():
        (line,) = [x for x in listing if x.strip().startswith(f"tag {tag_id:>3} ")]
        assert f": {size_mm:g} mm tag," in line and "this kit prints" not in line

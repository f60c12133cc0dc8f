"""The dice tray: named by two corner tags, found through the table profile, kept in the
profile (version 2, and version-1 files still load), and its printed sheet in the kit."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from assistant.cli import main
from calibration.errors import CalibrationError
from calibration.kit import render_pdf_pages_png
from calibration.kit_layout import PAPERS
from calibration.kit_tray import TAG_MARGIN_MM, tray_page_pdf, tray_sheet
from calibration.profile import PROFILE_VERSION, load_profile, save_profile
from calibration.table import MM_PER_IN
from calibration.tray import TRAY_TAG_IDS, TrayRegion, tray_from_tags
from tests.dice.test_dice_live import profile as table_profile
from tests.dice.test_dice_live import tray_image
from vision.detector import Detector
from vision.render.dice import tray_beside_table


def _tag(x: float, y: float, side: float, turn_deg: float = 0.0) -> np.ndarray:
    """A tag's corners (inches, OpenCV order) centred at (x, y), its up turned clockwise."""
    a = math.radians(turn_deg)
    up = np.array([math.sin(a), math.cos(a)])
    right = np.array([math.cos(a), -math.sin(a)])
    h = side / 2
    c = np.array([x, y])
    return np.array(
        [c + h * (sr * right + su * up) for sr, su in ((-1, 1), (1, 1), (1, -1), (-1, -1))]
    )


def test_two_corner_tags_name_a_rectangle() -> None:
    s = 20.0 / MM_PER_IN
    a = _tag(30.0 - s / 2, 5.0 - s / 2, s)
    b = _tag(38.0 + s / 2, 11.0 + s / 2, s)
    tray = tray_from_tags(a, b)
    assert np.allclose(tray.corners_in, [(30, 5), (38, 5), (38, 11), (30, 11)], atol=1e-9)
    assert tray.width_mm == pytest.approx(8 * MM_PER_IN)
    assert tray.depth_mm == pytest.approx(6 * MM_PER_IN)


def test_a_turned_tray_keeps_its_shape() -> None:
    s = 0.8
    turn = 30.0
    tray0 = TrayRegion(((0.0, 0.0), (8.0, 0.0), (8.0, 6.0), (0.0, 6.0)))
    r, up = (
        np.array([math.cos(math.radians(turn)), -math.sin(math.radians(turn))]),
        np.array([math.sin(math.radians(turn)), math.cos(math.radians(turn))]),
    )
    near = -(s / 2) * (r + up)
    far = 8 * r + 6 * up + (s / 2) * (r + up)
    tray = tray_from_tags(_tag(*near, s, turn), _tag(*far, s, turn))
    assert tray.width_mm == pytest.approx(tray0.width_mm)
    assert tray.depth_mm == pytest.approx(tray0.depth_mm)


@pytest.mark.parametrize(
    ("b", "says"),
    [
        ((5.0, 5.0, 0.8, 40.0), "turned 40 degrees"),
        ((-5.0, -5.0, 0.8, 0.0), "near-left corner"),
    ],
)
def test_tags_that_name_no_tray_are_refused(b: tuple[float, ...], says: str) -> None:
    with pytest.raises(CalibrationError, match=says):
        tray_from_tags(_tag(0.0, 0.0, 0.8), _tag(*b[:3], b[3]))


def test_the_tray_is_found_off_the_play_area_and_kept_in_the_profile(tmp_path: Path) -> None:
    prof = table_profile()
    assert prof.tray is not None
    truth = tray_beside_table()
    found = np.array(prof.tray.corners_in) * MM_PER_IN
    # the mapping is extrapolated off the play area with an uncalibrated lens: a few mm out
    assert np.abs(found - np.array(truth.corners_mm())).max() < 12.0
    path = tmp_path / "p.json"
    save_profile(prof, path)
    data = json.loads(path.read_text())
    assert data["version"] == PROFILE_VERSION >= 2 and data["tray"]["tag_ids"] == [48, 49]
    again = load_profile(path)
    assert again.tray == prof.tray
    # a version-1 file (before trays) loads with no tray
    data["version"] = 1
    del data["tray"]
    path.write_text(json.dumps(data))
    assert load_profile(path).tray is None
    data["version"] = 2
    data["tray"] = {"corners_in": [[0, 0]]}
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match=f"profile {path}: tray"):
        load_profile(path)


def test_a_base_tag_with_a_tray_id_on_the_table_is_no_tray() -> None:
    """The tray's tags are the kit's last two piece ids: on the play area they are pieces."""
    prof = table_profile()
    sightings = [(int(s.tag_id), s.corners_px) for s in Detector().detect(tray_image(()))]
    corner0 = next(c for i, c in sightings if i == 0)
    inside = [(48, tuple((x + 300.0, y - 300.0) for x, y in corner0))]
    from calibration.tray import locate_tray

    tray = locate_tray(sightings + inside, prof.mapping(), prof.width_in, prof.depth_in)
    assert tray == prof.tray
    with pytest.raises(CalibrationError, match="tag 49"):
        locate_tray(
            [(i, c) for i, c in sightings if i != 49], prof.mapping(), prof.width_in, prof.depth_in
        )


def test_the_printed_tray_sheet_names_its_mat(tmp_path: Path) -> None:
    paper = PAPERS["a4"]
    pdf = tmp_path / "tray.pdf"
    pdf.write_bytes(tray_page_pdf(paper, "dark"))
    dpi = 200.0
    (page,) = render_pdf_pages_png(pdf, tmp_path / "png", dpi)
    image = cv2.imread(str(page))
    px_per_mm = dpi / MM_PER_IN
    found = {int(s.tag_id): np.array(s.corners_px) for s in Detector().detect(image)}
    assert set(TRAY_TAG_IDS) <= set(found)

    def on_table(px: np.ndarray) -> np.ndarray:  # page pixels (y down) -> inches (y up)
        mm = px / px_per_mm
        return np.stack([mm[:, 0], -mm[:, 1]], axis=1) / MM_PER_IN

    tray = tray_from_tags(on_table(found[48]), on_table(found[49]))
    sheet = tray_sheet(paper)
    assert tray.width_mm == pytest.approx(sheet.area[2], abs=1.0)
    assert tray.depth_mm == pytest.approx(sheet.area[3], abs=1.0)
    # the mat is dark inside the white rim the tags need
    x, y, w, h = (v * px_per_mm for v in sheet.area)
    m = TAG_MARGIN_MM * px_per_mm
    inner = image[int(y + 2 * m) : int(y + h - 2 * m), int(x + 2 * m) : int(x + w - 2 * m)]
    assert float(inner.mean()) < 80


def test_markers_adds_the_tray_sheet(tmp_path: Path) -> None:
    out = tmp_path / "kit.pdf"
    assert main(["markers", "--out", str(out), "--pieces", "2", "--tray", "light"]) == 0
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(out))
    try:
        assert len(doc) == 5
        w, h = doc.get_page_size(4)
        assert w > h  # the tray sheet is landscape
    finally:
        doc.close()


def test_calibrate_keeps_the_tray_in_view(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    picture = tmp_path / "table.png"
    cv2.imwrite(str(picture), tray_image(()))
    saved = tmp_path / "profile.json"
    args = ["calibrate", "--source", str(picture), "--save", str(saved), "--tag-mm", "16"]
    assert main(args) == 0
    assert "dice tray: 19" in capsys.readouterr().out  # about 200 x 150 mm
    tray = load_profile(saved).tray
    assert tray is not None and tray.tag_ids == TRAY_TAG_IDS

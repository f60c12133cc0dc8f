"""The dice tray sheet of the printable kit: a mat to roll dice onto, named by two small tags.

One landscape page: the rolling area (a dark mat inside a thin white rim, or light paper with a
thin frame), tag
``TRAY_TAG_IDS[0]`` just outside its near-left corner and tag ``TRAY_TAG_IDS[1]`` just outside
its far-right corner, each with its inner corner touching the area's corner (the layout
:mod:`calibration.tray` reads), and a ruler to check the print. ``soloscope markers --tray dark``
appends it to the kit. Sizes are millimetres on the page.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from fpdf import FPDF

from calibration.errors import CalibrationError
from calibration.kit import _draw_marker, _draw_ruler, _text
from calibration.kit_ids import KIT_DICTIONARY
from calibration.kit_layout import PAGE_MARGIN_MM, Paper, PlacedTag, Ruler
from calibration.safe_files import atomic_path
from calibration.tray import TRAY_TAG_IDS, TRAY_TAG_MM

TRAY_SHADES: dict[str, int | None] = {"dark": 48, "light": None}
"""The mat's grey level (0 black - 255 white) by name; None: plain paper with a frame."""
TAG_MARGIN_MM = 3.0
"""White paper kept around each tray tag."""
HEADER_MM = 22.0
RULER_STRIP_MM = 16.0


@dataclass(frozen=True)
class TraySheet:
    """Where things are on the tray page (landscape), millimetres from its top-left corner."""

    page_mm: tuple[float, float]
    """(width, height) of the landscape page."""
    area: tuple[float, float, float, float]
    """(x, y, w, h) of the rolling area."""
    tags: tuple[PlacedTag, PlacedTag]
    """The near-left tag (below-left of the area) and the far-right tag (above-right)."""
    ruler: Ruler


def tray_sheet(paper: Paper, tag_mm: float = TRAY_TAG_MM) -> TraySheet:
    """The tray page's layout on ``paper`` turned landscape."""
    page_w, page_h = max(paper.width_mm, paper.height_mm), min(paper.width_mm, paper.height_mm)
    reach = tag_mm + 2 * TAG_MARGIN_MM
    left = PAGE_MARGIN_MM + reach
    right = page_w - PAGE_MARGIN_MM - reach
    top = PAGE_MARGIN_MM + HEADER_MM + reach
    bottom = page_h - PAGE_MARGIN_MM - RULER_STRIP_MM - reach
    if right - left < 60.0 or bottom - top < 60.0:
        raise CalibrationError(f"{paper.name} paper is too small for a dice tray sheet")
    near_left = PlacedTag(
        TRAY_TAG_IDS[0],
        KIT_DICTIONARY,
        left - tag_mm,
        bottom,
        tag_mm,
        "tray",
        "tray near-left",
    )
    far_right = PlacedTag(
        TRAY_TAG_IDS[1],
        KIT_DICTIONARY,
        right,
        top - tag_mm,
        tag_mm,
        "tray",
        "tray far-right",
    )
    ruler = Ruler(
        PAGE_MARGIN_MM + reach + 40.0, page_h - PAGE_MARGIN_MM - RULER_STRIP_MM + 5.0, 100.0, "mm"
    )
    return TraySheet(
        page_mm=(page_w, page_h),
        area=(left, top, right - left, bottom - top),
        tags=(near_left, far_right),
        ruler=ruler,
    )


def tray_page_pdf(paper: Paper, shade: str = "dark") -> bytes:
    """The tray sheet as a one-page PDF at true scale."""
    if shade not in TRAY_SHADES:
        raise CalibrationError(f"tray shade must be one of {sorted(TRAY_SHADES)}, not {shade!r}")
    sheet = tray_sheet(paper)
    pdf = FPDF(orientation="L", unit="mm", format=(paper.width_mm, paper.height_mm))
    pdf.set_auto_page_break(False)
    pdf.set_margins(PAGE_MARGIN_MM, PAGE_MARGIN_MM)
    pdf.add_page()
    pdf.set_text_color(0)
    _text(pdf, PAGE_MARGIN_MM, PAGE_MARGIN_MM + 6.0, "Dice tray sheet", 14.0, True)
    _text(
        pdf,
        PAGE_MARGIN_MM,
        PAGE_MARGIN_MM + 12.0,
        "soloscope kit. Print at 100 % (actual size), matte paper. Lay it beside the play "
        "area, in the camera's view, tags on the near-left and far-right corners.",
        8.0,
    )
    _text(
        pdf,
        PAGE_MARGIN_MM,
        PAGE_MARGIN_MM + 16.5,
        f"Tags {TRAY_TAG_IDS[0]} and {TRAY_TAG_IDS[1]} name the tray; keep dice off them. "
        "A box or tray laid on the mat keeps dice in; the camera reads the mat inside the tags.",
        8.0,
    )
    x, y, w, h = sheet.area
    # the mat stops short of the area's edge: the tags' inner corners need white around them
    m = TAG_MARGIN_MM
    grey = TRAY_SHADES[shade]
    if grey is None:
        pdf.set_draw_color(150)
        pdf.set_line_width(0.4)
        pdf.rect(x + m, y + m, w - 2 * m, h - 2 * m)
    else:
        pdf.set_fill_color(grey)
        pdf.rect(x + m, y + m, w - 2 * m, h - 2 * m, "F")
    for tag in sheet.tags:
        _draw_marker(pdf, tag)
        _text(pdf, tag.x_mm, tag.y_mm + tag.side_mm + 4.0 + TAG_MARGIN_MM, str(tag.tag_id), 7.0)
    _draw_ruler(pdf, sheet.ruler)
    return bytes(pdf.output())


def append_tray_page(pdf_path: Path, paper: Paper, shade: str = "dark") -> None:
    """Add the tray sheet as the last page of the kit PDF at ``pdf_path`` (in place)."""
    try:
        import pypdfium2 as pdfium
    except ImportError:
        raise CalibrationError(
            "adding the tray sheet needs pypdfium2: pip install 'pypdfium2>=4.30,<6'"
        ) from None
    page = pdfium.PdfDocument(tray_page_pdf(paper, shade))
    kit = pdfium.PdfDocument(str(pdf_path))
    try:
        kit.import_pages(page)
        with atomic_path(pdf_path) as tmp:
            kit.save(str(tmp))
            kit.close()
    except OSError as exc:
        raise CalibrationError(f"cannot add the tray sheet to {pdf_path}: {exc}") from None
    finally:
        page.close()

"""The printable kit: draws ``calibration.kit_layout`` pages into a true-scale PDF with fpdf2.

Every marker is drawn as vector rectangles, cell by cell from the dictionary's bits, so it is
crisp at any printer resolution. All sizes are millimetres on the page.
"""

from __future__ import annotations

from pathlib import Path

import cv2
from fpdf import FPDF

from calibration.errors import CalibrationError
from calibration.kit_ids import BASE_TAG_MARGIN_MM
from calibration.kit_layout import (
    MM_PER_INCH,
    PAGE_MARGIN_MM,
    BaseCell,
    CharucoPlacement,
    KitPage,
    KitSpec,
    PlacedTag,
    Ruler,
    kit_pages,
    marker_cells,
)
from calibration.safe_files import atomic_path, write_atomic

_SEAM_MM = 0.03
"""Overlap drawn across the boundary of two touching black cells, so that anti-aliased
renderers show no grey hairline between them."""
_CUT_GREY = 170
_LIGHT_GREY = 205


def _draw_marker(pdf: FPDF, tag: PlacedTag) -> None:
    cells = marker_cells(tag.dictionary, tag.tag_id)
    n = cells.shape[0]
    step = tag.side_mm / n
    pdf.set_fill_color(0)
    for r in range(n):
        c = 0
        while c < n:
            if not cells[r, c]:
                c += 1
                continue
            start = c
            while c < n and cells[r, c]:
                c += 1
            pdf.rect(tag.x_mm + start * step, tag.y_mm + r * step, (c - start) * step, step, "F")
    for r in range(n - 1):
        for c in range(n):
            if cells[r, c] and cells[r + 1, c]:
                y = tag.y_mm + (r + 1) * step - _SEAM_MM
                pdf.rect(tag.x_mm + c * step, y, step, 2 * _SEAM_MM, "F")


def _text(pdf: FPDF, x: float, y: float, text: str, size_pt: float, bold: bool = False) -> None:
    pdf.set_font("Helvetica", "B" if bold else "", size_pt)
    # The PDF core fonts hold Latin-1 only: other characters print as "?".
    pdf.text(x, y, text.encode("latin-1", "replace").decode("latin-1"))


def _arrow_up(pdf: FPDF, x: float, y_tail: float, y_head: float, width: float) -> None:
    """A filled arrow pointing to the top of the page, centred on x, millimetres."""
    head = width * 1.2
    pdf.set_fill_color(0)
    pdf.rect(x - width * 0.18, y_head + head * 0.9, width * 0.36, y_tail - y_head - head * 0.9, "F")
    pdf.polygon(
        [(x, y_head), (x - width / 2, y_head + head), (x + width / 2, y_head + head)], style="F"
    )


def _draw_ruler(pdf: FPDF, ruler: Ruler) -> None:
    pdf.set_draw_color(0)
    pdf.set_line_width(0.2)
    pdf.line(ruler.x_mm, ruler.y_mm, ruler.x_mm + ruler.length_mm, ruler.y_mm)
    ticks = round(ruler.length_mm / ruler.minor_step_mm)
    per_major = round(ruler.major_step_mm / ruler.minor_step_mm)
    for k in range(ticks + 1):
        x = ruler.x_mm + k * ruler.minor_step_mm
        if k % per_major == 0:
            length = 6.0
        elif k % (per_major // 2) == 0:
            length = 4.5
        else:
            length = 3.0 if ruler.unit == "mm" or k % 2 == 0 else 2.0
        pdf.line(x, ruler.y_mm, x, ruler.y_mm + length)
        if k % per_major == 0:
            label = str(k // per_major * (10 if ruler.unit == "mm" else 1))
            pdf.set_font("Helvetica", "", 6)
            pdf.text(x - pdf.get_string_width(label) / 2, ruler.y_mm - 1.0, label)
    caption = (
        "100 mm: check with a real ruler"
        if ruler.unit == "mm"
        else "4 inches: check with a real ruler"
    )
    _text(pdf, ruler.x_mm + ruler.length_mm + 5.0, ruler.y_mm + 4.0, caption, 7.0)


def _draw_base_cell(pdf: FPDF, cell: BaseCell) -> None:
    side = cell.side_mm
    pdf.set_line_width(0.1)
    pdf.set_draw_color(_CUT_GREY)
    pdf.rect(cell.x_mm, cell.y_mm, side, side)
    pdf.set_draw_color(_LIGHT_GREY)
    cx, cy = cell.x_mm + side / 2, cell.y_mm + side / 2
    r = cell.base_mm / 2
    pdf.ellipse(cx - r + 0.5, cy - r + 0.5, 2 * r - 1.0, 2 * r - 1.0)
    tag = cell.tag
    margin = BASE_TAG_MARGIN_MM
    pdf.rect(
        tag.x_mm - margin, tag.y_mm - margin, tag.side_mm + 2 * margin, tag.side_mm + 2 * margin
    )
    _draw_marker(pdf, tag)
    # The id and the front arrow go on the free side of the base: behind a forward tag, ahead
    # of a rear one.
    size_pt = max(5.0, min(10.0, cell.base_mm * 0.28))
    text_h = size_pt * 0.3528 * 0.72
    if cell.offset_mm >= 0:
        top = tag.y_mm + tag.side_mm + margin + 0.8
        bottom = cy + r * 0.88
    else:
        top = cy - r * 0.88
        bottom = tag.y_mm - margin - 0.8
    if bottom - top < text_h + 0.5:  # no room on the base: use the cell's corner
        top, bottom = cell.y_mm + side - text_h - 1.5, cell.y_mm + side - 0.5
    pdf.set_font("Helvetica", "B", size_pt)
    label = str(tag.tag_id)
    label_y = min(bottom, top + text_h + 0.5)
    pdf.text(cx - r * 0.16 - pdf.get_string_width(label), label_y, label)
    _arrow_up(pdf, cx + r * 0.24, label_y, top, max(1.6, r * 0.18))
    name_y = label_y + 2.4
    if cell.name and name_y < bottom + 0.5:
        _fit_text(pdf, cell.name, cx, name_y, 1.6 * r * 0.8, 5.0)


def _fit_text(
    pdf: FPDF, text: str, centre_x: float, y: float, width: float, size_pt: float
) -> None:
    """Text centred on ``centre_x``, cut short with "." to fit ``width`` millimetres."""
    pdf.set_font("Helvetica", "", size_pt)
    text = text.encode("latin-1", "replace").decode("latin-1")
    while text and pdf.get_string_width(text) > width:
        text = text[:-2] + "."
    pdf.text(centre_x - pdf.get_string_width(text) / 2, y, text)


def _draw_corner_diagram(pdf: FPDF, box: tuple[float, float, float, float]) -> None:
    x, y, w, _h = box
    tx, ty, tw, th = x + 18.0, y + 8.0, w - 36.0, 36.0
    pdf.set_line_width(0.3)
    pdf.set_draw_color(0)
    pdf.set_fill_color(235)
    pdf.rect(tx, ty, tw, th, "DF")
    _text(pdf, tx + tw / 2 - 8.0, ty + th / 2 + 1.0, "play area", 8.0)
    tag = 5.0
    spots = {
        0: (tx - tag, ty + th, "0 left front"),
        1: (tx + tw, ty + th, "1 right front"),
        2: (tx + tw, ty - tag, "2 far right"),
        3: (tx - tag, ty - tag, "3 far left"),
    }
    for tag_id, (sx, sy, label) in spots.items():
        pdf.set_fill_color(0)
        pdf.rect(sx, sy, tag, tag, "F")
        pdf.set_text_color(255)
        _text(pdf, sx + 1.4, sy + 3.8, str(tag_id), 8.0, True)
        pdf.set_text_color(0)
        lx = sx - 17.0 if tag_id in (0, 3) else sx + tag + 1.0
        ly = sy + 3.8
        _text(pdf, lx, ly, label.split(" ", 1)[1], 7.0)
    _arrow_up(pdf, tx + tw - 8.0, ty + th - 4.0, ty + 4.0, 3.0)
    _text(pdf, tx + tw - 24.0, ty + th - 5.0, "tags' top", 6.0)
    pdf.set_fill_color(200)
    pdf.ellipse(tx + tw / 2 - 9.0, ty + th + 6.0, 18.0, 8.0, "F")
    _text(pdf, tx + tw / 2 + 11.0, ty + th + 11.0, "you (the player's seat)", 7.0)
    _text(
        pdf,
        x - 20.0,
        y + 66.0,
        "Tags lie just outside the play area; each tag's inner corner touches the play "
        "area's corner.",
        7.0,
    )


def _draw_charuco(pdf: FPDF, board: CharucoPlacement) -> None:
    pdf.set_fill_color(0)
    s = board.square_mm
    for c, r in board.black_squares:
        pdf.rect(board.x_mm + c * s, board.y_mm + r * s, s, s, "F")


def _draw_page(pdf: FPDF, page: KitPage, number: int, total: int) -> None:
    pdf.add_page()
    pdf.set_text_color(0)
    _text(pdf, PAGE_MARGIN_MM, PAGE_MARGIN_MM + 6.0, page.title, 14.0, True)
    _text(
        pdf,
        PAGE_MARGIN_MM,
        PAGE_MARGIN_MM + 12.0,
        f"soloscope kit, page {number} of {total}. Print at 100 % (actual size, no 'fit to "
        "page'), matte paper; check both rulers below.",
        8.0,
    )
    for t in page.texts:
        _text(pdf, t.x_mm, t.y_mm, t.text, t.size_pt, t.bold)
    pdf.set_line_width(0.1)
    pdf.set_draw_color(_CUT_GREY)
    for x, y, w, h in page.cut_boxes:
        pdf.rect(x, y, w, h)
    if page.diagram_box is not None:
        _draw_corner_diagram(pdf, page.diagram_box)
    for cell in page.cells:
        _draw_base_cell(pdf, cell)
    if page.charuco is not None:
        _draw_charuco(pdf, page.charuco)
    drawn = {id(cell.tag) for cell in page.cells}
    for tag in page.tags:
        if id(tag) not in drawn:
            _draw_marker(pdf, tag)
    for ruler in page.rulers:
        _draw_ruler(pdf, ruler)


def build_kit_pdf(spec: KitSpec) -> tuple[bytes, list[KitPage]]:
    """The kit as PDF bytes at true scale, with the pages' layout (what is printed where)."""
    pages = kit_pages(spec)
    pdf = FPDF(orientation="P", unit="mm", format=(spec.paper.width_mm, spec.paper.height_mm))
    pdf.set_auto_page_break(False)
    pdf.set_margins(PAGE_MARGIN_MM, PAGE_MARGIN_MM)
    pdf.set_title("soloscope printable kit")
    pdf.set_creator("soloscope markers")
    for number, page in enumerate(pages, start=1):
        _draw_page(pdf, page, number, len(pages))
    return bytes(pdf.output()), pages


def write_kit_pdf(spec: KitSpec, out_path: Path) -> list[KitPage]:
    """Write the kit PDF to ``out_path``; returns the pages' layout. Raises CalibrationError if
    the file cannot be written."""
    data, pages = build_kit_pdf(spec)
    try:
        write_atomic(out_path, data)
    except OSError as exc:
        raise CalibrationError(f"cannot write the kit to {out_path}: {exc.strerror}") from None
    return pages


def render_pdf_pages_png(pdf_path: Path, out_dir: Path, dpi: float = 600.0) -> list[Path]:
    """Render each page of a PDF to ``out_dir/page_NN.png`` at ``dpi`` dots per inch (grey).

    Needs pypdfium2 (the PDF renderer of the test extras)."""
    try:
        import pypdfium2 as pdfium  # optional: only --png needs it
    except ImportError:
        raise CalibrationError(
            "writing PNG pages needs pypdfium2: pip install 'pypdfium2>=4.30,<6'"
        ) from None

    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CalibrationError(f"cannot create {out_dir}: {exc.strerror}") from None
    written = []
    doc = pdfium.PdfDocument(str(pdf_path))
    try:
        for k in range(len(doc)):
            bitmap = doc[k].render(scale=dpi / 72.0, grayscale=True)
            image = bitmap.to_numpy()
            if image.ndim == 3:
                image = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
            path = out_dir / f"page_{k + 1:02d}.png"
            with atomic_path(path) as tmp:
                if not cv2.imwrite(str(tmp), image, [cv2.IMWRITE_PNG_COMPRESSION, 6]):
                    raise CalibrationError(f"cannot write {path}")
            written.append(path)
    finally:
        doc.close()
    return written


__all__ = [
    "MM_PER_INCH",
    "KitSpec",
    "build_kit_pdf",
    "render_pdf_pages_png",
    "write_kit_pdf",
]

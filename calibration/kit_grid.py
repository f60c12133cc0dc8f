"""The printed grid board of the kit: a square-grid game's board at true scale, tiled over pages.

The board is laid out on one large *canvas* (millimetres from its top-left corner, x right, y
down, the far edge of the table at the top): the grid of ``cols`` x ``rows`` squares, column
letters above and below it, row numbers left and right of it (row 1 at the far edge, as the
scenario files name cells: "C4" = third column, fourth row), wall squares shaded, marked squares
(a monster's possible start squares) labelled, and the four corner tags just outside the grid's
corners, each with its inner corner touching the grid's corner (the layout
:mod:`calibration.table` reads: the play area *is* the grid). The canvas is then cut into tiles
of the paper's printable area that overlap by :data:`OVERLAP_MM`; every tile shows the
crosshair alignment marks of its overlaps and a dashed trim line, so the pages can be trimmed,
laid over each other crosshair on crosshair and taped into one board. Every page carries a
compass (north = the far edge, row 1), since grid games name facings by the compass.

Nothing here knows a rule system: the caller says which squares are walls and which are marked.
Sizes are millimetres on paper; cells are (column, row) with row 0 at the far edge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from fpdf import FPDF

from calibration.errors import CalibrationError
from calibration.kit import _draw_marker, _draw_ruler, _text
from calibration.kit_ids import CORNER_IDS, CORNER_TAG_MM, KIT_DICTIONARY
from calibration.kit_layout import MM_PER_INCH, PAGE_MARGIN_MM, Paper, PlacedTag, Ruler
from calibration.safe_files import atomic_path

Cell = tuple[int, int]

OVERLAP_MM = 14.0
"""How much neighbouring tiles share, millimetres (the alignment marks sit in the middle)."""
TAG_WHITE_MM = 5.0
"""White paper kept around each corner tag, millimetres."""
HEADER_MM = 16.0
"""Height kept at the top of each board page for its title and instructions."""
FOOTER_MM = 16.0
"""Height kept at the bottom of each board page for the inch ruler."""
WALL_GREY = 165
"""Grey level (0 black - 255 white) of a wall square: clearly shaded, never dark enough to read
as a tag's black cell."""
MARK_RADIUS = 0.36
"""Radius of a marked square's dashed circle, as a fraction of the square's side."""


@dataclass(frozen=True)
class CellMark:
    """A labelled square on the board ("Dragon 1-2": a d6 of 1 or 2 puts the dragon here)."""

    cell: Cell
    text: str
    circled: bool = False
    """Draw a dashed circle in the square (a possible start square)."""


@dataclass(frozen=True)
class GridBoardSpec:
    """What board to print: its squares, walls and marks."""

    cols: int
    rows: int
    cell_mm: float = MM_PER_INCH
    """Side of one square, millimetres (1 inch by default)."""
    walls: tuple[Cell, ...] = ()
    """Squares shaded as walls (obstacles)."""
    marks: tuple[CellMark, ...] = ()
    title: str = ""
    corner_tag_mm: float = CORNER_TAG_MM

    def __post_init__(self) -> None:
        if not (1 <= self.cols <= 26 and 1 <= self.rows <= 99):
            raise CalibrationError(
                f"a printed board has 1-26 columns and 1-99 rows, not {self.cols} x {self.rows}"
            )
        if not 5.0 <= self.cell_mm <= 120.0:
            raise CalibrationError(f"a board square is 5 to 120 mm wide, not {self.cell_mm:g} mm")
        for cell in (*self.walls, *(m.cell for m in self.marks)):
            if not (0 <= cell[0] < self.cols and 0 <= cell[1] < self.rows):
                raise CalibrationError(
                    f"square {cell} is not on the {self.cols} x {self.rows} board"
                )

    @property
    def width_mm(self) -> float:
        """Width of the grid (the play area), millimetres."""
        return self.cols * self.cell_mm

    @property
    def depth_mm(self) -> float:
        """Depth of the grid (the play area), millimetres."""
        return self.rows * self.cell_mm


def column_letter(col: int) -> str:
    """The letter of column ``col`` (0 = "A"), as cell names use it."""
    return chr(ord("A") + col)


@dataclass(frozen=True)
class BoardTile:
    """One page of the board: which window of the canvas it shows, and where."""

    index: int
    """Print order, from 0 (top-left tile first, row by row)."""
    row: int
    col: int
    window_mm: tuple[float, float, float, float]
    """(x, y, w, h) of the canvas shown on this page, canvas millimetres."""
    page_origin_mm: tuple[float, float]
    """Page position of the window's top-left corner, page millimetres."""

    def to_page(self, x: float, y: float) -> tuple[float, float]:
        """Page millimetres of canvas point (x, y)."""
        return (
            self.page_origin_mm[0] + x - self.window_mm[0],
            self.page_origin_mm[1] + y - self.window_mm[1],
        )

    def shows(self, x: float, y: float) -> bool:
        """Whether canvas point (x, y) is on this page."""
        wx, wy, ww, wh = self.window_mm
        return wx - 1e-9 <= x <= wx + ww + 1e-9 and wy - 1e-9 <= y <= wy + wh + 1e-9


@dataclass(frozen=True)
class BoardSheet:
    """The board laid out on its canvas and cut into tiles (all millimetres)."""

    spec: GridBoardSpec
    paper: Paper
    canvas_mm: tuple[float, float]
    grid_origin_mm: tuple[float, float]
    """Canvas position of the grid's far-left corner (column A, row 1)."""
    corner_tags: tuple[PlacedTag, ...]
    """Corner tags 0-3 in canvas millimetres (tag up = the far edge)."""
    tiles: tuple[BoardTile, ...]
    alignment_marks: tuple[tuple[float, float], ...]
    """Canvas points of the crosshairs, each in the overlap of two or four tiles."""
    trim_x: tuple[float, ...]
    """Canvas x of the middle of each vertical overlap: where a tile of the next column is
    trimmed before it is laid over the tile on its left."""
    trim_y: tuple[float, ...]
    """Canvas y of the middle of each horizontal overlap (a tile of the next row is trimmed
    there before it is laid over the tile above it)."""

    def cell_rect(self, cell: Cell) -> tuple[float, float, float, float]:
        """(x, y, w, h) of a square on the canvas, millimetres."""
        s = self.spec.cell_mm
        gx, gy = self.grid_origin_mm
        return (gx + cell[0] * s, gy + cell[1] * s, s, s)


def _spans(total: float, window: float) -> list[tuple[float, float]]:
    """Start and length of each tile along one axis: as few tiles as fit with the overlap,
    spread evenly."""
    if total <= window:
        return [(0.0, total)]
    n = math.ceil((total - OVERLAP_MM) / (window - OVERLAP_MM))
    step = (total - window) / (n - 1)
    return [(k * step, window) for k in range(n)]


def board_sheet(spec: GridBoardSpec, paper: Paper) -> BoardSheet:
    """Lay the board out on ``paper`` (portrait), tiled over as many pages as it needs."""
    band = spec.corner_tag_mm + TAG_WHITE_MM
    gx = gy = band
    canvas = (spec.width_mm + 2 * band, spec.depth_mm + 2 * band)
    t = spec.corner_tag_mm
    w, d = spec.width_mm, spec.depth_mm
    # Tag "up" = the far edge = the top of the page; each inner corner touches a grid corner.
    spots = {0: (gx - t, gy + d), 1: (gx + w, gy + d), 2: (gx + w, gy - t), 3: (gx - t, gy - t)}
    tags = tuple(
        PlacedTag(i, KIT_DICTIONARY, spots[i][0], spots[i][1], t, "corner", f"corner {i}")
        for i in CORNER_IDS
    )
    area_w = paper.width_mm - 2 * PAGE_MARGIN_MM
    area_h = paper.height_mm - 2 * PAGE_MARGIN_MM - HEADER_MM - FOOTER_MM
    if area_w < 2 * OVERLAP_MM + 20 or area_h < 2 * OVERLAP_MM + 20:
        raise CalibrationError(f"{paper.name} paper is too small to print the board on")
    xs, ys = _spans(canvas[0], area_w), _spans(canvas[1], area_h)
    origin = (PAGE_MARGIN_MM, PAGE_MARGIN_MM + HEADER_MM)
    tiles = tuple(
        BoardTile(r * len(xs) + c, r, c, (x0, y0, xw, yh), origin)
        for r, (y0, yh) in enumerate(ys)
        for c, (x0, xw) in enumerate(xs)
    )
    mid_x = [(xs[k + 1][0] + xs[k][0] + xs[k][1]) / 2 for k in range(len(xs) - 1)]
    mid_y = [(ys[k + 1][0] + ys[k][0] + ys[k][1]) / 2 for k in range(len(ys) - 1)]
    marks: list[tuple[float, float]] = []
    for x in mid_x:  # along each vertical overlap: near the top and bottom of every tile row
        for y0, yh in ys:
            marks += [(x, y0 + 0.2 * yh), (x, y0 + 0.8 * yh)]
    for y in mid_y:
        for x0, xw in xs:
            marks += [(x0 + 0.2 * xw, y), (x0 + 0.8 * xw, y)]
    marks += [(x, y) for x in mid_x for y in mid_y]
    kept: list[tuple[float, float]] = []
    for m in marks:  # crosshairs closer than 15 mm would read as one
        if all(math.dist(m, k) >= 15.0 for k in kept):
            kept.append(m)
    marks = kept
    return BoardSheet(
        spec, paper, canvas, (gx, gy), tags, tiles, tuple(marks), tuple(mid_x), tuple(mid_y)
    )


# ------------------------------------------------------------------------------ drawing
def _draw_board(pdf: FPDF, sheet: BoardSheet, tile: BoardTile) -> None:
    """Everything on the canvas, placed for ``tile`` (the caller clips to its window)."""
    spec = sheet.spec
    s = spec.cell_mm

    def at(x: float, y: float) -> tuple[float, float]:
        return tile.to_page(x, y)

    pdf.set_fill_color(WALL_GREY)
    for cell in spec.walls:
        x, y, w, h = sheet.cell_rect(cell)
        px, py = at(x, y)
        pdf.rect(px, py, w, h, "F")
    pdf.set_draw_color(0)
    gx, gy = sheet.grid_origin_mm
    for c in range(spec.cols + 1):
        pdf.set_line_width(0.5 if c in (0, spec.cols) else 0.25)
        x0, y0 = at(gx + c * s, gy)
        pdf.line(x0, y0, x0, y0 + spec.depth_mm)
    for r in range(spec.rows + 1):
        pdf.set_line_width(0.5 if r in (0, spec.rows) else 0.25)
        x0, y0 = at(gx, gy + r * s)
        pdf.line(x0, y0, x0 + spec.width_mm, y0)
    size = max(6.0, min(14.0, s * 0.4))
    pdf.set_font("Helvetica", "B", size)
    half_h = size * 0.3528 * 0.36
    for c in range(spec.cols):
        letter = column_letter(c)
        cx = gx + (c + 0.5) * s - pdf.get_string_width(letter) / 2
        for y in (gy - 2.0, gy + spec.depth_mm + 2.0 + 2 * half_h):
            px, py = at(cx, y)
            pdf.text(px, py, letter)
    for r in range(spec.rows):
        number = str(r + 1)
        cy = gy + (r + 0.5) * s + half_h
        for x in (gx - 2.0 - pdf.get_string_width(number), gx + spec.width_mm + 2.0):
            px, py = at(x, cy)
            pdf.text(px, py, number)
    for mark in spec.marks:
        x, y, w, _ = sheet.cell_rect(mark.cell)
        cx, cy = at(x + w / 2, y + w / 2)
        if mark.circled:
            pdf.set_line_width(0.35)
            pdf.set_dash_pattern(dash=1.2, gap=0.9)
            radius = MARK_RADIUS * w
            pdf.ellipse(cx - radius, cy - radius, 2 * radius, 2 * radius)
            pdf.set_dash_pattern()
        pdf.set_font("Helvetica", "", max(4.5, min(7.0, w * 0.2)))
        for k, part in enumerate(mark.text.split("\n")[:2]):
            text = part.encode("latin-1", "replace").decode("latin-1")
            while text and pdf.get_string_width(text) > w - 1.0:
                text = text[:-1]
            pdf.text(cx - pdf.get_string_width(text) / 2, cy - w * 0.16 + k * w * 0.3, text)
    for tag in sheet.corner_tags:
        px, py = at(tag.x_mm, tag.y_mm)
        _draw_marker(pdf, PlacedTag(tag.tag_id, tag.dictionary, px, py, tag.side_mm, tag.role))
        pdf.set_font("Helvetica", "", 6.0)
        label = f"corner {tag.tag_id}"
        lx = px if tag.tag_id in (1, 2) else px + tag.side_mm - pdf.get_string_width(label)
        ly = py - 1.2 if tag.tag_id in (0, 1) else py + tag.side_mm + 2.8
        pdf.text(lx, ly, label)


def _draw_alignment(pdf: FPDF, sheet: BoardSheet, tile: BoardTile) -> None:
    pdf.set_draw_color(0)
    pdf.set_line_width(0.15)
    for x, y in sheet.alignment_marks:
        if not tile.shows(x, y):
            continue
        px, py = tile.to_page(x, y)
        pdf.ellipse(px - 3.0, py - 3.0, 6.0, 6.0)
        pdf.line(px - 5.0, py, px + 5.0, py)
        pdf.line(px, py - 5.0, px, py + 5.0)
    pdf.set_dash_pattern(dash=2.0, gap=1.5)
    wx, wy, ww, wh = tile.window_mm
    # an overlap's trim line is drawn on the later tile (the one right of it, or below it)
    if tile.col > 0:
        a, b = tile.to_page(sheet.trim_x[tile.col - 1], wy)
        pdf.line(a, b, a, b + wh)
    if tile.row > 0:
        a, b = tile.to_page(wx, sheet.trim_y[tile.row - 1])
        pdf.line(a, b, a + ww, b)
    pdf.set_dash_pattern()


def _tile_words(sheet: BoardSheet, tile: BoardTile) -> str:
    rows = max(t.row for t in sheet.tiles) + 1
    cols = max(t.col for t in sheet.tiles) + 1
    if rows * cols == 1:
        return "The whole board fits on this page."
    where = f"row {tile.row + 1} of {rows}, column {tile.col + 1} of {cols}"
    what = []
    if tile.col > 0:
        what.append("trim the left dashed line")
    if tile.row > 0:
        what.append("trim the top dashed line")
    todo = (" and ".join(what) + ", then lay it") if what else "lay the others"
    return f"Piece {where}: {todo} over its neighbours, crosshair on crosshair; tape."


def board_pdf(spec: GridBoardSpec, paper: Paper) -> tuple[bytes, BoardSheet]:
    """The board's pages as a PDF at true scale, and their layout."""
    sheet = board_sheet(spec, paper)
    pdf = FPDF(orientation="P", unit="mm", format=(paper.width_mm, paper.height_mm))
    pdf.set_auto_page_break(False)
    pdf.set_margins(PAGE_MARGIN_MM, PAGE_MARGIN_MM)
    total = len(sheet.tiles)
    for tile in sheet.tiles:
        pdf.add_page()
        pdf.set_text_color(0)
        title = f"Board {spec.title}".strip() if spec.title else "Grid board"
        _text(
            pdf,
            PAGE_MARGIN_MM,
            PAGE_MARGIN_MM + 5.0,
            f"{title}: page {tile.index + 1} of {total}",
            11.0,
            True,
        )
        _text(
            pdf,
            PAGE_MARGIN_MM,
            PAGE_MARGIN_MM + 10.0,
            f"{spec.cols} x {spec.rows} squares of {spec.cell_mm:g} mm. Print at 100 % (actual "
            "size). Shaded squares are walls. The corner tags lie outside the grid's corners.",
            7.0,
        )
        _text(pdf, PAGE_MARGIN_MM, PAGE_MARGIN_MM + 14.0, _tile_words(sheet, tile), 7.0)
        _, _, ww, wh = tile.window_mm
        px, py = tile.page_origin_mm
        with pdf.rect_clip(px, py, ww, wh):
            _draw_board(pdf, sheet, tile)
            _draw_alignment(pdf, sheet, tile)
        ruler = Ruler(
            PAGE_MARGIN_MM + 2.0, paper.height_mm - PAGE_MARGIN_MM - FOOTER_MM + 6.0, 4 * 25.4, "in"
        )
        _draw_ruler(pdf, ruler)
        _draw_compass(
            pdf,
            paper.width_mm - PAGE_MARGIN_MM - COMPASS_MM,
            paper.height_mm - PAGE_MARGIN_MM - FOOTER_MM / 2,
        )
    return bytes(pdf.output()), sheet


COMPASS_MM = 6.5
"""Radius of the compass printed in each board page's footer, millimetres."""
COMPASS_WORDS = ("North: the far edge", "South: your edge")
"""What the compass's words say, two lines (facings are said by the compass in grid games)."""


def _draw_compass(pdf: FPDF, cx: float, cy: float) -> None:
    """A compass rose centred at (cx, cy) page millimetres, north up the page (the far edge),
    with its words to its left."""
    r = COMPASS_MM
    pdf.set_draw_color(0)
    pdf.set_line_width(0.3)
    pdf.ellipse(cx - r, cy - r, 2 * r, 2 * r)
    pdf.set_fill_color(0)
    pdf.polygon([(cx, cy - r * 0.8), (cx + r * 0.25, cy), (cx - r * 0.25, cy)], style="F")
    pdf.polygon([(cx, cy + r * 0.8), (cx + r * 0.25, cy), (cx - r * 0.25, cy)], style="D")
    pdf.set_font("Helvetica", "B", 7.0)
    for letter, dx, dy in (("N", 0.0, -r - 1.0), ("S", 0.0, r + 3.0), ("E", r + 2.0, 1.2), ("W", -r - 2.0, 1.2)):  # fmt: skip
        pdf.text(cx + dx - pdf.get_string_width(letter) / 2, cy + dy, letter)
    pdf.set_font("Helvetica", "", 6.5)
    for k, line in enumerate(COMPASS_WORDS):
        pdf.text(cx - r - 4.0 - pdf.get_string_width(line), cy - 0.6 + k * 3.0, line)


def append_board_pages(pdf_path: Path, spec: GridBoardSpec, paper: Paper) -> BoardSheet:
    """Add the board's pages at the start of the kit PDF at ``pdf_path`` (in place); returns
    their layout."""
    import pypdfium2 as pdfium

    data, sheet = board_pdf(spec, paper)
    board = pdfium.PdfDocument(data)
    kit = pdfium.PdfDocument(str(pdf_path))
    try:
        kit.import_pages(board, index=0)
        with atomic_path(pdf_path) as tmp:
            kit.save(str(tmp))
            kit.close()
    except OSError as exc:
        raise CalibrationError(f"cannot add the board to {pdf_path}: {exc}") from None
    finally:
        board.close()
    return sheet


def chessboard_words(cols: int, rows: int, cell_mm: float) -> tuple[str, ...]:
    """How to use a real board of ``cols`` x ``rows`` squares of ``cell_mm`` millimetres."""
    w_in, d_in = cols * cell_mm / MM_PER_INCH, rows * cell_mm / MM_PER_INCH
    return (
        f"A real board of {cols} x {rows} squares of {cell_mm:g} mm is "
        f"{cols * cell_mm:.0f} x {rows * cell_mm:.0f} mm ({w_in:.2f} x {d_in:.2f} in).",
        "Lay the four corner tags (the kit's corners page) just outside the board's corners, "
        "each tag's inner corner touching the board's corner, tag 0 at your left front.",
        f"Calibrate with: soloscope calibrate --source CAMERA --width {round(w_in, 6)} "
        f"--depth {round(d_in, 6)} --save board.json",
    )

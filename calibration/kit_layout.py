"""Where everything goes on the printable kit's pages: pure geometry in millimetres.

Page coordinates are millimetres from the page's top-left corner, x to the right and y down
(as the PDF library draws). A tag is printed "up" = towards the top of the page. Nothing here
draws or writes a file: ``calibration.kit`` draws these pages, and the tests read them to know
what should be found where.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from calibration.errors import CalibrationError
from calibration.kit_ids import (
    BASE_TAG_MARGIN_MM,
    BUTTON_IDS,
    BUTTON_TAG_MM,
    CHARUCO_DICTIONARY,
    CHARUCO_MARKER_MM,
    CHARUCO_SQUARE_MM,
    CHARUCO_SQUARES,
    CORNER_IDS,
    CORNER_PLACES,
    CORNER_TAG_MM,
    KIT_DICTIONARY,
    PIECE_IDS,
    TERRAIN_IDS,
    TERRAIN_TAG_MM,
)

MM_PER_INCH = 25.4
PAGE_MARGIN_MM = 10.0
HEADER_MM = 24.0
"""Height kept at the top of every page for the title and the printing note."""
FOOTER_MM = 30.0
"""Height kept at the bottom of every page for the two rulers."""


@dataclass(frozen=True)
class Paper:
    """A paper size, millimetres."""

    name: str
    width_mm: float
    height_mm: float


PAPERS: dict[str, Paper] = {
    "a4": Paper("a4", 210.0, 297.0),
    "letter": Paper("letter", 215.9, 279.4),
}


@dataclass(frozen=True)
class PlacedTag:
    """One ArUco marker on a page."""

    tag_id: int
    dictionary: str
    """``cv2.aruco`` predefined dictionary name, e.g. "DICT_4X4_50"."""
    x_mm: float
    """Left edge of the black square, millimetres from the page's left edge."""
    y_mm: float
    """Top edge of the black square, millimetres from the page's top edge."""
    side_mm: float
    """Side of the black square (border included), millimetres."""
    role: str
    """"corner", "button", "terrain", "piece" or "charuco"."""
    label: str = ""

    @property
    def centre_mm(self) -> tuple[float, float]:
        """Centre of the black square on the page, millimetres."""
        return (self.x_mm + self.side_mm / 2, self.y_mm + self.side_mm / 2)


@dataclass(frozen=True)
class Ruler:
    """A printed ruler to check the print scale; ticks hang down from the baseline."""

    x_mm: float
    """Page x of the ruler's zero tick, millimetres."""
    y_mm: float
    """Page y of the baseline, millimetres."""
    length_mm: float
    """Distance from the zero tick to the last tick, millimetres (100 or 4 in = 101.6)."""
    unit: str
    """"mm" (ticks every 1 mm, long every 10 mm) or "in" (ticks every 1/8 in, long every inch)."""

    @property
    def major_step_mm(self) -> float:
        """Distance between long (labelled) ticks, millimetres."""
        return 10.0 if self.unit == "mm" else MM_PER_INCH

    @property
    def minor_step_mm(self) -> float:
        """Distance between short ticks, millimetres."""
        return 1.0 if self.unit == "mm" else MM_PER_INCH / 8


@dataclass(frozen=True)
class BaseCell:
    """One cell of the base-tag cut grid: a base outline with its tag, id and front arrow."""

    tag: PlacedTag
    x_mm: float
    """Left edge of the cell, millimetres."""
    y_mm: float
    """Top edge of the cell, millimetres."""
    base_mm: float
    """Base diameter, millimetres (the circle drawn in the cell)."""
    offset_mm: float
    """How far the tag centre sits ahead of the base centre (towards the model's front =
    page up), millimetres; negative = behind."""
    right_mm: float = 0.0
    """How far the tag centre sits right of the base centre, millimetres."""
    pitch_mm: float = 0.0
    """Side of the cut-grid cell, millimetres (0 = ``base_mm``)."""
    name: str = ""
    """The model it is for (a scenario's unit name), printed small on the base."""

    @property
    def side_mm(self) -> float:
        """Side of the cut-grid cell, millimetres."""
        return self.pitch_mm or self.base_mm


@dataclass(frozen=True)
class BaseTagSpec:
    """One base tag to print: its id, the base it goes on and where on that base."""

    tag_id: int
    base_mm: float
    """Base diameter, millimetres."""
    tag_mm: float
    """Side of the tag's black square, millimetres."""
    forward_mm: float | None = None
    """Tag centre ahead of the base centre, millimetres; None = as far forward as it fits
    (:func:`base_tag_offset_mm`)."""
    right_mm: float = 0.0
    """Tag centre right of the base centre, millimetres."""
    label: str = ""
    """Who it is for (a scenario's unit name), printed small in the cell when there is room."""

    def offset_mm(self) -> float:
        """The forward offset used, millimetres."""
        if self.forward_mm is not None:
            return self.forward_mm
        return base_tag_offset_mm(self.base_mm, self.tag_mm)


@dataclass(frozen=True)
class CharucoPlacement:
    """The lens calibration ChArUco board on its page."""

    x_mm: float
    y_mm: float
    squares: tuple[int, int]
    """(columns, rows)."""
    square_mm: float
    marker_mm: float
    dictionary: str
    black_squares: tuple[tuple[int, int], ...]
    """(column, row) of every black chessboard square."""


@dataclass(frozen=True)
class Text:
    """A line of text; (x_mm, y_mm) is the left end of its baseline."""

    x_mm: float
    y_mm: float
    text: str
    size_pt: float = 9.0
    bold: bool = False


@dataclass(frozen=True)
class KitPage:
    """Everything on one page of the kit."""

    title: str
    kind: str
    """"corners", "bases", "buttons_terrain" or "charuco"."""
    tags: tuple[PlacedTag, ...]
    rulers: tuple[Ruler, ...]
    texts: tuple[Text, ...] = ()
    cells: tuple[BaseCell, ...] = ()
    charuco: CharucoPlacement | None = None
    cut_boxes: tuple[tuple[float, float, float, float], ...] = ()
    """(x, y, w, h) millimetres: thin cut outlines around stand-alone tags."""
    diagram_box: tuple[float, float, float, float] | None = None
    """(x, y, w, h) millimetres of the corner-placement diagram, on the corners page."""


@dataclass(frozen=True)
class KitSpec:
    """What the user asked for: paper, which piece ids, base and tag sizes, and optionally a
    scenario's tag list to print."""

    paper: Paper = field(default_factory=lambda: PAPERS["a4"])
    piece_ids: tuple[int, ...] = tuple(PIECE_IDS)
    """Base tags to print, each from ``PIECE_IDS``."""
    base_mm: float = 25.0
    """Base diameter, millimetres."""
    tag_mm: float = 10.0
    """Side of a base tag's black square, millimetres."""
    bases: tuple[BaseTagSpec, ...] = ()
    """Per-tag bases, sizes and offsets (a scenario's); when given, ``piece_ids``, ``base_mm``
    and ``tag_mm`` are not used."""
    terrain_tag_mm: tuple[tuple[int, float], ...] = ()
    """(terrain id, side in millimetres) for terrain tags printed at another size than
    ``TERRAIN_TAG_MM`` (a scenario's sizes); 10 to 40 mm."""
    roster_title: str = ""
    roster: tuple[str, ...] = ()
    """Lines of a scenario's tag list ("which id goes on which model"), printed on their own
    page(s) when not empty."""

    def base_tags(self) -> tuple[BaseTagSpec, ...]:
        """Every base tag to print, in print order."""
        if self.bases:
            return self.bases
        return tuple(BaseTagSpec(i, self.base_mm, self.tag_mm) for i in self.piece_ids)

    def __post_init__(self) -> None:
        entries = self.base_tags()
        if not entries:
            raise CalibrationError("no piece ids to print")
        ids = [e.tag_id for e in entries]
        bad = [i for i in ids if i not in PIECE_IDS]
        if bad:
            raise CalibrationError(
                f"piece ids {bad} are outside the kit's piece range "
                f"{PIECE_IDS.start}-{PIECE_IDS.stop - 1} of {KIT_DICTIONARY}"
            )
        if len(set(ids)) != len(ids):
            raise CalibrationError(f"piece ids repeat: {ids}")
        for e in entries:
            _check_base_tag(e)
        for tag_id, side in self.terrain_tag_mm:
            if tag_id not in TERRAIN_IDS or not 10.0 <= side <= 40.0:
                raise CalibrationError(
                    f"terrain tag {tag_id} at {side:g} mm: terrain ids are "
                    f"{TERRAIN_IDS.start}-{TERRAIN_IDS.stop - 1}, sizes 10 to 40 mm"
                )
        usable = self.paper.width_mm - 2 * PAGE_MARGIN_MM
        widest = max(e.base_mm for e in entries)
        if widest > usable:
            raise CalibrationError(f"base_mm={widest:g}: wider than the printable page")


def _check_base_tag(e: BaseTagSpec) -> None:
    """The tag with its white margin must lie on its base's square (the cut-grid cell)."""
    who = f"tag {e.tag_id}" + (f" ({e.label})" if e.label else "")
    if not 4.0 <= e.tag_mm <= 60.0:
        raise CalibrationError(f"{who}: tag_mm={e.tag_mm:g}; a base tag must be 4 to 60 mm")
    half = e.tag_mm / 2 + BASE_TAG_MARGIN_MM
    if e.base_mm < 2 * half:
        raise CalibrationError(
            f"{who}: base_mm={e.base_mm:g}; a {e.tag_mm:g} mm tag with its "
            f"{BASE_TAG_MARGIN_MM:g} mm margin does not fit on the base"
        )
    if max(abs(e.offset_mm()), abs(e.right_mm)) + half > e.base_mm / 2 + 1e-9:
        raise CalibrationError(
            f"{who}: a {e.tag_mm:g} mm tag {e.offset_mm():g} mm forward and {e.right_mm:g} mm "
            f"right of the centre runs off a {e.base_mm:g} mm base"
        )


def marker_cells(dictionary: str, tag_id: int) -> npt.NDArray[np.bool_]:
    """The marker's cells, border included, as a square boolean array: True = black.

    Row 0 is the top of the marker as printed (its "up")."""
    try:
        dict_id = getattr(cv2.aruco, dictionary)
    except AttributeError:
        raise CalibrationError(f"unknown ArUco dictionary {dictionary!r}") from None
    d = cv2.aruco.getPredefinedDictionary(dict_id)
    n = d.markerSize + 2
    image = cv2.aruco.generateImageMarker(d, tag_id, n, borderBits=1)
    return np.asarray(image < 128)


def base_tag_offset_mm(
    base_mm: float, tag_mm: float, margin_mm: float = BASE_TAG_MARGIN_MM
) -> float:
    """How far ahead of a round base's centre the tag's centre goes, millimetres.

    As far forward as the tag and its white margin still fit inside the base circle (the model
    stands on the rear half), rounded to the nearest 0.5 mm: 5 mm for a 10 mm tag on a 25 mm
    base (DESIGN §1; the sticker's far corners then reach 0.03 mm past the rim)."""
    half = tag_mm / 2 + margin_mm
    radius = base_mm / 2
    if half * math.sqrt(2) > radius:
        return 0.0
    reach = math.sqrt(radius**2 - half**2) - half
    return max(0.0, round(reach * 2) / 2)


def _rulers(paper: Paper) -> tuple[Ruler, ...]:
    x = PAGE_MARGIN_MM + 4.0
    bottom = paper.height_mm - PAGE_MARGIN_MM
    return (
        Ruler(x, bottom - FOOTER_MM + 6.0, 100.0, "mm"),
        Ruler(x, bottom - FOOTER_MM / 2 + 5.0, 4 * MM_PER_INCH, "in"),
    )


def _content_box(paper: Paper) -> tuple[float, float, float, float]:
    """(x, y, w, h) of the area between header and rulers, millimetres."""
    x = PAGE_MARGIN_MM
    y = PAGE_MARGIN_MM + HEADER_MM
    w = paper.width_mm - 2 * PAGE_MARGIN_MM
    h = paper.height_mm - 2 * PAGE_MARGIN_MM - HEADER_MM - FOOTER_MM
    return x, y, w, h


_INNER_CORNER = {0: "top-right", 1: "top-left", 2: "bottom-left", 3: "bottom-right"}
"""Which corner of each corner tag's black square (as printed) touches the play area."""


def corners_page(paper: Paper) -> KitPage:
    """The four 40 mm corner tags laid out as they sit on the table, with a placement diagram."""
    x0, y0, w, h = _content_box(paper)
    diagram = (x0 + w / 2 - 45.0, y0, 90.0, 68.0)
    side = CORNER_TAG_MM
    block_w, block_h = w / 2, (h - diagram[3] - 4.0) / 2
    # Printed as seen from the player's seat: far tags (3, 2) on top, near tags (0, 1) below.
    grid = {3: (0, 0), 2: (1, 0), 0: (0, 1), 1: (1, 1)}
    tags, texts, cuts = [], [], []
    for tag_id in CORNER_IDS:
        col, row = grid[tag_id]
        bx = x0 + col * block_w
        by = y0 + diagram[3] + 4.0 + row * block_h
        tx = bx + (block_w - side) / 2
        ty = by + 4.0
        tags.append(
            PlacedTag(tag_id, KIT_DICTIONARY, tx, ty, side, "corner", CORNER_PLACES[tag_id])
        )
        cuts.append((tx - 4.0, ty - 4.0, side + 8.0, side + 8.0))
        texts.append(
            Text(tx - 4.0, ty + side + 9.0, f"corner {tag_id}: {CORNER_PLACES[tag_id]}", 9.0, True)
        )
        texts.append(
            Text(tx - 4.0, ty + side + 13.5, "top edge of the tag points away from you;", 7.0)
        )
        texts.append(
            Text(
                tx - 4.0,
                ty + side + 17.0,
                f"its {_INNER_CORNER[tag_id]} corner touches the play area's corner",
                7.0,
            )
        )
    return KitPage(
        title="Corner tags (ids 0-3, 40 mm)",
        kind="corners",
        tags=tuple(tags),
        rulers=_rulers(paper),
        texts=tuple(texts),
        cut_boxes=tuple(cuts),
        diagram_box=diagram,
    )


def base_pages(spec: KitSpec) -> list[KitPage]:
    """The base tags on a cut grid (cells as wide as the widest base), as many pages as
    needed; each cell shows its base's outline and the tag at its place on that base."""
    entries = spec.base_tags()
    pitch = max(e.base_mm for e in entries)
    x0, y0, w, h = _content_box(spec.paper)
    cols = max(1, int(w // pitch))
    rows = max(1, int((h - 6.0) // pitch))
    per_page = cols * rows
    uniform = {(e.base_mm, e.tag_mm, e.offset_mm(), e.right_mm) for e in entries}
    if len(uniform) == 1:
        base_mm, tag_mm, offset, right = uniform.pop()
        place = f"centre {offset:g} mm ahead of the base centre" if offset else "centred"
        if right:
            place += f", {right:g} mm right"
        note = (
            f"{base_mm:g} mm bases: {tag_mm:g} mm tag + {BASE_TAG_MARGIN_MM:g} mm white margin, "
            f"{place}; arrow = model's front"
        )
    else:
        note = (
            f"Bases and tags as the scenario gives them (+ {BASE_TAG_MARGIN_MM:g} mm white "
            "margin), each tag at its place on its base; arrow = model's front"
        )
    pages = []
    for start in range(0, len(entries), per_page):
        chunk = entries[start : start + per_page]
        gx = x0 + (w - cols * pitch) / 2
        gy = y0 + 6.0
        cells, tags = [], []
        for k, e in enumerate(chunk):
            cx = gx + (k % cols) * pitch
            cy = gy + (k // cols) * pitch
            offset = e.offset_mm()
            centre_x = cx + pitch / 2 + e.right_mm
            centre_y = cy + pitch / 2 - offset  # forward = page up
            tag = PlacedTag(
                e.tag_id,
                KIT_DICTIONARY,
                centre_x - e.tag_mm / 2,
                centre_y - e.tag_mm / 2,
                e.tag_mm,
                "piece",
                str(e.tag_id),
            )
            tags.append(tag)
            cells.append(BaseCell(tag, cx, cy, e.base_mm, offset, e.right_mm, pitch, e.label))
        first, last = chunk[0].tag_id, chunk[-1].tag_id
        pages.append(
            KitPage(
                title=f"Base tags (ids {first}-{last})" if first != last else f"Base tag {first}",
                kind="bases",
                tags=tuple(tags),
                rulers=_rulers(spec.paper),
                texts=(Text(x0, y0 + 3.0, note, 8.0),),
                cells=tuple(cells),
            )
        )
    return pages


def buttons_terrain_page(
    paper: Paper, terrain_tag_mm: tuple[tuple[int, float], ...] = ()
) -> KitPage:
    """The button tags (large, labelled) and the terrain tags (reserved ids 8-15), each printed
    at the side ``terrain_tag_mm`` gives for its id (a scenario's), else ``TERRAIN_TAG_MM``."""
    x0, y0, w, _h = _content_box(paper)
    tags, texts, cuts = [], [], []
    side = BUTTON_TAG_MM
    step = w / len(BUTTON_IDS)
    for k, (name, tag_id) in enumerate(BUTTON_IDS.items()):
        tx = x0 + k * step + (step - side) / 2
        ty = y0 + 8.0
        tags.append(PlacedTag(tag_id, KIT_DICTIONARY, tx, ty, side, "button", name))
        cuts.append((tx - 3.0, ty - 3.0, side + 6.0, side + 16.0))
        texts.append(Text(tx, ty + side + 9.0, name.upper(), 14.0, True))
    texts.append(
        Text(x0, y0 + 2.0, "Buttons: cover one with a finger for about a second", 9.0, True)
    )
    ty0 = y0 + 8.0 + side + 26.0
    sizes = {tag_id: TERRAIN_TAG_MM for tag_id in TERRAIN_IDS} | dict(terrain_tag_mm)
    distinct = sorted(set(sizes.values()))
    heading = (
        f"{distinct[0]:g} mm"
        if len(distinct) == 1
        else "sizes as the scenario gives them, " + ", ".join(f"{v:g}" for v in distinct) + " mm"
    )
    ids = f"{TERRAIN_IDS.start}-{TERRAIN_IDS.stop - 1}"
    texts.append(Text(x0, ty0 - 2.0, f"Terrain tags (ids {ids}, {heading})", 9.0, True))
    cols = 4
    tstep = w / cols
    order = list(TERRAIN_IDS)
    row_y = ty0 + 4.0
    for start in range(0, len(order), cols):
        row = order[start : start + cols]
        row_h = max(sizes[i] for i in row)
        for k, tag_id in enumerate(row):
            tside = sizes[tag_id]
            tx = x0 + k * tstep + (tstep - tside) / 2
            ty = row_y + (row_h - tside) / 2
            tags.append(
                PlacedTag(tag_id, KIT_DICTIONARY, tx, ty, tside, "terrain", f"terrain {tag_id}")
            )
            cuts.append((tx - 3.0, ty - 3.0, tside + 6.0, tside + 6.0))
            label = f"terrain {tag_id}" + ("" if len(distinct) == 1 else f", {tside:g} mm")
            texts.append(Text(tx, row_y + row_h + 8.0, label, 9.0))
        row_y += row_h + 20.0
    return KitPage(
        title="Button and terrain tags",
        kind="buttons_terrain",
        tags=tuple(tags),
        rulers=_rulers(paper),
        texts=tuple(texts),
        cut_boxes=tuple(cuts),
    )


def charuco_black_squares(squares: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """(column, row) of the black squares of an OpenCV ChArUco board (OpenCV >= 4.6 pattern:
    square (0, 0) black, markers in the white squares)."""
    cols, rows = squares
    return tuple((c, r) for r in range(rows) for c in range(cols) if (c + r) % 2 == 0)


def charuco_page(paper: Paper) -> KitPage:
    """The lens calibration ChArUco board (its own dictionary) centred on a page."""
    x0, y0, w, h = _content_box(paper)
    cols, rows = CHARUCO_SQUARES
    bw, bh = cols * CHARUCO_SQUARE_MM, rows * CHARUCO_SQUARE_MM
    bx = x0 + (w - bw) / 2
    by = y0 + 6.0 + max(0.0, (h - 6.0 - bh) / 2)
    inset = (CHARUCO_SQUARE_MM - CHARUCO_MARKER_MM) / 2
    tags = []
    marker_id = 0
    black = set(charuco_black_squares(CHARUCO_SQUARES))
    for r in range(rows):
        for c in range(cols):
            if (c, r) in black:
                continue
            tags.append(
                PlacedTag(
                    marker_id,
                    CHARUCO_DICTIONARY,
                    bx + c * CHARUCO_SQUARE_MM + inset,
                    by + r * CHARUCO_SQUARE_MM + inset,
                    CHARUCO_MARKER_MM,
                    "charuco",
                )
            )
            marker_id += 1
    note = (
        f"ChArUco board {cols} x {rows} squares of {CHARUCO_SQUARE_MM:g} mm, markers "
        f"{CHARUCO_MARKER_MM:g} mm, {CHARUCO_DICTIONARY} (not the table tags' dictionary). "
        "Glue flat on card."
    )
    return KitPage(
        title="Lens calibration board",
        kind="charuco",
        tags=tuple(tags),
        rulers=_rulers(paper),
        texts=(
            Text(x0, y0 + 2.0, note, 8.0),
            Text(x0, y0 + 6.0, "Use: soloscope calibrate --lens --board charuco", 8.0),
        ),
        charuco=CharucoPlacement(
            bx,
            by,
            CHARUCO_SQUARES,
            CHARUCO_SQUARE_MM,
            CHARUCO_MARKER_MM,
            CHARUCO_DICTIONARY,
            tuple(sorted(black)),
        ),
    )


def roster_pages(spec: KitSpec) -> list[KitPage]:
    """The scenario's tag list (which id goes on which model), as many pages as needed."""
    if not spec.roster:
        return []
    x0, y0, _w, h = _content_box(spec.paper)
    line_mm = 4.2
    per_page = max(1, int((h - 8.0) // line_mm))
    pages = []
    for start in range(0, len(spec.roster), per_page):
        chunk = spec.roster[start : start + per_page]
        texts = [Text(x0, y0 + 2.0, spec.roster_title, 10.0, True)]
        texts += [Text(x0, y0 + 8.0 + k * line_mm, line, 8.0) for k, line in enumerate(chunk)]
        pages.append(
            KitPage(
                title="Which tag goes on which model",
                kind="roster",
                tags=(),
                rulers=_rulers(spec.paper),
                texts=tuple(texts),
            )
        )
    return pages


def kit_pages(spec: KitSpec) -> list[KitPage]:
    """Every page of the kit, in print order: corners, bases, buttons and terrain, ChArUco,
    then the scenario's tag list if any."""
    return [
        corners_page(spec.paper),
        *base_pages(spec),
        buttons_terrain_page(spec.paper, spec.terrain_tag_mm),
        charuco_page(spec.paper),
        *roster_pages(spec),
    ]

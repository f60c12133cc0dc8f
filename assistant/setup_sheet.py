"""The set-up sheet: a generated table drawn top-down at a printable scale (fpdf2).

Page 1 shows the table with a 1 in grid (6 in lines labelled), each terrain piece's outline
filled by what it is, named, with its tag drawn where it sits ("up" is the far edge), the
deployment zones, the figures' starting places and the objective markers, none drawn over
another (``setup_sheet_layout``: a figure that would cover a marker is drawn beside its place
with a leader line, and each label goes where it covers nothing); the following
lines list every tag and piece with its centre in table inches, which is what the camera
checks at the table (``soloscope play``: each tag within 0.5 in and 15 degrees). All page
sizes are millimetres; the table's +y (the far edge) is up on the page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from fpdf import FPDF
from shapely.geometry import Point, Polygon

from assistant.scenario_files import tag_mm, terrain_tags, unit_entries
from assistant.setup_sheet_layout import (
    Label,
    LabelWish,
    Measure,
    PlacedFigure,
    place_figures,
    place_labels,
    tag_area,
)
from assistant.terrain_files import MM_PER_IN, piece_tags, tag_size_mm
from engine.generators.scenario import GeneratedScenario, ScenarioTerrain
from engine.generators.terrain import TerrainLayout, TerrainPiece

PAGE_MM = (210.0, 297.0)
"""A4 portrait (fits US Letter's printable area at the scales chosen)."""
MARGIN_MM = 12.0
HEADER_MM = 22.0
"""Room above the table drawing for the title and the scale line."""
MAP_SHARE = 0.62
"""Share of the page height the table drawing may take (the rest: the list)."""
SCALES = (1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 48, 64, 96)
"""Scales tried, 1:N, largest drawing first."""

_FILL: dict[str, tuple[int, int, int]] = {
    "building": (170, 170, 170),
    "object": (200, 185, 160),
    "objects": (215, 200, 175),
    "woods": (150, 200, 140),
    "water": (150, 190, 230),
    "river": (150, 190, 230),
    "road": (225, 215, 190),
    "wall": (190, 160, 130),
    "rubble": (195, 190, 180),
    "hill": (210, 225, 170),
    "pit": (120, 110, 100),
}
_ZONE_FILL = {"human": (205, 220, 250), "ai": (250, 210, 205)}


@dataclass(frozen=True)
class SheetPiece:
    """A terrain piece as the sheet draws it (inches)."""

    id: str
    name: str
    type_name: str
    kind: str
    polygon: tuple[tuple[float, float], ...]
    x: float
    y: float
    tag: int | None
    tag_mm: float


@dataclass(frozen=True)
class SheetMark:
    """A point on the table (a figure, an objective), inches."""

    label: str
    x: float
    y: float
    role: str = ""


@dataclass(frozen=True)
class Sheet:
    """Everything a set-up sheet shows."""

    title: str
    width_in: float
    depth_in: float
    pieces: tuple[SheetPiece, ...]
    zones: tuple[tuple[str, str, tuple[tuple[float, float], ...]], ...] = ()
    """(label, role, polygon) per army."""
    figures: tuple[SheetMark, ...] = ()
    objectives: tuple[SheetMark, ...] = ()
    notes: tuple[str, ...] = field(default_factory=tuple)


def _piece(p: TerrainPiece, tag: int | None) -> SheetPiece:
    return SheetPiece(
        p.id, p.name, p.type.name, p.type.kind, p.polygon, p.x, p.y, tag, tag_size_mm(p)
    )


def terrain_sheet(layout: TerrainLayout, title: str, with_tags: bool = True) -> Sheet:
    """The sheet of a terrain layout (``generate terrain --sheet``)."""
    tags = piece_tags(layout, with_tags)
    pieces = tuple(_piece(p, tags.get(p.id)) for p in layout.pieces)
    return Sheet(title, layout.width_in, layout.depth_in, pieces)


def scenario_sheet(gen: GeneratedScenario, seed: int) -> Sheet:
    """The sheet of a generated scenario: terrain, zones, figures, objectives."""
    tags = terrain_tags(gen)
    short = {t.id: t.type.footprint_in(gen.battlefield)[1] for t in gen.scenario_terrain}
    short |= {p.id: p.short_in for p in gen.terrain.pieces}
    every: list[ScenarioTerrain | TerrainPiece] = [*gen.scenario_terrain, *gen.terrain.pieces]
    pieces = [
        SheetPiece(
            t.id, t.name, t.type.name, t.type.kind, t.polygon, t.x, t.y, tags.get(t.id),
            tag_mm(short[t.id], t.type)[0],
        )
        for t in every
    ]  # fmt: skip
    figures = tuple(
        SheetMark(f"{u.tag}", u.placement.x, u.placement.y, u.placement.role)
        for u in unit_entries(gen)
    )
    objectives = [
        SheetMark(f"{o.marker.name}: {'/'.join(str(v) for v in o.vp.values())} VP", o.x, o.y)
        for o in gen.objectives
    ]
    if gen.cargo is not None:
        objectives.append(SheetMark("cargo", gen.cargo[0], gen.cargo[1], "cargo"))
    human, ai = gen.armies
    notes = (
        f"Objective VP shown as {human.label}/{ai.label}. Figures: circles with their tag "
        f"number ({human.label} blue, {ai.label} red)."
        + (
            " Figures not drawn wait off the table." if not all(u.placed for u in gen.units) else ""
        ),
    )
    return Sheet(
        f"{gen.kind.display_name} (generated, seed {seed})",
        gen.width_in,
        gen.depth_in,
        tuple(pieces),
        tuple((a.label, a.role, a.zone) for a in gen.armies),
        figures,
        tuple(objectives),
        notes,
    )


def choose_scale(width_in: float, depth_in: float, box_w_mm: float, box_h_mm: float) -> int:
    """N of the largest 1:N scale at which the table fits the box."""
    for n in SCALES:
        if width_in * MM_PER_IN / n <= box_w_mm and depth_in * MM_PER_IN / n <= box_h_mm:
            return n
    return SCALES[-1]


class _Map:
    """Table inches to page millimetres."""

    def __init__(self, left: float, top: float, depth_in: float, scale: int) -> None:
        self.left, self.top, self.depth_in = left, top, depth_in
        self.mm_per_in = MM_PER_IN / scale

    def __call__(self, x: float, y: float) -> tuple[float, float]:
        return self.left + x * self.mm_per_in, self.top + (self.depth_in - y) * self.mm_per_in


def _latin1(text: str) -> str:
    return text.encode("latin-1", "replace").decode("latin-1")


def _label(pdf: FPDF, x: float, y: float, text: str, size_pt: float, bold: bool = False) -> None:
    """Text centred on (x, y), millimetres."""
    pdf.set_font("Helvetica", "B" if bold else "", size_pt)
    text = _latin1(text)
    pdf.text(x - pdf.get_string_width(text) / 2, y + size_pt * 0.3528 * 0.35, text)


def pdf_measure(pdf: FPDF) -> Measure:
    """The width of a text as ``_label`` draws it, millimetres."""

    def width(text: str, size_pt: float, bold: bool) -> float:
        pdf.set_font("Helvetica", "B" if bold else "", size_pt)
        return float(pdf.get_string_width(_latin1(text)))

    return width


def _frame_texts(m: _Map, w: float, d: float) -> list[Label]:
    """The grid's numbers (every 6 in) and the edges' names, round the table."""
    out = [Label(f"{x}", m(x, 0)[0], m(x, 0)[1] + 3.0, 6) for x in range(0, int(w) + 1, 6)]
    out += [Label(f"{y}", m(0, y)[0] - 3.5, m(0, y)[1], 6) for y in range(0, int(d) + 1, 6)]
    top, bottom = m(w / 2, d), m(w / 2, 0)
    out.append(Label("far edge (the AI's side)", top[0], top[1] - 2.5, 7))
    out.append(Label("front edge (your side)", bottom[0], bottom[1] + 6.5, 7))
    return out


def _grid(pdf: FPDF, m: _Map, w: float, d: float) -> None:
    pdf.set_line_width(0.1)
    for x in range(int(w) + 1):
        pdf.set_draw_color(150 if x % 6 == 0 else 225)
        pdf.line(*m(x, 0), *m(x, d))
    for y in range(int(d) + 1):
        pdf.set_draw_color(150 if y % 6 == 0 else 225)
        pdf.line(*m(0, y), *m(w, y))


def _tag_side(p: SheetPiece, m: _Map) -> float:
    return max(3.0, p.tag_mm / MM_PER_IN * m.mm_per_in)


def _draw_tag(pdf: FPDF, m: _Map, p: SheetPiece) -> None:
    """The tag as a square with its id and an arrow toward its "up" (the far edge)."""
    side = _tag_side(p, m)
    cx, cy = m(p.x, p.y)
    pdf.set_fill_color(255)
    pdf.set_draw_color(0)
    pdf.set_line_width(0.3)
    pdf.rect(cx - side / 2, cy - side / 2, side, side, "DF")
    pdf.polygon(
        [(cx, cy - side / 2 - 1.6), (cx - 1.0, cy - side / 2), (cx + 1.0, cy - side / 2)], style="F"
    )
    _label(pdf, cx, cy, str(p.tag), max(5.0, min(9.0, side * 1.6)), True)


def _objective_shape(o: SheetMark, m: _Map, r: float) -> Polygon:
    cx, cy = m(o.x, o.y)
    if o.role == "cargo":
        return Polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)])
    return Point(cx, cy).buffer(r * 0.8)


@dataclass(frozen=True)
class MapLayout:
    """Where the map's marks and labels go (page millimetres), none over another."""

    figures: tuple[PlacedFigure, ...]
    """In the order of ``Sheet.figures``."""
    labels: tuple[Label, ...]
    """The zones', objectives' and terrain pieces' labels."""
    fixed: tuple[Label, ...]
    """The grid's numbers and the edges' names round the table."""
    marks: tuple[Polygon, ...]
    """Every tag square (with its arrow) and objective marker."""


def map_layout(sheet: Sheet, m: _Map, measure: Measure) -> MapLayout:
    """Place the figures beside whatever they would cover, then every label (objectives
    first, then the deployment zones, then the terrain pieces' types) where it covers
    nothing."""
    w, d = sheet.width_in, sheet.depth_in
    r = 0.5 * m.mm_per_in
    tags = [tag_area(*m(p.x, p.y), _tag_side(p, m)) for p in sheet.pieces if p.tag is not None]
    objectives = [_objective_shape(o, m, r) for o in sheet.objectives]
    figures = place_figures([m(f.x, f.y) for f in sheet.figures], r, [*tags, *objectives])
    fixed = _frame_texts(m, w, d)
    wishes = []
    for o in sheet.objectives:
        cx, cy = m(o.x, o.y)
        wishes.append(LabelWish(o.label, cx, cy, 5.5, clear_mm=r, first=(0.0, -1.0)))
    for label, role, ring in sheet.zones:
        xs = [x for x, _ in ring]
        ys = [y for _, y in ring]
        spot = m((min(xs) + max(xs)) / 2, max(ys) - 0.6 if role == "human" else min(ys) + 0.6)
        wishes.append(LabelWish(f"{label} deploy here", *spot, 7, bold=True))
    for p in sheet.pieces:
        cx, cy = m(p.x, p.y)
        if p.tag is None:
            wishes.append(LabelWish(p.type_name, cx, cy, 6))
        else:
            wishes.append(LabelWish(p.type_name, cx, cy, 6, clear_mm=_tag_side(p, m) / 2 + 0.6))
    circles = [Point(f.x, f.y).buffer(f.r) for f in figures]
    obstacles = [*tags, *objectives, *circles, *(t.area(measure) for t in fixed)]
    labels = place_labels(wishes, obstacles, measure)
    return MapLayout(tuple(figures), tuple(labels), tuple(fixed), (*tags, *objectives))


def _draw_figure(pdf: FPDF, mark: SheetMark, placed: PlacedFigure) -> None:
    """A figure's circle and tag number; drawn beside its place, a leader from a dot on it."""
    if placed.moved:
        pdf.set_draw_color(0)
        pdf.set_fill_color(0)
        pdf.set_line_width(0.25)
        gap = placed.r / math.dist((placed.x, placed.y), (placed.true_x, placed.true_y))
        edge = (
            placed.x + (placed.true_x - placed.x) * gap,
            placed.y + (placed.true_y - placed.y) * gap,
        )
        pdf.line(placed.true_x, placed.true_y, *edge)
        pdf.ellipse(placed.true_x - 0.5, placed.true_y - 0.5, 1.0, 1.0, style="F")
    pdf.set_fill_color(*((60, 90, 200) if mark.role == "human" else (200, 60, 50)))
    pdf.set_draw_color(0)
    pdf.set_line_width(0.3)
    r = placed.r
    pdf.ellipse(placed.x - r, placed.y - r, 2 * r, 2 * r, style="DF")
    pdf.set_text_color(255)
    _label(pdf, placed.x, placed.y, mark.label, max(4.0, min(7.0, r * 2.2)), True)
    pdf.set_text_color(0)


def _draw_map(pdf: FPDF, sheet: Sheet, m: _Map) -> None:
    w, d = sheet.width_in, sheet.depth_in
    layout = map_layout(sheet, m, pdf_measure(pdf))
    for _zone_name, role, ring in sheet.zones:
        pdf.set_fill_color(*_ZONE_FILL.get(role, (230, 230, 230)))
        pdf.set_draw_color(*_ZONE_FILL.get(role, (230, 230, 230)))
        pdf.polygon([m(x, y) for x, y in ring], style="F")
    _grid(pdf, m, w, d)
    for p in sheet.pieces:
        pdf.set_fill_color(*_FILL.get(p.kind, (220, 220, 220)))
        pdf.set_draw_color(40)
        pdf.set_line_width(0.35)
        pdf.polygon([m(x, y) for x, y in p.polygon], style="DF")
    for p in sheet.pieces:
        if p.tag is not None:
            _draw_tag(pdf, m, p)
    r = 0.5 * m.mm_per_in
    for o in sheet.objectives:
        cx, cy = m(o.x, o.y)
        pdf.set_draw_color(0)
        pdf.set_fill_color(255, 230, 90)
        pdf.set_line_width(0.3)
        if o.role == "cargo":
            pdf.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], style="DF")
        else:
            pdf.ellipse(cx - r * 0.8, cy - r * 0.8, r * 1.6, r * 1.6, style="DF")
    for mark, placed in zip(sheet.figures, layout.figures, strict=True):
        _draw_figure(pdf, mark, placed)
    for text in (*layout.fixed, *layout.labels):
        _label(pdf, text.x, text.y, text.text, text.size_pt, text.bold)
    pdf.set_draw_color(0)
    pdf.set_line_width(0.5)
    x0, y0 = m(0, d)
    pdf.rect(x0, y0, w * m.mm_per_in, d * m.mm_per_in)


def _listing(sheet: Sheet) -> list[str]:
    lines = [
        "Tags (the camera checks each within 0.5 in and 15 degrees; tag 'up' toward the far edge):"
    ]
    for p in sheet.pieces:
        if p.tag is not None:
            lines.append(
                f"  tag {p.tag}: {p.name} ({p.type_name}), centre ({p.x:.1f}, {p.y:.1f}) in, "
                f"{p.tag_mm:g} mm tag"
            )
    untagged = [p for p in sheet.pieces if p.tag is None]
    if untagged:
        lines.append("No tag (place by eye):")
        for p in untagged:
            lines.append(f"  {p.name} ({p.type_name}), centre ({p.x:.1f}, {p.y:.1f}) in")
    lines += list(sheet.notes)
    return lines


def sheet_pdf(sheet: Sheet) -> bytes:
    """The sheet as PDF bytes."""
    page_w, page_h = PAGE_MM
    pdf = FPDF(orientation="P", unit="mm", format=(page_w, page_h))
    pdf.set_margins(MARGIN_MM, MARGIN_MM)
    pdf.set_auto_page_break(True, MARGIN_MM)
    pdf.set_title(_latin1(f"soloscope set-up sheet: {sheet.title}"))
    pdf.set_creator("soloscope generate")
    pdf.add_page()
    m, scale = page_map(sheet)
    mm_per_in = m.mm_per_in
    pdf.set_font("Helvetica", "B", 13)
    pdf.text(MARGIN_MM, MARGIN_MM + 5.0, _latin1(f"Set-up sheet: {sheet.title}"))
    pdf.set_font("Helvetica", "", 8)
    pdf.text(
        MARGIN_MM,
        MARGIN_MM + 11.0,
        _latin1(
            f"{sheet.width_in:g} x {sheet.depth_in:g} in table at scale 1:{scale} "
            f"(1 in on the table = {mm_per_in:.2f} mm here; grid 1 in, labels every 6 in). "
            "Print at 100 %."
        ),
    )
    _draw_map(pdf, sheet, m)
    pdf.set_y(m(0, 0)[1] + 10.0)
    pdf.set_font("Helvetica", "", 7.5)
    for line in _listing(sheet):
        pdf.multi_cell(0, 3.6, _latin1(line), new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def scenario_sheet_pdf(gen: GeneratedScenario, seed: int) -> bytes:
    """``generate scenario --sheet``."""
    return sheet_pdf(scenario_sheet(gen, seed))


def terrain_sheet_pdf(layout: TerrainLayout, title: str, with_tags: bool = True) -> bytes:
    """``generate terrain --sheet``."""
    return sheet_pdf(terrain_sheet(layout, title, with_tags))


def page_map(sheet: Sheet) -> tuple[_Map, int]:
    """Table inches -> page millimetres (from the top left of page 1), and the scale's N."""
    page_w, page_h = PAGE_MM
    box_w = page_w - 2 * MARGIN_MM - 8.0
    box_h = page_h * MAP_SHARE - HEADER_MM
    scale = choose_scale(sheet.width_in, sheet.depth_in, box_w, box_h)
    left = MARGIN_MM + 8.0 + (box_w - sheet.width_in * MM_PER_IN / scale) / 2
    return _Map(left, MARGIN_MM + HEADER_MM, sheet.depth_in, scale), scale

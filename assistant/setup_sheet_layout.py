"""Where the set-up sheet draws its marks and labels so that none hides another.

Tags and objective markers are drawn where they are on the table: the player puts them there.
A figure whose circle would cover an objective, a tag or another figure is drawn beside its
place instead, the nearest free spot, with a leader line from a dot on its true place. Every
label (a terrain piece's type, an objective's VP, an army's deployment zone) goes to the first
spot around what it names that covers no mark and no other label, tried nearest first; when
there is none it takes the spot that covers least. All lengths are page millimetres (y down).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry

PT_MM = 0.3528
"""A typographic point, millimetres."""
LABEL_PAD_MM = 0.4
"""Clear space kept round a label's text."""
MARK_GAP_MM = 0.6
"""Clear space kept between a figure's circle and any other mark."""
TAG_ARROW_MM = 1.6
"""The tag's "up" arrow above its square."""

Measure = Callable[[str, float, bool], float]
"""Width of a text in millimetres at a size in points, bold or not."""

_DIRECTIONS = (
    (0.0, 1.0),
    (0.0, -1.0),
    (1.0, 0.0),
    (-1.0, 0.0),
    (0.7071, 0.7071),
    (-0.7071, 0.7071),
    (0.7071, -0.7071),
    (-0.7071, -0.7071),
)
"""Below, above, right, left, then the diagonals (page directions, y down)."""


@dataclass(frozen=True)
class Label:
    """A text centred on (x, y) as ``_label`` draws it."""

    text: str
    x: float
    y: float
    size_pt: float
    bold: bool = False

    def area(self, measure: Measure) -> Polygon:
        """The page area the text covers, with its padding."""
        return label_box(self.text, self.x, self.y, self.size_pt, self.bold, measure)


@dataclass(frozen=True)
class LabelWish:
    """A label to place: its text, what it names (a page point) and how far from it to start."""

    text: str
    x: float
    y: float
    size_pt: float
    bold: bool = False
    clear_mm: float = 0.0
    """Distance from the point to the text's nearest edge (0: centred on it first)."""
    first: tuple[float, float] | None = None
    """The direction tried first (page x, y), before below, above, right, left."""


@dataclass(frozen=True)
class PlacedFigure:
    """A figure's circle: where it is drawn and where it stands."""

    x: float
    y: float
    true_x: float
    true_y: float
    r: float

    @property
    def moved(self) -> bool:
        """Drawn beside its place (with a leader line)."""
        return math.dist((self.x, self.y), (self.true_x, self.true_y)) > 1e-6


def label_box(
    text: str, x: float, y: float, size_pt: float, bold: bool, measure: Measure
) -> Polygon:
    """The area of a text centred on (x, y): ``_label`` puts its baseline 0.35 em below y,
    so it rises about 0.45 em above y and descends about 0.55 em below."""
    em = size_pt * PT_MM
    half_w = measure(text, size_pt, bold) / 2 + LABEL_PAD_MM
    return box(x - half_w, y - 0.45 * em - LABEL_PAD_MM, x + half_w, y + 0.55 * em + LABEL_PAD_MM)


def tag_area(x: float, y: float, side_mm: float) -> Polygon:
    """A tag's square with its arrow above."""
    half = side_mm / 2
    return box(x - half, y - half - TAG_ARROW_MM, x + half, y + half)


def place_figures(
    places: Sequence[tuple[float, float]], r: float, fixed: Iterable[BaseGeometry]
) -> list[PlacedFigure]:
    """Circles of radius ``r`` at ``places``, in order; one that would touch a ``fixed`` mark
    or a figure already placed moves to the nearest free spot (away from what it touched
    first), found in steps of a fifth of ``r`` up to four diameters away."""
    taken = [g.buffer(MARK_GAP_MM / 2) for g in fixed]
    out: list[PlacedFigure] = []
    for tx, ty in places:
        spot = _free_spot(tx, ty, r, taken)
        out.append(PlacedFigure(spot[0], spot[1], tx, ty, r))
        taken.append(Point(spot).buffer(r + MARK_GAP_MM / 2))
    return out


def _free_spot(x: float, y: float, r: float, taken: Sequence[BaseGeometry]) -> tuple[float, float]:
    def clear(px: float, py: float) -> bool:
        circle = Point(px, py).buffer(r + MARK_GAP_MM / 2)
        return not any(circle.intersects(g) for g in taken)

    if clear(x, y):
        return x, y
    hit = next(g for g in taken if Point(x, y).buffer(r).intersects(g))
    centre = hit.centroid
    away = (x - centre.x, y - centre.y)
    norm = math.hypot(*away)
    directions = ([(away[0] / norm, away[1] / norm)] if norm > 1e-6 else []) + list(_DIRECTIONS)
    step = r / 5
    for k in range(1, 41):
        for dx, dy in directions:
            px, py = x + dx * step * k, y + dy * step * k
            if clear(px, py):
                return px, py
    return x, y


def place_labels(
    wishes: Sequence[LabelWish], obstacles: Iterable[BaseGeometry], measure: Measure
) -> list[Label]:
    """Each wished label at the first spot that covers no obstacle and no label placed
    before it (in the order given), else at the spot that covers least."""
    taken = list(obstacles)
    out: list[Label] = []
    for wish in wishes:
        best: tuple[float, Label] | None = None
        for label in _candidates(wish, measure):
            area = label.area(measure)
            covered = sum(area.intersection(g).area for g in taken)
            if best is None or covered < best[0]:
                best = (covered, label)
            if covered <= 1e-9:
                break
        assert best is not None
        out.append(best[1])
        taken.append(best[1].area(measure))
    return out


def _candidates(wish: LabelWish, measure: Measure) -> Iterable[Label]:
    em = wish.size_pt * PT_MM
    half_w = measure(wish.text, wish.size_pt, wish.bold) / 2
    half_h = 0.5 * em

    def at(x: float, y: float) -> Label:
        return Label(wish.text, x, y, wish.size_pt, wish.bold)

    if wish.clear_mm <= 0:
        yield at(wish.x, wish.y)
    directions = ([wish.first] if wish.first else []) + list(_DIRECTIONS)
    for extra in (0.0, 1.0, 2.0, 3.5, 5.0, 7.0, 9.5):
        gap = wish.clear_mm + extra + LABEL_PAD_MM
        for dx, dy in directions:
            yield at(wish.x + dx * (gap + half_w), wish.y + dy * (gap + half_h))

"""A pip counter for one die whose place and size are known (the learned finder's box): the
die's top face is cut out at a fixed scale, the pips are taken as the blobs of the expected
size whose colour stands apart from the face's, at several thresholds, and each threshold's
blobs are fitted to the face layouts (:func:`vision.dice.patterns.fit_pattern`). The value
most thresholds fit, and how many did, is the count's result.

Real dice show crisp pips, so where the box is right a count that every threshold agrees on
and that fits its layout well is rarely wrong; the learned face reader is surer on blurred or
tiny dice. :mod:`vision.dice.learned` takes both.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice.faces import PIP_OFFSET
from vision.dice.net import CROP_SIDES, crop
from vision.dice.patterns import FitLimits, PatternFit, fit_pattern, fit_patterns

Image = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]

SIDE_PX = 48
"""The die's side in the cut-out, pixels."""
SPAN_SIDES = 2.0
"""The cut-out spans this many die sides (a face's pips are whole in it even when the box is
off the face's centre)."""
THRESHOLDS = (0.25, 0.32, 0.4, 0.48, 0.56, 0.64)
"""Colour distances from the face (shares of the largest on the face) a pip stands apart by."""
PIP_DIAMETER_SIDES = (0.1, 0.34)
"""A pip's diameter, die sides (a one's pip is the largest)."""
FACE_MIDDLE_SIDES = 0.3
"""The face's own colour is the median within this many die sides of the box's centre."""
FACE_RADIUS_SIDES = 0.5
"""Pips are looked for within this many die sides of the box's centre."""
MAX_RESIDUAL = 0.22
"""Largest RMS distance of pips from their layout's places, pip offsets."""
SEARCH_SIDES = 0.9
"""Pips are looked for within this many die sides of the box's centre (the box may be off)."""
CENTRE_SIDES = 0.35
"""Largest distance of the fitted face's centre from the box's, die sides."""
BIGGER_CENTRE_SIDES = 0.55
"""Largest distance of the fitted face's centre from the box's, die sides, for a face of more
pips than the value asked about (which, found, means the die does not show that value)."""
FACE_CLEAR = 0.6
"""No pip of the face's pips' size lies within this many fitted die sides of its centre
unless it is one of them (part of a bigger face fits a smaller one)."""
ONE_CLEAR_SIDES = 0.8
"""A one's pip has no pip of its size within this many die sides."""
NEAREST = 8
"""Most blobs (nearest the box's centre) whose sets are tried as a face."""
MAX_SKEW_DEG = 25.0
"""Largest departure of a fitted layout's axes from a right angle, degrees (a face seen at a
slant stays near square; two pips and two corners of a die make a slanted four)."""
MAX_ELONGATION = 1.5
"""Largest ratio of a pip's longer extent to its shorter (a side face's pips are flattened)."""
MAX_AREA_RATIO = 2.2
"""Largest ratio of the biggest pip's area to the smallest's on a face of two or more."""
OFFSET_SIDES = (0.12, 0.45)
"""The fitted pip offset (face centre to a corner pip, along an axis), die sides of the box.
The finder's box of a small die (about 20-35 px) is often up to 1.6 times the die's side, so
a die's pips (about 0.27 of its side off centre) may lie only 0.14 of the box's side off it
(seen on the tuning photos)."""


FIT_LIMITS = FitLimits(
    MAX_RESIDUAL,
    0.55,
    MAX_SKEW_DEG,
    (OFFSET_SIDES[0] * SIDE_PX / PIP_OFFSET, OFFSET_SIDES[1] * SIDE_PX / PIP_OFFSET),
)
"""What a set of blobs' fit must meet to be a face (:func:`_face` checks it exactly)."""


@dataclass(frozen=True)
class PipCount:
    """What the counter made of one die."""

    value: int | None
    """The value most thresholds fitted (None: none fitted)."""
    votes: int
    """Thresholds that fitted ``value``."""
    rivals: int
    """Thresholds that fitted another value."""

    @property
    def share(self) -> float:
        """Share of the thresholds that fitted ``value``."""
        return self.votes / len(THRESHOLDS)


def cut_out(image: Image, centre_px: tuple[float, float], side_px: float) -> Image:
    """The die's neighbourhood scaled so that its side is :data:`SIDE_PX` (BGR, square of
    :data:`SPAN_SIDES` sides; outside the picture its edge is repeated)."""
    size = round(SIDE_PX * SPAN_SIDES)
    return crop(image, centre_px, side_px * SPAN_SIDES / CROP_SIDES, 0.0, size, cv2.INTER_CUBIC)


def _distance(patch: Image) -> tuple[F32, npt.NDArray[np.bool_]]:
    """Each pixel's colour distance (CIE Lab) from the colour around it (a median over about
    half a die's side, which pips are too small to move), and the disc pips are looked for in."""
    smooth = cv2.GaussianBlur(patch, (3, 3), 0)
    k = (SIDE_PX // 2) | 1
    around = cv2.medianBlur(smooth, k)
    lab = cv2.cvtColor(smooth, cv2.COLOR_BGR2LAB).astype(np.float32)
    ref = cv2.cvtColor(around, cv2.COLOR_BGR2LAB).astype(np.float32)
    n = patch.shape[0]
    yy, xx = np.mgrid[0:n, 0:n]
    c = (n - 1) / 2.0
    disc = np.hypot(xx - c, yy - c) <= FACE_RADIUS_SIDES * SIDE_PX
    dist = np.sqrt(((lab - ref) ** 2 * np.array([1.0, 1.5, 1.5], np.float32)).sum(axis=2))
    return dist.astype(np.float32), disc


def _face_distance(patch: Image) -> F32:
    """Each pixel's colour distance (CIE Lab) from the face's colour: the median over the
    middle of the cut-out (where the face lies; its pips are too few to move the median)."""
    smooth = cv2.GaussianBlur(patch, (3, 3), 0)
    lab = cv2.cvtColor(smooth, cv2.COLOR_BGR2LAB).astype(np.float32)
    n = patch.shape[0]
    yy, xx = np.mgrid[0:n, 0:n]
    c = (n - 1) / 2.0
    middle = np.hypot(xx - c, yy - c) <= FACE_MIDDLE_SIDES * SIDE_PX
    ref = np.median(lab[middle], axis=0)
    dist = np.sqrt(((lab - ref) ** 2 * np.array([1.0, 1.5, 1.5], np.float32)).sum(axis=2))
    return np.asarray(dist, np.float32)


def _blobs(mask: npt.NDArray[np.bool_]) -> list[tuple[float, float, float]]:
    """Centres and areas (cut-out pixels) of the pip-sized, round blobs of ``mask``."""
    lo, hi = (math.pi / 4.0 * (d * SIDE_PX) ** 2 for d in PIP_DIAMETER_SIDES)
    count, _, stats, centres = cv2.connectedComponentsWithStats(mask.astype(np.uint8), 8)
    out = []
    for i in range(1, count):
        area = float(stats[i, cv2.CC_STAT_AREA])
        w, h = int(stats[i, cv2.CC_STAT_WIDTH]), int(stats[i, cv2.CC_STAT_HEIGHT])
        if not lo <= area <= hi or max(w, h) > MAX_ELONGATION * min(w, h) + 1:
            continue
        if area < 0.55 * w * h:
            continue
        out.append((float(centres[i, 0]), float(centres[i, 1]), area))
    return out


PLACES = tuple((i, j) for i in (-1, 0, 1) for j in (-1, 0, 1))
"""Every place a pip can sit on a face, layout units (corners, middles of sides, centre)."""
PIPS_AT: dict[int, frozenset[tuple[int, int]]] = {
    2: frozenset({(-1, -1), (1, 1)}),
    3: frozenset({(-1, -1), (0, 0), (1, 1)}),
    4: frozenset({(-1, -1), (1, -1), (1, 1), (-1, 1)}),
    5: frozenset({(-1, -1), (1, -1), (1, 1), (-1, 1), (0, 0)}),
    6: frozenset({(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)}),
}
"""The places of each value's pips in the layouts :func:`fit_pattern` fits."""
CLEAR = 1.6
"""How many times the faintest pip's colour distance must exceed that of the place most like a
pip where the layout has none."""


def _at(mean: F32, x: float, y: float) -> float:
    """The colour distance around (x, y), cut-out pixels, from :func:`_local_mean`'s map."""
    n = mean.shape[0]
    return float(mean[min(n - 1, max(0, round(y))), min(n - 1, max(0, round(x)))])


def _local_mean(dist: F32) -> F32:
    """The colour distance averaged over a small disc's square (about a tenth of a side)."""
    k = 2 * max(1, round(0.05 * SIDE_PX)) + 1
    return np.asarray(cv2.blur(dist, (k, k), borderType=cv2.BORDER_REPLICATE), np.float32)


def _value(
    blobs: list[tuple[float, float, float]], mean: F32, values: tuple[int, ...]
) -> int | None:
    """The face that most of ``blobs`` (cut-out pixels: centre, area) make around the
    cut-out's centre, or None. The box may be off the face's centre or the wrong size, so a
    face's pips need not all lie nearest the centre: every set of up to six of the
    :data:`NEAREST` blobs nearest the centre is tried, most pips first (only as many pips as
    one of ``values`` has). A face of more pips than the least of ``values`` is looked for
    further off the centre (:data:`BIGGER_CENTRE_SIDES`): a box on part of a big die is off
    that die's centre; found there, it means no face (the die shows none of ``values`` about
    the box)."""
    c = (round(SIDE_PX * SPAN_SIDES) - 1) / 2.0
    near = sorted(
        (b for b in blobs if math.hypot(b[0] - c, b[1] - c) <= SEARCH_SIDES * SIDE_PX),
        key=lambda b: math.hypot(b[0] - c, b[1] - c),
    )[:NEAREST]
    for k in sorted((v for v in values if v <= len(near)), reverse=True):
        reach = CENTRE_SIDES if k == min(values) else BIGGER_CENTRE_SIDES
        subsets = _plausible_sets(near, k, c, reach)
        if not subsets:
            continue
        fits: list[PatternFit | None] = [None] * len(subsets)
        if k >= 2:
            xy = np.array([b[:2] for b in near], np.float64)
            fits = fit_patterns(xy[np.array(subsets)], FIT_LIMITS)
        for subset, fit in zip(subsets, fits, strict=True):
            chosen = [near[i] for i in subset]
            if k >= 2 and fit is None:
                continue
            others = [b for b in blobs if b not in chosen]
            value = _face(chosen, others, mean, reach, fit)
            if value is not None:
                centre = np.mean([b[:2] for b in chosen], axis=0)
                near_centre = math.hypot(centre[0] - c, centre[1] - c) <= CENTRE_SIDES * SIDE_PX
                return value if near_centre else None  # a bigger face off the box: not this
    return None


def _plausible_sets(
    near: list[tuple[float, float, float]], k: int, c: float, reach: float
) -> list[tuple[int, ...]]:
    """The sets of ``k`` of ``near`` that pass :func:`_plausible`, in the order of
    :func:`itertools.combinations`: its checks in arrays, and :func:`_plausible` itself only
    for sets within a hair of a limit."""
    combos = list(itertools.combinations(range(len(near)), k))
    if k == 1 or not combos:
        return combos
    blobs = np.array(near, np.float64)[np.array(combos)]  # (S, k, 3)
    areas = blobs[:, :, 2]
    xy = blobs[:, :, :2]
    gaps = np.hypot(*(xy[:, :, None] - xy[:, None, :]).transpose(3, 0, 1, 2))
    # each check as (measure, limit): passed when measure <= limit
    checks = (
        (areas.max(axis=1), MAX_AREA_RATIO * areas.min(axis=1)),
        (np.hypot(*(xy.mean(axis=1) - c).T), np.full(len(combos), reach * SIDE_PX)),
        (
            gaps.reshape(len(combos), -1).max(axis=1),
            np.full(len(combos), 2.0 * math.sqrt(2.0) * OFFSET_SIDES[1] * SIDE_PX * 1.1),
        ),
    )
    sure = np.ones(len(combos), bool)
    maybe = np.ones(len(combos), bool)
    for measure, limit in checks:
        sure &= measure <= limit * (1.0 - 1e-9) - 1e-9
        maybe &= measure <= limit * (1.0 + 1e-9) + 1e-9
    return [
        s
        for i, s in enumerate(combos)
        if sure[i] or (maybe[i] and _plausible([near[j] for j in s], c, reach))
    ]


def _plausible(blobs: list[tuple[float, float, float]], c: float, reach: float) -> bool:
    """Cheap checks before a layout is fitted: pips of one size, centred within ``reach`` die
    sides of the cut-out's centre (every layout's pips are centred on the face), no two too
    far apart."""
    if len(blobs) == 1:
        return True
    areas = [a for *_, a in blobs]
    if max(areas) > MAX_AREA_RATIO * min(areas):
        return False
    xy = np.array([b[:2] for b in blobs])
    if np.hypot(*(xy.mean(axis=0) - c)) > reach * SIDE_PX:
        return False
    span = np.hypot(*(xy[:, None] - xy[None, :]).transpose(2, 0, 1)).max()
    return bool(span <= 2.0 * math.sqrt(2.0) * OFFSET_SIDES[1] * SIDE_PX * 1.1)


def _alike(
    blobs: list[tuple[float, float, float]], others: list[tuple[float, float, float]]
) -> list[tuple[float, float]]:
    """The centres of ``others`` of about the size of the pips ``blobs``."""
    size = float(np.median([a for *_, a in blobs]))
    return [(b[0], b[1]) for b in others if size / MAX_AREA_RATIO <= b[2] <= size * MAX_AREA_RATIO]


def _face(
    blobs: list[tuple[float, float, float]],
    others: list[tuple[float, float, float]],
    mean: F32,
    reach: float,
    fit: PatternFit | None = None,
) -> int | None:
    """The face the pips ``blobs`` make (fitted as ``fit`` when given), or None (their sizes and spread checked already by
    :func:`_plausible`): pips that fit a layout centred within ``reach`` die sides of the
    cut-out's centre, with none of the ``others`` of their size on the face and the layout's empty
    places looking like the face, not like pips."""
    n = len(blobs)
    pips = [(x, y) for x, y, _ in blobs]
    c = (round(SIDE_PX * SPAN_SIDES) - 1) / 2.0
    if n == 1:
        x, y = pips[0]
        if math.hypot(x - c, y - c) > reach * SIDE_PX:
            return None
        if any(
            math.hypot(o[0] - x, o[1] - y) < ONE_CLEAR_SIDES * SIDE_PX
            for o in _alike(blobs, others)
        ):
            return None  # a pip near it: a face of more, its box too small
        off = PIP_OFFSET * SIDE_PX
        ring = [
            _at(mean, x + rad * math.cos(a), y + rad * math.sin(a))
            for rad in (off, off * math.sqrt(2.0))
            for a in np.linspace(0.0, 2.0 * math.pi, 24, endpoint=False)
        ]
        return 1 if _at(mean, x, y) > CLEAR * max(ring) else None
    if not 2 <= n <= 6:
        return None
    if fit is None:
        fit = fit_pattern(np.array(pips, np.float64))
    if fit is None or fit.residual > MAX_RESIDUAL or fit.squash < 0.55:
        return None
    if fit.skew_deg > MAX_SKEW_DEG:
        return None
    lo, hi = OFFSET_SIDES
    if not lo * SIDE_PX <= fit.offset_px <= hi * SIDE_PX:
        return None
    if math.hypot(fit.centre[0] - c, fit.centre[1] - c) > reach * SIDE_PX:
        return None
    alike = np.array(_alike(blobs, others), np.float64).reshape(-1, 2)
    reach = FACE_CLEAR * fit.offset_px / PIP_OFFSET
    if len(alike) and (
        np.abs(fit.to_layout(alike)).max(axis=1).min() < 1.6
        or np.hypot(*(alike - fit.centre).T).min() < reach
    ):
        return None  # another pip on the face
    full = [fit.centre + fit.axes @ np.array(p, np.float64) for p in PIPS_AT[fit.value]]
    empty = [
        fit.centre + fit.axes @ np.array(p, np.float64)
        for p in PLACES
        if p not in PIPS_AT[fit.value]
    ]
    faintest = min(_at(mean, float(q[0]), float(q[1])) for q in full)
    likest = max(_at(mean, float(q[0]), float(q[1])) for q in empty)
    return fit.value if faintest > CLEAR * likest else None


def count_pips(
    image: Image,
    centre_px: tuple[float, float],
    side_px: float,
    values: tuple[int, ...] = (1, 2, 3, 4, 5, 6),
) -> PipCount:
    """Count the pips of the die at ``centre_px`` with side ``side_px`` (picture pixels),
    looking for the faces ``values`` only (the value of a die and those above it: whether the
    die shows it and not a face it is part of). Faces of more pips than any of ``values`` are
    looked for too and, found, count for none of them (the pips asked about are part of a
    bigger face). The pips are first told apart from the colour around each pixel (a face
    lit unevenly); where no face at all is found so, from the face's own colour (near the face's
    edge the colour around takes in the table, and the rim stands apart and joins the pips:
    a die that fills its box on a table darker or lighter than it)."""
    search = tuple(range(min(values), 7))
    patch = cut_out(image, centre_px, side_px)
    dist, disc = _distance(patch)
    count, any_face = _count(dist, disc, values, search)
    if not any_face:
        count, _ = _count(_face_distance(patch), disc, values, search)
    return count


def _count(
    dist: F32, disc: npt.NDArray[np.bool_], values: tuple[int, ...], search: tuple[int, ...]
) -> tuple[PipCount, bool]:
    """The count from a colour-distance map of the cut-out (``disc``: where pips are looked
    for; ``search``: the faces tried), and whether any threshold found any of those faces."""
    top = float(np.percentile(dist[disc], 99.5))
    if top < 20.0:
        return PipCount(None, 0, 0), False
    mean = _local_mean(dist)
    votes: Counter[int] = Counter()
    seen: dict[tuple[tuple[float, float, float], ...], int | None] = {}
    for t in THRESHOLDS:
        blobs = tuple(_blobs(dist > t * top))
        if blobs not in seen:
            seen[blobs] = _value(list(blobs), mean, search)
        value = seen[blobs]
        if value in values:
            votes[value] += 1
    any_face = any(v is not None for v in seen.values())
    if not votes:
        return PipCount(None, 0, 0), any_face
    (value, n), *rest = votes.most_common()
    return PipCount(value, n, sum(k for _, k in rest)), any_face


__all__ = ["PIP_OFFSET", "PipCount", "count_pips", "cut_out"]

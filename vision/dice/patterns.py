"""Which face a small set of pips shows, allowing for the way real dice and real cameras bend
the ideal layout.

A face's pips are fitted to the layout of its value by an affine map (any turn, the
foreshortening of a camera that looks down at a slant, and the makers' habit of setting the
two rows of a six closer together than the pips of a four): the pips are matched to the
layout's places under every ordering at once (one of each set of orderings the layout's own
turns and mirrors make alike) and the ordering with the smallest residual is kept. Three pips
must lie on a line, evenly spaced; two pips are a diagonal. What comes out is the face's
value, centre, the die's side and axes in pixels, and how well and how squarely the pips fit.
Many groups of as many pips are fitted at once by :func:`fit_patterns`. Whether the fitted
face is really a die's top face is judged by :mod:`vision.dice.photo`.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from vision.dice.faces import PIP_OFFSET

F64 = npt.NDArray[np.float64]

HALF_SIDE = 0.5 / PIP_OFFSET
"""Half the die's side in layout units (a corner pip sits at (1, 1))."""

LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    4: ((-1, -1), (1, -1), (1, 1), (-1, 1)),
    5: ((-1, -1), (1, -1), (1, 1), (-1, 1), (0, 0)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}
"""Places of the four, five and six in layout units (the others are fitted otherwise)."""


@dataclass(frozen=True)
class PatternFit:
    """Pips fitted to one face layout (image or view pixels)."""

    value: int
    centre: F64
    """The face centre (the layout's origin), pixels."""
    axes: F64
    """2 x 2: the layout's unit vectors u, v in pixels (columns), so that a place (i, j) lies at
    centre + axes @ (i, j)."""
    residual: float
    """RMS distance of the pips from their places, over the pip offset."""
    squash: float
    """Smaller over larger singular value of ``axes`` (1: seen square-on; a six's columns sit
    closer than its rows on many dice, so a six squarely seen may measure 0.6)."""
    skew_deg: float
    """How far the layout's axes are from a right angle, degrees."""

    offset_px: float = 0.0
    """The pip offset (centre to a corner pip along one axis), pixels: the larger axis."""

    @property
    def side_px(self) -> float:
        """The die's side, pixels."""
        return self.offset_px / PIP_OFFSET

    def to_layout(self, points: F64) -> F64:
        """Pixel points (N, 2) in layout units."""
        return np.asarray(
            np.linalg.solve(self.axes, (np.asarray(points) - self.centre).T).T, dtype=np.float64
        )


@cache
def _orderings(value: int) -> tuple[npt.NDArray[np.intp], F64]:
    """One ordering of ``value`` pips per class of orderings that the layout's own symmetries
    (turns and mirrors that map its places onto its places: any of them fits the same points
    equally well) carry into one another, and the least-squares solver of the layout's affine
    fit (3, n). Of the 24, 120 and 720 orderings of a four, five and six, 3, 15 and 180."""
    places = np.array(LAYOUTS[value], dtype=np.float64)
    design = np.hstack([places, np.ones((len(places), 1))])
    index = {(float(x), float(y)): i for i, (x, y) in enumerate(places)}
    moves = []
    for m in (np.array(a, np.float64).reshape(2, 2) for a in _SQUARE_TURNS):
        moved = [index.get((float(x), float(y))) for x, y in places @ m.T]
        if all(i is not None for i in moved):
            moves.append([int(i) for i in moved if i is not None])
    kept = [
        p
        for p in itertools.permutations(range(value))
        if all(p <= tuple(p[m.index(j)] for j in range(value)) for m in moves)
    ]
    return np.array(kept, dtype=np.intp), np.linalg.pinv(design)


_SQUARE_TURNS = (
    (1, 0, 0, 1),
    (-1, 0, 0, 1),
    (1, 0, 0, -1),
    (-1, 0, 0, -1),
    (0, 1, 1, 0),
    (0, -1, 1, 0),
    (0, 1, -1, 0),
    (0, -1, -1, 0),
)
"""The turns and mirrors of a square (2 x 2 matrices, row by row)."""


def fit_pattern(points: F64) -> PatternFit | None:
    """The layout that ``points`` (N, 2 pixels; N = 2-6) fit best, or None when they make no
    face (three not on an even line, four to six on no affine copy of their layout)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return fit_patterns(pts[None])[0]


FIT_BATCH = 256
"""Groups of pips fitted in one array operation (bounds the memory a batch of sixes takes:
180 orderings each)."""
SLACK = 1e-6
"""Relative margin by which :func:`fit_patterns` keeps fits near its limits (the caller checks
them exactly)."""


@dataclass(frozen=True)
class FitLimits:
    """What a fit must meet to be worth returning (:func:`fit_patterns`)."""

    max_residual: float = math.inf
    min_squash: float = 0.0
    max_skew_deg: float = 90.0
    side_px: tuple[float, float] = (0.0, math.inf)


def fit_patterns(groups: F64, limits: FitLimits | None = None) -> list[PatternFit | None]:
    """:func:`fit_pattern` of many groups of as many pips each (G, N, 2 pixels) at once; a
    fit that clearly misses ``limits`` is None (one near them is returned: check it)."""
    pts = np.asarray(groups, dtype=np.float64)
    n = pts.shape[1]
    lim = limits or FitLimits()
    if n not in (2, 3, *LAYOUTS):
        return [None] * len(pts)
    out: list[PatternFit | None] = []
    for start in range(0, len(pts), FIT_BATCH):
        part = pts[start : start + FIT_BATCH]
        if n == 2:
            keep = _within(
                lim,
                np.zeros(len(part)),
                np.ones(len(part)),
                np.zeros(len(part)),
                _diagonal_offsets(part[:, 0], part[:, 1]),
            )
            out.extend(
                _diagonal(g[0], g[1], 2, 0.0) if k else None
                for g, k in zip(part, keep, strict=True)
            )
        elif n == 3:
            resid, offset = _three_batch(part)
            keep = _within(lim, resid, np.ones(len(part)), np.zeros(len(part)), offset)
            out.extend(_three(g) if k else None for g, k in zip(part, keep, strict=True))
        else:
            out.extend(_fit_affine(part, n, lim))
    return out


def _within(
    lim: FitLimits, residual: F64, squash: F64, skew: F64, offset: F64
) -> npt.NDArray[np.bool_]:
    """Which fits meet ``lim`` or come within :data:`SLACK` of it."""
    side = offset / PIP_OFFSET
    up, down = 1.0 + SLACK, 1.0 - SLACK
    return np.asarray(
        (residual <= lim.max_residual * up + SLACK)
        & (squash >= lim.min_squash * down - SLACK)
        & (skew <= lim.max_skew_deg * up + SLACK)
        & (side >= lim.side_px[0] * down)
        & (side <= lim.side_px[1] * up)
    )


def _diagonal_offsets(a: F64, b: F64) -> F64:
    """The pip offset of :func:`_diagonal`'s square for diagonals from ``a`` to ``b`` (N, 2)."""
    return np.asarray(np.hypot(*((b - a) / 2.0).T) / math.sqrt(2.0))


def _three_batch(pts: F64) -> tuple[F64, F64]:
    """:func:`_three`'s residual and pip offset for many triples (N, 3, 2) (inf: none)."""
    best_r = np.full(len(pts), np.inf)
    best_o = np.zeros(len(pts))
    for mid in range(3):
        a, b = (pts[:, i] for i in range(3) if i != mid)
        length = np.hypot(*(b - a).T)
        off = np.hypot(*(pts[:, mid] - (a + b) / 2.0).T) / np.maximum(length / 2.0, 1e-12)
        resid = np.where(length > 1e-6, off * math.sqrt(2.0), np.inf)
        better = resid < best_r
        best_r = np.where(better, resid, best_r)
        best_o = np.where(better, _diagonal_offsets(a, b), best_o)
    return best_r, best_o


def _fit_affine(pts: F64, n: int, lim: FitLimits) -> list[PatternFit | None]:
    """The fits of groups of four to six pips (G, n, 2) to their layout."""
    perms, solver = _orderings(n)
    places = np.array(LAYOUTS[n], dtype=np.float64)
    design = np.hstack([places, np.ones((n, 1))])
    q = pts[:, perms]  # (G, P, n, 2)
    coef = np.einsum("kn,gpnd->gpkd", solver, q)  # (G, P, 3, 2): rows u, v, centre
    fitted = np.einsum("nk,gpkd->gpnd", design, coef)
    err = np.sqrt(((fitted - q) ** 2).sum(axis=3).mean(axis=2))
    best = np.argmin(err, axis=1)
    rows = np.arange(len(q))
    chosen = coef[rows, best]  # (G, 3, 2)
    axes = np.swapaxes(chosen[:, :2, :], 1, 2)
    sv = np.linalg.svd(axes, compute_uv=False)  # (G, 2)
    big = np.maximum(sv[:, 0], 1e-12)
    u, v = axes[:, :, 0], axes[:, :, 1]
    cosang = (u * v).sum(axis=1) / np.maximum(np.hypot(*u.T) * np.hypot(*v.T), 1e-12)
    skew = np.abs(90.0 - np.degrees(np.arccos(np.clip(cosang, -1.0, 1.0))))
    keep = _within(lim, err[rows, best] / big, sv[:, 1] / big, skew, sv[:, 0])
    return [_affine(n, chosen[g], float(err[g, best[g]])) if keep[g] else None for g in rows]


def _affine(value: int, coef: F64, err: float) -> PatternFit | None:
    """The fit of a four to six from its best ordering's affine coefficients (3, 2: rows u, v,
    centre) and RMS error, pixels."""
    axes = coef[:2, :].T  # columns u, v
    centre = coef[2, :]
    sv = np.linalg.svd(axes, compute_uv=False)
    if sv[1] <= 1e-6:
        return None
    squash = float(sv[1] / sv[0])
    cosang = float(axes[:, 0] @ axes[:, 1]) / float(
        np.linalg.norm(axes[:, 0]) * np.linalg.norm(axes[:, 1])
    )
    skew = abs(90.0 - math.degrees(math.acos(max(-1.0, min(1.0, cosang)))))
    return PatternFit(value, centre, axes, err / float(sv[0]), squash, skew, float(sv[0]))


def _diagonal(a: F64, b: F64, value: int, residual: float) -> PatternFit:
    """A two (or three) from the two corner pips of its diagonal: a square face whose
    diagonal runs from ``a`` to ``b``."""
    centre = (a + b) / 2.0
    d = (b - a) / 2.0  # centre to b = u + v for a square layout
    rot = np.array([[0.0, -1.0], [1.0, 0.0]])
    perp = rot @ d
    u = (d + perp) / 2.0
    v = (d - perp) / 2.0
    axes = np.stack([u, v], axis=1)
    return PatternFit(value, centre, axes, residual, 1.0, 0.0, float(np.linalg.norm(u)))


def _three(pts: F64) -> PatternFit | None:
    """Three pips on an even line (the middle one at the ends' midpoint), as a diagonal."""
    best: PatternFit | None = None
    for mid in range(3):
        a, b = (pts[i] for i in range(3) if i != mid)
        length = float(np.linalg.norm(b - a))
        if length <= 1e-6:
            continue
        off = float(np.linalg.norm(pts[mid] - (a + b) / 2.0)) / (length / 2.0)
        resid = off * math.sqrt(2.0)  # in pip offsets: half the diagonal is sqrt(2) of them
        if best is None or resid < best.residual:
            best = _diagonal(a, b, 3, resid)
    return best

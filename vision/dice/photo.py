"""Reading dice in a photo with no tray to measure by: any picture of dice, from above or at a
slant, with dice of several sizes, colours and pip colours side by side.

1. Pips of both kinds (dark on light faces, light on dark faces) are found as in the tray
   reader (:mod:`vision.dice.pips`), on the lightness and on the colour channels.
2. Every small group of like pips near one another (same kind, size and face lightness) is
   fitted to the layout of its count (:mod:`vision.dice.patterns`); a group is a face when its
   pips fit, its square holds no other like pip and its size is a die's.
3. The faces are taken best first without sharing a pip; a face beside a rounder-pipped face
   whose pips it flattens is that die's side face, not a die.
4. A pip with no like pip on its face is a one when the face around it is plain.

Each face read gets a confidence from how it was found (:func:`confidence`); a face under
:data:`SURE` is reported unsure, never given as a value.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice.patterns import PIP_OFFSET, FitLimits, PatternFit, fit_patterns
from vision.dice.pips import F64, Pip, Polarity, find_pips, pip_responses
from vision.dice.types import SURE, DiceRead, DieFound, DieUnread, Unreadable
from vision.dice.view import DiceView

Image = npt.NDArray[np.uint8]
Grey = npt.NDArray[np.uint8]

WEIGHTS_FILE = Path(__file__).with_name("confidence.json")
"""The confidence model's weights, written by :mod:`vision.dice.train.confidence`."""
CONFIDENCE_WEIGHTS = np.array(json.loads(WEIGHTS_FILE.read_text())["weights"], dtype=np.float64)
"""One weight per feature, then the bias."""

TAG_MARGIN = 1.4
"""A tag's cells and white margin, over its black square: no pips there."""
FACE_L_SHARE = {Polarity.DARK: 0.2, Polarity.LIGHT: 0.6}
"""How much the face's lightness around two pips of one face may differ, over the lighter
(the ring around a light pip catches the glow of its neighbours)."""
SIZE_SLACK = 1.4
"""How much smaller or larger than the estimated range a die may be (the estimate comes from
pips and may miss the size of a few big or small dice)."""
NOT_A_DIE = 0.6
"""Confidence under which a face is not reported at all: on the tuning photos most faces found
under it lie where no die is (specks of a cloth, a tag's cells), and no table frame of the
sample footage gives one above it."""
NEIGHBOURS = 7
"""Like pips around a pip that groups are formed from (a face has at most six)."""
MAX_RESIDUAL = {1: 0.0, 2: 0.0, 3: 0.3, 4: 0.22, 5: 0.22, 6: 0.22}
"""Largest RMS distance of a face's pips from their places, in pip offsets."""
MIN_SQUASH = {1: 0.0, 2: 0.0, 3: 0.0, 4: 0.5, 5: 0.5, 6: 0.4}
"""Most foreshortening a face may show (smaller over larger axis)."""
MAX_SKEW_DEG = 25.0
"""Most a face's axes may be off a right angle (a slanted view of a turned face)."""
MAX_SPOTTY = 0.1
"""Largest share of a face's samples between its pips that look like pip (a textured cloth)."""
MAX_GROOVE = 0.8
"""Deepest dip between a face's pips, over their contrast."""
MAX_ROUGH = 0.45
"""Widest spread of a face's lightness between its pips, over their contrast."""
MAX_FILLED = 0.5
"""Most a place with no pip may look like a pip, over the pips' contrast."""
INSIDE = 1.5
"""Half-width of a face, in pip offsets, inside which every like pip must be its own."""


@dataclass
class PhotoFace:
    """A face found in the view."""

    fit: PatternFit
    members: tuple[int, ...]
    pips: list[Pip]
    score: float = 0.0
    checks: FaceChecks | None = None
    """How it looks between and around its pips, once checked."""

    @property
    def value(self) -> int:
        """Pips on the face."""
        return self.fit.value

    @property
    def side(self) -> float:
        """The die's side, view pixels."""
        return self.fit.side_px


def _alike_matrix(pips: list[Pip]) -> npt.NDArray[np.bool_]:
    """For every pair of pips, whether they could be on one face: same kind, about the same
    size, on faces about as light."""
    dark = np.array([p.polarity is Polarity.DARK for p in pips])
    diam = np.array([p.diameter for p in pips])
    face_l = np.array([p.face_l for p in pips])
    big = np.maximum(diam[:, None], diam[None, :])
    small = np.minimum(diam[:, None], diam[None, :])
    light = np.maximum(face_l[:, None], face_l[None, :])
    share = np.where(dark[:, None], FACE_L_SHARE[Polarity.DARK], FACE_L_SHARE[Polarity.LIGHT])
    return np.asarray(
        (dark[:, None] == dark[None, :])
        & (big <= 1.5 * small)
        & (np.abs(face_l[:, None] - face_l[None, :]) <= 20.0 + share * light)
    )


def find_faces(pips: list[Pip], side_px: tuple[float, float]) -> list[PhotoFace]:
    """Every group of 2-6 like pips that fits a face of a die between ``side_px`` (view
    pixels), with no other like pip inside its square; best first."""
    n = len(pips)
    if n < 2:
        return []
    s_lo, s_hi = side_px
    reach = 2.0 * math.sqrt(2.0) * PIP_OFFSET * s_hi * 1.1
    xy = np.array([[p.x, p.y] for p in pips], dtype=np.float64)
    dist = np.linalg.norm(xy[:, None] - xy[None, :], axis=2)
    like = _alike_matrix(pips)
    linked = like & (dist <= reach)
    np.fill_diagonal(linked, False)
    span_lo = 2.0 * PIP_OFFSET * s_lo * 0.9
    groups: list[tuple[int, ...]] = []

    def grow(group: tuple[int, ...], span: float, options: list[int]) -> None:
        if len(group) >= 2 and span >= span_lo:
            groups.append(group)
        if len(group) == 6:
            return
        for k, j in enumerate(options):
            wider = max(span, float(dist[j, list(group)].max()))
            grow((*group, j), wider, [m for m in options[k + 1 :] if linked[j, m]])

    for a in range(n):
        near = [int(j) for j in np.argsort(dist[a]) if j > a and linked[a, j]][:NEIGHBOURS]
        grow((a,), 0.0, sorted(near))
    fits: dict[tuple[int, ...], PatternFit | None] = {}
    for size in range(2, 7):
        of_size = [g for g in groups if len(g) == size]
        if of_size:
            limits = FitLimits(MAX_RESIDUAL[size], MIN_SQUASH[size], MAX_SKEW_DEG, (s_lo, s_hi))
            fitted = fit_patterns(xy[np.array(of_size)], limits)
            fits.update(zip(of_size, fitted, strict=True))
    faces = [
        f for g in groups if (f := _face(g, fits[g], pips, xy, like, (s_lo, s_hi))) is not None
    ]
    faces.sort(key=lambda f: -f.score)
    return faces


def _face(
    group: tuple[int, ...],
    fit: PatternFit | None,
    pips: list[Pip],
    xy: F64,
    like: npt.NDArray[np.bool_],
    side_px: tuple[float, float],
) -> PhotoFace | None:
    """The face a group of pips makes (fitted as ``fit``), or None."""
    if fit is None:
        return None
    v = fit.value
    if fit.residual > MAX_RESIDUAL[v] or fit.squash < MIN_SQUASH[v] or fit.skew_deg > MAX_SKEW_DEG:
        return None
    if not side_px[0] <= fit.side_px <= side_px[1]:
        return None
    members = [pips[i] for i in group]
    diam = float(np.median([p.diameter for p in members]))
    if not 0.3 * fit.offset_px <= diam <= 1.2 * fit.offset_px:
        return None
    others = [i for i in np.flatnonzero(like[group[0]]).tolist() if i not in group]
    if others:
        uv = fit.to_layout(xy[others])
        if (np.abs(uv) <= INSIDE).all(axis=1).any():
            return None
    score = v - fit.residual - 0.5 * (1.0 - fit.squash)
    return PhotoFace(fit, group, members, score)


def _sample(lightness: Grey, points: F64) -> F64:
    """Lightness at view points (N, 2), bilinear; NaN outside the view."""
    h, w = lightness.shape
    pts = np.asarray(points, dtype=np.float32).reshape(-1, 1, 2)
    out = (
        cv2.remap(
            lightness,
            pts[..., 0],
            pts[..., 1],
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=0,
        )
        .astype(np.float64)
        .ravel()
    )
    inside = (
        (pts[:, 0, 0] >= 0)
        & (pts[:, 0, 0] <= w - 1)
        & (pts[:, 0, 1] >= 0)
        & (pts[:, 0, 1] <= h - 1)
    )
    out[~inside] = np.nan
    return out


_PLACES: dict[int, set[tuple[float, float]]] = {
    1: {(0.0, 0.0)},
    2: {(-1.0, -1.0), (1.0, 1.0)},
    3: {(-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)},
    4: {(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)},
    5: {(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0), (0.0, 0.0)},
    6: {(-1.0, -1.0), (-1.0, 0.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 0.0), (1.0, 1.0)},
}
_GRID = np.array([(u, v) for u in np.linspace(-1.5, 1.5, 9) for v in np.linspace(-1.5, 1.5, 9)])
_RING = np.array(
    [[math.cos(a), math.sin(a)] for a in np.linspace(0, 2 * math.pi, 16, endpoint=False)]
)
_DISC = np.array(
    [(0.0, 0.0)]
    + [(math.cos(a), math.sin(a)) for a in np.linspace(0, 2 * math.pi, 8, endpoint=False)]
)
_EMPTY = {
    v: np.array(
        [g for g in itertools.product((-1.0, 0.0, 1.0), repeat=2) if g not in _PLACES[v]]
    ).reshape(-1, 2)
    for v in range(1, 7)
}
"""Per value, the places of the 3 x 3 grid where its face has no pip."""


def _square_axes(fit: PatternFit) -> F64:
    """The face's axes with a six's column axis stretched to its row axis's length (its
    columns sit closer than the face is wide)."""
    if fit.value != 6:
        return fit.axes
    u, v = fit.axes[:, 0], fit.axes[:, 1]
    u = u * float(np.linalg.norm(v)) / max(float(np.linalg.norm(u)), 1e-9)
    return np.stack([u, v], axis=1)


@dataclass(frozen=True)
class FaceChecks:
    """How a face looks between and around its pips."""

    spotty: float
    """Share of the face's samples between its pips as dark (or light) as a pip would be: a
    face on a speckled cloth is not plain."""
    filled: float
    """How much the most pip-like place of its layout with no pip looks like a pip after all,
    over the pips' contrast: about 1 is a pip the detector missed (a two is then a four)."""
    rough: float
    """Spread of the face's lightness between its pips (10th to 90th percentile) over the
    pips' contrast: a die's face is smooth, a cloth's weave or glitter is not."""
    groove: float
    """The deepest dip (toward the pips' kind) on the straight paths between its pips, over
    the pips' contrast: about 1 or more is the gap between two dice, not one face."""

    def passed(self) -> bool:
        """Whether the face may be a die's top face."""
        return (
            self.spotty <= MAX_SPOTTY
            and self.filled <= MAX_FILLED
            and self.groove <= MAX_GROOVE
            and self.rough <= MAX_ROUGH
        )


def face_checks(lightness: Grey, smooth: Grey, fit: PatternFit, members: list[Pip]) -> FaceChecks:
    """The checks of a face on the view's lightness (``smooth``: the same, blurred to the
    pips' scale)."""
    pol = members[0].polarity
    sign = 1.0 if pol is Polarity.DARK else -1.0  # toward the pips' kind: darker for dark
    contrast = max(float(np.median([p.contrast for p in members])), 1.0)
    face_l = float(np.median([p.face_l for p in members]))
    pts = fit.centre + _GRID @ _square_axes(fit).T
    keep = np.ones(len(pts), bool)
    for p in members:
        keep &= np.hypot(pts[:, 0] - p.x, pts[:, 1] - p.y) > 1.3 * p.major + 1.0
    vals = _sample(lightness, pts[keep])
    if vals.size == 0 or np.isnan(vals).any():
        return FaceChecks(1.0, 1.0, 1.0, 1.0)
    spotty = float((sign * (face_l - vals) > 0.5 * contrast).mean())
    rough = float(np.percentile(vals, 90) - np.percentile(vals, 10)) / contrast
    if fit.value == 1:
        offset = float(fit.axes[0, 0])
        places = np.vstack([_RING * offset, _RING * offset * math.sqrt(2.0)])
    else:
        places = _EMPTY[fit.value] @ fit.axes.T
    r = 0.3 * float(np.linalg.svd(fit.axes, compute_uv=False)[1])
    centres = (fit.centre + places)[:, None, :] + _DISC[None] * r
    vals = _sample(smooth, centres.reshape(-1, 2)).reshape(len(places), len(_DISC))
    vals = np.nan_to_num(vals, nan=face_l)
    filled = float(np.max(sign * (face_l - vals))) / contrast
    groove = 0.0
    centres_px = np.array([[p.x, p.y] for p in members])
    clear = np.array([1.4 * p.major + 1.0 for p in members])
    t = np.linspace(0.0, 1.0, 12)
    paths = []
    for i, a in enumerate(members):
        for b in members[i + 1 :]:
            paths.append(np.stack([a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t], axis=1))
    if paths:
        path = np.vstack(paths)
        gap = np.linalg.norm(path[:, None, :] - centres_px[None], axis=2)
        off = (gap > clear[None]).all(axis=1)
        if off.any():
            dip = _sample(lightness, path[off])
            groove = float(np.nanmax(sign * (face_l - dip))) / contrast
    return FaceChecks(spotty, filled, rough, groove)


def lone_faces(pips: list[Pip], taken: list[PhotoFace], side: float) -> list[PhotoFace]:
    """Ones: pips on no face taken, with no like pip within a face of ``side`` view pixels
    around them, as faces of that size (the checks of :func:`face_checks` decide)."""
    used = {i for f in taken for i in f.members}
    offset = PIP_OFFSET * side
    out = []
    for i, p in enumerate(pips):
        if i in used or not 0.1 * side <= p.diameter <= 0.5 * side:
            continue
        if any(np.linalg.norm(p.xy - f.fit.centre) < 0.75 * max(f.side, side) for f in taken):
            continue
        if any(
            j != i
            and q.polarity is p.polarity
            and abs(q.x - p.x) < INSIDE * offset
            and abs(q.y - p.y) < INSIDE * offset
            for j, q in enumerate(pips)
        ):
            continue
        fit = PatternFit(1, p.xy, np.eye(2) * offset, 0.0, p.roundness, 0.0, offset)
        out.append(PhotoFace(fit, (i,), [p], 1.0))
    return out


def pick_faces(
    faces: list[PhotoFace], accept: Callable[[PhotoFace], bool] = lambda f: True
) -> list[PhotoFace]:
    """The faces taken best first, none sharing a pip or lying on another's centre, each
    ``accept``-ed (checked only when it would be taken: the checks cost more than the
    search)."""
    kept: list[PhotoFace] = []
    used: set[int] = set()
    for f in faces:
        if used & set(f.members):
            continue
        if any(
            np.linalg.norm(f.fit.centre - k.fit.centre) < 0.5 * min(f.side, k.side) for k in kept
        ):
            continue
        if not accept(f):
            continue
        kept.append(f)
        used |= set(f.members)
    return kept


def _typical_side(faces: list[PhotoFace], side_px: tuple[float, float]) -> float:
    """The dice' side in the view: the median of the faces of four pips or more, else of all
    faces, else the middle of the range looked for."""
    big = [f.side for f in faces if f.value >= 4]
    sides = big or [f.side for f in faces]
    return float(np.median(sides)) if sides else math.sqrt(side_px[0] * side_px[1])


def features(face: PhotoFace, typical: float) -> F64:
    """What the confidence is computed from (:data:`FEATURES` names them)."""
    fit, ch = face.fit, face.checks
    assert ch is not None
    contrast = min(p.contrast for p in face.pips)
    return np.array(
        [
            ch.spotty,
            ch.filled,
            ch.rough,
            ch.groove,
            fit.residual,
            1.0 - fit.squash,
            min(1.0, contrast / 60.0),
            float(np.median([p.roundness for p in face.pips])),
            abs(math.log(face.side / typical)) if face.value > 1 else 0.0,
            float(face.value == 1),
            float(face.value == 2),
            float(face.pips[0].polarity is Polarity.LIGHT),
        ]
    )


FEATURES = (
    "spotty",
    "filled",
    "rough",
    "groove",
    "residual",
    "squash",
    "contrast",
    "roundness",
    "size",
    "one",
    "two",
    "light pips",
)
"""Names of :func:`features`' entries, in order."""


def confidence(face: PhotoFace, typical: float) -> float:
    """0-1: how surely the face's value is read, the chance that a face with its features is
    read right as fitted on the tuning photos (:mod:`vision.dice.train.confidence`)."""
    w = CONFIDENCE_WEIGHTS
    z = float(features(face, typical) @ w[:-1] + w[-1])
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def read_photo(image: Image, view: DiceView, tags_px: Sequence[F64] = ()) -> DiceRead:
    """Read the dice in a photo through its whole-image ``view``: the values read surely,
    and the dice seen but not read surely (unsure, with the value guessed). ``tags_px``: the
    corners (4 x 2, image pixels) of the tags in the picture, whose cells are no pips."""
    faces, typical, scale = photo_faces(image, view, tags_px)
    found = []
    unsure = []
    for f in faces:
        xy = view.to_image_px(f.fit.centre)[0]
        conf = confidence(f, typical)
        if conf < NOT_A_DIE:
            continue
        if conf >= SURE:
            found.append(
                DieFound(f.value, float(xy[0]), float(xy[1]), conf, side_px=f.side / scale)
            )
        else:
            unsure.append(
                DieUnread(
                    Unreadable.UNSURE, float(xy[0]), float(xy[1]), guess=f.value, confidence=conf
                )
            )
    found.sort(key=lambda d: (d.y_px, d.x_px))
    unsure.sort(key=lambda d: (d.y_px, d.x_px))
    if not found:
        # with no face read surely, the faces left are as likely specks as dice: a picture
        # of no dice must report none (measured on the empty parts of the real photos)
        return DiceRead((), ())
    return DiceRead(tuple(found), tuple(unsure))


def photo_faces(
    image: Image, view: DiceView, tags_px: Sequence[F64] = ()
) -> tuple[list[PhotoFace], float, float]:
    """The faces found in a photo (view pixels, each checked), the dice' typical side (view
    pixels) and the view's scale (view pixels per image pixel). Pips on the tags whose
    corners ``tags_px`` gives (image pixels) are left out."""
    top = view.render(image)
    if top.ndim == 2:
        top = cv2.cvtColor(top, cv2.COLOR_GRAY2BGR)
    lightness = cv2.cvtColor(top, cv2.COLOR_BGR2Lab)[..., 0].copy()
    s_lo, s_hi = view.die_side_px[0] / SIZE_SLACK, view.die_side_px[1] * SIZE_SLACK
    valid = np.full(lightness.shape, 255, np.uint8)
    for quad in tags_px:
        q = np.asarray(quad, dtype=np.float64).reshape(4, 2) * view.scale
        grown = q.mean(axis=0) + TAG_MARGIN * (q - q.mean(axis=0))
        cv2.fillConvexPoly(valid, np.round(grown).astype(np.int32), 0)
    smooth = cv2.GaussianBlur(lightness, (0, 0), max(0.8, 0.02 * s_lo))
    responses = pip_responses(lightness, int(np.clip(0.33 * s_hi, 7, 41)))
    pips = find_pips(lightness, responses, valid, (0.09 * s_lo, 0.32 * s_hi))

    def plain(f: PhotoFace) -> bool:
        f.checks = face_checks(lightness, smooth, f.fit, f.pips)
        return f.checks.passed()

    faces = pick_faces(find_faces(pips, (s_lo, s_hi)), plain)
    typical = _typical_side(faces, (s_lo, s_hi))
    faces.extend(f for f in lone_faces(pips, faces, typical) if plain(f))
    return faces, typical, view.scale

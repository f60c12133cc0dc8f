"""The d6 reader: an image of the tray in, the dice found (centre, value, confidence) and the
dice seen but not read out.

Steps, all in the tray's top-down view at die-top height (:mod:`vision.dice.view`):

1. die material: pixels unlike the tray (:mod:`vision.dice.material`);
2. pips on it, dark and light (:mod:`vision.dice.pips`), grouped into faces that fit a pattern
   (:mod:`vision.dice.faces`);
3. top faces kept, side faces dropped: a side face is vertical, so its pip lattice and its pips
   are flattened toward the point under the camera by the ratio the geometry predicts, and it
   lies on that side of a top face;
4. every die lying flat shows its top face and, toward the nadir, its sides: the material that
   such dice do not explain is a die that is not flat (cocked) or whose pips cannot be read.

Never a guess: a face whose pips do not fit, a pattern with a pip where none should be, a die
that is not flat, or one cut by the tray's edge is reported unreadable.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice.faces import PIP_OFFSET, Face, face_candidates, lone_pip
from vision.dice.material import material_mask, unlike_tray
from vision.dice.pips import F64, GRID, Pip, Polarity, find_pips, pip_responses
from vision.dice.types import DiceRead, DieFound, DieUnread, Unreadable
from vision.dice.view import DiceView

Image = npt.NDArray[np.uint8]
Grey = npt.NDArray[np.uint8]

GROOVE_DEPTH = 0.72
"""A face darker than this share of its lightness somewhere between its pips is crossed by a
groove: two dice, not one face."""
SIDE_PIP_ROUNDNESS = 0.76
"""Pips rounder than this may be on a top face; flatter ones are on a side face (or a
cocked face) wherever the view can show side faces flattened that much."""
SIDE_MARGIN = 0.12
"""A face flattened by less than this beyond its expected side-face ratio is still a top face."""
SQUARE_SLACK = 1.06
"""A read die's top face is taken this much larger than its side from the pip step (makers'
pip offsets differ by a few per cent)."""
ALIKE_FACE_L = {Polarity.DARK: 0.15, Polarity.LIGHT: 1.0}
"""How much the face lightness around the pips of a two or three may differ (the ring around
a light pip catches the glow of its neighbours, too unsteady to use)."""
TIPPED_SQUASH = 0.9
"""A top face whose pip lattice is flattened below this ratio is tipped (cos 25 degrees is
0.906; flat faces measure 0.92-1.0 on renders at 1080p)."""
TIPPED_ROUNDNESS = 0.84
"""A one, two or three whose pips are flattened below this ratio is tipped."""
SIDES_SHOW = 0.45
"""A flat die's side strip is at least this share unlike the tray."""
COCKED_EXCESS = 0.15
"""A read die with this much unexplained material against it (in dice' areas) is not flat."""
LEFTOVER_DIE = 0.3
"""Unexplained material of this many dice' areas is a die (or part of one) not read."""
EXTRA_DIE = 0.75
"""Unexplained material of this many dice' areas next to a read die is another die."""


@dataclass
class _Die:
    """A top face found in the view, before it is reported."""

    face: Face
    side: float
    """Die side, view pixels."""
    unread: Unreadable | None = None
    why: str = ""
    """Which check made it unreadable (for diagnosis)."""
    excess: float = 0.0
    """Die material around it that a flat die does not explain, in dice' areas."""


def read_view(image: Image, view: DiceView) -> DiceRead:
    """Read the dice in a camera image through ``view``."""
    top = view.render(image)
    if top.ndim == 2:
        top = cv2.cvtColor(top, cv2.COLOR_GRAY2BGR)
    dice, unread_px = _read(top, view)
    found = []
    unread = []
    for die in dice:
        c = die.face.centre
        xy = view.to_image_px(c)[0]
        tray = view.to_tray_mm(c)
        tray_xy = None if tray is None else (float(tray[0, 0]), float(tray[0, 1]))
        if die.unread is not None:
            unread.append(DieUnread(die.unread, float(xy[0]), float(xy[1]), tray_xy))
            continue
        scale = _image_scale(view, c)
        found.append(
            DieFound(
                value=die.face.value,
                x_px=float(xy[0]),
                y_px=float(xy[1]),
                confidence=_confidence(die.face),
                side_px=die.side / scale,
                tray_mm=tray_xy,
            )
        )
    for reason, c in unread_px:
        xy = view.to_image_px(c)[0]
        tray = view.to_tray_mm(c)
        tray_xy = None if tray is None else (float(tray[0, 0]), float(tray[0, 1]))
        unread.append(DieUnread(reason, float(xy[0]), float(xy[1]), tray_xy))
    return DiceRead(tuple(found), tuple(unread), view.tray_mm)


def _image_scale(view: DiceView, at: F64) -> float:
    """View pixels per image pixel near a view point."""
    if view.maps is None:
        return view.scale
    p = view.to_image_px([at, at + np.array([10.0, 0.0]), at + np.array([0.0, 10.0])])
    d = (np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 2.0
    return 10.0 / max(float(d), 1e-6)


def _confidence(face: Face) -> float:
    fit = 1.0 - min(1.0, face.residual / 0.3)
    contrast = min(1.0, face.contrast / 40.0)
    round_ = min(1.0, float(np.median([p.roundness for p in face.pips])) / 0.85)
    return float(np.clip(0.5 * fit + 0.3 * contrast + 0.2 * round_, 0.0, 1.0))


def _read(
    top: Image, view: DiceView, debug: dict[str, object] | None = None
) -> tuple[list[_Die], list[tuple[Unreadable, F64]]]:
    s_lo, s_hi = view.die_side_px
    lab = cv2.cvtColor(top, cv2.COLOR_BGR2Lab)
    lightness = lab[..., 0].copy()
    valid = view.valid if view.valid is not None else np.full(lightness.shape, 255, np.uint8)
    valid = cv2.erode(valid, np.ones((5, 5), np.uint8))
    floor = view.floor if view.floor is not None else valid
    floor = cv2.bitwise_and(cv2.erode(floor, np.ones((5, 5), np.uint8)), valid)
    responses = pip_responses(lightness, int(np.clip(0.33 * s_hi, 7, 41)))
    pips = find_pips(lightness, responses, valid, (0.09 * s_lo, 0.32 * s_hi))
    mid = math.sqrt(s_lo * s_hi)
    usable = [i for i, p in enumerate(pips) if not _side_pip(p, view, mid)]
    cands = face_candidates([pips[i] for i in usable], (0.2 * s_lo, 0.33 * s_hi))
    for f in cands:
        f.members = tuple(usable[k] for k in f.members)
    good = [f.side_px(0.0) for f in cands if f.value >= 4 and f.residual < 0.12]
    typical = float(np.clip(np.median(good) if good else mid, s_lo, s_hi))
    gx = cv2.Sobel(lightness, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(lightness, cv2.CV_32F, 0, 1, ksize=3)
    dice: list[_Die] = []
    used: set[int] = set()
    for f in cands:
        if used & set(f.members):
            continue
        side = float(np.clip(f.side_px(typical), s_lo, s_hi))
        if any(np.linalg.norm(f.centre - d.face.centre) < 0.7 * side for d in dice):
            continue
        die = _check(f, side, view, lightness, valid, responses, gx, gy)
        if die is None:
            continue
        used |= set(f.members)
        dice.append(die)
    order = sorted(usable, key=lambda i: -pips[i].contrast)
    for i in order:
        if i in used:
            continue
        f = lone_pip(pips[i], i)
        if any(np.linalg.norm(f.centre - d.face.centre) < 0.7 * d.side for d in dice):
            continue
        edge = edge_angle(gx, gy, f.centre, typical, f.pips)
        if _paired(i, pips, used, typical, edge, lightness):
            _reject(f, "paired")
            continue  # a pip of a two whose pattern was not read: not a one
        die = _check(f, typical, view, lightness, valid, responses, gx, gy)
        if die is None or die.unread is not None:
            continue
        used.add(i)
        dice.append(die)
    dice = _drop_side_neighbours(dice, view)
    # the tray's colour, learnt away from the dice read and every pip-like spot
    known = _explained(dice, view, lightness.shape, 1.0 + 0.5)
    for p in pips:
        cv2.circle(known, (round(p.x), round(p.y)), round(p.major * 2 + 2), 255, -1)
    learn = cv2.bitwise_and(floor, cv2.bitwise_not(known))
    lab32 = lab.astype(np.float32)
    material, tray, cut = material_mask(
        lab32, valid, round(1.6 * s_hi), 0.6 * s_hi, tray_only=learn
    )
    unlike = unlike_tray(lab32, tray) > cut
    for d in dice:
        if d.unread is None and not _sides_show(d, view, unlike, floor):
            d.unread, d.why = Unreadable.COCKED, "no sides"
    if debug is not None:
        debug.update(material=material, pips=pips, faces=[d.face for d in dice])
    unread = _leftovers(material, valid, floor, dice, view, typical, pips)
    return dice, unread


def _sides_show(d: _Die, view: DiceView, unlike: npt.NDArray[np.bool_], floor: Grey) -> bool:
    """A die lying flat shows its sides toward the nadir, as wide as the parallax of its height:
    that strip is not tray. A face that seems a top face but has tray where its sides should be
    is a face of a cocked die (its tilted faces can look square from the camera)."""
    v = view.parallax_px(d.face.centre, d.side)
    if float(np.linalg.norm(v)) < 0.25 * d.side:
        return True  # near the nadir the sides hardly show
    top = _square(d.face.centre, d.side * 1.1, _die_angle(d.face))
    swept = np.vstack([top, top + v * 0.9])
    h, w = unlike.shape
    strip = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(
        strip, np.round(cv2.convexHull(swept.astype(np.float32))).astype(np.int32), 1
    )
    cv2.fillConvexPoly(strip, np.round(top).astype(np.int32), 0)
    sel = (strip > 0) & (floor > 0)
    if int(sel.sum()) < 0.1 * d.side * d.side:
        return True  # outside the tray's floor: nothing to tell
    return float(unlike[sel].mean()) >= SIDES_SHOW


def _explained(dice: list[_Die], view: DiceView, shape: tuple[int, ...], slack: float) -> Grey:
    """255 over each read die as a flat die shows it: its top face (``slack`` times its side)
    swept toward the nadir by the parallax of its height (its side faces)."""
    out = np.zeros(shape[:2], np.uint8)
    for d in dice:
        sq = _square(d.face.centre, d.side * slack, _die_angle(d.face))
        v = view.parallax_px(d.face.centre, d.side)
        hull = cv2.convexHull(np.vstack([sq, sq + v]).astype(np.float32))
        cv2.fillConvexPoly(out, np.round(hull).astype(np.int32), 255)
    return out


def _paired(
    i: int, pips: list[Pip], used: set[int], side: float, edge: float | None, lightness: Grey
) -> bool:
    """Pip ``i`` has a partner as a two's pips do: a pip of the same kind and size, on no die
    read, a face's diagonal away (0.6-0.95 of the die's side, across the die's edges' axes),
    joined to it by plain face."""
    a = pips[i]
    for j, b in enumerate(pips):
        if j == i or j in used or b.polarity is not a.polarity:
            continue
        d = math.hypot(b.x - a.x, b.y - a.y)
        if not 0.6 * side <= d <= 0.95 * side:
            continue
        if edge is not None:
            across = _angle_gap(math.atan2(b.y - a.y, b.x - a.x), edge)
            if across < 30.0:
                continue  # along an edge's axis: not a diagonal
        if b.roundness < TIPPED_ROUNDNESS:
            continue  # a side face's pip, flattened
        tol = ALIKE_FACE_L[a.polarity]
        if abs(a.face_l - b.face_l) > 6.0 + tol * max(a.face_l, b.face_l):
            continue  # on a face lit otherwise: a side face
        if max(a.diameter, b.diameter) > 1.45 * min(a.diameter, b.diameter):
            continue
        if _joined(lightness, a, b):
            return True
    return False


def _side_pip(pip: Pip, view: DiceView, side: float) -> bool:
    """A pip flattened toward the nadir as the pips of a side face are."""
    r, _ = _radial(view, pip.xy, side)
    if r >= 1.0 - SIDE_MARGIN:
        return False
    return pip.roundness < min(SIDE_PIP_ROUNDNESS, (1.0 + r) / 2.0 + 0.05)


REJECTED: list[tuple[F64, int, str]] | None = None
"""When a list, every face candidate turned down is noted in it (centre, value, check)."""


def _reject(f: Face, why: str) -> None:
    if REJECTED is not None:
        REJECTED.append((f.centre.copy(), f.value, why))


def _check(
    f: Face,
    side: float,
    view: DiceView,
    lightness: Grey,
    material: Grey,
    responses: dict[Polarity, npt.NDArray[np.float32]],
    gx: npt.NDArray[np.float32],
    gy: npt.NDArray[np.float32],
) -> _Die | None:
    """A face candidate checked as a top face: None when it is no top face (a side face, the
    pips of two dice, a lattice across the die's edges); an unreadable die when its pattern
    has a pip-like spot where none should be."""
    if _is_side_face(f, side, view):
        _reject(f, "side")
        return None
    edge = edge_angle(gx, gy, f.centre, side, f.pips)
    if f.value == 1 and edge is not None:
        f.angle = edge
    if f.value in (2, 3) and (edge is None or _angle_gap(edge, f.angle) > 15.0):
        _reject(f, "edges")
        return None
    if f.value in (2, 3) and not _pips_alike(f):
        _reject(f, "alike")
        return None
    if not face_is_plain(lightness, material, f, side):
        _reject(f, "plain")
        return None
    if not pips_joined(lightness, f):
        _reject(f, "joined")
        return None
    die = _Die(f, side)
    if not empty_places_clear(f, responses, side):
        die.unread, die.why = Unreadable.UNCLEAR, "empty"
    elif _tipped(f):
        die.unread, die.why = Unreadable.COCKED, "tipped"
    return die


def _pips_alike(face: Face) -> bool:
    """The few pips of a two or three look alike: about the same size and roundness, on about
    equally lit face (a pip of the next die's side face is flatter, or on a darker face)."""
    ls = [p.face_l for p in face.pips]
    tol = ALIKE_FACE_L[face.polarity]
    rounds = [p.roundness for p in face.pips]
    ds = [p.diameter for p in face.pips]
    return (
        max(ls) - min(ls) <= 6.0 + tol * max(ls)
        and max(rounds) - min(rounds) <= 0.15
        and max(ds) <= 1.35 * min(ds)
    )


def _tipped(face: Face) -> bool:
    """A top face foreshortened as a tipped face is: its pip lattice (four pips or more) or
    its pips (fewer) flattened beyond what a flat face shows."""
    if face.value >= 4:
        return face.squash < TIPPED_SQUASH
    return float(np.median([p.roundness for p in face.pips])) < TIPPED_ROUNDNESS


def _angle_gap(a: float, b: float) -> float:
    """Difference of two square orientations (mod 90 degrees), degrees in [0, 45]."""
    d = math.degrees(a - b) % 90.0
    return min(d, 90.0 - d)


def edge_angle(
    gx: npt.NDArray[np.float32],
    gy: npt.NDArray[np.float32],
    centre: F64,
    side: float,
    pips: list[Pip],
) -> float | None:
    """The orientation of the die's edges around a face (radians in [0, pi/2)): the circular
    mean of gradient directions taken four times, weighted by gradient strength, over the
    die's square neighbourhood outside its pips; None when no orientation stands out."""
    h, w = gx.shape
    r = int(0.75 * side)
    x0, x1 = max(0, int(centre[0]) - r), min(w, int(centre[0]) + r + 1)
    y0, y1 = max(0, int(centre[1]) - r), min(h, int(centre[1]) + r + 1)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    ax, ay = gx[y0:y1, x0:x1], gy[y0:y1, x0:x1]
    yy, xx = np.mgrid[y0:y1, x0:x1]
    keep = (xx - centre[0]) ** 2 + (yy - centre[1]) ** 2 <= r * r
    for p in pips:
        keep &= (xx - p.x) ** 2 + (yy - p.y) ** 2 > (1.6 * p.major + 2) ** 2
    mag = np.hypot(ax, ay)[keep]
    ang = np.arctan2(ay, ax)[keep]
    if mag.sum() <= 0:
        return None
    c = float((mag * np.cos(4 * ang)).sum())
    s = float((mag * np.sin(4 * ang)).sum())
    if math.hypot(c, s) < 0.15 * float(mag.sum()):
        return None
    return (math.atan2(s, c) / 4.0) % (math.pi / 2)


def face_is_plain(lightness: Grey, material: Grey, face: Face, side: float) -> bool:
    """The face between its pips is one plain surface: on die material, with no dark groove
    across it (two touching dice read as one face)."""
    step = PIP_OFFSET * side
    c, s = math.cos(face.angle), math.sin(face.angle)
    grid = np.linspace(-1.3, 1.3, 7)
    uu, vv = np.meshgrid(grid, grid)
    px = face.centre[0] + step * (c * uu - s * vv)
    py = face.centre[1] + step * (s * uu + c * vv)
    keep = np.ones(px.shape, bool)
    for p in face.pips:
        keep &= (px - p.x) ** 2 + (py - p.y) ** 2 > (1.5 * p.major + 1.5) ** 2
    h, w = lightness.shape
    xs, ys = np.rint(px[keep]).astype(int), np.rint(py[keep]).astype(int)
    if xs.size == 0:
        return True
    if xs.min() < 0 or ys.min() < 0 or xs.max() >= w or ys.max() >= h:
        return False
    if (material[ys, xs] == 0).mean() > 0.1:
        return False
    values = lightness[ys, xs].astype(np.float64)
    low = float(np.percentile(values, 10))
    return low >= GROOVE_DEPTH * face.face_l


def pips_joined(lightness: Grey, face: Face) -> bool:
    """Every pip is joined to a neighbouring pip of its face by plain face: the straight path
    between them, outside the pips, nowhere darker than a groove (a pip of the next die, or of
    a side face, is across the dark line where two faces meet)."""
    if len(face.pips) < 2:
        return True
    for i, a in enumerate(face.pips):
        pa = np.array(face.places[i])
        near = [
            j
            for j in range(len(face.pips))
            if j != i and np.abs(np.array(face.places[j]) - pa).max() <= 2
        ]
        dist = [float(np.abs(np.array(face.places[j]) - pa).sum()) for j in near]
        if not _joined(lightness, a, face.pips[near[int(np.argmin(dist))]]):
            return False
    return True


def _joined(lightness: Grey, a: Pip, b: Pip) -> bool:
    """The straight path between two pips, outside them, stays at their face's lightness."""
    h, w = lightness.shape
    d = math.hypot(b.x - a.x, b.y - a.y)
    t = np.linspace(0.0, 1.0, max(3, int(d)))
    xs = a.x + (b.x - a.x) * t
    ys = a.y + (b.y - a.y) * t
    ra, rb = 1.6 * a.major + 2.0, 1.6 * b.major + 2.0
    keep = (np.hypot(xs - a.x, ys - a.y) > ra) & (np.hypot(xs - b.x, ys - b.y) > rb)
    if not keep.any():
        return True
    xi = np.clip(np.rint(xs[keep]).astype(int), 0, w - 1)
    yi = np.clip(np.rint(ys[keep]).astype(int), 0, h - 1)
    path = lightness[yi, xi].astype(np.float64)
    return float(path.min()) >= GROOVE_DEPTH * (a.face_l + b.face_l) / 2.0


def empty_places_clear(
    face: Face, responses: dict[Polarity, npt.NDArray[np.float32]], side_px: float
) -> bool:
    """No pip-like spot where the face's pattern has none (a pip missed by the detector would
    make a 6 read as a 4)."""
    resp = responses[face.polarity]
    h, w = resp.shape
    limit = 0.5 * face.contrast
    if face.value == 1:
        step = PIP_OFFSET * side_px
        angles = np.linspace(0.0, 2 * math.pi, 16, endpoint=False)
        pts = [
            face.centre + rad * np.array([math.cos(a), math.sin(a)])
            for rad in (step, step * math.sqrt(2.0))
            for a in angles
        ]
    else:
        c, s = math.cos(face.angle), math.sin(face.angle)
        rot = np.array([[c, -s], [s, c]])
        used = set(face.places)
        pts = [
            face.centre + face.step * (rot @ np.array(g, dtype=np.float64))
            for g in GRID
            if g not in used
        ]
    r = max(1, round(face.pip_diameter / 4))
    for p in pts:
        x, y = round(float(p[0])), round(float(p[1]))
        if x - r < 0 or y - r < 0 or x + r >= w or y + r >= h:
            continue
        if float(resp[y - r : y + r + 1, x - r : x + r + 1].max()) >= limit:
            return False
    return True


def _drop_overlaps(faces: list[Face], typical: float) -> list[Face]:
    """Of two faces on one spot (a light glare read as a pip on a face of dark pips), keep the
    one with more pips, then the better fit."""
    order = sorted(faces, key=lambda f: (-f.value, f.residual, -f.contrast))
    kept: list[Face] = []
    for f in order:
        side = f.side_px(typical)
        if any(np.linalg.norm(f.centre - k.centre) < 0.45 * side for k in kept):
            continue
        kept.append(f)
    return kept


def _radial(view: DiceView, at: F64, side: float) -> tuple[float, F64]:
    """Expected side-face ratio (side strip width over die side) and the unit direction toward
    the nadir, at a view point for a die of ``side`` pixels."""
    v = view.parallax_px(at, side)
    r = float(np.linalg.norm(v)) / max(side, 1e-9)
    e = v / max(float(np.linalg.norm(v)), 1e-9)
    return r, e


def _angle_to(axis_angle: float, e: F64) -> float:
    """Angle between an undirected axis and a direction, degrees in [0, 90]."""
    a = math.degrees(abs(math.atan2(e[1], e[0]) - axis_angle)) % 180.0
    return min(a, 180.0 - a)


def _flattened(face: Face, r: float, e: F64) -> bool:
    """Most of the face's pips are flattened toward the nadir as a vertical face's are."""
    limit = (1.0 + r) / 2.0
    rounds = [p.roundness for p in face.pips]
    dirs = [_angle_to(p.angle + math.pi / 2, e) for p in face.pips]
    flat = [rd < limit and ang < 40 for rd, ang in zip(rounds, dirs, strict=True)]
    return sum(flat) * 2 > len(flat) and float(np.median(rounds)) < limit


def _is_side_face(face: Face, side: float, view: DiceView) -> bool:
    """A face flattened toward the nadir as a vertical face is: its lattice, or its pips."""
    r, e = _radial(view, face.centre, side)
    if r >= 1.0 - SIDE_MARGIN:
        return False
    limit = (1.0 + r) / 2.0
    if face.value >= 4 and face.squash < limit and _angle_to(face.squash_angle, e) < 40:
        return True
    return _flattened(face, r, e)


def _drop_side_neighbours(dice: list[_Die], view: DiceView) -> list[_Die]:
    """A face lying where another die's side face is (beside its top face, toward the nadir,
    half the parallax out) and darker or flattened, is that side face."""
    keep = []
    for d in dice:
        if not any(_side_of(d, t, view) for t in dice if t is not d):
            keep.append(d)
    return keep


def _side_of(d: _Die, t: _Die, view: DiceView) -> bool:
    """Whether face ``d`` is a side face of the die whose top face is ``t``."""
    r, e = _radial(view, t.face.centre, t.side)
    if r < 0.15:
        return False
    v = view.parallax_px(t.face.centre, t.side)
    reach = t.side / 2.0 + float(np.linalg.norm(v)) / 2.0 + 0.3 * t.side
    if float(np.linalg.norm(d.face.centre - t.face.centre)) > reach * (1.0 + 1e-9) + 1e-9:
        return False  # farther than any side face of t can lie
    darker = d.face.face_l < t.face.face_l * (1.0 - 0.06)
    if not (darker or _flattened(d.face, r, e)):
        return False
    a = t.face.angle
    for k in range(4):
        n = np.array([math.cos(a + k * math.pi / 2), math.sin(a + k * math.pi / 2)])
        if float(n @ e) <= 0.1:
            continue
        expected = t.face.centre + n * t.side / 2.0 + v / 2.0
        if float(np.linalg.norm(d.face.centre - expected)) < 0.3 * t.side:
            return True
    return False


def _square(centre: F64, side: float, angle: float) -> F64:
    c, s = math.cos(angle), math.sin(angle)
    u, v = np.array([c, s]), np.array([-s, c])
    h = side / 2.0
    return np.array([centre + h * (a * u + b * v) for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))])


def _die_angle(face: Face) -> float:
    return face.angle


def _leftovers(
    material: Grey,
    valid: Grey,
    floor: Grey,
    dice: list[_Die],
    view: DiceView,
    typical: float,
    pips: list[Pip],
) -> list[tuple[Unreadable, F64]]:
    """Material no flat die explains: cocked dice, dice whose pips were not found, dice cut by
    the edge. Marks read dice cocked or cut in place; returns the other dice not read: cocked
    when pips show on it (faces seen, none lying flat), blurred when none do."""
    h, w = material.shape
    explained = _explained(dice, view, material.shape, SQUARE_SLACK)
    squares = []
    for d in dice:
        sq = _square(d.face.centre, d.side * SQUARE_SLACK, _die_angle(d.face))
        squares.append(sq)
        inside = valid[
            np.clip(np.round(sq[:, 1]).astype(int), 0, h - 1),
            np.clip(np.round(sq[:, 0]).astype(int), 0, w - 1),
        ]
        if d.unread is None and (inside == 0).any():
            d.unread, d.why = Unreadable.EDGE, "edge"
    grow = max(1, round(0.05 * typical))
    explained = cv2.dilate(explained, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
    rest = cv2.bitwise_and(material, cv2.bitwise_not(explained))
    rest = cv2.bitwise_and(rest, floor)  # not the rim or the paper beyond the tray's edge
    k = max(3, round(0.15 * typical) | 1)
    rest = cv2.morphologyEx(
        rest, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    )
    n, labels, stats, cents = cv2.connectedComponentsWithStats(rest, connectivity=8)
    out: list[tuple[Unreadable, F64]] = []
    excess = [0.0] * len(dice)
    reach = max(2, round(0.15 * typical))
    for i in range(1, n):
        area = float(stats[i, cv2.CC_STAT_AREA])
        if _edge_strip(stats[i], valid):
            continue  # a strip along a wall or the tray's edge, not a die
        blob = (labels == i).astype(np.uint8)
        touched = _touching(blob, squares, reach)
        side = dice[touched].side if touched is not None else typical
        if touched is not None and area < EXTRA_DIE * side * side:
            excess[touched] += area
            continue
        if area < LEFTOVER_DIE * side * side:
            continue
        (_, _), (bw, bh), _ = cv2.minAreaRect(np.argwhere(blob)[:, ::-1].astype(np.float32))
        if min(bw, bh) < 0.35 * side:
            continue
        if view.tray_mm is None and not _die_like(area, bw, bh, side):
            continue  # a whole picture holds more than dice: only die-shaped blobs count
        centre = np.array(cents[i], dtype=np.float64)
        count = max(1, round(area / (side * side * 1.3)))
        grown = cv2.dilate(blob, np.ones((2 * reach + 1, 2 * reach + 1), np.uint8))
        with_pips = any(
            grown[min(h - 1, round(p.y)), min(w - 1, round(p.x))] for p in pips if p.x >= 0
        )
        reason = Unreadable.COCKED if with_pips else Unreadable.BLURRED
        out.extend((reason, centre) for _ in range(count))
    for d, extra in zip(dice, excess, strict=True):
        d.excess = extra / (d.side * d.side)
        if d.unread is None and d.excess >= COCKED_EXCESS:
            d.unread, d.why = Unreadable.COCKED, "leftover"
    return out


def _die_like(area: float, bw: float, bh: float, side: float) -> bool:
    """A blob about one die large, squarish and filling its bounding rectangle."""
    long, short = max(bw, bh), min(bw, bh)
    return (
        0.5 * side * side <= area <= 2.5 * side * side
        and short >= 0.5 * long
        and area >= 0.6 * bw * bh
    )


def _edge_strip(stat: npt.NDArray[np.int32], valid: Grey) -> bool:
    """A blob lying along the border of the tray's view, much longer than it is deep: the
    tray's wall or the paper around it, not a die."""
    x, y, w, h = (int(v) for v in stat[:4])
    rows, cols = valid.shape
    near = 6
    along_x = (y <= near or y + h >= rows - near) and w >= 2.5 * h
    along_y = (x <= near or x + w >= cols - near) and h >= 2.5 * w
    return along_x or along_y


def _disc(centre: F64, radius: float, n: int = 16) -> F64:
    a = np.linspace(0.0, 2 * math.pi, n, endpoint=False)
    return centre + radius * np.stack([np.cos(a), np.sin(a)], axis=1)


def _touching(blob: Grey, squares: list[F64], reach: int) -> int | None:
    """Index of the read die whose face the blob touches (within ``reach`` pixels), if any."""
    grown = cv2.dilate(blob, np.ones((2 * reach + 1, 2 * reach + 1), np.uint8))
    best, best_hits = None, 0
    h, w = blob.shape
    for i, sq in enumerate(squares):
        m = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(m, np.round(sq).astype(np.int32), 1)
        hits = int((m & grown).sum())
        if hits > best_hits:
            best, best_hits = i, hits
    return best

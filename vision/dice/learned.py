"""The learned dice reader: one reader for a tray's top-down view and for any picture of
dice, built on two small nets (:mod:`vision.dice.net`, trained by ``make train-dice``).

:func:`vision.dice.read_dice` runs it beside the pip readers and decides with both
(:mod:`vision.dice.agree`); :func:`read_learned` runs it alone (the benchmark measures it so).

1. The finder (:func:`vision.dice.net.find`) marks die-top centres and sides. A tray's view
   is searched once, shrunk so that a 16 mm die is the finder's middle size; a picture with no
   tray is searched at :data:`PHOTO_SCALES`, coarsest first (:func:`photo_spots`).
2. The face reader (:func:`vision.dice.net.read_faces`) reads a crop of each: not a die, a
   value 1-6, or a die not lying flat. A value read with a probability of :data:`SURE` or more
   is given; a die under it is reported unsure with its most likely value (to ask about);
   a die not lying flat is reported cocked; a spot the face reader calls no die is dropped.
3. A value under :data:`CONFIRMED` that the pip counter (:mod:`vision.dice.boxpips`), given
   the finder's box, counts too (:data:`CONFIRM_VOTES`) is given at :data:`CONFIRMED`: two
   readers that fail in different ways (the net on crisp odd dice, the counter on blurred,
   marbled or tiny ones) rarely agree on a wrong value. A value under
   :data:`FACE_NEEDED_UNDER`, or on a die of :data:`BIG_SIDE_PX` or more, on which the counter
   finds no face of that value or more pips is reported unsure with it.

Decided where the issue leaves room: a die whose top face runs off the picture (or off the
tray's view) by more than a quarter of its side is reported at the edge, not read; a die that
leans is reported cocked whatever its top face shows (the player re-rolls it, as RULES.md's
dice procedures expect of a die that is not flat).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from calibration.pose import ASSUMED_FOCAL_PER_WIDTH
from vision.dice.agree import ALONE, UNSURE_CAP
from vision.dice.boxpips import count_pips
from vision.dice.net import (
    CLASSES,
    COCKED,
    FIND_NOMINAL_PX,
    FIND_SIDE_PX,
    Spot,
    find,
    read_faces,
)
from vision.dice.types import SURE, DiceRead, DieFound, DieUnread, Unreadable
from vision.dice.view import DIE_TOP_MM, DiceView

Image = npt.NDArray[np.uint8]
F64 = npt.NDArray[np.float64]

NOT_A_DIE = 0.5
"""Probability of "no die" from which a spot is dropped."""
PHOTO_SCALES = (0.5, 0.13)
"""Shrink factors a picture with no tray is searched at: dice of about 16-64 px at the
first, about 62-250 px at the second."""
EDGE_SHARE = 0.25
"""How much of a die's side may lie outside the picture before it is reported at the edge."""
CONFIRMED = ALONE
"""The confidence of a value the face reader and the pip counter agree on (the least the dice
reader takes from the learned reader alone, :data:`vision.dice.agree.ALONE`)."""
CONFIRM_FROM = 0.3
"""Least face-reader probability of a value the pip counter is asked to confirm (the values it
confirmed right on the tuning photos all had 0.34 or more; most spots under it are no die)."""
CONFIRM_VOTES = 2
"""Least thresholds of the pip counter that must count the face reader's value to confirm it
(chosen on the tuning photos: the fewest that added no wrong value there; since the counter
also counts against the face's colour, the dice reader read 109 of 133 right with 2, 107 with
3 or 4, and gave 3 wrong values with 1)."""
FACE_NEEDED_UNDER = 0.99
"""A value the face reader gives under this probability stands only where the pip counter
finds a face of that value or more pips on the die (:func:`_checked`): on the sample footage's
table a tagged base half under a hand read as a two at up to 0.987, and the counter finds no
face there. On the tuning photos it left the learned reader alone one wrong value of three
and cost the dice reader three right ones (107 to 104 of 133)."""
BIG_SIDE_PX = 90.0
"""A die's side (pixels of the view read) from which its pips are big and crisp, so the pip
counter finds its face: a value the face reader gives on such a die stands, however sure,
only where the counter finds a face there (the face reader sees such a die shrunk several
times, and takes the small dished five of the big rounded dice for a six at 0.96-0.99)."""
TAG_MARGIN = 1.4
"""A tag's cells and white margin, over its black square: no dice there."""


def _merge(spots: list[Spot]) -> list[Spot]:
    """Spots best first, dropping any whose centre lies within half a side of a better one."""
    kept: list[Spot] = []
    for s in sorted(spots, key=lambda s: -s.score):
        if all(math.hypot(s.x - k.x, s.y - k.y) > 0.5 * max(s.side, k.side) for k in kept):
            kept.append(s)
    return kept


def photo_spots(image: Image, tags_px: Sequence[F64] = ()) -> list[Spot]:
    """The die-top centres in a picture with no tray (:func:`read_photo_spots` without the
    face reader's probabilities)."""
    return [s for s, _ in read_photo_spots(image, tags_px)]


def read_photo_spots(image: Image, tags_px: Sequence[F64] = ()) -> list[tuple[Spot, F64]]:
    """The die-top centres in a picture with no tray (picture pixels), each with the face
    reader's probabilities, found at every scale of :data:`PHOTO_SCALES` (none on the tags
    whose corners ``tags_px`` gives). Where spots of a finer scale lie on a die of a coarser
    one, the face reader decides: they are its pips (or marks) unless one of them is surer a
    die than the big one, which is then a clump of small dice taken for one."""
    lo, hi = FIND_SIDE_PX
    levels = []
    for scale in sorted(PHOTO_SCALES):
        level = [
            s
            for s in find(image, scale)
            if lo * 0.9 <= s.side * scale <= hi * 1.1 and not _on_tag(s, tags_px)
        ]
        levels.append(_merge(level))
    spots = [s for level in levels for s in level]
    probs = dict(zip(map(id, spots), read_faces(image, spots), strict=True))
    p_none = {k: float(p[0]) for k, p in probs.items()}
    dropped: set[int] = set()
    for big in levels[0]:
        if p_none[id(big)] >= NOT_A_DIE:
            continue
        small = [s for level in levels[1:] for s in level if _inside(s, big)]
        if small and min(p_none[id(s)] for s in small) < p_none[id(big)]:
            dropped.add(id(big))
        else:
            dropped.update(id(s) for s in small)
    return [(s, probs[id(s)]) for s in spots if id(s) not in dropped]


def _inside(s: Spot, big: Spot) -> bool:
    """Whether ``s`` lies on the top face of the much larger ``big``."""
    return big.side > 1.5 * s.side and math.hypot(s.x - big.x, s.y - big.y) < 0.6 * big.side


def _on_tag(s: Spot, tags_px: Sequence[F64]) -> bool:
    for quad in tags_px:
        q = np.asarray(quad, dtype=np.float64).reshape(4, 2)
        grown = q.mean(axis=0) + TAG_MARGIN * (q - q.mean(axis=0))
        if cv2.pointPolygonTest(grown.astype(np.float32), (s.x, s.y), False) >= 0:
            return True
    return False


def read_spots(picture: Image, spots: list[Spot]) -> list[tuple[Spot, F64]]:
    """Each spot with the face reader's probabilities (:data:`vision.dice.net.CLASSES`),
    spots it calls no die left out, and of two dice on one place the surer kept."""
    return _keep_dice(list(zip(spots, read_faces(picture, spots), strict=True)))


def _keep_dice(read: list[tuple[Spot, F64]]) -> list[tuple[Spot, F64]]:
    dice = [(s, p) for s, p in read if p[0] < NOT_A_DIE]
    dice.sort(key=lambda sp: sp[1][0])
    kept: list[tuple[Spot, F64]] = []
    for s, p in dice:
        if all(math.hypot(s.x - k.x, s.y - k.y) > 0.6 * min(s.side, k.side) for k, _ in kept):
            kept.append((s, p))
    return kept


def read_view(
    image: Image,
    view: DiceView,
    tags_px: Sequence[F64] = (),
    known: Sequence[DieFound] = (),
) -> DiceRead:
    """Read the dice in a BGR camera image through ``view``: a tray's top-down view (from
    :func:`vision.dice.view.tray_view`) or the whole picture (``tags_px``: the corners of tags
    in it, image pixels, where no die is looked for). ``known``: values another reader has
    given (image pixels, each at :data:`SURE` or more); where the face reader reads the same
    value on the same die the pip counter is not asked about it (:func:`_checked` could change
    only its confidence, and the dice reader keeps the higher of the two readers')."""
    top = view.render(image)
    if view.px_per_mm is not None:
        scale = FIND_NOMINAL_PX / (DIE_TOP_MM * view.px_per_mm)
        read = read_spots(top, _merge(find(top, scale)))
    else:
        tags = [np.asarray(q, np.float64) * view.scale for q in tags_px]
        read = _keep_dice(read_photo_spots(top, tags))
    found: list[DieFound] = []
    unread: list[DieUnread] = []
    h, w = top.shape[:2]
    for s, p in read:
        xy = view.to_image_px((s.x, s.y))[0]
        mm = view.to_tray_mm((s.x, s.y))
        tray_mm = None if mm is None else (float(mm[0, 0]), float(mm[0, 1]))
        x, y = float(xy[0]), float(xy[1])
        if (
            view.valid is not None
            and view.valid[min(h - 1, max(0, round(s.y))), min(w - 1, max(0, round(s.x)))] == 0
        ):
            continue  # on a tag or outside the camera image
        out = EDGE_SHARE * s.side
        if (
            s.x - s.side / 2 < -out
            or s.y - s.side / 2 < -out
            or s.x + s.side / 2 > w - 1 + out
            or s.y + s.side / 2 > h - 1 + out
        ):
            unread.append(DieUnread(Unreadable.EDGE, x, y, tray_mm))
            continue
        ends = view.to_image_px([(s.x - s.side / 2, s.y), (s.x + s.side / 2, s.y)])
        side_px = float(np.hypot(*(ends[1] - ends[0])))
        value = int(np.argmax(p[1:7])) + 1
        sure = float(p[value])
        cocked = int(np.argmax(p[1:])) + 1 == COCKED
        if not cocked and not _given(known, x, y, side_px, value):
            sure = _checked(top, s, value, sure)
        if cocked:
            unread.append(DieUnread(Unreadable.COCKED, x, y, tray_mm))
        elif sure >= SURE:
            found.append(DieFound(value, x, y, sure, side_px=side_px, tray_mm=tray_mm))
        else:
            unread.append(
                DieUnread(
                    Unreadable.UNSURE, x, y, tray_mm, guess=value, confidence=min(sure, UNSURE_CAP)
                )
            )
    found.sort(key=lambda d: (d.y_px, d.x_px))
    unread.sort(key=lambda d: (d.y_px, d.x_px))
    return DiceRead(tuple(found), tuple(unread), view.tray_mm)


def _given(known: Sequence[DieFound], x: float, y: float, side_px: float, value: int) -> bool:
    """Whether one of ``known`` gives ``value`` within half a die's side (``side_px``) of
    ``(x, y)`` (image pixels) at :data:`SURE` or more."""
    return any(
        d.value == value
        and d.confidence >= SURE
        and math.hypot(d.x_px - x, d.y_px - y) < 0.5 * side_px
        for d in known
    )


def _checked(picture: Image, spot: Spot, value: int, sure: float) -> float:
    """The face reader's probability ``sure`` of ``value`` on the die at ``spot`` after the pip
    counter (:mod:`vision.dice.boxpips`, asked about the value and the faces of more pips):
    :data:`CONFIRMED` where it counts the value at :data:`CONFIRM_VOTES` thresholds or more
    (and it is part of no face of more pips there: two pips of a four make a two); under
    :data:`SURE` where the counter finds no face of the value or more pips on a die that needs
    one (:data:`FACE_NEEDED_UNDER`, :data:`BIG_SIDE_PX`)."""
    ask = CONFIRM_FROM <= sure < CONFIRMED
    needs_face = sure >= SURE and (sure < FACE_NEEDED_UNDER or spot.side >= BIG_SIDE_PX)
    if not (ask or needs_face):
        return sure
    count = count_pips(picture, (spot.x, spot.y), spot.side, tuple(range(value, 7)))
    if ask and count.value == value and count.votes >= CONFIRM_VOTES:
        return CONFIRMED
    if needs_face and count.value is None:
        return min(sure, UNSURE_CAP)
    return sure


def whole_view(image: Image) -> DiceView:
    """The whole picture as the learned reader's view (no tray; searched at every scale)."""
    h, w = image.shape[:2]
    return DiceView(
        maps=None,
        size_px=(w, h),
        die_side_px=(8.0, float(max(w, h))),
        nadir_px=((w - 1) / 2.0, (h - 1) / 2.0),
        camera_px=ASSUMED_FOCAL_PER_WIDTH * w,
    )


def read_learned(image: Image, view: DiceView | None = None) -> DiceRead:
    """Read the dice in a BGR (or grey) camera image with the learned reader alone: through a
    tray's ``view``, or the whole picture (its tags found and left out). The benchmark's
    measure of this reader apart; :func:`vision.dice.read_dice` decides with both readers."""
    if image.ndim == 2:
        image = np.repeat(image[..., None], 3, axis=2)
    if view is not None and view.maps is not None:
        return read_view(image, view)
    from vision.detector import Detector

    tags = [np.asarray(t.corners_px, dtype=np.float64) for t in Detector().detect(image)]
    return read_view(image, whole_view(image), tags)


__all__ = ["CLASSES", "photo_spots", "read_learned", "read_spots", "read_view", "whole_view"]

"""The d6 reader: an image of the dice tray in, the dice found (centre, value, confidence) and
the dice seen but not read out (cocked, touching, blurred).

    from vision.dice import read_dice, tray_view
    view = tray_view(profile.mapping(), profile.tray, (width, height))   # once per set-up
    reading = read_dice(image_bgr, view)                                 # every roll
    reading.values, reading.unreadable, reading.to_json()

Without a view, :func:`read_dice` looks for the tray's two tags in the image and reads the tray
they name; without them, it reads the whole image as seen from straight above.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from calibration.errors import CalibrationError
from calibration.pose import TableMapping
from calibration.profile import build_profile
from calibration.table import apply_homography, corner_layout, corner_sightings
from calibration.tray import (
    TRAY_TAG_IDS,
    TRAY_TAG_MM,
    TrayRegion,
    locate_tray,
    standalone_tray,
)
from vision.dice import learned
from vision.dice.agree import agree
from vision.dice.photo import read_photo
from vision.dice.reader import read_view
from vision.dice.size import estimate_die_side
from vision.dice.types import SURE, DiceRead, DieFound, DieUnread, Unreadable
from vision.dice.view import DiceView, image_view, tray_view

__all__ = [
    "SURE",
    "DiceRead",
    "DiceView",
    "DieFound",
    "DieUnread",
    "Unreadable",
    "find_tray",
    "image_view",
    "read_dice",
    "tray_view",
    "view_of_image",
]


def find_tray(
    image: npt.NDArray[np.uint8], mapping: TableMapping, width_in: float, depth_in: float
) -> TrayRegion:
    """The dice tray its two tags name in a camera image, through the table's mapping.
    CalibrationError says which tag is missing."""
    return locate_tray(_sightings(image), mapping, width_in, depth_in)


Sighting = tuple[int, tuple[tuple[float, float], ...]]
"""A tag seen: its id and corners (image pixels)."""


def _sightings(image: npt.NDArray[np.uint8]) -> list[Sighting]:
    from vision.detector import Detector

    return [(int(s.tag_id), s.corners_px) for s in Detector().detect(image)]


def view_of_image(
    image: npt.NDArray[np.uint8],
    *,
    tag_ids: tuple[int, int] = TRAY_TAG_IDS,
    tag_mm: float = TRAY_TAG_MM,
    sightings: list[Sighting] | None = None,
) -> DiceView:
    """How to read an image with no profile: the tray its two tags name (mapped through the
    table's corner tags when they are in view too, else from the tray's tags alone), or else the
    whole image with the die size estimated from the pips. ``sightings``: the image's tags, when
    they have been looked for already."""
    h, w = image.shape[:2]
    if sightings is None:
        sightings = _sightings(image)
    if all(any(i == t for i, _ in sightings) for t in tag_ids):
        try:
            table = _table_from_corner_tags(sightings, (w, h))
            if table is not None:
                mapping, width_in, depth_in = table
                tray = locate_tray(
                    sightings, mapping, width_in, depth_in, tag_ids=tag_ids, tag_mm=tag_mm
                )
            else:
                mapping, tray = standalone_tray(sightings, (w, h), tag_ids=tag_ids, tag_mm=tag_mm)
            return tray_view(mapping, tray, (w, h))
        except CalibrationError:
            pass
    return image_view((w, h), estimate_die_side(image))


def _table_from_corner_tags(
    sightings: list[tuple[int, tuple[tuple[float, float], ...]]], image_size_px: tuple[int, int]
) -> tuple[TableMapping, float, float] | None:
    """The table mapping from the corner tags in view, the table's size measured from them
    (corner 0 and at least two others needed); None when they are not there. The tray's tags
    alone cannot tell where the camera is; the corner tags, spread over the table, can."""
    corners = corner_sightings(sightings)
    if 0 not in corners or len(corners) < 3:
        return None
    own = corner_layout(1.0, 1.0)[0]
    h0, _ = cv2.findHomography(np.array(own), np.array(corners[0]), 0)
    if h0 is None:
        return None
    inv = np.linalg.inv(h0)
    width_in = depth_in = None
    for tag_id, px in corners.items():
        bottom_left = apply_homography(inv, np.array(px))[3]
        if tag_id in (1, 2):
            width_in = float(bottom_left[0])
        if tag_id in (2, 3):
            depth_in = float(bottom_left[1])
    if width_in is None or depth_in is None or width_in <= 1.0 or depth_in <= 1.0:
        return None
    profile = build_profile(corners, image_size_px, width_in, depth_in)
    return profile.mapping(), width_in, depth_in


def read_dice(image: npt.NDArray[np.uint8], view: DiceView | None = None) -> DiceRead:
    """Read the dice in a BGR (or grey) camera image: through ``view`` (from :func:`tray_view`
    with the table profile), or as :func:`view_of_image` decides. Two readers read the view
    and one reading is decided from both (:mod:`vision.dice.agree`): the pip reader (a tray's
    view: :mod:`vision.dice.reader`; a whole picture: :mod:`vision.dice.photo`) and the
    learned reader (:mod:`vision.dice.learned`), which is told the values the pip reader gives
    at :data:`SURE` or more (it does not count again the pips of a die it reads alike). A value
    under :data:`SURE` confidence is reported as an unsure die with its guess."""
    if image.ndim == 2:
        image = np.repeat(image[..., None], 3, axis=2)
    sightings = None
    if view is None:
        sightings = _sightings(image)
        view = view_of_image(image, sightings=sightings)
    if view.maps is None:
        if sightings is None:
            sightings = _sightings(image)
        tags = [np.asarray(corners, dtype=np.float64) for _, corners in sightings]
        pips = read_photo(image, view, tags)
        known = [d for d in pips.dice if d.confidence >= SURE]
        seen = learned.read_view(image, learned.whole_view(image), tags, known=known)
        return agree(pips, seen, tray=False)
    pips = read_view(image, view)
    known = [d for d in pips.dice if d.confidence >= SURE]
    return agree(pips, learned.read_view(image, view, known=known), tray=True)

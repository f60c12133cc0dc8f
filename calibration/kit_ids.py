"""The tag ids of the printable kit, in one place: every other module imports them from here.

All kit tags are ArUco markers of ``KIT_DICTIONARY`` (``DICT_4X4_50``, DESIGN §1). The lens
calibration board uses a *different* dictionary (``CHARUCO_DICTIONARY``) so that its markers are
never read as table tags and vice versa.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

KIT_DICTIONARY: Final = "DICT_4X4_50"
"""Name of the ``cv2.aruco`` predefined dictionary of every table tag (corners, buttons,
terrain, pieces)."""

CORNER_IDS: Final[tuple[int, int, int, int]] = (0, 1, 2, 3)
"""Corner tags: 0 player's left front (x=0, y=0), 1 right front (W, 0), 2 far right (W, D),
3 far left (0, D). Tag "up" = +y, away from the player."""

CORNER_PLACES: Final = MappingProxyType(
    {
        0: "player's left front",
        1: "player's right front",
        2: "far right",
        3: "far left",
    }
)
"""Where each corner tag goes, in the player's words."""

CORNER_TAG_MM: Final = 40.0
"""Side of a corner tag's black square, millimetres."""

BUTTON_IDS: Final = MappingProxyType({"done": 4, "undo": 5, "repeat": 6, "confirm": 7})
"""Button tags by name: covering one with a finger for about a second presses it."""

BUTTON_TAG_MM: Final = 40.0
"""Side of a printed button tag's black square, millimetres."""

TERRAIN_IDS: Final = range(8, 16)
"""Ids reserved for terrain pieces (8..15)."""

TERRAIN_TAG_MM: Final = 30.0
"""Default side of a printed terrain tag's black square, millimetres (DESIGN: 25-40 mm)."""

PIECE_IDS: Final = range(16, 50)
"""Ids for miniatures' bases (16..49): 34 pieces with ``DICT_4X4_50``."""

BASE_TAG_MARGIN_MM: Final = 1.0
"""White margin printed around every base tag, millimetres (no margin: not detected)."""

CHARUCO_DICTIONARY: Final = "DICT_5X5_100"
"""Dictionary of the lens calibration ChArUco board printed in the kit."""

CHARUCO_SQUARES: Final[tuple[int, int]] = (5, 7)
"""ChArUco board size in squares: (columns, rows)."""

CHARUCO_SQUARE_MM: Final = 26.0
"""Side of one ChArUco chessboard square as printed, millimetres."""

CHARUCO_MARKER_MM: Final = 19.5
"""Side of one ChArUco marker's black square as printed, millimetres."""


def role_of(tag_id: int) -> str:
    """What a kit tag id is for: "corner", "button", "terrain" or "piece"; raises ValueError
    for an id outside ``DICT_4X4_50``'s 0..49."""
    if tag_id in CORNER_IDS:
        return "corner"
    if tag_id in BUTTON_IDS.values():
        return "button"
    if tag_id in TERRAIN_IDS:
        return "terrain"
    if tag_id in PIECE_IDS:
        return "piece"
    raise ValueError(f"tag id {tag_id} is not in the kit's ids 0..49 ({KIT_DICTIONARY})")

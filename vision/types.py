"""Value types shared by the vision pipeline (sources -> detector -> tracker).

Pixels until a calibration profile maps them; table inches and degrees after.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import NewType

import numpy as np
import numpy.typing as npt

TagId = NewType("TagId", int)


@dataclass(frozen=True)
class Frame:
    """One image from a frame source."""

    index: int
    """Position of the frame in its source, from 0."""
    t: float
    """Time of the frame in seconds from the start of the source."""
    image: npt.NDArray[np.uint8]
    """BGR (or grey) image, rows x columns (x channels), in pixels."""


@dataclass(frozen=True)
class TagSighting:
    """A decoded marker in one frame, in pixels."""

    tag_id: TagId
    corners_px: tuple[tuple[float, float], ...]
    """The four corners in OpenCV's order (top-left, top-right, bottom-right, bottom-left of
    the marker as printed), each (x, y) in pixels."""


class TagState(StrEnum):
    """What the tracker knows of a tag right now."""

    SEEN = "seen"
    """Detected in this frame."""
    HELD = "held"
    """Not detected in this frame, but hidden only briefly: the last pose is kept."""
    LIFTED = "lifted"
    """Not detected for longer than the hold timeout: taken off the table or in a hand."""


@dataclass(frozen=True)
class TagPose:
    """A tracked tag on the table."""

    tag_id: TagId
    x_in: float
    """Tag centre, inches right of the play area's left front corner."""
    y_in: float
    """Tag centre, inches away from the player from the play area's front edge."""
    heading_deg: float
    """Direction of the tag's "up", degrees clockwise from +y, in [0, 360)."""
    state: TagState


@dataclass(frozen=True)
class BoardSnapshot:
    """The tracker's view of the table after one frame."""

    t: float
    """Seconds from the start of the source."""
    frame_index: int
    tags: tuple[TagPose, ...]
    settled: bool
    """True when nothing is moving and nothing (a hand) is over the table."""
    duplicates: tuple[TagId, ...] = field(default=())
    """Ids seen more than once on the table in this frame; neither copy is trusted."""
    warnings: tuple[str, ...] = field(default=())
    """Plain-language notes about this frame (corner tags lost, camera bumped, ...)."""
    pieces: tuple[PiecePose, ...] = field(default=())
    """Poses of the tracker's known pieces, each fitted from whichever of its tags are visible."""


@dataclass(frozen=True)
class TagMount:
    """Where a tag sits on a rigid piece (a miniature's base or a terrain piece).

    Offsets are in the piece's own frame, in millimetres from the base centre (or the terrain
    piece's reference point): ``forward_mm`` along the piece's facing, ``right_mm`` to its right.
    """

    tag_id: TagId
    forward_mm: float = 5.0
    right_mm: float = 0.0
    size_mm: float = 10.0
    """Side of the black square, without the white margin."""
    rotation_deg: float = 0.0
    """The tag's "up" relative to the piece's facing, clockwise degrees (0: tag up = front)."""
    height_mm: float = 3.0
    """Height of the tag's plane above the table (base top, or a terrain piece's top)."""


@dataclass(frozen=True)
class PieceSpec:
    """A rigid piece the tracker fits from whichever of its tags are visible."""

    name: str
    tags: tuple[TagMount, ...]
    base_diameter_mm: float = 25.0
    """0 for terrain and other non-round pieces."""


@dataclass(frozen=True)
class PiecePose:
    """A fitted piece pose on the table."""

    name: str
    x_in: float
    """Base centre (or terrain reference point), inches from the left front corner, +x right."""
    y_in: float
    """Inches away from the player."""
    heading_deg: float
    """Facing, degrees clockwise from +y, in [0, 360)."""
    state: TagState
    """SEEN if any of its tags was seen this frame, HELD if all are briefly hidden, else LIFTED."""
    tags_seen: tuple[TagId, ...] = ()

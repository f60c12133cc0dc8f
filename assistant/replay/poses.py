"""A piece's base centre from one of its tags, and back (inches, degrees, millimetres)."""

from __future__ import annotations

import math

from vision.types import TagMount

MM_PER_IN = 25.4


def _offset_in(facing_deg: float, mount: TagMount) -> tuple[float, float]:
    """The tag's offset from the base centre on the table, inches."""
    h = math.radians(facing_deg)
    fwd = (math.sin(h), math.cos(h))
    right = (math.cos(h), -math.sin(h))
    dx = (mount.forward_mm * fwd[0] + mount.right_mm * right[0]) / MM_PER_IN
    dy = (mount.forward_mm * fwd[1] + mount.right_mm * right[1]) / MM_PER_IN
    return dx, dy


def piece_centre_in(
    tag_x_in: float, tag_y_in: float, tag_heading_deg: float, mount: TagMount
) -> tuple[float, float, float]:
    """Base centre (inches) and facing (degrees) of a piece from one of its tags' pose."""
    facing = (tag_heading_deg - mount.rotation_deg) % 360.0
    dx, dy = _offset_in(facing, mount)
    return tag_x_in - dx, tag_y_in - dy, facing


def tag_on_piece_in(
    x_in: float, y_in: float, facing_deg: float, mount: TagMount
) -> tuple[float, float, float]:
    """Where a tag lies (centre inches, heading degrees) on a piece standing at (x, y) facing
    ``facing_deg``: the inverse of :func:`piece_centre_in`."""
    dx, dy = _offset_in(facing_deg, mount)
    return x_in + dx, y_in + dy, (facing_deg + mount.rotation_deg) % 360.0

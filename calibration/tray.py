"""The dice tray: a rectangle off the play area that the player rolls dice into, named by two
small corner tags.

Tag ``TRAY_TAG_IDS[0]`` lies just outside the tray's near-left corner with its inner (top-right)
corner touching it, tag ``TRAY_TAG_IDS[1]`` just outside the far-right corner with its inner
(bottom-left) corner touching it; both point "up" along the tray's depth (away from the player
when the tray lies square to the table). The two inner corners are the rectangle's diagonal and
the tags' direction gives its sides, so any rectangle works: the kit's printed tray sheet, or a
dice box with two tags stuck at its corners.

The tray ids are the kit's last two piece ids (48 and 49). The tracker only follows tags inside
the play area and the tray is found only outside it, so a base tag with the same id on the
table does not clash with the tray's.

Units: table inches (the profile's frame: +x right, +y away from the player), millimetres for
sizes and heights, pixels for sightings.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from calibration.errors import CalibrationError
from calibration.intrinsics import Intrinsics
from calibration.pose import (
    ASSUMED_FOCAL_PER_WIDTH,
    POSE_ASSUMED_FOCAL,
    CameraPose,
    TableMapping,
)
from calibration.table import MM_PER_IN, apply_homography, local_px_per_mm

TRAY_TAG_IDS: tuple[int, int] = (48, 49)
"""The tray's tags: (near-left corner, far-right corner)."""
TRAY_TAG_MM = 20.0
"""Side of a printed tray tag's black square, millimetres."""
MIN_TRAY_MM = 60.0
"""The smallest tray side that is accepted, millimetres (a few dice)."""

F64 = npt.NDArray[np.float64]
_TAG_SIGNS = ((-1, 1), (1, 1), (1, -1), (-1, -1))
"""(right, up) signs of a tag's corners in OpenCV order."""
Quad = tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class TrayRegion:
    """Where the dice tray lies on the table (inches) and what names it."""

    corners_in: Quad
    """The rolling area's corners in table inches: near-left, near-right, far-right, far-left."""
    tag_ids: tuple[int, int] = TRAY_TAG_IDS
    tag_mm: float = TRAY_TAG_MM
    floor_mm: float = 0.0
    """Height of the tray's floor above the table, millimetres (a box's bottom)."""

    @property
    def width_mm(self) -> float:
        """Length of the near side, millimetres."""
        a, b = np.asarray(self.corners_in[0]), np.asarray(self.corners_in[1])
        return float(np.linalg.norm(b - a)) * MM_PER_IN

    @property
    def depth_mm(self) -> float:
        """Length of the left side, millimetres."""
        a, d = np.asarray(self.corners_in[0]), np.asarray(self.corners_in[3])
        return float(np.linalg.norm(d - a)) * MM_PER_IN

    def axes(self) -> tuple[F64, F64]:
        """Unit vectors (right, up) of the tray in the table frame."""
        a = np.asarray(self.corners_in[0], dtype=np.float64)
        r = np.asarray(self.corners_in[1], dtype=np.float64) - a
        r /= max(float(np.linalg.norm(r)), 1e-12)
        return r, np.array([-r[1], r[0]])

    def to_table_in(self, uv_mm: npt.ArrayLike) -> F64:
        """Tray points (N, 2) in millimetres from the near-left corner (right, up) to table
        inches."""
        uv = np.asarray(uv_mm, dtype=np.float64).reshape(-1, 2) / MM_PER_IN
        r, up = self.axes()
        origin = np.asarray(self.corners_in[0], dtype=np.float64)
        return np.asarray(origin + uv[:, :1] * r + uv[:, 1:] * up, dtype=np.float64)

    def to_tray_mm(self, points_in: npt.ArrayLike) -> F64:
        """Table inches (N, 2) to tray millimetres (right, up) from the near-left corner."""
        p = np.asarray(points_in, dtype=np.float64).reshape(-1, 2)
        r, up = self.axes()
        d = (p - np.asarray(self.corners_in[0], dtype=np.float64)) * MM_PER_IN
        return np.stack([d @ r, d @ up], axis=1)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (the profile's "tray" field)."""
        return {
            "corners_in": [list(p) for p in self.corners_in],
            "tag_ids": list(self.tag_ids),
            "tag_mm": self.tag_mm,
            "floor_mm": self.floor_mm,
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> TrayRegion:
        """Read :meth:`to_dict`'s output; CalibrationError names a bad field."""
        try:
            corners = tuple((float(p[0]), float(p[1])) for p in data["corners_in"])
            ids = tuple(int(i) for i in data.get("tag_ids", TRAY_TAG_IDS))
            tag_mm = float(data.get("tag_mm", TRAY_TAG_MM))
            floor = float(data.get("floor_mm", 0.0))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise CalibrationError(f"tray: missing or malformed field ({exc})") from exc
        if len(corners) != 4 or len(ids) != 2:
            raise CalibrationError("tray: needs four corners_in and two tag_ids")
        return TrayRegion(corners, (ids[0], ids[1]), tag_mm, floor)


def _tag_axes(corners: F64) -> tuple[F64, F64, float]:
    """(right, up) unit vectors and mean side of a tag's corners (OpenCV order)."""
    right = (corners[1] - corners[0]) + (corners[2] - corners[3])
    up = (corners[0] - corners[3]) + (corners[1] - corners[2])
    side = (float(np.linalg.norm(right)) + float(np.linalg.norm(up))) / 4.0
    right /= max(float(np.linalg.norm(right)), 1e-12)
    up /= max(float(np.linalg.norm(up)), 1e-12)
    return right, up, side


def tray_from_tags(
    near_left: npt.ArrayLike,
    far_right: npt.ArrayLike,
    *,
    tag_ids: tuple[int, int] = TRAY_TAG_IDS,
    tag_mm: float = TRAY_TAG_MM,
    floor_mm: float = 0.0,
) -> TrayRegion:
    """The tray named by its two tags' corners on the table (inches, OpenCV order each).

    Raises CalibrationError when the tags do not name a rectangle: turned differently, the
    far-right tag not up and to the right of the near-left one, or a side under 60 mm.
    """
    a = np.asarray(near_left, dtype=np.float64).reshape(4, 2)
    b = np.asarray(far_right, dtype=np.float64).reshape(4, 2)
    ra, ua, _ = _tag_axes(a)
    rb, ub, _ = _tag_axes(b)
    turn = math.degrees(math.atan2(float(ra[0] * rb[1] - ra[1] * rb[0]), float(ra @ rb)))
    if abs(turn) > 12.0:
        raise CalibrationError(
            f"tray tags {tag_ids[0]} and {tag_ids[1]} are turned {abs(turn):.0f} degrees from "
            "each other: lay both with their tops toward the tray's far side"
        )
    r = ra + rb
    r /= max(float(np.linalg.norm(r)), 1e-12)
    up = np.array([-r[1], r[0]])
    if float(up @ (ua + ub)) < 0:
        up = -up
    p, q = a[1], b[3]
    width_mm = float((q - p) @ r) * MM_PER_IN
    depth_mm = float((q - p) @ up) * MM_PER_IN
    if width_mm < MIN_TRAY_MM or depth_mm < MIN_TRAY_MM:
        raise CalibrationError(
            f"tray tags {tag_ids[0]} and {tag_ids[1]} name a {width_mm:.0f} x {depth_mm:.0f} mm "
            f"area: put tag {tag_ids[0]} at the tray's near-left corner and tag {tag_ids[1]} at "
            f"its far-right corner (each side at least {MIN_TRAY_MM:.0f} mm)"
        )
    w_in, d_in = width_mm / MM_PER_IN, depth_mm / MM_PER_IN
    corners = (p, p + w_in * r, p + w_in * r + d_in * up, p + d_in * up)
    return TrayRegion(tuple((float(c[0]), float(c[1])) for c in corners), tag_ids, tag_mm, floor_mm)


def tray_sightings(
    sightings: Iterable[tuple[int, Sequence[tuple[float, float]]]],
    tag_ids: tuple[int, int] = TRAY_TAG_IDS,
    keep: Any = None,
) -> dict[int, F64]:
    """The tray tags among (id, corners px) pairs, one per id: when an id is seen more than once
    (a base tag with the same id on the table), ``keep(corners) -> bool`` picks the copy; a
    copy still ambiguous is dropped."""
    found: dict[int, list[F64]] = {}
    for tag_id, corners in sightings:
        if int(tag_id) in tag_ids:
            found.setdefault(int(tag_id), []).append(np.asarray(corners, dtype=np.float64))
    out = {}
    for tag_id, copies in found.items():
        if keep is not None and len(copies) > 1:
            copies = [c for c in copies if keep(c)]
        if len(copies) == 1:
            out[tag_id] = copies[0]
    return out


def locate_tray(
    sightings: Iterable[tuple[int, Sequence[tuple[float, float]]]],
    mapping: TableMapping,
    width_in: float,
    depth_in: float,
    *,
    tag_ids: tuple[int, int] = TRAY_TAG_IDS,
    tag_mm: float = TRAY_TAG_MM,
    floor_mm: float = 0.0,
) -> TrayRegion:
    """Find the tray in one frame's sightings (pixels) through the table mapping. Only tags
    outside the play area count. CalibrationError says which tag is missing."""

    def outside(corners: F64) -> bool:
        c = mapping.to_table_in(corners, floor_mm).mean(axis=0)
        return not (0.0 <= c[0] <= width_in and 0.0 <= c[1] <= depth_in)

    found = tray_sightings(sightings, tag_ids, outside)
    found = {i: c for i, c in found.items() if outside(c)}
    missing = [i for i in tag_ids if i not in found]
    if missing:
        raise CalibrationError(_missing_words(missing, tag_ids))
    a = mapping.to_table_in(found[tag_ids[0]], floor_mm)
    b = mapping.to_table_in(found[tag_ids[1]], floor_mm)
    return tray_from_tags(a, b, tag_ids=tag_ids, tag_mm=tag_mm, floor_mm=floor_mm)


def _missing_words(missing: list[int], tag_ids: tuple[int, int]) -> str:
    where = {tag_ids[0]: "near-left", tag_ids[1]: "far-right"}
    names = " and ".join(f"tag {i} ({where[i]} corner)" for i in missing)
    return f"the dice tray's {names} cannot be seen off the play area"


def _overhead_pose(
    h_in: F64, image_size_px: tuple[int, int], intrinsics: Intrinsics | None
) -> CameraPose:
    """A camera looking straight down at the plane point under the image centre, as high as
    the homography's local scale there and the focal length say."""
    w, hh = image_size_px
    if intrinsics is not None:
        k = intrinsics.scaled_to(image_size_px).matrix()
        f, centre_px = float(k[0, 0]), (float(k[0, 2]), float(k[1, 2]))
    else:
        f, centre_px = ASSUMED_FOCAL_PER_WIDTH * w, (w / 2.0, hh / 2.0)
    under = apply_homography(np.linalg.inv(h_in), [centre_px])[0]
    scale = local_px_per_mm(h_in, float(under[0]), float(under[1]))
    height_mm = f / max(scale, 1e-9)
    centre = np.array([under[0] * MM_PER_IN, under[1] * MM_PER_IN, height_mm])
    rot = np.diag([1.0, -1.0, -1.0])
    rvec, _ = cv2.Rodrigues(rot)
    tvec = -rot @ centre
    return CameraPose(
        rvec=(float(rvec[0, 0]), float(rvec[1, 0]), float(rvec[2, 0])),
        tvec_mm=(float(tvec[0]), float(tvec[1]), float(tvec[2])),
        camera_matrix=((f, 0.0, centre_px[0]), (0.0, f, centre_px[1]), (0.0, 0.0, 1.0)),
        source=POSE_ASSUMED_FOCAL,
    )


def standalone_tray(
    sightings: Iterable[tuple[int, Sequence[tuple[float, float]]]],
    image_size_px: tuple[int, int],
    *,
    tag_ids: tuple[int, int] = TRAY_TAG_IDS,
    tag_mm: float = TRAY_TAG_MM,
    intrinsics: Intrinsics | None = None,
) -> tuple[TableMapping, TrayRegion]:
    """A mapping of the tray's own plane and the tray, from its two tags alone (a photo of the
    tray with no table profile). The frame's origin is tag ``tag_ids[0]``'s inner corner, +x
    along the tray's near side; its inches are true when the tags are ``tag_mm`` wide.

    Two small tags cannot tell where the camera is (their pose is ill-conditioned), so the
    camera is taken to look straight down at the point under the image centre, from the height
    at which its focal length (the lens's, or a common webcam's) gives the tags' scale there."""
    found = tray_sightings(sightings, tag_ids)
    missing = [i for i in tag_ids if i not in found]
    if missing:
        raise CalibrationError(_missing_words(missing, tag_ids))
    s = tag_mm / MM_PER_IN
    square = np.array([(-s, 0.0), (0.0, 0.0), (0.0, -s), (-s, -s)])
    a_px, b_px = found[tag_ids[0]], found[tag_ids[1]]
    h_a, _ = cv2.findHomography(square, a_px, 0)
    if h_a is None:
        raise CalibrationError(f"tray tag {tag_ids[0]} is too distorted to map the tray")
    inv = np.linalg.inv(h_a)
    pts = np.hstack([b_px, np.ones((4, 1))]) @ inv.T
    b_in = pts[:, :2] / pts[:, 2:3]
    rb, ub, _ = _tag_axes(b_in)
    m, half = b_in.mean(axis=0), s / 2.0
    b_ideal = np.array([m + half * (sr * rb + su * ub) for sr, su in _TAG_SIGNS])
    table_pts = np.vstack([square, b_ideal])
    image_pts = np.vstack([a_px, b_px])
    h, _ = cv2.findHomography(table_pts, image_pts, 0)
    if h is None:
        raise CalibrationError("the tray tags do not fit one plane")
    pose = _overhead_pose(h, image_size_px, intrinsics)
    mapping = TableMapping(tuple(tuple(float(v) for v in row) for row in h), pose, intrinsics)
    tray = tray_from_tags(square, b_ideal, tag_ids=tag_ids, tag_mm=tag_mm)
    return mapping, tray

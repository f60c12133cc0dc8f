"""The table mapping: where the four corner tags lie on the table, and the homography that takes
table inches (on the table plane, z = 0) to image pixels, fitted from all their corners.

Corner tags (DESIGN §1): ids 0-3, 40 mm, just outside the play area with the inner corner touching
the play-area corner; 0 at (0, 0) on the player's left, 1 at (W, 0), 2 at (W, D), 3 at (0, D); each
tag's "up" is +y (away from the player). Table coordinates: inches from the play area's left front
corner, +x right, +y away from the player.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from calibration.errors import CalibrationError

MM_PER_IN = 25.4
CORNER_IDS: tuple[int, int, int, int] = (0, 1, 2, 3)
CORNER_TAG_MM = 40.0

Corners = tuple[tuple[float, float], ...]
"""Four (x, y) points in OpenCV's marker order: top-left, top-right, bottom-right, bottom-left."""

F64 = npt.NDArray[np.float64]


def corner_layout(
    width_in: float, depth_in: float, tag_mm: float = CORNER_TAG_MM
) -> dict[int, Corners]:
    """Table positions (inches) of the four corners of each corner tag, in OpenCV's order.

    A tag whose "up" is +y has its printed top-left corner at the larger y and smaller x.
    """
    if width_in <= 0 or depth_in <= 0:
        raise CalibrationError(f"table size must be positive, got {width_in} x {depth_in} in")
    s = tag_mm / MM_PER_IN
    lower_left = {0: (-s, -s), 1: (width_in, -s), 2: (width_in, depth_in), 3: (-s, depth_in)}
    layout: dict[int, Corners] = {}
    for tag_id, (x0, y0) in lower_left.items():
        layout[tag_id] = ((x0, y0 + s), (x0 + s, y0 + s), (x0 + s, y0), (x0, y0))
    return layout


@dataclass(frozen=True)
class TableFit:
    """A homography from table inches (z = 0) to pixels and how well it fits its corner points."""

    homography: tuple[tuple[float, ...], ...]
    """3x3, maps (x_in, y_in, 1) to homogeneous (undistorted) pixel coordinates."""
    corner_ids: tuple[int, ...]
    """Corner tags the fit used."""
    reprojection_rms_mm: float
    """RMS distance on the table, mm, between each tag corner's known place and where the fit
    maps its pixel back to, over all the corners (outliers of the robust fit included)."""
    reprojection_max_mm: float
    """Largest such distance, mm."""
    px_per_mm_min: float
    """Smallest local scale over the play area, pixels per millimetre (the far edge under tilt)."""
    px_per_mm_max: float
    """Largest local scale over the play area, pixels per millimetre."""
    inliers: int
    """How many of the tag corners the robust fit kept."""

    def matrix(self) -> F64:
        """The homography as a 3x3 array (table inches -> pixels)."""
        return np.array(self.homography, dtype=np.float64)


def apply_homography(h: F64, points: npt.ArrayLike) -> F64:
    """Map Nx2 points through a 3x3 homography (units follow the homography)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    ones = np.ones((pts.shape[0], 1))
    out = np.hstack([pts, ones]) @ h.T
    return np.asarray(out[:, :2] / out[:, 2:3], dtype=np.float64)


def local_px_per_mm(h: F64, x_in: float, y_in: float) -> float:
    """Local linear scale of the table->pixel homography at a table point, pixels per mm
    (square root of the Jacobian's determinant)."""
    eps = 0.05
    p = apply_homography(h, [(x_in, y_in), (x_in + eps, y_in), (x_in, y_in + eps)])
    jx = (p[1] - p[0]) / (eps * MM_PER_IN)
    jy = (p[2] - p[0]) / (eps * MM_PER_IN)
    return float(np.sqrt(abs(jx[0] * jy[1] - jx[1] * jy[0])))


def fit_table_homography(
    corners_px: Mapping[int, Sequence[tuple[float, float]]],
    width_in: float,
    depth_in: float,
    tag_mm: float = CORNER_TAG_MM,
    ransac_px: float = 3.0,
) -> TableFit:
    """Fit the table->pixel homography from the corner tags found (robust, then least squares).

    ``corners_px`` maps corner-tag id to its four (undistorted) pixel corners in OpenCV's order.
    Needs at least two corner tags (eight points); all four is what calibration expects.
    """
    layout = corner_layout(width_in, depth_in, tag_mm)
    ids = tuple(sorted(i for i in corners_px if i in layout))
    if len(ids) < 2:
        raise CalibrationError(
            f"need at least 2 of the corner tags {list(CORNER_IDS)} to map the table, "
            f"found {list(ids) or 'none'}"
        )
    table = np.array([p for i in ids for p in layout[i]], dtype=np.float64)
    image = np.array([p for i in ids for p in corners_px[i]], dtype=np.float64)
    if image.shape != table.shape:
        raise CalibrationError("each corner tag needs exactly four pixel corners")
    h, mask = cv2.findHomography(table, image, cv2.RANSAC, ransac_px)
    if h is None:
        raise CalibrationError(f"the corner tags {list(ids)} do not fit a table plane")
    keep = mask.ravel().astype(bool)
    if keep.sum() >= 8:
        refined, _ = cv2.findHomography(table[keep], image[keep], 0)
        if refined is not None:
            h = refined
    return _fit_report(h, table, image, keep, ids, width_in, depth_in)


def _fit_report(
    h: F64,
    table: F64,
    image: F64,
    keep: npt.NDArray[np.bool_],
    ids: tuple[int, ...],
    width_in: float,
    depth_in: float,
) -> TableFit:
    back = apply_homography(np.linalg.inv(h), image)
    err_mm = np.linalg.norm(back - table, axis=1) * MM_PER_IN
    scales = [
        local_px_per_mm(h, x, y)
        for x, y in ((0, 0), (width_in, 0), (width_in, depth_in), (0, depth_in))
    ]
    return TableFit(
        homography=tuple(tuple(float(v) for v in row) for row in h / h[2, 2]),
        corner_ids=ids,
        reprojection_rms_mm=float(np.sqrt(np.mean(err_mm**2))),
        reprojection_max_mm=float(err_mm.max()),
        px_per_mm_min=float(min(scales)),
        px_per_mm_max=float(max(scales)),
        inliers=int(keep.sum()),
    )


def corner_sightings(
    sightings: Iterable[tuple[int, Sequence[tuple[float, float]]]],
) -> dict[int, list[tuple[float, float]]]:
    """Pick the corner tags out of (id, corners) pairs; an id seen twice is dropped (ambiguous)."""
    found: dict[int, list[tuple[float, float]]] = {}
    twice: set[int] = set()
    for tag_id, corners in sightings:
        if tag_id not in CORNER_IDS:
            continue
        if tag_id in found:
            twice.add(tag_id)
        found[tag_id] = [(float(x), float(y)) for x, y in corners]
    for tag_id in twice:
        del found[tag_id]
    return found

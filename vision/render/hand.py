"""A player's hand over the table: forearm, palm, thumb and fingers as skin-coloured solids.

Positions in table inches, sizes and heights in millimetres, heading in degrees clockwise
from +y (the direction the fingers point).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
import shapely
from shapely.geometry import Polygon, box

from vision.render.camera import MM_PER_INCH
from vision.render.draw import Canvas, ring
from vision.render.scene import TableSpec, piece_axes

SKIN_BGR = (120, 150, 205)

Box = tuple[int, int, int, int]
"""A rectangle of pixels: (x0, y0, x1, y1), x1 and y1 excluded."""


@dataclass(frozen=True)
class HandPose:
    """Where the hand is: the palm centre over the table and its height."""

    x_in: float
    y_in: float
    height_mm: float = 150.0
    """Height of the palm above the table."""
    heading_deg: float = 0.0
    """Direction the fingers point, degrees clockwise from +y (0: reaching away from the
    player, the forearm trailing back toward the front edge)."""
    holding: bool = False
    """Fingers curled around a lifted piece."""


@dataclass(frozen=True)
class _Capsule:
    """A rounded solid between two points of the hand frame: (right, forward, dz) mm."""

    a: tuple[float, float, float]
    b: tuple[float, float, float]
    ra: float
    rb: float
    shade: float


def _parts(hand: HandPose) -> list[_Capsule]:
    curl = 0.55 if hand.holding else 1.0
    dz_f = -18.0 if hand.holding else -6.0
    parts = [
        _Capsule((0, -45, 10), (0, -520, 260), 32, 44, 0.92),  # forearm, rising to the elbow
        _Capsule((0, -10, 0), (0, 25, 0), 40, 40, 1.0),  # palm
        _Capsule((-38, -5, -4), (-72, 38 * curl, -14), 12, 10, 0.95),  # thumb
    ]
    for dx, length in ((-26, 70), (-9, 82), (9, 78), (26, 62)):
        parts.append(_Capsule((dx, 40, -2), (dx * 1.1, 40 + length * curl, dz_f), 9.5, 8, 0.97))
    return parts


@lru_cache(maxsize=4)
def _hand_solids(hand: HandPose) -> tuple[tuple[np.ndarray, float], ...]:
    """Every part of the hand as (world points in mm, shade), forearm first (computed once per
    pose: a frame draws the hand, its shadow and its footprint from the same points)."""
    return tuple((_capsule_points(hand, part), part.shade) for part in _parts(hand))


def _capsule_points(hand: HandPose, c: _Capsule) -> np.ndarray:
    fwd, right = piece_axes(hand.heading_deg)
    origin = np.array([hand.x_in * MM_PER_INCH, hand.y_in * MM_PER_INCH])
    rings = []
    for (r, f, dz), rad in ((c.a, c.ra), (c.b, c.rb)):
        p = origin + r * right + f * fwd
        z = hand.height_mm + dz
        for zz in (z - rad * 0.6, z + rad * 0.6):
            rings.append(ring(p[0], p[1], max(zz, 1.0), rad, rad, fwd, right, 12))
    return np.concatenate(rings)


def _drawn_parts(canvas: Canvas, hand: HandPose) -> list[tuple[np.ndarray, float]]:
    """The parts of the hand in front of the camera: (world points, shade), forearm first."""
    return [
        (pts, shade)
        for pts, shade in _hand_solids(hand)
        if not (canvas.camera.to_camera(pts)[:, 2] < 10.0).any()
    ]


def draw_hand(canvas: Canvas, hand: HandPose) -> None:
    """Draw the hand on the canvas (forearm first, fingers last); every part occludes."""
    for pts, shade in _drawn_parts(canvas, hand):
        colour = tuple(int(min(255, v * shade)) for v in SKIN_BGR)
        canvas.fill_convex(canvas.project(pts), colour, occluder=True)  # type: ignore[arg-type]


SHADOW_LIGHT = (0.12, 0.2)
"""Horizontal shift of a shadow per millimetre of height (light from above, behind the camera)."""


@dataclass(frozen=True)
class ShadowLight:
    """The light that casts the hand's shadow: how far the shadow falls from under the hand
    (x, y shift per millimetre of height), how dark it is (the fraction of light it takes) and
    how soft (its edge's blur per millimetre of height, as a fraction of it)."""

    shift: tuple[float, float] = SHADOW_LIGHT
    strength: float = 0.22
    softness: float = 0.08
    min_blur_px: float = 2.0
    """The least blur of the shadow's edge, pixels."""


ROOM_LIGHT = ShadowLight()
"""Diffuse room light from above, behind the camera: a faint, soft shadow under the hand."""


def _shadow(
    canvas: Canvas, hand: HandPose, light: ShadowLight = ROOM_LIGHT
) -> tuple[list[np.ndarray], float, Box | None]:
    """The shadow's outlines (canvas pixels), its blur (pixels) and the canvas box it darkens
    (x0, y0, x1, y1; None when it falls outside the canvas)."""
    polys = []
    sx, sy = light.shift
    for pts, _ in _hand_solids(hand):
        z = pts[:, 2:3]
        flat = np.column_stack([pts[:, 0:1] + sx * z, pts[:, 1:2] + sy * z, 0.0 * z])
        polys.append(canvas.project(flat))
    allpts = np.concatenate(polys)
    h, w = canvas.image.shape[:2]
    px_per_mm = canvas.camera.px_per_mm_at_table()
    blur_px = max(light.min_blur_px, light.softness * hand.height_mm * px_per_mm)
    pad = int(3 * blur_px) + 2
    x0 = max(int(allpts[:, 0].min()) - pad, 0)
    y0 = max(int(allpts[:, 1].min()) - pad, 0)
    x1 = min(int(allpts[:, 0].max()) + pad, w)
    y1 = min(int(allpts[:, 1].max()) + pad, h)
    box = (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None
    return polys, blur_px, box


def draw_hand_shadow(canvas: Canvas, hand: HandPose, light: ShadowLight = ROOM_LIGHT) -> None:
    """Darken the table under the hand with its shadow (soft under the room's light)."""
    polys, blur_px, box = _shadow(canvas, hand, light)
    if box is None:
        return
    x0, y0, x1, y1 = box
    # Drawn and blurred at a scale that keeps the blur a few pixels wide.
    k = max(1, int(blur_px / 3.0))
    small = np.zeros((-(-(y1 - y0) // k), -(-(x1 - x0) // k)), np.float32)
    for poly in polys:
        pts = (poly - np.array([x0, y0])) * (16.0 / k)
        cv2.fillConvexPoly(small, cv2.convexHull(pts.astype(np.int32)), 1.0, cv2.LINE_AA, 4)
    small = cv2.GaussianBlur(small, (0, 0), blur_px / k)
    mask = cv2.resize(small, (small.shape[1] * k, small.shape[0] * k))[: y1 - y0, : x1 - x0]
    light_left = cv2.merge([1.0 - light.strength * mask] * 3)
    roi = canvas.image[y0:y1, x0:x1]
    roi[:] = cv2.multiply(roi, light_left, dtype=cv2.CV_8U)


def hand_occluders(canvas: Canvas, hand: HandPose) -> list[np.ndarray]:
    """The hand's parts as occluders of ``canvas`` (what :func:`draw_hand` would add to its
    occluders), without drawing them: for judging what the hand covers on one canvas while
    drawing it on another."""
    return [canvas.hull(canvas.project(pts)) for pts, _ in _drawn_parts(canvas, hand)]


def hand_canvas_box(canvas: Canvas, hand: HandPose, light: ShadowLight = ROOM_LIGHT) -> Box | None:
    """The canvas pixels that drawing the hand and its shadow (under ``light``) may change:
    (x0, y0, x1, y1), clipped to the canvas; None when neither falls on it."""
    boxes = []
    _, _, shadow = _shadow(canvas, hand, light)
    if shadow is not None:
        boxes.append(shadow)
    h, w = canvas.image.shape[:2]
    for pts, _ in _drawn_parts(canvas, hand):
        px = canvas.project(pts)
        x0, y0 = (
            max(int(np.floor(px[:, 0].min())) - 2, 0),
            max(int(np.floor(px[:, 1].min())) - 2, 0),
        )
        x1, y1 = min(int(np.ceil(px[:, 0].max())) + 3, w), min(int(np.ceil(px[:, 1].max())) + 3, h)
        if x1 > x0 and y1 > y0:
            boxes.append((x0, y0, x1, y1))
    return union(boxes)


def union(boxes: list[Box]) -> Box | None:
    """The smallest box holding every one of ``boxes`` (None when there are none)."""
    if not boxes:
        return None
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def hand_footprint(hand: HandPose) -> Polygon:
    """The hand's outline projected straight down onto the table, millimetres."""
    polys = []
    for pts3, _ in _hand_solids(hand):
        pts = pts3[:, :2]
        polys.append(shapely.convex_hull(shapely.multipoints(pts)))
    return shapely.union_all(polys)


def hand_over_table(hand: HandPose | None, table: TableSpec) -> bool:
    """True when any part of the hand is over the table top (play area plus its border)."""
    if hand is None:
        return False
    b = table.border_mm
    top = box(-b, -b, table.width_mm + b, table.depth_mm + b)
    return bool(hand_footprint(hand).intersects(top))

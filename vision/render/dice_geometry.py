"""The geometry of a pip die: its faces, pip layouts, pose and the parts drawn for it.

Die frame: the cube centred at the origin, faces at +-side/2 along x, y and z. Face 1 is +z, 6 is
-z, 2 is +x, 5 is -x, 3 is +y, 4 is -y (opposite faces add up to 7). Each face has in-plane axes
(u, v) with u x v = the face's outward normal; pip positions are given on them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.render.dice import PlacedDie

F64 = npt.NDArray[np.float64]

FACE_FRAMES: dict[int, tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]]] = {
    1: ((0, 0, 1), (1, 0, 0), (0, 1, 0)),
    6: ((0, 0, -1), (1, 0, 0), (0, -1, 0)),
    2: ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    5: ((-1, 0, 0), (0, -1, 0), (0, 0, 1)),
    3: ((0, 1, 0), (0, 0, 1), (1, 0, 0)),
    4: ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
}
"""Face value -> (outward normal, u axis, v axis) in the die frame."""

PIP_LAYOUTS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (1, 1), (-1, 1)),
    5: ((-1, -1), (1, -1), (1, 1), (-1, 1), (0, 0)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}
"""Face value -> pip places in units of the pip offset along the face's (u, v) axes."""


@dataclass(frozen=True)
class DiePose:
    """Where a die's frame lies in the world: rotation (die -> world) and centre, mm."""

    rotation: F64
    centre_mm: F64

    def to_world(self, points: npt.ArrayLike) -> F64:
        """Die-frame points (N, 3) in mm to world millimetres."""
        p = np.asarray(points, dtype=np.float64).reshape(-1, 3)
        return np.asarray(p @ self.rotation.T + self.centre_mm, dtype=np.float64)

    def normal(self, value: int) -> F64:
        """World direction of face ``value``'s outward normal."""
        return np.asarray(self.rotation @ np.array(FACE_FRAMES[value][0], float), dtype=np.float64)

    def face_up(self) -> int:
        """The face whose normal points most nearly up."""
        return max(FACE_FRAMES, key=lambda v: float(self.normal(v)[2]))


def die_pose(die: PlacedDie) -> DiePose:
    """The pose of ``die``: its value face up, turned by its yaw, tipped by its tilt, resting
    with its lowest point on its floor."""
    n, u, v = (np.array(a, dtype=np.float64) for a in FACE_FRAMES[die.value])
    up = np.stack([u, v, n])  # die frame -> a frame with the value face up
    a = math.radians(die.yaw_deg)
    yaw = np.array(
        [[math.cos(a), math.sin(a), 0.0], [-math.sin(a), math.cos(a), 0.0], [0.0, 0.0, 1.0]]
    )
    d = math.radians(die.tilt_dir_deg)
    axis = np.cross([0.0, 0.0, 1.0], [math.sin(d), math.cos(d), 0.0])
    tilt, _ = cv2.Rodrigues(axis * math.radians(die.tilt_deg))
    rot = tilt @ yaw @ up
    h = die.size_mm / 2.0
    r = die.look.edge_radius * die.size_mm
    inner = (h - r) * np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    lowest = float((inner @ rot.T)[:, 2].min()) - r
    centre = np.array([die.x_mm, die.y_mm, die.floor_mm - lowest])
    return DiePose(rotation=rot, centre_mm=centre)


def _sphere_dirs(n: int = 6) -> F64:
    """Unit directions roughly evenly over the sphere (for silhouettes)."""
    out = []
    for i in range(n):
        lat = math.pi * (i + 0.5) / n - math.pi / 2
        k = max(3, round(2 * n * math.cos(lat)))
        for j in range(k):
            lon = 2 * math.pi * j / k
            out.append(
                (math.cos(lat) * math.cos(lon), math.cos(lat) * math.sin(lon), math.sin(lat))
            )
    return np.array(out)


SPHERE_DIRS = _sphere_dirs()


def hull_points(die: PlacedDie) -> F64:
    """Die-frame points whose convex hull is the rounded cube (corner spheres sampled), mm."""
    h = die.size_mm / 2.0
    r = die.look.edge_radius * die.size_mm
    inner = (h - r) * np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    return np.asarray((inner[:, None, :] + r * SPHERE_DIRS[None, :, :]).reshape(-1, 3))


@dataclass(frozen=True)
class Patch:
    """A flat convex piece of a die's surface: die-frame corners (mm) and outward normal."""

    points: F64
    normal: F64


def surface_patches(die: PlacedDie, strips: int = 3) -> tuple[list[Patch], dict[int, Patch]]:
    """The rounded edges and corners (as small flat patches) and the six flat faces by value."""
    h = die.size_mm / 2.0
    r = die.look.edge_radius * die.size_mm
    a = h - r
    edges: list[Patch] = []
    axes = [np.eye(3)[i] * s for i in range(3) for s in (1.0, -1.0)]
    for i, n1 in enumerate(axes):
        for n2 in axes[i + 1 :]:
            if abs(float(n1 @ n2)) > 0.5:
                continue
            e = np.cross(n1, n2)
            base = a * (n1 + n2)
            for k in range(strips):
                p0, p1 = (math.pi / 2 * (k + t) / strips for t in (0.0, 1.0))
                pm = (p0 + p1) / 2
                pts = [
                    base + t * a * e + r * (math.cos(p) * n1 + math.sin(p) * n2)
                    for p in (p0, p1)
                    for t in (-1.0, 1.0)
                ]
                normal = math.cos(pm) * n1 + math.sin(pm) * n2
                edges.append(Patch(np.array(pts), normal))
    for sx in (-1, 1):
        for sy in (-1, 1):
            for sz in (-1, 1):
                s = np.array([sx, sy, sz], dtype=np.float64)
                dirs = SPHERE_DIRS[(SPHERE_DIRS * s >= -1e-9).all(axis=1)]
                pts = a * s + r * np.vstack([dirs, np.diag(s)])
                edges.append(Patch(pts, s / np.linalg.norm(s)))
    faces = {}
    for value, (n, u, v) in FACE_FRAMES.items():
        nn, uu, vv = (np.array(x, dtype=np.float64) for x in (n, u, v))
        pts = np.array([h * nn + su * a * uu + sv * a * vv for su, sv in _SQUARE])
        faces[value] = Patch(pts, nn)
    return edges, faces


_SQUARE = ((-1, -1), (1, -1), (1, 1), (-1, 1))


def pip_discs(die: PlacedDie, value: int, segments: int = 16) -> list[F64]:
    """The pips of face ``value`` as die-frame polygons (segments, 3), millimetres."""
    n, u, v = (np.array(x, dtype=np.float64) for x in FACE_FRAMES[value])
    s = die.size_mm
    rad = die.look.pip_diameter * s / 2.0
    if value == 1:
        rad *= die.look.one_pip_scale
    g = die.look.pip_offset * s
    t = np.linspace(0.0, 2 * math.pi, segments, endpoint=False)
    ring = np.cos(t)[:, None] * u + np.sin(t)[:, None] * v
    out = []
    for pu, pv in PIP_LAYOUTS[value]:
        c = (s / 2.0 + 0.01) * n + g * (pu * u + pv * v)
        out.append(c + rad * ring)
    return out


def top_face_corners_mm(die: PlacedDie, pose: DiePose | None = None) -> F64:
    """World corners (4, 3) of the face most nearly up, at the die's full side, millimetres."""
    pose = die_pose(die) if pose is None else pose
    value = pose.face_up()
    n, u, v = (np.array(x, dtype=np.float64) for x in FACE_FRAMES[value])
    h = die.size_mm / 2.0
    return pose.to_world([h * n + su * h * u + sv * h * v for su, sv in _SQUARE])

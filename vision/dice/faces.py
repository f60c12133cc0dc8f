"""From pips to die faces: which pips make one face, and what it shows.

A face is a square lattice: its pips sit on the 3 x 3 grid of places ``centre + step * (i, j)``
turned by the face's angle, on the places of one layout (1 to 6), with no other pip inside the
face. Hypotheses come from pairs of nearby pips (each pair is one of six lattice steps apart:
(1, 0), (2, 0), (1, 1), (2, 2), (2, 1), (1, 2), from any place): each gives a centre, angle and
step, and is kept when every like pip inside its square sits on a place of one layout. The
best hypotheses (most pips, then the closest fit) are taken greedily, without sharing a pip.
This separates touching dice whatever their colours: two faces cannot share one lattice.
A lone pip with no like pip around it is a one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.dice.pips import F64, GRID, LAYOUTS, Pip, Polarity

PIP_OFFSET = 0.27
"""Typical pip offset over the die's side (0.25-0.30 across makers)."""
FACE_L_TOLERANCE = 0.15
"""Pips whose faces differ in lightness by more than this share are on different faces (a top
face and a side face are lit differently)."""
INSIDE = 1.6
"""Half-width of a face's square in steps where any like pip must be one of its own (the face
reaches 1.85 steps; a neighbour's pips start beyond)."""
PLACE_TOLERANCE = 0.3
"""Largest distance of a pip from its place, in steps."""
SIZE_RATIO = 1.45
"""Pips of one face differ in diameter by less than this ratio."""
RELATIONS = ((1, 0), (2, 0), (1, 1), (2, 2), (2, 1), (1, 2))
"""Lattice steps between two pips of one face."""


def _layout_masks() -> dict[int, int]:
    """9-bit occupancy mask of every layout under the four quarter turns -> face value."""
    out = {}
    for value, places in LAYOUTS.items():
        for turn in range(4):
            mask = 0
            for i, j in places:
                for _ in range(turn):
                    i, j = -j, i
                mask |= 1 << GRID.index((i, j))
            out[mask] = value
    return out


LAYOUT_MASKS = _layout_masks()


@dataclass
class Face:
    """A die face: its pips and the lattice they sit on, view pixels."""

    value: int
    centre: F64
    angle: float
    """Direction of the face's first axis (the frame of ``places``), radians; 0 for a lone pip."""
    step: float
    """Pip offset (corner pip to centre along one axis), pixels; 0 for a lone pip."""
    residual: float
    """RMS distance of the pips from their places, in steps."""
    pips: list[Pip]
    places: tuple[tuple[int, int], ...]
    """Each pip's place on the grid, in the order of ``pips``."""
    squash: float = 1.0
    """Smaller over larger singular value of the lattice's affine fit (1: square)."""
    squash_angle: float = 0.0
    """Direction of the lattice's short axis, radians."""
    members: tuple[int, ...] = ()
    """Indices of the pips in the list they were found from."""

    @property
    def polarity(self) -> Polarity:
        """Dark or light pips."""
        return self.pips[0].polarity

    @property
    def face_l(self) -> float:
        """Lightness of the face around its pips."""
        return float(np.median([p.face_l for p in self.pips]))

    @property
    def contrast(self) -> float:
        """Weakest pip's contrast with the face."""
        return float(min(p.contrast for p in self.pips))

    @property
    def pip_diameter(self) -> float:
        """Median pip diameter, pixels."""
        return float(np.median([p.diameter for p in self.pips]))

    def side_px(self, fallback: float) -> float:
        """The die's side from the pip step (``fallback`` for a lone pip)."""
        if self.value == 1 or self.step <= 0:
            return fallback
        return self.step / PIP_OFFSET


def _rot(a: F64) -> tuple[F64, F64]:
    return np.cos(a), np.sin(a)


def face_candidates(pips: list[Pip], step_px: tuple[float, float]) -> list[Face]:
    """Every face the pips could make (view pixels), best first: most pips, then the closest
    fit. Overlapping candidates share pips; the reader picks among them. ``step_px`` bounds
    the pip offset (the die size range times :data:`PIP_OFFSET`, widened)."""
    n = len(pips)
    if n == 0:
        return []
    xy = np.array([[p.x, p.y] for p in pips], dtype=np.float64)
    pol = np.array([p.polarity is Polarity.DARK for p in pips])
    diam = np.array([p.diameter for p in pips])
    face_l = np.array([p.face_l for p in pips])
    g_lo, g_hi = step_px
    reach = 2.0 * math.sqrt(2.0) * g_hi * 1.05
    dist = np.linalg.norm(xy[:, None, :] - xy[None, :, :], axis=2)
    ratio = np.maximum(diam[:, None], diam[None, :]) / np.maximum(
        np.minimum(diam[:, None], diam[None, :]), 1e-6
    )
    alike = (pol[:, None] == pol[None, :]) & (ratio <= SIZE_RATIO)
    found: list[tuple[int, float, F64, float, float, tuple[int, ...], tuple[tuple[int, int], ...]]]
    found = []
    for a in range(n):
        near = np.nonzero((pol == pol[a]) & (dist[a] <= 2.0 * reach))[0]
        partners = [q for q in near if q != a and alike[a, q] and dist[a, q] <= reach]
        if not partners:
            continue
        hyp = _hypotheses(xy[a], xy[partners], g_lo, g_hi)
        if hyp is None:
            continue
        found.extend(_valid(hyp, near, xy, diam))
    found.sort(key=lambda f: (-f[0], f[1] - 0.002 * float(np.mean(face_l[list(f[5])]))))
    faces: list[Face] = []
    seen: set[tuple[int, ...]] = set()
    for value, resid, centre, angle, step, members, places in found:
        key = tuple(sorted(members))
        if key in seen:
            continue
        seen.add(key)
        face = _refined(Face(value, centre, angle, step, resid, [pips[i] for i in members], places))
        face.squash, face.squash_angle = _squash(face)
        face.members = key
        faces.append(face)
    return faces


def lone_pip(pip: Pip, index: int) -> Face:
    """A one: a lone pip at the face centre (its square's angle is found from the die's
    edges)."""
    face = Face(1, np.array([pip.x, pip.y]), 0.0, 0.0, 0.0, [pip], ((0, 0),))
    face.members = (index,)
    return face


def _hypotheses(p: F64, qs: F64, g_lo: float, g_hi: float) -> F64 | None:
    """Lattices (cx, cy, angle, step) through pip ``p`` and each of ``qs``, for every relation
    and every place of ``p`` that keeps the partner on the grid."""
    rows = []
    d = qs - p
    length = np.linalg.norm(d, axis=1)
    ang = np.arctan2(d[:, 1], d[:, 0])
    for a, b in RELATIONS:
        g = length / math.hypot(a, b)
        ok = (g >= g_lo) & (g <= g_hi)
        if not ok.any():
            continue
        theta = ang[ok] - math.atan2(b, a)
        gg = g[ok]
        c, s = _rot(theta)
        for i, j in GRID:
            if (i + a, j + b) not in GRID:
                continue
            cx = p[0] - gg * (c * i - s * j)
            cy = p[1] - gg * (s * i + c * j)
            rows.append(np.stack([cx, cy, theta % (math.pi / 2), gg], axis=1))
    if not rows:
        return None
    return np.vstack(rows)


def _valid(
    hyp: F64, near: np.ndarray, xy: F64, diam: F64
) -> list[tuple[int, float, F64, float, float, tuple[int, ...], tuple[tuple[int, int], ...]]]:
    """The hypotheses whose square holds only pips on the places of one layout."""
    pts = xy[near]
    c, s = _rot(hyp[:, 2])
    dx = pts[None, :, 0] - hyp[:, None, 0]
    dy = pts[None, :, 1] - hyp[:, None, 1]
    g = hyp[:, 3][:, None]
    u = (c[:, None] * dx + s[:, None] * dy) / g
    v = (-s[:, None] * dx + c[:, None] * dy) / g
    inside = (np.abs(u) <= INSIDE) & (np.abs(v) <= INSIDE)
    pu, pv = np.clip(np.rint(u), -1, 1), np.clip(np.rint(v), -1, 1)
    off = np.hypot(u - pu, v - pv)
    bad = (inside & (off > PLACE_TOLERANCE)).any(axis=1)
    bit = ((pu + 1) * 3 + (pv + 1)).astype(np.int64)
    out = []
    for h in np.nonzero(~bad)[0]:
        sel = np.nonzero(inside[h])[0]
        if len(sel) < 2:
            continue
        bits = bit[h, sel]
        if len(set(bits.tolist())) != len(sel):
            continue
        mask = int(sum(1 << int(k) for k in bits))
        value = LAYOUT_MASKS.get(mask)
        if value is None or value != len(sel):
            continue
        step = float(hyp[h, 3])
        pip_d = float(np.median(diam[near[sel]]))
        if not 0.35 * step <= pip_d <= 1.15 * step:
            continue
        resid = float(np.sqrt((off[h, sel] ** 2).mean()))
        places = tuple((int(pu[h, k]), int(pv[h, k])) for k in sel)
        out.append(
            (
                value,
                resid,
                hyp[h, :2].copy(),
                float(hyp[h, 2]),
                step,
                tuple(int(near[k]) for k in sel),
                places,
            )
        )
    return out


def _refined(face: Face) -> Face:
    """The face's centre, angle and step fitted to all its pips (least-squares similarity)."""
    places = np.array(face.places, dtype=np.float64)
    q = np.array([[p.x, p.y] for p in face.pips])
    pz = places[:, 0] + 1j * places[:, 1]
    qz = q[:, 0] + 1j * q[:, 1]
    pm, qm = pz.mean(), qz.mean()
    denom = float((np.abs(pz - pm) ** 2).sum())
    if denom <= 0:
        return face
    z = complex(((np.conj(pz - pm)) * (qz - qm)).sum()) / denom
    step = abs(z)
    if step <= 0:
        return face
    centre_z = qm - z * pm
    fitted = centre_z + z * pz
    resid = float(np.sqrt((np.abs(fitted - qz) ** 2).mean())) / step
    face.centre = np.array([centre_z.real, centre_z.imag])
    face.angle = math.atan2(z.imag, z.real)  # the places are in this frame: not reduced
    face.step = step
    face.residual = resid
    return face


def _squash(face: Face) -> tuple[float, float]:
    """How flattened the face's pip lattice is: singular values' ratio of the affine map from
    places to pips, and the direction of its short axis (1, 0 when it cannot tell)."""
    places = np.array(face.places, dtype=np.float64)
    if len(places) < 3 or np.linalg.matrix_rank(places) < 2:
        return 1.0, 0.0
    q = np.array([[p.x, p.y] for p in face.pips]) - face.centre
    a, *_ = np.linalg.lstsq(places, q, rcond=None)
    u, sv, _ = np.linalg.svd(a.T)
    return float(sv[1] / max(sv[0], 1e-9)), math.atan2(float(u[1, 1]), float(u[0, 1]))

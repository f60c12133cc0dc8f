"""Procedural dice for training the dice networks: many looks of die, each drawn with the
truth of where it lies and what it shows (the pictures around them: :mod:`.scene`).

A die is a cube with rounded corners seen by an orthographic camera whose direction of view
leans a little (the parallax of an overhead camera away from its centre) or a lot (an oblique
webcam); it shows its top face and the side faces that lean toward the camera, each face a
texture of its pips warped into place and shaded by one light. Bodies are white, cream,
coloured, dark, translucent or marbled; pips dark or light, round, rimmed or inside a printed
ring, sometimes worn.

Everything is seeded by the ``numpy`` generator passed in; sizes are pixels of the output.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt
from shapely.geometry import Polygon

Image = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]

SUPERSAMPLE = 2
"""Dice are drawn this many times larger, then shrunk (smooth edges, sub-pixel pips)."""
TEXTURE_PX = 96
"""Side of a face's texture before it is warped into place, pixels."""
COCKED_TILT_DEG = (20.0, 40.0)
"""Tilt of a cocked die (leaning on a wall or a neighbour): not lying flat, not to be read."""
FLAT_TILT_DEG = 4.0
"""Largest tilt of a die lying flat (an uneven cloth)."""

LAYOUT = {
    1: [(0.0, 0.0)],
    2: [(-1.0, -1.0), (1.0, 1.0)],
    3: [(-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)],
    4: [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)],
    5: [(-1.0, -1.0), (1.0, -1.0), (0.0, 0.0), (-1.0, 1.0), (1.0, 1.0)],
    6: [(-1.0, -1.0), (-1.0, 0.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 0.0), (1.0, 1.0)],
}
"""Pip places of each face in units of the pip offset from the face's centre."""


@dataclass(frozen=True)
class Look:
    """How one die looks (fractions of its side unless said otherwise)."""

    body: tuple[float, float, float]
    """Body colour, BGR 0-255."""
    body2: tuple[float, float, float] | None
    """Second colour of a marbled body (None: plain)."""
    pip: tuple[float, float, float]
    pip_diameter: float
    pip_offset: float
    one_scale: float
    """Diameter of the one's pip over the others'."""
    one_colour: tuple[float, float, float] | None
    corner: float
    """Radius of the rounded corners over the side."""
    style: str
    """"disc", "rimmed" (a concave pip: a dark rim and a lighter middle), "ring" (the pips
    inside a printed circle) or "square"."""
    alpha: float
    """1: opaque; less: translucent (the floor shows through)."""
    worn: float
    """0: crisp pips; up to 0.5: paint rubbed toward the body colour."""
    glare: float
    """Strength of a specular spot on the top face."""


@dataclass(frozen=True)
class SynthDie:
    """The truth of one die drawn."""

    x: float
    """Centre of the top face, pixels."""
    y: float
    side: float
    """Side of the die (its top face's edge), pixels."""
    value: int
    cocked: bool
    pips: tuple[tuple[float, float, float], ...]
    """Centre (x, y) and diameter of every pip of the top face, pixels."""


def hsv_bgr(h: float, s: float, v: float) -> tuple[float, float, float]:
    px = np.uint8([[[int(h) % 180, int(255 * s), int(255 * v)]]])
    b, g, r = cv2.cvtColor(px, cv2.COLOR_HSV2BGR)[0, 0]
    return float(b), float(g), float(r)


def random_look(rng: np.random.Generator) -> Look:
    """A die's look drawn from the kinds sold: white, cream, coloured, dark, translucent and
    marbled bodies; pips that contrast (now and then weakly)."""
    kind = rng.choice(
        ["white", "cream", "colour", "dark", "translucent", "marbled"],
        p=[0.24, 0.1, 0.34, 0.14, 0.09, 0.09],
    )
    body2 = None
    alpha = 1.0
    if kind == "white":
        v = rng.uniform(0.8, 1.0)
        body = hsv_bgr(rng.uniform(0, 180), rng.uniform(0.0, 0.08), v)
    elif kind == "cream":
        body = hsv_bgr(rng.uniform(12, 30), rng.uniform(0.12, 0.35), rng.uniform(0.75, 1.0))
    elif kind == "dark":
        body = hsv_bgr(rng.uniform(0, 180), rng.uniform(0.0, 0.6), rng.uniform(0.05, 0.3))
    else:
        body = hsv_bgr(rng.uniform(0, 180), rng.uniform(0.35, 1.0), rng.uniform(0.3, 0.95))
        if kind == "translucent":
            alpha = float(rng.uniform(0.55, 0.85))
        if kind == "marbled":
            body2 = hsv_bgr(rng.uniform(0, 180), rng.uniform(0.0, 1.0), rng.uniform(0.1, 1.0))
    lum = 0.114 * body[0] + 0.587 * body[1] + 0.299 * body[2]
    if rng.random() < 0.12:  # weak contrast: red pips on black, yellow on cream, ...
        pip = hsv_bgr(rng.uniform(0, 180), rng.uniform(0.5, 1.0), rng.uniform(0.4, 0.9))
    elif lum > 110:
        pip = (
            hsv_bgr(rng.uniform(0, 180), rng.uniform(0.0, 1.0), rng.uniform(0.0, 0.3))
            if rng.random() < 0.75
            else hsv_bgr(
                rng.choice([0, 120, 60, 170]), rng.uniform(0.6, 1.0), rng.uniform(0.4, 0.8)
            )
        )
    else:
        pip = (
            hsv_bgr(rng.uniform(0, 180), rng.uniform(0.0, 0.15), rng.uniform(0.8, 1.0))
            if rng.random() < 0.7
            else hsv_bgr(rng.choice([25, 30, 0, 100]), rng.uniform(0.5, 1.0), rng.uniform(0.7, 1.0))
        )
    diameter = float(rng.uniform(0.13, 0.24))
    offset = float(rng.uniform(0.22, 0.3))
    offset = min(offset, 0.45 - diameter / 2)
    one_scale = float(rng.uniform(1.4, 2.2)) if rng.random() < 0.2 else 1.0
    one_colour = hsv_bgr(0, 0.9, 0.7) if rng.random() < 0.1 else None
    style = str(rng.choice(["disc", "rimmed", "ring", "square"], p=[0.6, 0.25, 0.1, 0.05]))
    return Look(
        body=body,
        body2=body2,
        pip=pip,
        pip_diameter=diameter,
        pip_offset=offset,
        one_scale=one_scale,
        one_colour=one_colour,
        corner=float(rng.uniform(0.05, 0.25)),
        style=style,
        alpha=alpha,
        worn=float(rng.uniform(0.0, 0.5)) if rng.random() < 0.12 else 0.0,
        glare=float(rng.uniform(0.3, 0.9)) if rng.random() < 0.25 else 0.0,
    )


def smooth_noise(rng: np.random.Generator, shape: tuple[int, int], scale: float) -> F32:
    """Smooth noise in 0-1 with features about ``scale`` pixels across."""
    h, w = shape
    gh, gw = max(2, int(h / scale) + 2), max(2, int(w / scale) + 2)
    small = rng.random((gh, gw)).astype(np.float32)
    big = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return np.clip(big, 0.0, 1.0)


def face_texture(
    value: int, look: Look, rng: np.random.Generator, shade: float
) -> tuple[F32, F32, list[tuple[float, float, float]]]:
    """The texture of one face (BGR float, alpha 0-1, :data:`TEXTURE_PX` square) and its
    pips (centre u, v and diameter, texture pixels), lit by ``shade`` (1: full light)."""
    m = TEXTURE_PX
    body = np.empty((m, m, 3), np.float32)
    body[:] = look.body
    if look.body2 is not None:
        t = smooth_noise(rng, (m, m), rng.uniform(8, 30))
        t = (np.sin(t * rng.uniform(6, 14)) * 0.5 + 0.5)[..., None]
        body = body * (1 - t) + np.array(look.body2, np.float32) * t
    tex = body.copy()
    pips: list[tuple[float, float, float]] = []
    c = m / 2.0
    off = look.pip_offset * m
    d = look.pip_diameter * m
    if value == 1:
        d *= look.one_scale
    pip = np.array(look.one_colour if value == 1 and look.one_colour else look.pip, np.float32)
    pip = pip * (1 - look.worn) + np.array(look.body, np.float32) * look.worn
    ss = 32  # drawn at twice the texture's size with 4 bits of sub-pixel shift
    mask = np.zeros((m * 2, m * 2), np.uint8)
    rim = np.zeros_like(mask)
    for u, v in LAYOUT[value]:
        px, py = c + u * off, c + v * off
        pips.append((px, py, d))
        ctr = (round(px * ss), round(py * ss))
        rad = round(d / 2 * ss)
        if look.style == "square":
            h = round(d / 2 * ss * 0.85)
            cv2.rectangle(
                mask,
                (ctr[0] - h, ctr[1] - h),
                (ctr[0] + h, ctr[1] + h),
                255,
                -1,
                cv2.LINE_AA,
                4,
            )
        else:
            cv2.circle(mask, ctr, rad, 255, -1, cv2.LINE_AA, 4)
            if look.style == "rimmed":
                cv2.circle(rim, ctr, max(1, round(rad * 0.62)), 255, -1, cv2.LINE_AA, 4)
    if look.style == "ring":
        r = round((off * math.sqrt(2) + d * 0.75) * ss)
        cv2.circle(
            mask, (round(c * ss), round(c * ss)), r, 255, max(2, r // 14 // 16), cv2.LINE_AA, 4
        )
    a = cv2.resize(mask, (m, m), interpolation=cv2.INTER_AREA).astype(np.float32)[..., None] / 255
    tex = tex * (1 - a) + pip * a
    if look.style == "rimmed":
        inner = cv2.resize(rim, (m, m), interpolation=cv2.INTER_AREA).astype(np.float32)[..., None]
        inner = cv2.GaussianBlur(inner, (0, 0), 1.0)[..., None] / 255
        tex = tex * (1 - 0.35 * inner) + (0.65 * pip + 0.35 * np.array(look.body)) * 0.35 * inner
    # bevel: the rounded edges catch less (or more) light
    yy, xx = np.mgrid[0:m, 0:m].astype(np.float32)
    edge = np.minimum(np.minimum(xx, m - 1 - xx), np.minimum(yy, m - 1 - yy)) / m
    bevel = np.clip(edge / 0.07, 0.0, 1.0)[..., None]
    tex = tex * (rng.uniform(0.7, 1.1) + (1 - rng.uniform(0.7, 1.1)) * bevel)
    gx, gy = rng.normal(0, 0.12, 2)
    tex = tex * shade * (1 + gx * (xx / m - 0.5) + gy * (yy / m - 0.5))[..., None]
    if look.glare > 0 and shade > 0.8:
        gxy = rng.uniform(0.2, 0.8, 2) * m
        g = np.exp(
            -((xx - gxy[0]) ** 2 + (yy - gxy[1]) ** 2) / (2 * (rng.uniform(0.06, 0.2) * m) ** 2)
        )
        tex = tex + (255 - tex) * (look.glare * g)[..., None]
    # rounded corners
    r = look.corner * m
    cm = np.zeros((m * 4, m * 4), np.uint8)
    rr = round(r * 4)
    cv2.rectangle(cm, (rr, 0), (m * 4 - 1 - rr, m * 4 - 1), 255, -1)
    cv2.rectangle(cm, (0, rr), (m * 4 - 1, m * 4 - 1 - rr), 255, -1)
    for cx in (rr, m * 4 - 1 - rr):
        for cy in (rr, m * 4 - 1 - rr):
            cv2.circle(cm, (cx, cy), rr, 255, -1, cv2.LINE_AA)
    alpha = cv2.resize(cm, (m, m), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    return np.clip(tex, 0, 255), alpha * look.alpha, pips


_FACES = {
    # normal: corners (x, y, z) of the unit cube [-1, 1]^3 in texture order (u right, v down)
    (0, 0, 1): [(-1, -1, 1), (1, -1, 1), (1, 1, 1), (-1, 1, 1)],
    (0, 0, -1): [(-1, 1, -1), (1, 1, -1), (1, -1, -1), (-1, -1, -1)],
    (1, 0, 0): [(1, -1, 1), (1, 1, 1), (1, 1, -1), (1, -1, -1)],
    (-1, 0, 0): [(-1, 1, 1), (-1, -1, 1), (-1, -1, -1), (-1, 1, -1)],
    (0, 1, 0): [(1, 1, 1), (-1, 1, 1), (-1, 1, -1), (1, 1, -1)],
    (0, -1, 0): [(-1, -1, 1), (1, -1, 1), (1, -1, -1), (-1, -1, -1)],
}


def _rotation(yaw: float, tilt: float, tilt_dir: float) -> F64:
    """3-D rotation: turn about z by ``yaw``, then tip by ``tilt`` toward ``tilt_dir``
    (radians)."""
    cz, sz = math.cos(yaw), math.sin(yaw)
    rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    axis = np.array([-math.sin(tilt_dir), math.cos(tilt_dir), 0.0])
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    rt = np.eye(3) + math.sin(tilt) * k + (1 - math.cos(tilt)) * (k @ k)
    return np.asarray(rt @ rz)


def _view_basis(lean: tuple[float, float]) -> tuple[F64, F64, F64]:
    """The camera's direction toward the scene's viewer (unit, z up) and its image axes for a
    view that leans by ``lean`` (tangent of the lean along x and y)."""
    d = np.array([-lean[0], -lean[1], 1.0])
    d /= np.linalg.norm(d)
    e1 = np.array([1.0, 0.0, 0.0]) - d[0] * d
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(d, e1)
    return d, e1, -e2


@dataclass
class Canvas:
    """The supersampled picture being drawn (BGR float)."""

    image: F32

    @property
    def size(self) -> tuple[int, int]:
        return self.image.shape[1], self.image.shape[0]

    def paste(self, tex: F32, alpha: F32, quad: F64) -> None:
        """Warp a texture onto the quad (4 x 2 canvas pixels, texture corner order)."""
        m = tex.shape[0]
        w, h = self.size
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 - x0 < 2 or y1 - y0 < 2:
            return
        src = np.array([[0, 0], [m, 0], [m, m], [0, m]], np.float32)
        dst = (quad - np.array([x0, y0])).astype(np.float32)
        hm = cv2.getPerspectiveTransform(src, dst)
        size = (x1 - x0, y1 - y0)
        t = cv2.warpPerspective(tex, hm, size, flags=cv2.INTER_LINEAR)
        a = cv2.warpPerspective(alpha, hm, size, flags=cv2.INTER_LINEAR)[..., None]
        roi = self.image[y0:y1, x0:x1]
        roi[:] = roi * (1 - a) + t * a


def draw_die(
    canvas: Canvas,
    rng: np.random.Generator,
    look: Look,
    value: int,
    centre: tuple[float, float],
    side: float,
    yaw: float,
    lean: tuple[float, float],
    light: F64,
    cocked: bool = False,
) -> tuple[SynthDie, Polygon]:
    """Draw one die on the canvas (canvas pixels); its truth and outline."""
    tilt = math.radians(
        rng.uniform(*COCKED_TILT_DEG) if cocked else rng.uniform(0.0, FLAT_TILT_DEG)
    )
    rot = _rotation(yaw, tilt, rng.uniform(0.0, 2 * math.pi))
    d, e1, e2 = _view_basis(lean)
    half = side / 2.0
    c = np.asarray(centre, np.float64)

    def project(p: F64) -> F64:
        q = (rot @ p.T).T * half
        return np.stack([q @ e1, q @ e2], axis=1) + c

    faces = []
    for normal, corners in _FACES.items():
        n = rot @ np.array(normal, np.float64)
        facing = float(n @ d)
        if facing <= 0.02:
            continue
        faces.append((facing, normal, n, np.array(corners, np.float64)))
    faces.sort(key=lambda f: f[0])
    top_value = value
    up = max(_FACES, key=lambda nn: float((rot @ np.array(nn, np.float64))[2]))
    opposite = {1: 6, 2: 5, 3: 4, 4: 3, 5: 2, 6: 1}
    sides = [v for v in range(1, 7) if v not in (top_value, opposite[top_value])]
    rng.shuffle(sides)
    side_value = {}
    for nn in _FACES:
        if nn == up:
            side_value[nn] = top_value
        elif tuple(-x for x in nn) == up:
            side_value[nn] = opposite[top_value]
        else:
            side_value[nn] = sides.pop()
    # the top face (the one most up) must be drawn with the top centre placed at ``centre``
    top_corners = np.array(_FACES[up], np.float64)
    shift = c - project(top_corners).mean(axis=0)
    c = c + shift
    outline = []
    top_pips: tuple[tuple[float, float, float], ...] = ()
    for _facing, nn, n, corners in faces:
        shade = float(np.clip(0.35 + 0.75 * max(0.0, float(n @ light)), 0.2, 1.25))
        tex, alpha, pips = face_texture(side_value[nn], look, rng, shade)
        quad = project(corners)
        canvas.paste(tex, alpha, quad)
        outline.append(Polygon(quad).buffer(0))
        if nn == up:
            src = np.array(
                [[0, 0], [TEXTURE_PX, 0], [TEXTURE_PX, TEXTURE_PX], [0, TEXTURE_PX]], np.float32
            )
            hm = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
            pts = cv2.perspectiveTransform(np.array([[p[:2] for p in pips]], np.float32), hm)[0]
            scale = side / TEXTURE_PX
            top_pips = tuple(
                (float(x), float(y), p[2] * scale) for (x, y), p in zip(pts, pips, strict=True)
            )
    top = project(top_corners).mean(axis=0)
    shape = outline[0]
    for o in outline[1:]:
        shape = shape.union(o)
    return SynthDie(float(top[0]), float(top[1]), side, value, cocked, top_pips), shape

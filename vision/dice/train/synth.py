"""Procedural pictures of dice for training the dice networks: many looks of die, table and
camera, each picture with the truth of every die in it.

A die is a cube with rounded corners seen by an orthographic camera whose direction of view
leans a little (the parallax of an overhead camera away from its centre) or a lot (an oblique
webcam); it shows its top face and the side faces that lean toward the camera, each face a
texture of its pips warped into place and shaded by one light. Bodies are white, cream,
coloured, dark, translucent or marbled; pips dark or light, round, rimmed or inside a printed
ring, sometimes worn. Backgrounds are felt, paper, grid paper, wood, glittery cloth or a
fisheye's dark border, with specks, rings, lines, print, tag-like squares and plain tiles that
are not dice. The camera then blurs, stretches, darkens, adds noise, loses colour and saves as
JPEG.

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


def _hsv_bgr(h: float, s: float, v: float) -> tuple[float, float, float]:
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
        body = _hsv_bgr(rng.uniform(0, 180), rng.uniform(0.0, 0.08), v)
    elif kind == "cream":
        body = _hsv_bgr(rng.uniform(12, 30), rng.uniform(0.12, 0.35), rng.uniform(0.75, 1.0))
    elif kind == "dark":
        body = _hsv_bgr(rng.uniform(0, 180), rng.uniform(0.0, 0.6), rng.uniform(0.05, 0.3))
    else:
        body = _hsv_bgr(rng.uniform(0, 180), rng.uniform(0.35, 1.0), rng.uniform(0.3, 0.95))
        if kind == "translucent":
            alpha = float(rng.uniform(0.55, 0.85))
        if kind == "marbled":
            body2 = _hsv_bgr(rng.uniform(0, 180), rng.uniform(0.0, 1.0), rng.uniform(0.1, 1.0))
    lum = 0.114 * body[0] + 0.587 * body[1] + 0.299 * body[2]
    if rng.random() < 0.12:  # weak contrast: red pips on black, yellow on cream, ...
        pip = _hsv_bgr(rng.uniform(0, 180), rng.uniform(0.5, 1.0), rng.uniform(0.4, 0.9))
    elif lum > 110:
        pip = (
            _hsv_bgr(rng.uniform(0, 180), rng.uniform(0.0, 1.0), rng.uniform(0.0, 0.3))
            if rng.random() < 0.75
            else _hsv_bgr(
                rng.choice([0, 120, 60, 170]), rng.uniform(0.6, 1.0), rng.uniform(0.4, 0.8)
            )
        )
    else:
        pip = (
            _hsv_bgr(rng.uniform(0, 180), rng.uniform(0.0, 0.15), rng.uniform(0.8, 1.0))
            if rng.random() < 0.7
            else _hsv_bgr(
                rng.choice([25, 30, 0, 100]), rng.uniform(0.5, 1.0), rng.uniform(0.7, 1.0)
            )
        )
    diameter = float(rng.uniform(0.13, 0.24))
    offset = float(rng.uniform(0.22, 0.3))
    offset = min(offset, 0.45 - diameter / 2)
    one_scale = float(rng.uniform(1.4, 2.2)) if rng.random() < 0.2 else 1.0
    one_colour = _hsv_bgr(0, 0.9, 0.7) if rng.random() < 0.1 else None
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


def _noise(rng: np.random.Generator, shape: tuple[int, int], scale: float) -> F32:
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
        t = _noise(rng, (m, m), rng.uniform(8, 30))
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
class _Canvas:
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
    canvas: _Canvas,
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


def background(rng: np.random.Generator, size: tuple[int, int]) -> F32:
    """A surface dice lie on (BGR float, ``size`` = (width, height) pixels): felt, paper, grid
    paper, wood, glittery cloth, a dark fisheye border around one of them, or a tray's wall."""
    w, h = size
    kind = rng.choice(
        ["felt", "paper", "grid", "wood", "glitter", "plain"], p=[0.25, 0.2, 0.1, 0.17, 0.1, 0.18]
    )
    if kind in ("paper", "grid"):
        base = _hsv_bgr(rng.uniform(0, 180), rng.uniform(0, 0.15), rng.uniform(0.6, 1.0))
    elif kind == "wood":
        base = _hsv_bgr(rng.uniform(8, 22), rng.uniform(0.15, 0.7), rng.uniform(0.25, 0.95))
    else:
        base = _hsv_bgr(rng.uniform(0, 180), rng.uniform(0, 1), rng.uniform(0.05, 0.9))
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    amp = rng.uniform(2, 14)
    if kind == "felt":
        n = cv2.GaussianBlur(
            rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), rng.uniform(0.5, 1.5)
        )
        img += (n * amp * 2)[..., None]
    elif kind == "wood":
        y = np.arange(h, dtype=np.float32)[:, None] + 30 * _noise(rng, (h, w), rng.uniform(40, 150))
        grain = np.sin(y * rng.uniform(0.1, 0.5)) * 0.5 + 0.5
        img *= (1 - rng.uniform(0.05, 0.25) * grain)[..., None]
        if rng.random() < 0.5:
            img = np.ascontiguousarray(np.transpose(img, (1, 0, 2))[:h, :w]) if h == w else img
    elif kind == "glitter":
        dots = rng.random((h, w)) < rng.uniform(0.05, 0.3)
        colours = rng.uniform(0, 255, (h, w, 3)).astype(np.float32)
        img = np.where(dots[..., None], img * 0.5 + colours * 0.5, img)
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.0))
    elif kind == "grid":
        step = rng.uniform(6, 30)
        tone = rng.uniform(0.75, 0.95)
        for k in np.arange(rng.uniform(0, step), max(w, h), step):
            cv2.line(img, (int(k), 0), (int(k), h), tuple(float(x) * tone for x in base), 1)
            cv2.line(img, (0, int(k)), (w, int(k)), tuple(float(x) * tone for x in base), 1)
    img *= (0.75 + 0.5 * _noise(rng, (h, w), rng.uniform(50, 300)))[..., None]
    img += rng.normal(0, amp * 0.3, (h, w, 1)).astype(np.float32)
    if rng.random() < 0.2:  # a tray wall or the edge of a sheet across the picture
        other = _hsv_bgr(rng.uniform(0, 180), rng.uniform(0, 1), rng.uniform(0.05, 1.0))
        a = rng.uniform(0, 2 * math.pi)
        nx, ny = math.cos(a), math.sin(a)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        side = (xx - w / 2) * nx + (yy - h / 2) * ny > rng.uniform(-0.4, 0.4) * min(w, h)
        img[side] = other
    return img


def tag_square(rng: np.random.Generator, cells: int = 6) -> npt.NDArray[np.uint8]:
    """A marker-like square: a black border round a random grid of black and white cells,
    then a white margin (grey 0/255, ``cells + 2`` cells across)."""
    grid = np.zeros((cells + 2, cells + 2), np.uint8)
    grid[1:-1, 1:-1] = 0
    inner = (rng.random((cells - 2, cells - 2)) < 0.5).astype(np.uint8) * 255
    grid[2:-2, 2:-2] = inner
    grid[0, :] = grid[-1, :] = grid[:, 0] = grid[:, -1] = 255
    return grid


def distractors(
    canvas: _Canvas, rng: np.random.Generator, count: int, scale: float
) -> list[Polygon]:
    """Things that are not dice, about ``scale`` canvas pixels across: specks, rings, dot
    clusters, lines, print, tag-like squares, coins and plain tiles; their outlines."""
    w, h = canvas.size
    out = []
    for _ in range(count):
        kind = rng.choice(
            ["speck", "ring", "line", "text", "tag", "coin", "tile", "dots"],
            p=[0.22, 0.1, 0.12, 0.1, 0.16, 0.1, 0.1, 0.1],
        )
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        s = scale * rng.uniform(0.3, 1.6)
        col = _hsv_bgr(rng.uniform(0, 180), rng.uniform(0, 1), rng.uniform(0, 1))
        img = canvas.image
        if kind == "speck":
            r = max(1, round(s * rng.uniform(0.05, 0.2)))
            cv2.circle(img, (round(x), round(y)), r, col, -1, cv2.LINE_AA)
        elif kind == "ring":
            cv2.circle(
                img,
                (round(x), round(y)),
                max(2, round(s / 2)),
                col,
                max(1, round(s / 12)),
                cv2.LINE_AA,
            )
        elif kind == "line":
            a = rng.uniform(0, math.pi)
            dx, dy = math.cos(a) * s * 2, math.sin(a) * s * 2
            cv2.line(
                img,
                (round(x - dx), round(y - dy)),
                (round(x + dx), round(y + dy)),
                col,
                max(1, round(s / 10)),
                cv2.LINE_AA,
            )
        elif kind == "text":
            text = "".join(rng.choice(list("ABCDEFGHKMNOPRSTUVWXYZ0123456789:."), 4))
            ink = np.zeros(img.shape[:2], np.uint8)
            cv2.putText(
                ink,
                text,
                (round(x), round(y)),
                cv2.FONT_HERSHEY_SIMPLEX,
                s / 30,
                255,
                max(1, round(s / 15)),
                cv2.LINE_AA,
            )
            a = ink.astype(np.float32)[..., None] / 255
            img[:] = img * (1 - a) + np.array(col, np.float32) * a
        elif kind == "dots":
            for _k in range(int(rng.integers(2, 7))):
                r = max(1, round(s * rng.uniform(0.06, 0.12)))
                cv2.circle(
                    img,
                    (round(x + rng.uniform(-1, 1) * s), round(y + rng.uniform(-1, 1) * s)),
                    r,
                    col,
                    -1,
                    cv2.LINE_AA,
                )
        else:
            if kind == "tag":
                tex = cv2.resize(
                    tag_square(rng), (TEXTURE_PX, TEXTURE_PX), interpolation=cv2.INTER_NEAREST
                )
                tex = np.repeat(tex[..., None].astype(np.float32), 3, axis=2) * rng.uniform(
                    0.6, 1.0
                )
                alpha = np.ones((TEXTURE_PX, TEXTURE_PX), np.float32)
            elif kind == "coin":
                tex = np.empty((TEXTURE_PX, TEXTURE_PX, 3), np.float32)
                tex[:] = col
                alpha = np.zeros((TEXTURE_PX, TEXTURE_PX), np.float32)
                cv2.circle(
                    alpha,
                    (TEXTURE_PX // 2, TEXTURE_PX // 2),
                    TEXTURE_PX // 2 - 1,
                    1.0,
                    -1,
                    cv2.LINE_AA,
                )
                cv2.circle(
                    tex,
                    (TEXTURE_PX // 2, TEXTURE_PX // 2),
                    TEXTURE_PX // 3,
                    tuple(v * 0.7 for v in col),
                    2,
                    cv2.LINE_AA,
                )
            else:
                look = random_look(rng)
                tex = np.empty((TEXTURE_PX, TEXTURE_PX, 3), np.float32)
                tex[:] = look.body
                alpha = np.ones((TEXTURE_PX, TEXTURE_PX), np.float32)
            a = rng.uniform(0, 2 * math.pi)
            ca, sa = math.cos(a) * s / 2, math.sin(a) * s / 2
            quad = np.array(
                [
                    [x - ca + sa, y - sa - ca],
                    [x + ca + sa, y + sa - ca],
                    [x + ca - sa, y + sa + ca],
                    [x - ca - sa, y - sa + ca],
                ]
            )
            canvas.paste(tex, alpha, quad)
        out.append(Polygon([(x - s, y - s), (x + s, y - s), (x + s, y + s), (x - s, y + s)]))
    return out


@dataclass(frozen=True)
class Scene:
    """One synthetic picture and its dice."""

    image: Image
    dice: tuple[SynthDie, ...]


def draw_scene(
    rng: np.random.Generator,
    size: tuple[int, int],
    side_px: tuple[float, float],
    max_dice: int = 24,
    cocked_share: float = 0.06,
) -> Scene:
    """A picture ``size`` (width, height) pixels of up to ``max_dice`` dice whose sides lie
    in ``side_px`` (all about one size, now and then mixed), with the camera's faults."""
    w, h = size
    ss = SUPERSAMPLE
    canvas = _Canvas(
        cv2.resize(background(rng, size), (w * ss, h * ss), interpolation=cv2.INTER_LINEAR)
    )
    base = math.exp(rng.uniform(math.log(side_px[0]), math.log(side_px[1])))
    spread = 0.3 if rng.random() < 0.2 else 0.08
    oblique = rng.random() < 0.3
    lean0 = (
        np.array([math.cos(a := rng.uniform(0, 2 * math.pi)), math.sin(a)])
        * math.tan(math.radians(rng.uniform(15, 45)))
        if oblique
        else np.zeros(2)
    )
    centre = np.array([rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h]) * ss
    parallax = rng.uniform(0.0, 0.6)  # tan of the lean at the picture's edge
    la = rng.uniform(0, 2 * math.pi)
    light = np.array([math.cos(la) * rng.uniform(0, 0.7), math.sin(la) * rng.uniform(0, 0.7), 1.0])
    light /= np.linalg.norm(light)
    taken: list[Polygon] = []
    n_distract = int(rng.integers(0, 8))
    if rng.random() < 0.15:
        n_distract = int(rng.integers(8, 30))
    distractors(canvas, rng, n_distract, base * ss)
    n = int(rng.integers(0, max_dice + 1)) if rng.random() < 0.9 else 0
    shared_look = random_look(rng) if rng.random() < 0.3 else None
    dice: list[SynthDie] = []
    shadows = rng.random() < 0.7
    sdir = rng.normal(0, 1, 2)
    sdir = sdir / max(np.linalg.norm(sdir), 1e-6) * rng.uniform(0.05, 0.3)
    for _ in range(n):
        side = base * math.exp(rng.uniform(-spread, spread)) * ss
        for _try in range(12):
            if dice and rng.random() < 0.5:  # against another die
                other = dice[int(rng.integers(0, len(dice)))]
                a = rng.uniform(0, 2 * math.pi)
                dist = (other.side + side / ss) / 2 * ss * rng.uniform(1.02, 1.45)
                at = np.array(
                    [other.x * ss + math.cos(a) * dist, other.y * ss + math.sin(a) * dist]
                )
            else:
                at = np.array([rng.uniform(-0.1, 1.1) * w, rng.uniform(-0.1, 1.1) * h]) * ss
            foot = square_around(at, side * 0.5)
            if all(not foot.intersects(t) for t in taken):
                break
        else:
            continue
        rel = (at - centre) / (max(w, h) * ss / 2)
        lean = tuple(lean0 + rel * parallax * 0.5)
        look = shared_look if shared_look is not None and rng.random() < 0.7 else random_look(rng)
        cocked = rng.random() < cocked_share
        yaw = rng.uniform(0, 2 * math.pi)
        if shadows:
            sh = square_around(at + sdir * side, side * 0.55)
            pts = np.array(sh.exterior.coords, np.int32)
            layer = np.zeros(canvas.image.shape[:2], np.float32)
            cv2.fillPoly(layer, [pts], 1.0)
            layer = cv2.GaussianBlur(layer, (0, 0), side * 0.12)
            canvas.image *= (1 - rng.uniform(0.2, 0.5) * layer)[..., None]
        die, shape = draw_die(
            canvas,
            rng,
            look,
            int(rng.integers(1, 7)),
            (float(at[0]), float(at[1])),
            side,
            yaw,
            lean,
            light,
            cocked,
        )
        taken.append(shape.buffer(side * 0.02))
        dice.append(
            SynthDie(
                die.x / ss,
                die.y / ss,
                die.side / ss,
                die.value,
                die.cocked,
                tuple((x / ss, y / ss, d / ss) for x, y, d in die.pips),
            )
        )
    img = cv2.resize(canvas.image, (w, h), interpolation=cv2.INTER_AREA)
    img, dice = camera_faults(rng, img, dice)
    return Scene(img, tuple(dice))


def square_around(at: F64, half: float) -> Polygon:
    """An axis-aligned square of half-side ``half`` around ``at`` (a die's footprint, loose)."""
    x, y = float(at[0]), float(at[1])
    return Polygon(
        [(x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half)]
    )


def camera_faults(
    rng: np.random.Generator, image: F32, dice: list[SynthDie]
) -> tuple[Image, list[SynthDie]]:
    """What a camera does to the picture: light and colour, vignetting, stretch, blur, low
    resolution, noise, grey, JPEG. The dice's truth follows the stretch."""
    h, w = image.shape[:2]
    img = image
    gain = rng.uniform(0.55, 1.35)
    img = img * gain * np.array(rng.uniform(0.85, 1.15, 3), np.float32)
    img = 255.0 * (np.clip(img, 0, 255) / 255.0) ** rng.uniform(0.7, 1.4)
    if rng.random() < 0.4:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (max(w, h) / 2) ** 2
        img = img * (1 - rng.uniform(0.1, 0.6) * np.clip(r2, 0, 2))[..., None]
    if rng.random() < 0.08:  # a fisheye's dark border
        mask = np.zeros((h, w), np.float32)
        cv2.circle(
            mask,
            (round(w * rng.uniform(0.3, 0.7)), round(h * rng.uniform(0.3, 0.7))),
            round(max(w, h) * rng.uniform(0.4, 0.7)),
            1.0,
            -1,
        )
        mask = cv2.GaussianBlur(mask, (0, 0), max(w, h) * 0.03)
        img = img * mask[..., None] + rng.uniform(0, 30) * (1 - mask[..., None])
    out = np.clip(img, 0, 255).astype(np.uint8)
    sx = sy = 1.0
    if rng.random() < 0.15:  # a picture stretched to a square
        k = rng.uniform(0.75, 1.33)
        sx, sy = (k, 1.0) if rng.random() < 0.5 else (1.0, k)
        stretched = cv2.resize(
            out, (max(8, round(w * sx)), max(8, round(h * sy))), interpolation=cv2.INTER_AREA
        )
        out = np.zeros_like(out)
        ch, cw = min(h, stretched.shape[0]), min(w, stretched.shape[1])
        out[:ch, :cw] = stretched[:ch, :cw]
        if ch < h or cw < w:
            out[ch:, :] = out[ch - 1 : ch, :] if ch < h else out[ch:, :]
            out[:, cw:] = out[:, cw - 1 : cw] if cw < w else out[:, cw:]
    if rng.random() < 0.25:  # low effective resolution
        k = rng.uniform(0.4, 0.8)
        small = cv2.resize(
            out, (max(4, round(w * k)), max(4, round(h * k))), interpolation=cv2.INTER_AREA
        )
        out = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    sigma = rng.choice([0.0, rng.uniform(0.3, 1.4)], p=[0.4, 0.6])
    if sigma > 0:
        out = cv2.GaussianBlur(out, (0, 0), float(sigma))
    if rng.random() < 0.1:
        length = int(rng.integers(2, 5))
        k = np.zeros((length * 2 + 1, length * 2 + 1), np.float32)
        a = rng.uniform(0, math.pi)
        cv2.line(
            k,
            (round(length - math.cos(a) * length), round(length - math.sin(a) * length)),
            (round(length + math.cos(a) * length), round(length + math.sin(a) * length)),
            1.0,
            1,
        )
        out = cv2.filter2D(out, -1, k / k.sum())
    noise = rng.uniform(0, 9) if rng.random() < 0.7 else 0.0
    if noise > 0:
        out = np.clip(out.astype(np.float32) + rng.normal(0, noise, out.shape), 0, 255).astype(
            np.uint8
        )
    if rng.random() < 0.15:
        grey = cv2.cvtColor(out, cv2.COLOR_BGR2GRAY)
        out = cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)
    if rng.random() < 0.8:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 96))])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    moved = [
        SynthDie(
            d.x * sx,
            d.y * sy,
            d.side * math.sqrt(sx * sy),
            d.value,
            d.cocked,
            tuple((x * sx, y * sy, p * math.sqrt(sx * sy)) for x, y, p in d.pips),
        )
        for d in dice
    ]
    return np.ascontiguousarray(out), moved

"""Procedural pictures of dice for training the dice networks: a surface (felt, paper, grid
paper, wood, glittery cloth, a tray's wall), things that are not dice (specks, rings, lines,
print, tag-like squares, coins, plain tiles), dice of :mod:`.synth` alone, in clumps and
touching, with their shadows, then the camera's faults: light and colour, vignetting, a
fisheye's dark border, a stretch to a square, low resolution, blur, noise, grey, JPEG.

Everything is seeded by the ``numpy`` generator passed in; sizes are pixels of the output.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt
from shapely.geometry import Polygon

from vision.dice.train.synth import (
    SUPERSAMPLE,
    TEXTURE_PX,
    Canvas,
    SynthDie,
    draw_die,
    hsv_bgr,
    random_look,
    smooth_noise,
)

Image = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]


def background(rng: np.random.Generator, size: tuple[int, int]) -> F32:
    """A surface dice lie on (BGR float, ``size`` = (width, height) pixels): felt, paper, grid
    paper, wood, glittery cloth, a dark fisheye border around one of them, or a tray's wall."""
    w, h = size
    kind = rng.choice(
        ["felt", "paper", "grid", "wood", "glitter", "plain"], p=[0.25, 0.2, 0.1, 0.17, 0.1, 0.18]
    )
    if kind in ("paper", "grid"):
        base = hsv_bgr(rng.uniform(0, 180), rng.uniform(0, 0.15), rng.uniform(0.6, 1.0))
    elif kind == "wood":
        base = hsv_bgr(rng.uniform(8, 22), rng.uniform(0.15, 0.7), rng.uniform(0.25, 0.95))
    else:
        base = hsv_bgr(rng.uniform(0, 180), rng.uniform(0, 1), rng.uniform(0.05, 0.9))
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    amp = rng.uniform(2, 14)
    if kind == "felt":
        n = cv2.GaussianBlur(
            rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), rng.uniform(0.5, 1.5)
        )
        img += (n * amp * 2)[..., None]
    elif kind == "wood":
        y = np.arange(h, dtype=np.float32)[:, None] + 30 * smooth_noise(
            rng, (h, w), rng.uniform(40, 150)
        )
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
    img *= (0.75 + 0.5 * smooth_noise(rng, (h, w), rng.uniform(50, 300)))[..., None]
    img += rng.normal(0, amp * 0.3, (h, w, 1)).astype(np.float32)
    if rng.random() < 0.2:  # a tray wall or the edge of a sheet across the picture
        other = hsv_bgr(rng.uniform(0, 180), rng.uniform(0, 1), rng.uniform(0.05, 1.0))
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
    canvas: Canvas, rng: np.random.Generator, count: int, scale: float
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
        col = hsv_bgr(rng.uniform(0, 180), rng.uniform(0, 1), rng.uniform(0, 1))
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
    canvas = Canvas(
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

"""The pictures the dice networks learn from, and the samples cut from them.

Three kinds of picture, each a :class:`Picture` (an image and its dice):

- procedural pictures (:mod:`.synth`): every look of die, surface and camera fault;
- the project's own renders of a tray (:mod:`vision.render.dice_sets`) through the tray view
  the reader uses, with dice cocked against a neighbour; and of the table (mat, tags, bases,
  terrain), which holds no dice at all;
- the *tuning* half of the hand-labelled real photos (:mod:`vision.dice.train.realset`); the held-out
  half is never read here. Their labels give centres, not sides: :data:`PHOTO_SIDE_PX` is each
  tuning photo's typical die side, measured by eye.

From a picture come the finder's samples (a square window, the heat map and sizes it should
give) and the face reader's (crops around dice, and crops of places that are not a die).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice.net import CROP_PX, FIND_NOMINAL_PX, FIND_SIDE_PX, STRIDE, Spot, crop
from vision.dice.train.realset import REALDATA, load_photos
from vision.dice.train.scene import draw_scene
from vision.dice.train.synth import SynthDie

Image = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]

PHOTO_SIDE_PX = {
    "nellbyler-1.jpg": 26.0,
    "nellbyler-3.jpg": 26.0,
    "nellbyler-5.jpg": 24.0,
    "nellbyler-7.jpg": 27.0,
    "rune55-1.jpg": 36.0,
    "rune55-3.jpg": 37.0,
    "rune55-4.jpg": 135.0,
    "rune55-6.jpg": 160.0,
    "rune55-8.jpg": 150.0,
    "rune55-10.jpg": 175.0,
    "rune55-12.jpg": 130.0,
    "rune55-14.jpg": 150.0,
    "matteop65-1.jpg": 50.0,
    "matteop65-3.jpg": 56.0,
    "matteop65-5.jpg": 42.0,
    "matteop65-7.jpg": 48.0,
    "matteop65-9.jpg": 60.0,
}
"""Typical die side of each tuning photo, pixels (by eye, from the labelled centres)."""
CALIBRATION_PHOTOS = frozenset(
    {"nellbyler-7.jpg", "rune55-3.jpg", "rune55-14.jpg", "matteop65-7.jpg"}
)
"""Tuning photos kept out of the face reader's training: its temperature is fitted on them."""
FIND_WINDOW_PX = 96
"""Side of the finder's training windows, pixels."""
NO_VALUE = -1
"""A die whose value is not known (a null label): a die for the finder, no face sample."""


@dataclass(frozen=True)
class Picture:
    """An image and the dice in it (sides in its pixels; values 1-6, :data:`NO_VALUE`)."""

    image: Image
    dice: tuple[SynthDie, ...]
    sizes_known: bool = True
    """False: the sides are a photo's typical side, not each die's."""


FACE_PICTURE_PX = 160
"""Side of the procedural pictures the face reader's crops are cut from, pixels."""
FACE_SIDE_PX = (18.0, 64.0)
"""Die sides in those pictures, pixels (crops are shrunk from them, as from real photos)."""


def synthetic_pictures(seed: int, count: int, for_faces: bool) -> list[Picture]:
    """``count`` procedural pictures: for the finder (:data:`FIND_WINDOW_PX` square, dice of
    sides a bit wider than its range) or for the face reader (:data:`FACE_PICTURE_PX`,
    :data:`FACE_SIDE_PX`)."""
    rng = np.random.default_rng(seed)
    lo, hi = FIND_SIDE_PX
    size, sides = (
        (FACE_PICTURE_PX, FACE_SIDE_PX) if for_faces else (FIND_WINDOW_PX, (lo * 0.85, hi * 1.1))
    )
    out = []
    for _ in range(count):
        scene = draw_scene(rng, (size, size), sides)
        out.append(Picture(scene.image, scene.dice))
    return out


def tuning_pictures(calibration: bool | None = None) -> list[tuple[str, Picture]]:
    """The tuning photos (never a held-out one) as pictures: all, or only those kept for
    calibration (``True``), or only the others (``False``)."""
    out = []
    for photo in load_photos(REALDATA):
        if photo.held_out:
            continue
        if calibration is not None and (photo.file in CALIBRATION_PHOTOS) != calibration:
            continue
        side = PHOTO_SIDE_PX[photo.file]
        dice = tuple(
            SynthDie(d.x, d.y, side, NO_VALUE if d.value is None else d.value, False, ())
            for d in photo.dice
        )
        out.append((photo.file, Picture(photo.image(), dice, sizes_known=False)))
    return out


def rendered_tray_pictures(seeds: range) -> list[Picture]:
    """Rolls rendered by the project's renderer (white, cream, coloured dice on every tray
    surface, some cocked against a neighbour), as the reader sees them: the tray's top-down
    view."""
    from vision.dice.view import tray_view
    from vision.render.dice import LOOKS, TRAY_SURFACES
    from vision.render.dice_sets import DiceSet, calibrated_profile, render_set

    out = []
    surfaces = sorted(TRAY_SURFACES)
    looks = sorted(LOOKS)
    for seed in seeds:
        rng = np.random.default_rng(seed)
        spec = DiceSet(
            n=int(rng.integers(2, 30)),
            surface=surfaces[seed % len(surfaces)],
            looks=tuple(rng.choice(looks, size=3)),
            sizes_mm=(float(rng.choice([12.0, 16.0, 16.0, 19.0])),),
            cocked=int(rng.integers(0, 3)),
            worn=float(rng.choice([0.0, 0.5])),
            glare=float(rng.choice([0.0, 0.6])),
            uneven=float(rng.choice([0.0, 0.2])),
        )
        shot = render_set(spec, seed)
        try:
            profile = calibrated_profile(shot.image)
        except Exception:
            continue
        if profile.tray is None:
            continue
        size = (shot.image.shape[1], shot.image.shape[0])
        view = tray_view(profile.mapping(), profile.tray, size)
        top = view.render(shot.image)
        assert view.maps is not None and view.px_per_mm is not None
        mx, my = view.maps
        dice = []
        for t in shot.truth.dice:
            if t.visible < 0.9 and not t.cocked:
                continue
            d2 = (mx - t.centre_px[0]) ** 2 + (my - t.centre_px[1]) ** 2
            vy, vx = np.unravel_index(int(np.argmin(d2)), d2.shape)
            if d2[vy, vx] > 4.0:
                continue
            dice.append(
                SynthDie(float(vx), float(vy), t.size_mm * view.px_per_mm, t.value, t.cocked, ())
            )
        out.append(Picture(np.ascontiguousarray(top), tuple(dice)))
    return out


def rendered_table_pictures(seeds: range) -> list[Picture]:
    """Frames of the table rendered by the project's renderer (mats, corner tags, bases with
    tags, figures, terrain): no dice anywhere."""
    from dataclasses import replace

    from vision.render.frame import render_frame
    from vision.render.scenefile import load_scene_file

    example = load_scene_file(Path(__file__).resolve().parents[2] / "render" / "example_scene.toml")
    out = []
    mats = ("grass", "felt", "desert")
    for seed in seeds:
        table = replace(example.scene.table, mat=mats[seed % 3], seed=seed)
        scene = replace(example.scene, table=table)
        image, _ = render_frame(scene, example.camera, rng=np.random.default_rng(seed))
        out.append(Picture(image, ()))
    return out


def finder_sample(
    rng: np.random.Generator, picture: Picture, scale: float = 1.0
) -> tuple[Image, F32, F32, F32, F32]:
    """One training window of the finder from ``picture`` shrunk by ``scale``: the window
    (BGR), the heat map it should give, the log side at each die's cells, where the side
    counts, and the heat map's weights (0 around dice too small or too large for the
    finder)."""
    image = picture.image
    win = FIND_WINDOW_PX
    if abs(scale - 1.0) > 1e-3:
        h, w = image.shape[:2]
        image = cv2.resize(
            image,
            (max(8, round(w * scale)), max(8, round(h * scale))),
            interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
        )
    h, w = image.shape[:2]
    if h < win or w < win:
        image = cv2.copyMakeBorder(
            image, 0, max(0, win - h), 0, max(0, win - w), cv2.BORDER_REPLICATE
        )
        h, w = image.shape[:2]
    dice = [(d.x * scale, d.y * scale, d.side * scale) for d in picture.dice]
    if dice and rng.random() < 0.8:  # mostly windows with dice in them
        cx, cy, _ = dice[int(rng.integers(0, len(dice)))]
        x0 = int(np.clip(cx - rng.uniform(0.15, 0.85) * win, 0, w - win))
        y0 = int(np.clip(cy - rng.uniform(0.15, 0.85) * win, 0, h - win))
    else:
        x0, y0 = int(rng.integers(0, w - win + 1)), int(rng.integers(0, h - win + 1))
    window = np.ascontiguousarray(image[y0 : y0 + win, x0 : x0 + win])
    cells = win // STRIDE
    heat = np.zeros((cells, cells), np.float32)
    logside = np.zeros((cells, cells), np.float32)
    side_mask = np.zeros((cells, cells), np.float32)
    weight = np.ones((cells, cells), np.float32)
    gy, gx = np.mgrid[0:cells, 0:cells].astype(np.float32)
    lo, hi = FIND_SIDE_PX
    for x, y, side in dice:
        u, v = (x - x0 + 0.5) / STRIDE - 0.5, (y - y0 + 0.5) / STRIDE - 0.5
        if not (
            -side / STRIDE < u < cells + side / STRIDE
            and -side / STRIDE < v < cells + side / STRIDE
        ):
            continue
        r2 = (gx - u) ** 2 + (gy - v) ** 2
        slack = 1.25 if picture.sizes_known else 1.6
        if side < lo / slack or side > hi * slack:
            continue  # far out of the finder's range: not a die at this scale (its pips neither)
        if side < lo or side > hi:
            weight[r2 <= (side / STRIDE / 2) ** 2] = 0.0  # near the range's ends: either way
            continue
        sigma = max(0.7, 0.12 * side / STRIDE)
        heat = np.maximum(heat, np.exp(-r2 / (2 * sigma * sigma)))
        iu, iv = round(u), round(v)
        if 0 <= iu < cells and 0 <= iv < cells:
            heat[iv, iu] = 1.0
            if picture.sizes_known:
                ys, xs = slice(max(0, iv - 1), iv + 2), slice(max(0, iu - 1), iu + 2)
                logside[ys, xs] = math.log(side / FIND_NOMINAL_PX)
                side_mask[ys, xs] = 1.0
    heat[weight == 0] = 0.0
    return window, heat, logside, side_mask, weight


def degrade(rng: np.random.Generator, image: Image, strong: bool = False) -> Image:
    """A crop as another camera might have given it: squeezed or sheared a little (a die seen
    at a slant), blurred, noisy, JPEG-compressed, each now and then. ``strong`` (the face
    reader's fine-tuning on the tuning photos): more often and harder, with motion blur, hue
    turned and light changed besides."""
    c = (CROP_PX - 1) / 2.0
    out = image
    if rng.random() < (0.7 if strong else 0.6):
        a = np.eye(2) + rng.normal(0.0, 0.1 if strong else 0.07, (2, 2))
        m = np.hstack([a, (np.array([c, c]) - a @ np.array([c, c]))[:, None]])
        out = cv2.warpAffine(out, m, (CROP_PX, CROP_PX), borderMode=cv2.BORDER_REPLICATE)
    if strong and rng.random() < 0.3:
        out = _hue_turned(rng, out)
    if strong and rng.random() < 0.25:
        out = _motion_blurred(rng, out)
    elif rng.random() < (0.5 if strong else 0.4):
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.5 if strong else 1.3))
    if strong and rng.random() < 0.4:
        gamma = math.exp(rng.uniform(-0.35, 0.35))
        out = (255.0 * (out.astype(np.float64) / 255.0) ** gamma).astype(np.uint8)
    if rng.random() < 0.4:
        noise = rng.normal(0.0, rng.uniform(2.0, 10.0), out.shape)
        out = np.clip(out.astype(np.float64) + noise, 0, 255).astype(np.uint8)
    if rng.random() < (0.5 if strong else 0.4):
        low = 15 if strong else 25
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(low, 90))])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return np.ascontiguousarray(out, dtype=np.uint8)


def _hue_turned(rng: np.random.Generator, image: Image) -> Image:
    """``image`` with its hues turned by a random angle and its saturation scaled."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV).astype(np.int32)
    hsv[..., 0] = (hsv[..., 0] + int(rng.integers(0, 180))) % 180
    hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(0.5, 1.4), 0, 255)
    return np.asarray(cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR), np.uint8)


def _motion_blurred(rng: np.random.Generator, image: Image) -> Image:
    """``image`` smeared along a random direction by 1-3 pixels each way (a hand-held
    camera)."""
    length = int(rng.integers(1, 4))
    kernel = np.zeros((length * 2 + 1, length * 2 + 1), np.float32)
    a = rng.uniform(0, math.pi)
    for t in np.linspace(-length, length, 4 * length + 1):
        kernel[round(length + t * math.sin(a)), round(length + t * math.cos(a))] = 1.0
    kernel /= kernel.sum()
    return np.asarray(cv2.filter2D(image, -1, kernel, borderType=cv2.BORDER_REPLICATE), np.uint8)


def spot_label(picture: Picture, spot: Spot, skip_edges: bool = False) -> int | None:
    """The class a finder's ``spot`` on ``picture`` truly is: the value of the labelled die it
    lies on (within half a side), 0 where it lies on none; None on a die of unknown value, and
    with ``skip_edges`` on a die's edge (within 0.8 of a side of its centre: neither a die's
    value nor surely no die)."""
    near = min(picture.dice, key=lambda d: math.hypot(d.x - spot.x, d.y - spot.y), default=None)
    if near is None:
        return 0
    off = math.hypot(near.x - spot.x, near.y - spot.y)
    if off < 0.5 * near.side:
        return None if near.value == NO_VALUE else near.value
    return None if skip_edges and off < 0.8 * near.side else 0


def reader_samples(
    rng: np.random.Generator, picture: Picture, spots: list[Spot], repeats: int
) -> tuple[list[Image], list[int]]:
    """Face reader samples cut where the reader cuts them: at the finder's ``spots`` on
    ``picture`` (its own centre and side estimates, mistakes included), each ``repeats``
    times (a quarter as often where no die lies), shifted, sized and turned a little and
    strongly degraded (:func:`degrade`); labelled by :func:`spot_label` (spots on a die's
    edge or on a die of unknown value left out)."""
    xs: list[Image] = []
    ys: list[int] = []
    for s in spots:
        label = spot_label(picture, s, skip_edges=True)
        if label is None:
            continue
        for _ in range(repeats if label else max(1, repeats // 4)):
            side = s.side * math.exp(rng.uniform(-0.15, 0.15))
            dx, dy = rng.normal(0, 0.05 * s.side, 2)
            c = crop(picture.image, (s.x + dx, s.y + dy), side, rng.uniform(0, 360))
            xs.append(degrade(rng, c, strong=True))
            ys.append(label)
    return xs, ys


def face_samples(
    rng: np.random.Generator,
    picture: Picture,
    per_die: int = 1,
    negatives: int = 2,
    degraded: bool = False,
    strong: bool = False,
) -> tuple[list[Image], list[int]]:
    """Face reader samples from ``picture``: crops of each die (turned, shifted and sized as a
    finder may place them) labelled with its value (7: cocked), and ``negatives`` crops of
    places that are no die's centre, of a die's pip taken for a die, of half a die, labelled 0;
    each crop passed through :func:`degrade` when ``degraded`` (``strong``: harder)."""
    xs, ys = _face_samples(rng, picture, per_die, negatives)
    if degraded:
        xs = [degrade(rng, x, strong) for x in xs]
    return xs, ys


def _face_samples(
    rng: np.random.Generator, picture: Picture, per_die: int, negatives: int
) -> tuple[list[Image], list[int]]:
    image = picture.image
    h, w = image.shape[:2]
    xs: list[Image] = []
    ys: list[int] = []
    jitter = 0.22 if picture.sizes_known else 0.3
    for d in picture.dice:
        if d.value == NO_VALUE:
            continue
        if not (
            d.side * 0.45 <= d.x <= w - d.side * 0.45 and d.side * 0.45 <= d.y <= h - d.side * 0.45
        ):
            continue
        for _ in range(per_die):
            s = d.side * math.exp(rng.uniform(-jitter, jitter))
            dx, dy = rng.normal(0, 0.06 * d.side, 2).clip(-0.15 * d.side, 0.15 * d.side)
            xs.append(crop(image, (d.x + dx, d.y + dy), s, rng.uniform(0, 360)))
            ys.append(7 if d.cocked else d.value)
    sides = [d.side for d in picture.dice] or [FIND_NOMINAL_PX * math.exp(rng.uniform(-0.6, 0.8))]
    for _ in range(negatives):
        kind = rng.random()
        side = float(rng.choice(sides)) * math.exp(rng.uniform(-0.3, 0.3))
        if kind < 0.5 or not picture.dice:  # anywhere away from a die's centre
            for _try in range(10):
                x, y = rng.uniform(0, w), rng.uniform(0, h)
                if all(math.hypot(x - d.x, y - d.y) > 0.45 * d.side for d in picture.dice):
                    break
            else:
                continue
        elif kind < 0.75:  # half off a die
            d = picture.dice[int(rng.integers(0, len(picture.dice)))]
            a = rng.uniform(0, 2 * math.pi)
            r = d.side * rng.uniform(0.45, 0.8)
            x, y = d.x + math.cos(a) * r, d.y + math.sin(a) * r
            side = d.side * math.exp(rng.uniform(-0.2, 0.2))
            if any(math.hypot(x - o.x, y - o.y) < 0.4 * o.side for o in picture.dice):
                continue
        else:  # a pip (or a small part of a face) taken for a whole die
            d = picture.dice[int(rng.integers(0, len(picture.dice)))]
            if d.pips:
                px, py, pd = d.pips[int(rng.integers(0, len(d.pips)))]
                x, y, side = px, py, pd * rng.uniform(1.0, 2.2)
            else:
                x = d.x + rng.uniform(-0.3, 0.3) * d.side
                y = d.y + rng.uniform(-0.3, 0.3) * d.side
                side = d.side * rng.uniform(0.25, 0.45)
        xs.append(crop(image, (x, y), max(4.0, side), rng.uniform(0, 360)))
        ys.append(0)
    return xs, ys


def stack(crops: list[Image]) -> Image:
    """Crops as one (N, CROP_PX, CROP_PX, 3) array."""
    if not crops:
        return np.zeros((0, CROP_PX, CROP_PX, 3), np.uint8)
    return np.ascontiguousarray(np.stack(crops))

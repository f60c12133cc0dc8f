"""Dice rolled into the tray beside the table in rendered footage (issue 10).

Two script actions for :mod:`vision.render.sequence`: :class:`ShowDice` (dice come to rest in
the tray and lie there a while: a roll) and :class:`ClearDice` (they are taken out; the tray
lies empty a while). The tray itself is the scene's ``tray`` (a :class:`TrayLook`, drawn in
every frame with its tags 48/49). :class:`TrayPainter` lays the tray and its current dice over
each rendered table picture, drawing the tray's layer once per dice state and camera.

:func:`roll_in_tray` places seeded dice showing given values (flat, apart, inside the tray), so
a reader that can read anything can read them. Units: world millimetres, degrees, seconds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from vision.render.camera import Camera
from vision.render.dice import DiceScene, Lighting, PlacedDie, TrayLook, random_roll

Image = npt.NDArray[np.uint8]

ROLL_SHOWN_S = 1.2
"""How long a roll lies in the tray in battle footage, seconds."""
TRAY_EMPTY_S = 0.8
"""How long the tray lies empty after a roll is taken out, seconds."""
FOOTAGE_DIE_MM = 18.0
"""Side of the dice rolled in battle footage, millimetres (big enough at 1080p over 3 ft)."""


@dataclass(frozen=True)
class ShowDice:
    """``dice`` come to rest in the tray (a roll) and lie there ``seconds``."""

    dice: tuple[PlacedDie, ...]
    seconds: float = ROLL_SHOWN_S
    label: str = ""
    """What the roll was for (kept in the clip's truth, never drawn)."""


@dataclass(frozen=True)
class ClearDice:
    """The dice are taken out of the tray, which then lies empty ``seconds``."""

    seconds: float = TRAY_EMPTY_S


def roll_in_tray(
    seed: int, tray: TrayLook, values: tuple[int, ...], size_mm: float = FOOTAGE_DIE_MM
) -> tuple[PlacedDie, ...]:
    """Dice showing ``values`` at seeded places and turns in ``tray``: flat (tilt under 2
    degrees), apart from each other and the tray's edges, white with black pips, turned
    37-53 degrees from the tray's sides."""
    placed = random_roll(
        seed,
        tray,
        len(values),
        sizes_mm=(size_mm,),
        touching=0.0,
        tilt_max_deg=1.5,
        edge_clearance_mm=0.6 * size_mm,
    )
    spaced = _apart(placed, size_mm)
    # turned 37-53 degrees from the tray's sides (any quarter turn): beside the table the lens
    # squeezes the picture along the line to the image centre, and a die square to it would
    # show its pip lattice squashed like a tipped face; turned, both sides shrink alike
    rng = np.random.default_rng(seed + 1)
    turns = [
        tray.yaw_deg + 45.0 + float(rng.uniform(-8.0, 8.0)) + 90.0 * int(rng.integers(0, 4))
        for _ in spaced
    ]
    return tuple(
        replace(d, value=int(v), yaw_deg=yaw % 360.0)
        for d, v, yaw in zip(spaced, values, turns, strict=True)
    )


def _apart(dice: tuple[PlacedDie, ...], size_mm: float) -> tuple[PlacedDie, ...]:
    """The dice as placed; raises ValueError when two lie closer than half a die (the reader
    would see them as one clump)."""
    for i, a in enumerate(dice):
        for b in dice[i + 1 :]:
            if np.hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm) < 1.6 * size_mm:
                raise ValueError("dice too close")
    return dice


def roll_for(
    seed: int, tray: TrayLook, values: tuple[int, ...], size_mm: float = FOOTAGE_DIE_MM
) -> tuple[PlacedDie, ...]:
    """:func:`roll_in_tray`, trying the next seeds until the dice lie apart."""
    for k in range(50):
        try:
            return roll_in_tray(seed * 97 + k, tray, values, size_mm)
        except ValueError:
            continue
    raise ValueError(f"cannot lay {len(values)} dice apart in the tray")


class TrayPainter:
    """Lays the tray and its dice over rendered table pictures (same camera and lens), keeping
    the drawn layer while the dice and the camera stay the same."""

    def __init__(self, tray: TrayLook, lighting: Lighting | None = None) -> None:
        self.tray = tray
        self.lighting = Lighting() if lighting is None else lighting
        self._key: tuple[object, ...] | None = None
        self._patch: Patch | None = None
        self.layers_drawn = 0
        """How many times the layer was drawn (for tests of the cache)."""

    def over(self, image: Image, dice: tuple[PlacedDie, ...], camera: Camera) -> Image:
        """``image`` (the table rendered by ``camera``) with the tray and ``dice`` on it."""
        key = (dice, camera)
        if self._patch is None or key != self._key:
            self._patch = _patch(DiceScene(self.tray, dice, self.lighting), camera)
            self._key = key
            self.layers_drawn += 1
        (y0, y1, x0, x1), colour, alpha = self._patch
        out = image.copy()
        base = out[y0:y1, x0:x1].astype(np.float32)
        out[y0:y1, x0:x1] = np.clip(base * (1.0 - alpha) + colour + 0.5, 0, 255).astype(np.uint8)
        return out


Patch = tuple[tuple[int, int, int, int], npt.NDArray[np.float32], npt.NDArray[np.float32]]


def _patch(scene: DiceScene, camera: Camera) -> Patch:
    """The tray's layer through the lens, cut to where it covers the image: (rows, columns),
    premultiplied colour and coverage (0-1)."""
    import cv2

    from vision.render.dice_draw import tray_layer

    layer, _ = tray_layer(scene, camera)
    img, alpha = layer.canvas.image, layer.alpha
    maps = layer.canvas.ideal.fixed_maps
    if maps is not None:
        img = cv2.remap(img, maps[0], maps[1], cv2.INTER_LINEAR)
        alpha = cv2.remap(alpha, maps[0], maps[1], cv2.INTER_LINEAR)
    ys, xs = np.nonzero(alpha)
    if len(ys) == 0:
        box = (0, 0, 0, 0)
    else:
        box = (int(ys.min()), int(ys.max()) + 1, int(xs.min()), int(xs.max()) + 1)
    y0, y1, x0, x1 = box
    colour = img[y0:y1, x0:x1].astype(np.float32)
    cover = alpha[y0:y1, x0:x1].astype(np.float32)[..., None] / 255.0
    return box, colour, cover

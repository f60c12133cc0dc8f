"""Named sets of rendered dice rolls with their truth, and how a reading scores against it.

The dice tests and ``benchmarks/dice_bench.py`` use these: a roll rendered by the table camera
(the tray beside the play area) or by a camera straight above the tray, the profile a real
calibration would make from the rendered corner tags (with the tray found from its tags), and
the score of a reading: dice read exactly, misread, not reported, reported where there is none,
and dice that could not be read reported as such.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from calibration.profile import TableProfile, build_profile
from calibration.table import corner_sightings
from calibration.tray import locate_tray
from vision.detector import Detector
from vision.render.camera import Camera
from vision.render.dice import (
    TRAY_SURFACES,
    DiceScene,
    Lighting,
    TrayLook,
    random_roll,
    tray_beside_table,
)
from vision.render.dice_draw import DiceTruth, camera_over_tray, render_dice
from vision.render.effects import Effects

Image = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class DiceSet:
    """How to render one kind of roll."""

    n: int
    resolution: str = "1080p"
    surface: str = "dark_felt"
    """A key of :data:`vision.render.dice.TRAY_SURFACES`."""
    looks: tuple[str, ...] = ("white", "cream", "red")
    sizes_mm: tuple[float, ...] = (16.0,)
    touching: float = 0.4
    cocked: int = 0
    worn: float = 0.0
    glare: float = 0.0
    uneven: float = 0.0
    camera: str = "table"
    """"table": the table camera 0.8 m up, the tray beside the play area (side faces show);
    "over": a camera straight above the tray."""
    tray_mm: tuple[float, float] = (200.0, 150.0)
    effects: Effects = field(default_factory=Effects)

    def tray(self) -> TrayLook:
        """The tray this set rolls into."""
        surface, colour = TRAY_SURFACES[self.surface]
        return tray_beside_table(
            width_mm=self.tray_mm[0],
            depth_mm=self.tray_mm[1],
            surface=surface,
            surface_bgr=colour,
        )

    def camera_for(self, tray: TrayLook) -> Camera:
        """The camera this set is seen by."""
        if self.camera == "over":
            return camera_over_tray(tray, self.resolution)
        return Camera.overhead(self.resolution)


@dataclass(frozen=True)
class Rendered:
    """One rendered roll."""

    image: Image
    truth: DiceTruth
    camera: Camera
    scene: DiceScene


def render_set(spec: DiceSet, seed: int) -> Rendered:
    """Roll and render ``spec`` with ``seed``."""
    tray = spec.tray()
    dice = random_roll(
        seed,
        tray,
        spec.n,
        looks=spec.looks,
        sizes_mm=spec.sizes_mm,
        touching=spec.touching,
        cocked=spec.cocked,
        worn=spec.worn,
        glare=spec.glare,
    )
    scene = DiceScene(tray, dice, Lighting(uneven=spec.uneven, seed=seed))
    camera = spec.camera_for(tray)
    image, truth = render_dice(scene, camera, effects=spec.effects, rng=np.random.default_rng(seed))
    return Rendered(image, truth, camera, scene)


def calibrated_profile(
    image: Image, width_in: float = 24.0, depth_in: float = 24.0
) -> TableProfile:
    """The profile ``soloscope calibrate`` would make from this image (corner tags, no lens
    intrinsics), with the tray its tags name."""
    sightings = [(int(s.tag_id), s.corners_px) for s in Detector().detect(image)]
    size = (int(image.shape[1]), int(image.shape[0]))
    profile = build_profile(corner_sightings(sightings), size, width_in, depth_in)
    tray = locate_tray(sightings, profile.mapping(), width_in, depth_in)
    return profile.with_tray(tray)


@dataclass
class Score:
    """How readings compare with the truth, summed over rolls."""

    present: int = 0
    """Dice the truth says can be read (lying flat, in full view)."""
    exact: int = 0
    """Of those, read with the right value."""
    wrong: int = 0
    """Read with a wrong value (must stay 0)."""
    missed: int = 0
    """Readable dice reported neither read nor unreadable."""
    unread: int = 0
    """Readable dice reported unreadable (not guessed: a re-roll)."""
    extra: int = 0
    """Dice read where the truth has none (a side face, a speck)."""
    not_flat: int = 0
    """Dice the truth says cannot be read (cocked, hidden)."""
    not_flat_caught: int = 0
    """Of those, reported unreadable."""
    not_flat_read: int = 0
    """Of those, read anyway (must stay 0)."""
    count_right: int = 0
    """Rolls whose dice seen (read or not) equal the dice thrown."""
    rolls: int = 0

    def add(self, reading: object, truth: DiceTruth) -> None:
        """Score one reading (a :class:`vision.dice.DiceRead`) against its truth."""
        dice = list(reading.dice)  # type: ignore[attr-defined]
        unread = list(reading.unreadable)  # type: ignore[attr-defined]
        px_per_mm = truth.camera.px_per_mm_at_table()
        used: set[int] = set()
        used_u: set[int] = set()
        for t in truth.dice:
            reach = 0.5 * t.size_mm * px_per_mm
            k = _nearest(dice, t.centre_px, reach, used)
            u = _nearest(unread, t.centre_px, 0.75 * t.size_mm * px_per_mm, used_u)
            if t.readable:
                self.present += 1
                if k is not None:
                    used.add(k)
                    if dice[k].value == t.value:
                        self.exact += 1
                    else:
                        self.wrong += 1
                elif u is not None:
                    used_u.add(u)
                    self.unread += 1
                else:
                    self.missed += 1
            else:
                self.not_flat += 1
                if k is not None:
                    used.add(k)
                    self.not_flat_read += 1
                elif u is not None:
                    used_u.add(u)
                    self.not_flat_caught += 1
        self.extra += len(dice) - len(used)
        self.rolls += 1
        self.count_right += int(len(dice) + len(unread) == len(truth.dice))

    @property
    def exact_share(self) -> float:
        """Readable dice read exactly, over readable dice."""
        return self.exact / max(1, self.present)

    def line(self) -> str:
        """One line of figures."""
        return (
            f"exact {self.exact}/{self.present} ({100 * self.exact_share:.1f} %), wrong "
            f"{self.wrong}, unreadable {self.unread}, missed {self.missed}, extra {self.extra}, "
            f"cocked caught {self.not_flat_caught}/{self.not_flat} (read {self.not_flat_read}), "
            f"count right {self.count_right}/{self.rolls}"
        )


def _nearest(
    items: list[object], at: tuple[float, float], reach: float, used: set[int]
) -> int | None:
    best, best_d = None, reach
    for i, item in enumerate(items):
        if i in used:
            continue
        d = math.hypot(item.x_px - at[0], item.y_px - at[1])  # type: ignore[attr-defined]
        if d < best_d:
            best, best_d = i, d
    return best

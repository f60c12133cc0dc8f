"""The kit of the demo's footage: each base tag sized for the demo's camera.

A tag is read in every frame when its side spans 24 pixels (DESIGN §1) at the worst place of
the play area (far corners, lens, perspective). A base carries, as DESIGN §1 and the kit's
sizing have it: a single tag ahead of its centre pushed to the front rim, its 1 mm white margin
inside the rim, leaving the figure 11 mm at the rear rim; a tag at the base's centre marks a
flat marker (a counter, the Dungeon Crawl's) and may fill the disc; any other tag stays as the
scenario has it. Terrain tags stay as the scenario has them.

The demo's camera is a webcam straight above the table as the README mounts it (a grid game's
printed board framed closely): 1080p when every base carries a tag it reads in every frame,
else 4K (where a base still falls short, its largest tag, and the demo says so).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from assistant.footage import overhead_camera
from calibration.kit_layout import base_tag_offset_mm
from calibration.quality import RELIABLE_TAG_PX
from engine.scenario import Scenario, TagSpec
from vision.render.camera import MM_PER_INCH, Camera
from vision.render.scene import PlacedTag

CAMERAS = ("1080p", "4k")
"""The demo's cameras, tried in this order."""
FIGURE_ROOM_MM = 11.0
"""Depth a standing figure needs at the rear rim of its base, millimetres."""
MARGIN_MM = 1.0
"""White margin around a base tag, millimetres."""
SIZES_MM = (8.0, 60.0)
"""The smallest and largest base tag printed, millimetres."""


@dataclass(frozen=True)
class KitChoice:
    """The demo's camera and the base tags sized for it."""

    resolution: str
    camera: Camera
    sizes: dict[int, tuple[float, float]] = field(default_factory=dict)
    """Tag id -> (side, forward offset from the base centre), millimetres."""
    px_min: float = 0.0
    """The smallest side any base tag spans at its worst place, pixels."""
    short: tuple[str, ...] = ()
    """Units whose bases cannot carry a tag read in every frame by this camera."""

    @property
    def words(self) -> str:
        """The kit in a few words, for the demo's messages."""
        sizes = sorted({s for s, _ in self.sizes.values()})
        span = (
            f"{sizes[0]:g}-{sizes[-1]:g}" if len(sizes) > 1 else f"{sizes[0]:g}" if sizes else "no"
        )
        text = f"base tags of {span} mm, {math.floor(self.px_min)} px or more"
        if self.short:
            text += f" (under {RELIABLE_TAG_PX:.0f} px: the bases of {', '.join(self.short)})"
        return text

    def key(self) -> str:
        """What makes the footage differ: camera and every tag's size and place."""
        return f"{self.resolution}:{sorted(self.sizes.items())}"

    def tag(self, tag_id: int, written: dict[str, Any]) -> dict[str, Any]:
        """A scenario file's tag entry with the kit's size and place."""
        if tag_id not in self.sizes:
            return written
        size, forward = self.sizes[tag_id]
        return {**written, "size_mm": size, "forward_mm": forward}


def choose_kit(scenario: Scenario) -> KitChoice:
    """The first of :data:`CAMERAS` under which every base carries a tag read in every frame
    (else the last, with the largest tags the bases carry)."""
    choice: KitChoice | None = None
    for resolution in CAMERAS:
        choice = size_kit(scenario, resolution)
        if not choice.short:
            return choice
    assert choice is not None
    return choice


def size_kit(scenario: Scenario, resolution: str) -> KitChoice:
    """Every single base tag of the scenario sized for the demo camera at ``resolution``."""
    camera = overhead_camera(scenario, resolution, board=True)
    scales: dict[float, float] = {}
    sizes: dict[int, tuple[float, float]] = {}
    px_min = math.inf
    short: list[str] = []
    for unit in scenario.units:
        if len(unit.tags) != 1:
            continue
        tag = unit.tags[0]
        base_mm = unit.base_diameter_in * MM_PER_INCH
        if tag.height_mm not in scales:
            scales[tag.height_mm] = worst_px_per_mm(camera, scenario, tag.height_mm)
        scale = scales[tag.height_mm]
        want = max(SIZES_MM[0], float(math.ceil(RELIABLE_TAG_PX / scale - 1e-9)))
        carried = max(_carried_mm(tag, base_mm), tag.size_mm)
        size = want if want <= carried else carried
        if size < want and unit.name not in short:
            short.append(unit.name)
        sizes[tag.id] = (size, _forward_mm(tag, base_mm, size))
        px_min = min(px_min, size * scale)
    return KitChoice(resolution, camera, sizes, px_min, tuple(short))


def _placement(tag: TagSpec) -> str:
    if tag.right_mm != 0.0 or tag.rotation_deg % 360.0 != 0.0 or tag.forward_mm < 0.0:
        return "fixed"
    return "centre" if tag.forward_mm == 0.0 else "front"


def _fits(tag: TagSpec, base_mm: float, size_mm: float) -> bool:
    half = size_mm / 2.0 + MARGIN_MM
    radius = base_mm / 2.0
    placement = _placement(tag)
    if placement == "fixed":
        return size_mm <= tag.size_mm
    if half * math.sqrt(2.0) > radius:
        return False
    if placement == "centre":
        return True
    rear_edge = base_tag_offset_mm(base_mm, size_mm) - half
    return rear_edge >= FIGURE_ROOM_MM - radius - 1e-9


def _carried_mm(tag: TagSpec, base_mm: float) -> float:
    """The largest whole-millimetre tag the base carries at the tag's place (0: none)."""
    best, size = 0.0, SIZES_MM[0]
    while size <= SIZES_MM[1] and _fits(tag, base_mm, size):
        best, size = size, size + 1.0
    return best


def _forward_mm(tag: TagSpec, base_mm: float, size_mm: float) -> float:
    placement = _placement(tag)
    if placement == "front":
        return base_tag_offset_mm(base_mm, size_mm)
    return 0.0 if placement == "centre" else tag.forward_mm


def worst_px_per_mm(camera: Camera, scenario: Scenario, height_mm: float) -> float:
    """The smallest image scale a tag lying ``height_mm`` above the play area gets anywhere on
    it (corners and edges included, any facing), pixels per millimetre."""
    width, depth = scenario.table.width_in * MM_PER_INCH, scenario.table.depth_in * MM_PER_INCH
    side = 10.0
    worst = math.inf
    for x in np.linspace(side, width - side, 7):
        for y in np.linspace(side, depth - side, 7):
            for heading in range(0, 90, 15):
                square = PlacedTag(0, None, float(x), float(y), heading, height_mm, side, 0.0)
                c = camera.project(square.corners_mm())
                sides = np.linalg.norm(c - np.roll(c, -1, axis=0), axis=1)
                worst = min(worst, float(sides.min()) / side)
    return worst

"""The demo's camera and kit: the kit sized for a nominal webcam (:func:`assistant.pieces.kit_for`)
and that webcam as the renderer draws it.

The webcam hangs straight above the table as the README mounts it (0.8 m over a 2 ft table,
just high enough for its corner tags over a larger one; a grid game's printed board framed
closely): :func:`calibration.kit_view.nominal_height_mm`. The demo films with a 1080p webcam
when every tag of the kit sized for it is read in every frame (24 px at the worst place,
within what its base carries), else with a 4K one (where a base still falls short, its
largest tag, and the demo says so).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from assistant.footage import overhead_camera
from assistant.pieces import kit_for
from calibration.kit_file import Kit
from calibration.quality import RELIABLE_TAG_PX
from engine.scenario import Scenario
from vision.render.camera import Camera

CAMERAS = ("1080p", "4k")
"""The demo's webcams, tried in this order."""


@dataclass(frozen=True)
class DemoKit:
    """The demo's camera and the kit sized for it."""

    resolution: str
    camera: Camera
    kit: Kit

    @property
    def px_min(self) -> float:
        """The smallest side any base tag spans at its worst place, pixels."""
        return min((t.px_min for t in self.kit.tags if t.kind == "base"), default=math.inf)

    @property
    def short(self) -> tuple[str, ...]:
        """The pieces whose tags this camera does not read in every frame."""
        return tuple(t.name for t in self.kit.tags if t.status != "reliable")

    @property
    def words(self) -> str:
        """The kit in a few words, for the demo's messages."""
        sizes = sorted({t.size_mm for t in self.kit.tags if t.kind == "base"})
        span = f"{sizes[0]:g}-{sizes[-1]:g}" if len(sizes) > 1 else f"{sizes[0]:g}"
        text = f"base tags of {span} mm, {math.floor(self.px_min)} px or more"
        if self.short:
            text += f" (under {RELIABLE_TAG_PX:.0f} px: {', '.join(self.short)})"
        return text

    def key(self) -> str:
        """What makes the footage differ: the camera and every tag's size and place."""
        places = sorted((t.tag_id, t.size_mm, t.forward_mm, t.right_mm) for t in self.kit.tags)
        return f"{self.resolution}:{places}"


def choose_kit(scenario: Scenario) -> DemoKit:
    """The first of :data:`CAMERAS` whose kit is read in every frame (else the last)."""
    choice: DemoKit | None = None
    for resolution in CAMERAS:
        camera = overhead_camera(scenario, resolution, board=True)
        choice = DemoKit(resolution, camera, kit_for(scenario, resolution))
        if not choice.short:
            return choice
    assert choice is not None
    return choice

"""The piece-visibility study: how often the real detector reads none of a piece's tags.

Standing figures lean outward in perspective and hide tags beyond them (DESIGN §1). This
renders seeded tables of 24 based miniatures at random poses and counts the pieces of which
the project's detector (``vision.detector.Detector``: DICT_4X4_50, CORNER_REFINE_CONTOUR, tuned
thresholds) finds no tag, for one front tag against a front-and-rear pair.

Kits per resolution (DESIGN §1): at 4K 10 mm tags, at 1080p 14 mm (16 mm leaves no room for a
pair on a 40 mm base). A pair needs a base big enough to hold two tags clear of the figure's
feet: 32 mm at 4K, 40 mm at 1080p; on 25 mm bases only one tag fits. Figures are 30 mm tall,
15 mm wide, 8 mm deep. With one front tag the tag is pushed to the front rim and the figure
stands at the rear rim; with a pair the tags sit at both rims and the figure between them.
Every kit sees the same poses (same seeds). Corner tags are left out; piece ids start at 2.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.detector import Detector
from vision.render.camera import Camera
from vision.render.effects import Effects
from vision.render.frame import render_frame
from vision.render.scene import Figure, TableSpec, random_scene

FIGURE = Figure(height_mm=30.0, width_mm=15.0, depth_mm=8.0)


@dataclass(frozen=True)
class Kit:
    """How a piece is tagged: base diameter, tag side (mm) and layout ("front"/"front_rear")."""

    base_mm: float
    tag_mm: float
    layout: str

    @property
    def label(self) -> str:
        """E.g. "32 mm base, 10 mm front + rear"."""
        per = "front" if self.layout == "front" else "front + rear"
        return f"{self.base_mm:.0f} mm base, {self.tag_mm:.0f} mm {per}"


#: The kits compared at each resolution.
KITS: dict[str, tuple[Kit, ...]] = {
    "1080p": (Kit(32.0, 14.0, "front"), Kit(40.0, 14.0, "front"), Kit(40.0, 14.0, "front_rear")),
    "4k": (Kit(25.0, 10.0, "front"), Kit(32.0, 10.0, "front"), Kit(32.0, 10.0, "front_rear")),
}


@dataclass(frozen=True)
class VisibilityCount:
    """Counts for one setting over one or more scenes."""

    resolution: str
    height_mm: float
    kit: Kit
    pieces: int
    invisible: int
    """Pieces of which the detector read no tag."""
    hidden: int
    """Pieces of which every tag is covered (by figures) or outside the image, per the truth."""
    tags: int
    tags_read: int
    false_ids: int
    """Ids read that are not on the table."""

    def __add__(self, other: VisibilityCount) -> VisibilityCount:
        return VisibilityCount(
            self.resolution,
            self.height_mm,
            self.kit,
            self.pieces + other.pieces,
            self.invisible + other.invisible,
            self.hidden + other.hidden,
            self.tags + other.tags,
            self.tags_read + other.tags_read,
            self.false_ids + other.false_ids,
        )

    @property
    def invisible_pct(self) -> float:
        """Share of pieces the detector cannot see, per cent."""
        return 100.0 * self.invisible / max(self.pieces, 1)

    @property
    def hidden_pct(self) -> float:
        """Share of pieces with every tag covered, per cent."""
        return 100.0 * self.hidden / max(self.pieces, 1)


def visibility_trial(
    resolution: str,
    height_mm: float,
    kit: Kit,
    seed: int,
    *,
    n_pieces: int = 24,
    detector: Detector | None = None,
) -> VisibilityCount:
    """Render one seeded table and count invisible pieces for one setting."""
    rear = -(kit.base_mm / 2.0 - FIGURE.depth_mm / 2.0 - 1.5)
    figure = Figure(
        FIGURE.height_mm,
        FIGURE.width_mm,
        FIGURE.depth_mm,
        0.0 if kit.layout == "front_rear" else rear,
    )
    scene = random_scene(
        seed,
        table=TableSpec(seed=seed, corner_tags=False),
        n_pieces=n_pieces,
        base_diameter_mm=kit.base_mm,
        tag_size_mm=kit.tag_mm,
        layout=kit.layout,
        first_id=2,
        figure=figure,
    )
    camera = Camera.overhead(resolution, height_mm=height_mm)
    image, truth = render_frame(
        scene, camera, effects=Effects(), rng=np.random.default_rng(seed + 1000)
    )
    detector = detector or Detector()
    read = {int(s.tag_id) for s in detector.detect(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))}
    on_table = set(scene.tag_ids())
    visible = {t.tag_id for t in truth.tags if t.visible}
    invisible = hidden = 0
    for piece in scene.pieces:
        ids = {int(m.tag_id) for m in piece.spec.tags}
        invisible += not (ids & read)
        hidden += not (ids & visible)
    return VisibilityCount(
        resolution,
        height_mm,
        kit,
        len(scene.pieces),
        invisible,
        hidden,
        len(on_table),
        len(read & on_table),
        len(read - on_table),
    )


def visibility_study(
    resolutions: Iterable[str] = ("1080p", "4k"),
    heights_mm: Iterable[float] = (800.0, 1000.0),
    seeds: Iterable[int] = range(6),
    n_pieces: int = 24,
) -> list[VisibilityCount]:
    """Counts summed over the seeds for every resolution x height x kit."""
    detector = Detector()
    seeds = list(seeds)
    out = []
    for res in resolutions:
        for h in heights_mm:
            for kit in KITS[res]:
                total: VisibilityCount | None = None
                for s in seeds:
                    c = visibility_trial(res, h, kit, s, n_pieces=n_pieces, detector=detector)
                    total = c if total is None else total + c
                assert total is not None
                out.append(total)
    return out


def markdown_table(counts: Iterable[VisibilityCount]) -> str:
    """The study as a markdown table."""
    lines = [
        "| camera | height | kit | pieces the detector cannot see "
        "| pieces with every tag covered | tags read | false ids |",
        "|---|---|---|---|---|---|---|",
    ]
    for c in counts:
        lines.append(
            f"| {c.resolution} | {c.height_mm / 1000:.1f} m | {c.kit.label} "
            f"| {c.invisible}/{c.pieces} ({c.invisible_pct:.0f} %) "
            f"| {c.hidden}/{c.pieces} ({c.hidden_pct:.0f} %) | {c.tags_read}/{c.tags} "
            f"| {c.false_ids} |"
        )
    return "\n".join(lines)

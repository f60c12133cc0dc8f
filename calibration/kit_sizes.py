"""Choosing each tag's size for a camera: the smallest whole-millimetre tag that the camera
reads in every frame everywhere on the table, within what its base or terrain piece can carry.

Reads reliably (DESIGN §1): a tag's side spans ``RELIABLE_TAG_PX`` (24) pixels or more at the
worst place on the play area, lens and perspective included (``CameraView.px_per_mm``); at 4K
a little more, since the detector drops tags under about 19 px there
(``calibration.quality.reliable_tag_px``). Under that some sightings are missed; under
``READABLE_TAG_PX`` (18; at 4K 1.17 times the detector's smallest side) too many are, and
the kit is not made: DESIGN §1 measured 69-94 % of sightings at 18 px, and on the project's
renders a 12 mm tag at a far corner of a 2 ft table under a 1080p webcam (16.7 px) was read
in none of 8 noisy frames, a 10 mm one under a 4K webcam over a 3 ft table (19.5 px) in none.

What a base carries (DESIGN §1: the tag on the front half, clear of the figure). A base with one
tag ahead of its centre has it pushed to the front rim, the sticker (tag and its 1 mm white
margin) inside the rim, and leaves the figure ``FIGURE_ROOM_MM`` at the rear rim: a 10 mm tag on
a 25 mm base (DESIGN's), 15 mm on a 1.25 in (32 mm) base, 22 mm on a 40 mm base. A base whose
tag sits at its centre is a flat marker (a counter, the Dungeon Crawl's): the tag may fill the
disc. Other tags (several on one base, turned, or off the centre line) stay where the scenario
puts them, as large as fits inside the rim there. A terrain tag stays where the scenario puts
it, as large as fits on the piece's footprint, 10 to 40 mm (what the kit prints). A scenario's
own tag is taken to fit its piece (its author placed it), so a piece carries at least that.
Tags are never made smaller than ``MIN_BASE_TAG_MM`` (base) or ``MIN_TERRAIN_TAG_MM``
(terrain): smaller stickers are fiddly to cut and place.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from shapely.geometry import Polygon

from calibration.kit_file import Kit, KitCamera, KitTag, TagKind, TagStatus
from calibration.kit_ids import BASE_TAG_MARGIN_MM
from calibration.kit_layout import base_tag_offset_mm
from calibration.kit_view import CAMERAS, CameraView
from calibration.quality import detector_floor_px, reliable_tag_px

FIGURE_ROOM_MM = 11.0
"""Depth a standing figure needs at the rear rim of its base, millimetres (its feet): what
DESIGN §1's 10 mm tag on a 25 mm base leaves it."""
MIN_BASE_TAG_MM = 8.0
MAX_BASE_TAG_MM = 60.0
MIN_TERRAIN_TAG_MM = 10.0
MAX_TERRAIN_TAG_MM = 40.0
"""Sizes the kit prints, millimetres (``calibration.kit_layout``)."""

READABLE_TAG_PX = 18.0
"""A tag's side in pixels under which the kit is not made (see the module's docstring)."""
FLOOR_TO_READABLE = 1.17
"""Where the detector's smallest side comes close (4K), the readable side is this many times
it: 48-77 % of sightings on 4K renders (``calibration.quality.FLOOR_TO_RELIABLE``)."""


def readable_tag_px(image_size_px: tuple[int, int]) -> float:
    """The tag side under which the kit is not made, pixels, for pictures of this size."""
    return max(READABLE_TAG_PX, FLOOR_TO_READABLE * detector_floor_px(image_size_px))


Placement = Literal["front", "centre", "fixed"]


@dataclass(frozen=True)
class TagNeed:
    """A tag to size: what carries it and where the scenario puts it (millimetres, the piece's
    own frame: forward along its facing, right to its right)."""

    tag_id: int
    piece: str
    name: str
    kind: TagKind
    size_mm: float
    """The scenario's own size (its default kit)."""
    forward_mm: float = 0.0
    right_mm: float = 0.0
    rotation_deg: float = 0.0
    height_mm: float = 3.0
    base_mm: float = 0.0
    """Base diameter (a base tag), millimetres."""
    placement: Placement = "front"
    """front: pushed to the front rim; centre: a flat marker's; fixed: where the scenario
    puts it."""
    footprint_mm: tuple[tuple[float, float], ...] = ()
    """A terrain piece's outline about its reference point, (right, forward) millimetres."""


def base_placement(
    forward_mm: float, right_mm: float, rotation_deg: float, alone: bool
) -> Placement:
    """How a base tag is placed: the only tag of its base, ahead of the centre and square to
    it, goes to the front rim; one at the centre marks a flat marker; any other stays put."""
    if not alone or right_mm != 0.0 or rotation_deg % 360.0 != 0.0 or forward_mm < 0.0:
        return "fixed"
    return "centre" if forward_mm == 0.0 else "front"


def _sticker(need: TagNeed, size_mm: float, at: tuple[float, float]) -> list[tuple[float, float]]:
    """The corners of a tag's sticker (tag and margin) at ``at`` = (right, forward) mm."""
    half = size_mm / 2.0 + BASE_TAG_MARGIN_MM
    turn = math.radians(need.rotation_deg)
    c, s = math.cos(turn), math.sin(turn)
    return [
        (at[0] + dx * c + dy * s, at[1] - dx * s + dy * c)
        for dx, dy in ((-half, -half), (half, -half), (half, half), (-half, half))
    ]


def place_mm(need: TagNeed, size_mm: float) -> tuple[float, float]:
    """Where a tag of ``size_mm`` goes on its piece: (forward, right) millimetres."""
    if need.kind == "base" and need.placement == "front" and _front_fits(need.base_mm, size_mm):
        return base_tag_offset_mm(need.base_mm, size_mm), 0.0
    if need.kind == "base" and need.placement == "centre":
        return 0.0, 0.0
    return need.forward_mm, need.right_mm


def _front_fits(base_mm: float, size_mm: float) -> bool:
    """A tag pushed to the front rim of the base leaves the figure its room at the rear."""
    half = size_mm / 2.0 + BASE_TAG_MARGIN_MM
    radius = base_mm / 2.0
    if half * math.sqrt(2.0) > radius:
        return False
    rear_edge = base_tag_offset_mm(base_mm, size_mm) - half
    return rear_edge >= FIGURE_ROOM_MM - radius - 1e-9


def _fits(need: TagNeed, size_mm: float) -> bool:
    """Whether the piece carries a tag of ``size_mm`` at its place."""
    if size_mm <= need.size_mm + 1e-9:
        return True  # the scenario's own tag (or a smaller one in its place)
    if need.kind == "terrain":
        if not need.footprint_mm or len(need.footprint_mm) < 3:
            return True
        outline = Polygon(need.footprint_mm)
        return bool(
            outline.buffer(1e-6).contains(
                Polygon(_sticker(need, size_mm, (need.right_mm, need.forward_mm)))
            )
        )
    if need.placement == "front":
        return _front_fits(need.base_mm, size_mm)
    at = (0.0, 0.0) if need.placement == "centre" else (need.right_mm, need.forward_mm)
    radius = need.base_mm / 2.0
    return all(math.hypot(x, y) <= radius + 1e-9 for x, y in _sticker(need, size_mm, at))


def size_range(kind: TagKind) -> tuple[float, float]:
    """The smallest and largest tag the kit prints for a base or a terrain piece, mm."""
    if kind == "terrain":
        return MIN_TERRAIN_TAG_MM, MAX_TERRAIN_TAG_MM
    return MIN_BASE_TAG_MM, MAX_BASE_TAG_MM


def carried_mm(need: TagNeed) -> float:
    """The largest whole-millimetre tag the piece carries at its place (0 if not even the
    smallest the kit prints)."""
    low, high = size_range(need.kind)
    best = 0.0
    size = low
    while size <= high and _fits(need, size):
        best = size
        size += 1.0
    return best


def reliable_mm(px_per_mm: float, reliable_px: float, kind: TagKind = "base") -> float:
    """The smallest whole-millimetre tag that spans ``reliable_px`` at this scale."""
    low, _ = size_range(kind)
    return max(low, float(math.ceil(reliable_px / px_per_mm - 1e-9)))


def smallest_base_mm(need: TagNeed, size_mm: float) -> float:
    """The smallest whole-millimetre base that carries a tag of ``size_mm`` as this one is
    placed (for a fixed place: pushed to the front instead)."""
    base = math.floor(need.base_mm) + 1.0
    while base < 400.0:
        trial = replace(
            need,
            base_mm=base,
            size_mm=0.0,
            placement="centre" if need.placement == "centre" else "front",
        )
        if _fits(trial, size_mm):
            return base
        base += 1.0
    return base


@dataclass(frozen=True)
class Shortfall:
    """Pieces that cannot carry a tag the camera reads in every frame."""

    tags: tuple[KitTag, ...]
    need_mm: float
    """The reliable size, millimetres."""
    readable: bool
    """False: even the largest tag they carry spans under ``READABLE_TAG_PX``."""
    sentence: str
    """What is wrong and what to change, for the player."""


@dataclass(frozen=True)
class KitPlan:
    """A kit sized for a camera, and the pieces that fall short."""

    kit: Kit
    shortfalls: tuple[Shortfall, ...]

    @property
    def unreadable(self) -> tuple[Shortfall, ...]:
        """The shortfalls whose tags the camera would mostly miss."""
        return tuple(s for s in self.shortfalls if not s.readable)


def kit_tag(
    need: TagNeed,
    size_mm: float,
    at: tuple[float, float] | None = None,
    px_min: float = 0.0,
    status: TagStatus = "unknown",
) -> KitTag:
    """The kit's tag for a need at ``size_mm``: at ``at`` = (forward, right) millimetres, or
    where the kit places a tag of that size (:func:`place_mm`)."""
    forward, right = place_mm(need, size_mm) if at is None else at
    return KitTag(
        tag_id=need.tag_id,
        piece=need.piece,
        name=need.name,
        kind=need.kind,
        size_mm=size_mm,
        forward_mm=forward,
        right_mm=right,
        rotation_deg=need.rotation_deg,
        height_mm=need.height_mm,
        base_mm=need.base_mm,
        px_min=px_min,
        status=status,
    )


def size_tag(need: TagNeed, view: CameraView) -> tuple[KitTag, float]:
    """The tag as sized for the camera, and the reliable size it would need (mm)."""
    scale = view.px_per_mm(need.height_mm)
    reliable = reliable_tag_px(view.image_size_px)
    want = reliable_mm(scale, reliable, need.kind)
    carried = carried_mm(need)
    size = want if want <= carried else max(carried, size_range(need.kind)[0])
    px = size * scale
    status: TagStatus = "reliable" if px >= reliable - 1e-6 else "short"
    return (
        kit_tag(need, size, px_min=px, status=status),
        want,
    )


def _names(tags: Sequence[KitTag]) -> str:
    names = [t.name or f"tag {t.tag_id}" for t in tags]
    shown = ", ".join(names[:4])
    return shown + (f" and {len(names) - 4} more" if len(names) > 4 else "")


def _changes(need: TagNeed, tag: KitTag, want: float, view: CameraView) -> str:
    """What the player can change so that the tag reads in every frame."""
    options = []
    if need.kind == "base":
        options.append(f"bases of {smallest_base_mm(need, want):g} mm or more")
    else:
        options.append(f"room for a {want:g} mm tag on the piece")
    reliable = reliable_tag_px(view.image_size_px)
    height_k = view.image_size_px[1]
    if height_k < CAMERAS["4k"][1]:
        at_4k = tag.px_min * CAMERAS["4k"][1] / height_k
        if at_4k >= reliable_tag_px(CAMERAS["4k"]):
            options.append("a 4K camera" + (" (--camera 4k)" if view.kind in CAMERAS else ""))
    up, vfov = view.lower_camera(tag.px_min, reliable, need.height_mm)
    lower = f"the camera at {up / 1000:.2f} m"
    if vfov > view.vfov_deg + 0.5:
        lower += f" with a lens that takes in {vfov:.0f} degrees top to bottom (to keep the corner tags in view)"
    options.append(lower)
    return ", ".join(options[:-1]) + f" or {options[-1]}" if len(options) > 1 else options[0]


def _shortfall(group: list[tuple[TagNeed, KitTag, float]], view: CameraView) -> Shortfall:
    need, tag, want = group[0]
    tags = tuple(t for _, t, _ in group)
    readable = tag.px_min >= readable_tag_px(view.image_size_px)
    reliable = reliable_tag_px(view.image_size_px)
    if need.kind == "base":
        named = f" of {_names(tags)}" if any(t.name for t in tags) else ""
        what = f"the {need.base_mm:.0f} mm bases{named}"
        carry = f"carry at most a {tag.size_mm:g} mm tag clear of the figure"
    else:
        what = f"the terrain piece {_names(tags)}"
        carry = f"carries at most a {tag.size_mm:g} mm tag"
    shown = f"{tag.px_min:.0f}" if round(tag.px_min) < reliable else f"{tag.px_min:.1f}"
    span = f"it spans {shown} px at the worst place for {view.words}"
    if readable:
        verdict = (
            f"under the {reliable:.0f} px read in every frame ({want:g} mm), so some "
            "sightings will be missed; to read every frame use"
        )
    else:
        verdict = (
            f"under the {readable_tag_px(view.image_size_px):.0f} px below which too many "
            f"sightings are lost (every frame from {reliable:.0f} px, {want:g} mm); use"
        )
    sentence = f"{what} {carry}: {span}, {verdict} {_changes(need, tag, want, view)}."
    return Shortfall(tags, want, readable, sentence[0].upper() + sentence[1:])


def size_kit(needs: Iterable[TagNeed], view: CameraView, scenario: str = "") -> KitPlan:
    """Every tag sized for the camera ``view``; pieces that cannot carry a reliable tag are
    given the largest they carry and listed as shortfalls (grouped by base size, or by piece
    for terrain)."""
    tags: list[KitTag] = []
    groups: dict[tuple[object, ...], list[tuple[TagNeed, KitTag, float]]] = {}
    for need in needs:
        tag, want = size_tag(need, view)
        tags.append(tag)
        if tag.status == "short":
            key: tuple[object, ...] = (
                (need.kind, need.base_mm, tag.size_mm, want, need.height_mm)
                if need.kind == "base"
                else (need.kind, need.piece)
            )
            groups.setdefault(key, []).append((need, tag, want))
    camera = KitCamera(
        kind=view.kind,
        words=view.words,
        px_per_mm=view.px_per_mm(3.0),
        height_mm=view.camera_height_mm,
    )
    kit = Kit(tags=tuple(tags), camera=camera, scenario=scenario)
    return KitPlan(kit, tuple(_shortfall(g, view) for g in groups.values()))

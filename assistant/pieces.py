"""The physical kit of a scenario: which tags sit on which model and terrain piece.

Units and terrain become ``vision.types.PieceSpec`` rigid bodies named by their scenario id.
A terrain piece's reference point is the centroid of its polygon (heading 0): its tag offsets
in the scenario file are measured from there, in millimetres.
"""

from __future__ import annotations

from dataclasses import dataclass

from shapely.geometry import Polygon

from engine.scenario import Scenario, TagSpec
from vision.types import PieceSpec, TagId, TagMount

MM_PER_INCH = 25.4


def _mount(tag: TagSpec) -> TagMount:
    return TagMount(
        tag_id=TagId(tag.id),
        forward_mm=tag.forward_mm,
        right_mm=tag.right_mm,
        size_mm=tag.size_mm,
        rotation_deg=tag.rotation_deg,
        height_mm=tag.height_mm,
    )


@dataclass(frozen=True)
class TerrainKit:
    """A terrain piece's spec and where its reference point lies, inches."""

    spec: PieceSpec
    x_in: float
    y_in: float
    footprint_mm: tuple[tuple[float, float], ...]
    """Polygon vertices relative to the reference point, (right, forward) millimetres."""
    height_mm: float
    title: str


def unit_specs(scenario: Scenario) -> tuple[PieceSpec, ...]:
    """One rigid body per character, named by unit id (characters without tags are left out)."""
    return tuple(
        PieceSpec(
            name=u.id,
            tags=tuple(_mount(t) for t in u.tags),
            base_diameter_mm=u.base_diameter_in * MM_PER_INCH,
        )
        for u in scenario.units
        if u.tags
    )


def terrain_kits(scenario: Scenario) -> tuple[TerrainKit, ...]:
    """Terrain pieces with tags, with their footprints about their reference points."""
    out = []
    for t in scenario.terrain:
        if not t.tags:
            continue
        centroid = Polygon(t.polygon).centroid
        cx, cy = float(centroid.x), float(centroid.y)
        footprint = tuple(((x - cx) * MM_PER_INCH, (y - cy) * MM_PER_INCH) for x, y in t.polygon)
        height_mm = max(t.height_in * MM_PER_INCH, max(tag.height_mm for tag in t.tags))
        spec = PieceSpec(name=t.id, tags=tuple(_mount(tag) for tag in t.tags), base_diameter_mm=0.0)
        out.append(TerrainKit(spec, cx, cy, footprint, height_mm, t.name))
    return tuple(out)


def tag_owner(scenario: Scenario) -> dict[int, str]:
    """Tag id -> the id of the unit or terrain piece carrying it."""
    owners: dict[int, str] = {}
    for u in scenario.units:
        for tag in u.tags:
            owners[tag.id] = u.id
    for t in scenario.terrain:
        for tag in t.tags:
            owners[tag.id] = t.id
    return owners


def tag_list_lines(scenario: Scenario) -> list[str]:
    """The printable tag-to-piece list: "tag 16  Warden Captain (Wardens)"."""
    lines = []
    for u in scenario.units:
        for tag in u.tags:
            lines.append(f"tag {tag.id:>3}  {u.name} ({u.side}), {tag.size_mm:g} mm, on the base")
    for t in scenario.terrain:
        for tag in t.tags:
            lines.append(f"tag {tag.id:>3}  {t.name} (terrain), {tag.size_mm:g} mm, on top")
    return lines

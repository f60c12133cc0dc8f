"""The physical kit of a scenario: which tags sit on which model and terrain piece.

Units and terrain become ``vision.types.PieceSpec`` rigid bodies named by their scenario id.
A terrain piece's reference point is the centroid of its polygon (heading 0): its tag offsets
in the scenario file are measured from there, in millimetres.

Tag sizes belong to the player's camera: a scenario's own sizes are its default kit
(:func:`scenario_kit`); :func:`kit_for` sizes them for a nominal webcam and
:func:`plan_for_view` for any camera (``calibration.kit_sizes``); :func:`apply_kit` gives the
scenario the sizes and places of a kit, which every reader of the table then uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shapely.geometry import Polygon

from calibration.kit_file import Kit, KitCamera
from calibration.kit_sizes import KitPlan, TagNeed, base_placement, kit_tag, size_kit
from calibration.kit_view import CameraView, nominal_view
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


def _need(tag: TagSpec, piece: str, name: str, **place: Any) -> TagNeed:
    """A scenario's tag as a tag to size (``place``: kind, base and placement or footprint)."""
    return TagNeed(
        tag_id=tag.id,
        piece=piece,
        name=name,
        size_mm=tag.size_mm,
        forward_mm=tag.forward_mm,
        right_mm=tag.right_mm,
        rotation_deg=tag.rotation_deg,
        height_mm=tag.height_mm,
        **place,
    )


def tag_needs(scenario: Scenario) -> tuple[TagNeed, ...]:
    """Every tag of the scenario as a tag to size: the units' base tags, then the terrain's."""
    needs = [
        _need(
            tag,
            u.id,
            u.name,
            kind="base",
            base_mm=u.base_diameter_in * MM_PER_INCH,
            placement=base_placement(
                tag.forward_mm, tag.right_mm, tag.rotation_deg, len(u.tags) == 1
            ),
        )
        for u in scenario.units
        for tag in u.tags
    ]
    pieces = {t.id: t for t in scenario.terrain}
    for kit in terrain_kits(scenario):
        piece = pieces[kit.spec.name]
        needs += [
            _need(tag, piece.id, piece.name, kind="terrain", placement="fixed",
                  footprint_mm=kit.footprint_mm)
            for tag in piece.tags
        ]  # fmt: skip
    return tuple(needs)


def on_board(scenario: Scenario) -> bool:
    """True when the scenario is played on a printed grid board (framed closely by the camera)."""
    return scenario.table.grid_shape() is not None


def plan_for_view(scenario: Scenario, view: CameraView) -> KitPlan:
    """The scenario's tags sized for a camera, with the pieces that fall short."""
    return size_kit(tag_needs(scenario), view, scenario.scenario.name)


def kit_for(scenario: Scenario, camera: str = "1080p", *, height_mm: float | None = None) -> Kit:
    """The kit sized for a nominal webcam (``camera``: "720p", "1080p" or "4k") over the
    scenario's table, at ``height_mm`` above it (default: the README's mounting, which
    ``calibration.kit_view.nominal_height_mm`` gives). Pieces that cannot carry a reliable
    tag get the largest they carry (their ``status`` is "short")."""
    view = nominal_view(
        camera,
        scenario.table.width_in,
        scenario.table.depth_in,
        board=on_board(scenario),
        height_mm=height_mm,
    )
    return plan_for_view(scenario, view).kit


def scenario_kit(scenario: Scenario) -> Kit:
    """The scenario's own tags as a kit (its default kit, sized for no camera in particular)."""
    tags = tuple(kit_tag(n, n.size_mm, at=(n.forward_mm, n.right_mm)) for n in tag_needs(scenario))
    return Kit(tags=tags, camera=KitCamera(kind="scenario"), scenario=scenario.scenario.name)


class KitMismatchError(ValueError):
    """A kit that does not fit the scenario's pieces; the message names the tag."""


def apply_kit(scenario: Scenario, kit: Kit, where: str = "the kit") -> Scenario:
    """The scenario with every tag at the size and place the kit gives it.

    The kit must hold every tag of the scenario, each on a piece of the same kind and, for a
    base, of the same diameter (its offsets are for that base); tags of the kit the scenario
    does not use are left aside (a kit may serve several scenarios with the same models).
    Raises KitMismatchError naming ``where`` and the first tag that does not fit.
    """

    name = scenario.scenario.name
    remake = (
        f"give the kit made for scenario {name} with --kit FILE, or make it with soloscope "
        f"markers --scenario {name} --camera 1080p|4k (or --profile PROFILE)"
    )

    def swapped(
        tags: tuple[TagSpec, ...], who: str, kind: str, base_mm: float
    ) -> tuple[TagSpec, ...]:
        out = []
        for tag in tags:
            k = kit.tag(tag.id)
            if k is None:
                raise KitMismatchError(f"{where} has no tag {tag.id} ({who}): {remake}")
            if k.kind != kind:
                raise KitMismatchError(
                    f"{where} puts tag {tag.id} on a {k.kind} piece, but {who} is a {kind} piece"
                )
            if kind == "base" and abs(k.base_mm - base_mm) > 0.5:
                raise KitMismatchError(
                    f"{where} has tag {tag.id} on a {k.base_mm:g} mm base, but {who} stands on "
                    f"{base_mm:.1f} mm: {remake}"
                )
            out.append(
                tag.model_copy(
                    update={
                        "size_mm": k.size_mm,
                        "forward_mm": k.forward_mm,
                        "right_mm": k.right_mm,
                        "rotation_deg": k.rotation_deg,
                    }
                )
            )
        return tuple(out)

    units = tuple(
        u.model_copy(
            update={
                "tags": swapped(
                    u.tags, f"{u.name} ({u.id})", "base", u.base_diameter_in * MM_PER_INCH
                )
            }
        )
        for u in scenario.units
    )
    terrain = tuple(
        t.model_copy(update={"tags": swapped(t.tags, f"{t.name} ({t.id})", "terrain", 0.0)})
        for t in scenario.terrain
    )
    return scenario.model_copy(update={"units": units, "terrain": terrain})

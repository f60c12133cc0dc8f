"""A generated seed-003 scenario (RULES §5.m): the d20 scenario table, the terrain of §5.n,
deployment zones, every figure's starting place, objective markers with their VP, the rounds.

:func:`generate_scenario` rolls the scenario d20 first (unless a scenario is chosen), then
the terrain (:func:`engine.generators.terrain.generate_terrain`), then places without dice:

* the human army deploys along the front edge, the AI army along the back (Basic Battle,
  Escape, Infiltrate, Spawning, Transport): two bands each at most 2 Move Units deep, at
  least 2 Move Units apart, so every figure starts 2 Move Units from every enemy;
* Fortress Assault: a major building at the table centre is scenario terrain, placed before
  the random terrain (random pieces on it or round it are left out); the AI defends within
  1/2 Move Unit of it, the human army assaults from at least 2 Move Units away;
* Ambush: the human army are the Targets, in the open in the middle of the front half, a
  chain each within 1 Move Unit of another; the AI's Ambushers deploy round them (a zone
  shaped like a U at least 1 Move Unit off), behind terrain that hides them from the Targets
  where they can, else in cover, and as near as that allows;
* Spawning: the human army are the Infiltrators; the AI (Spawner) deploys only its leader,
  the other figures wait off the table for the spawn die (``placed`` False);
* Transport: a cargo marker at the table centre.

A Move Unit is the average figure's (RULES §5.f): 3 in on a small battlefield, 6 on a large.
A piece of random terrain that leaves a deployment zone no room, or covers the fortress, is
left out (listed in ``removed``); an objective marker inside impassable terrain moves to the
nearest spot a base can touch (``moved_in``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import shapely
from shapely.geometry import Point, Polygon, box

from engine.dice import RandomSource
from engine.generators.scenario_deploy import (
    BASE_GAP_IN,
    Field,
    Ring,
    eye_height_in,
    ring_of,
    seen_from_above,
    toward,
)
from engine.generators.scenario_table import (
    BATTLE_ROUNDS,
    OBJECTIVE_ROUNDS,
    OPEN_ROUNDS,
    Edge,
    ObjectiveMarker,
    ScenarioGenError,
    ScenarioKind,
    objective_markers,
    objective_vp,
    roll_scenario,
)
from engine.generators.scenario_zones import Role, preference_keys, start_heading, zones_for
from engine.generators.terrain import TerrainLayout, TerrainPiece, generate_terrain
from engine.generators.terrain_types import TERRAIN_TYPES, Battlefield, TerrainType, battlefield_for
from engine.model import evolve

__all__ = [
    "ArmySetup",
    "GeneratedScenario",
    "PlacedObjective",
    "Role",
    "ScenarioGenError",
    "ScenarioKind",
    "ScenarioTerrain",
    "UnitPlacement",
    "generate_scenario",
]

MOVE_UNIT_IN: dict[Battlefield, float] = {Battlefield.SMALL: 3.0, Battlefield.LARGE: 6.0}
"""The average figure's Move Unit (RULES §5.f), inches (1 in spaces)."""

MAX_ARMY = 17
"""Figures per army at most (the kit's 34 base tags, ids 16-49, shared by two armies)."""

MARKER_CLEAR_IN = 0.75
"""An objective marker stands at least this far from impassable terrain, inches."""

BASE_IN = 1.25
"""Base diameter of the generated figures, inches (32 mm bases carry the 14 mm tags DESIGN §1
recommends for a 1080p camera)."""

FORTRESS_TYPE = "major-building"
"""The terrain type of a Fortress Assault's building."""


@dataclass(frozen=True)
class ArmySetup:
    """One army: who commands it, its scenario role, starting edge and deployment zone."""

    role: Role
    label: str
    """The scenario's name for it ("Ambushers", "Targets", or "Heroes"/"Enemies")."""
    edge: Edge
    zone: Ring
    """Deployment zone polygon, inches."""
    figures: int


@dataclass(frozen=True)
class UnitPlacement:
    """Where a figure starts."""

    role: Role
    index: int
    """0-based within its army; 0 is the army's leader (the AI's Arch Foe)."""
    x: float
    y: float
    heading_deg: float
    placed: bool = True
    """False: it waits off the table (a Spawner's figure before the spawn die brings it in)."""


@dataclass(frozen=True)
class ScenarioTerrain:
    """Terrain the scenario itself puts down before the random terrain (a fortress)."""

    id: str
    name: str
    type: TerrainType
    x: float
    y: float
    polygon: Ring


@dataclass(frozen=True)
class PlacedObjective:
    """An objective marker where it stands, with the VP each army scores for holding it."""

    marker: ObjectiveMarker
    x: float
    y: float
    moved_in: float
    vp: dict[Role, int]


@dataclass(frozen=True)
class GeneratedScenario:
    """A whole generated scenario, in inches."""

    kind: ScenarioKind
    roll: int | None
    """The scenario d20 (None when the scenario was chosen)."""
    width_in: float
    depth_in: float
    battlefield: Battlefield
    move_unit_in: float
    terrain: TerrainLayout
    """The random terrain that stays (pieces left out for the scenario are in ``removed``)."""
    scenario_terrain: tuple[ScenarioTerrain, ...]
    armies: tuple[ArmySetup, ArmySetup]
    """Human army first, then the AI's."""
    units: tuple[UnitPlacement, ...]
    objectives: tuple[PlacedObjective, ...]
    cargo: tuple[float, float] | None
    """Transport's object marker, inches."""
    max_rounds: int
    objective_rounds: int
    removed: tuple[str, ...]
    base_in: float = BASE_IN
    """Every figure's base diameter, inches."""

    def army(self, role: Role) -> ArmySetup:
        """The army of this role."""
        return self.armies[0] if role == "human" else self.armies[1]


def _blocking_piece(layout: TerrainLayout, zone: Polygon) -> TerrainPiece | None:
    """The impassable random piece covering most of the zone."""
    best, area = None, 0.0
    for piece in layout.pieces:
        if piece.type.impassable:
            covered = float(zone.intersection(Polygon(piece.polygon)).area)
            if covered > area:
                best, area = piece, covered
    return best


def _without(layout: TerrainLayout, ids: set[str]) -> TerrainLayout:
    gone = tuple(p.rolled for p in layout.pieces if p.id in ids)
    kept = tuple(p for p in layout.pieces if p.id not in ids)
    return evolve(layout, pieces=kept, unplaced=layout.unplaced + gone)


def _fortress(w: float, d: float, battlefield: Battlefield) -> ScenarioTerrain:
    kind = TERRAIN_TYPES[FORTRESS_TYPE]
    long_in, short_in = kind.footprint_in(battlefield)
    x, y = w / 2, d / 2
    shape = box(x - long_in / 2, y - short_in / 2, x + long_in / 2, y + short_in / 2)
    return ScenarioTerrain("fortress", "the fortress", kind, x, y, ring_of(shape))


def _place_objectives(
    markers: tuple[ObjectiveMarker, ...],
    impassable: list[Polygon],
    w: float,
    d: float,
    vp: dict[Role, dict[str, int]],
) -> tuple[PlacedObjective, ...]:
    blockers = shapely.union_all(impassable) if impassable else None
    out = []
    for m in markers:
        x, y = m.x, m.y
        if blockers is not None and float(blockers.distance(Point(x, y))) < MARKER_CLEAR_IN:
            field = Field(w, d, MARKER_CLEAR_IN, impassable, [])
            spot = field.place(box(0, 0, w, d), toward((m.x, m.y)))
            if spot is not None:
                x, y = spot
        out.append(
            PlacedObjective(
                m, x, y, round(math.dist((x, y), (m.x, m.y)), 3), {r: vp[r][m.id] for r in vp}
            )
        )
    return tuple(out)


def generate_scenario(
    dice: RandomSource,
    heroes: int = 5,
    enemies: int = 6,
    width_in: float = 24.0,
    depth_in: float = 24.0,
    *,
    kind: ScenarioKind | None = None,
    errata: bool = False,
    battlefield: Battlefield | None = None,
    base_in: float = BASE_IN,
) -> GeneratedScenario:
    """Roll (or take) the scenario, roll the terrain, and lay out deployment and objectives.

    ``heroes``/``enemies``: figures in the human and AI armies (1 to 17 each); ``base_in``:
    base diameter, inches. See the module notes for each scenario's set-up.
    """
    for what, n in (("heroes", heroes), ("enemies", enemies)):
        if not 1 <= n <= MAX_ARMY:
            raise ScenarioGenError(f"{what}: an army has 1 to {MAX_ARMY} figures, got {n}")
    roll: int | None = None
    if kind is None:
        roll, kind = roll_scenario(dice)
    field_size = battlefield if battlefield is not None else battlefield_for(width_in, depth_in)
    layout = generate_terrain(dice, width_in, depth_in, errata=errata, battlefield=field_size)
    mu = MOVE_UNIT_IN[field_size]
    r = base_in / 2
    w, d = width_in, depth_in
    fortress = _fortress(w, d, field_size) if kind is ScenarioKind.FORTRESS_ASSAULT else None
    fort_shape = Polygon(fortress.polygon) if fortress else None
    removed: list[str] = []
    if fort_shape is not None:
        room = fort_shape.buffer(mu / 2 + 2 * r)
        gone = {
            p.id
            for p in layout.pieces
            if Polygon(p.polygon).intersects(fort_shape if p.type.shape == "strip" else room)
        }
        removed += sorted(gone)
        layout = _without(layout, gone)
    human_zone, ai_zone = zones_for(kind, w, d, mu, r, fort_shape)
    zones: dict[Role, Polygon] = {"human": human_zone, "ai": ai_zone}
    counts: dict[Role, int] = {"human": heroes, "ai": enemies}
    placements: list[UnitPlacement] = []
    eye = (w / 2, d / 2, eye_height_in(w, d))
    for _ in range(len(layout.pieces) + 1):
        tall = [
            (Polygon(p.polygon), p.type.height_in) for p in layout.pieces if p.type.height_in > 0
        ]
        if fortress is not None:
            tall.append((Polygon(fortress.polygon), fortress.type.height_in))
        placements = []
        impassable = [Polygon(p.polygon) for p in layout.pieces if p.type.impassable]
        if fort_shape is not None:
            impassable.append(fort_shape)
        field = Field(w, d, r, impassable, [])
        failed: Role | None = None
        for role in ("human", "ai"):
            zone, other = zones[role], zones["ai" if role == "human" else "human"]
            focus_shape = fort_shape if fort_shape is not None and role == "ai" else other
            assert focus_shape is not None
            focus = (float(focus_shape.centroid.x), float(focus_shape.centroid.y))
            keys = [
                seen_from_above(k, tall, eye)
                for k in preference_keys(
                    kind, role, zone, counts[role], mu, r, layout, fort_shape, other
                )
            ]
            for i, key in enumerate(keys):
                spot = field.place(zone, key)
                if spot is None:
                    failed = role
                    break
                placements.append(
                    UnitPlacement(
                        role, i, spot[0], spot[1], start_heading(kind, role, spot, focus),
                        placed=not (kind is ScenarioKind.SPAWNING and role == "ai" and i > 0),
                    )
                )  # fmt: skip
            if failed:
                break
        if failed is None:
            break
        blocker = _blocking_piece(layout, zones[failed])
        if blocker is None:
            raise ScenarioGenError(
                f"the {'human' if failed == 'human' else 'AI'} army's deployment zone has no "
                f"room for {counts[failed]} figures on {base_in:g} in bases (at least "
                f"{BASE_GAP_IN + base_in:g} in apart, centre to centre)"
            )
        removed.append(blocker.id)
        layout = _without(layout, {blocker.id})
    markers = objective_markers(w, d)
    vp: dict[Role, dict[str, int]] = {
        "human": objective_vp(markers, "front", ("back",), w, d),
        "ai": objective_vp(markers, "back", ("front",), w, d),
    }
    impassable = [Polygon(p.polygon) for p in layout.pieces if p.type.impassable]
    if fort_shape is not None:
        impassable.append(fort_shape)
    objectives = _place_objectives(markers, impassable, w, d, vp)
    labels: dict[ScenarioKind, tuple[str, str]] = {
        ScenarioKind.AMBUSH: ("Targets", "Ambushers"),
        ScenarioKind.FORTRESS_ASSAULT: ("Assaulters", "Defenders"),
        ScenarioKind.SPAWNING: ("Infiltrators", "Spawners"),
    }
    human_label, ai_label = labels.get(kind, ("Heroes", "Enemies"))
    armies = (
        ArmySetup("human", human_label, "front", ring_of(human_zone), heroes),
        ArmySetup("ai", ai_label, "back", ring_of(ai_zone), enemies),
    )
    long_games = (ScenarioKind.BASIC_BATTLE, ScenarioKind.ESCAPE)
    return GeneratedScenario(
        kind=kind,
        roll=roll,
        width_in=w,
        depth_in=d,
        battlefield=field_size,
        move_unit_in=mu,
        terrain=layout,
        scenario_terrain=(fortress,) if fortress else (),
        armies=armies,
        units=tuple(placements),
        objectives=objectives,
        cargo=(w / 2, d / 2) if kind is ScenarioKind.TRANSPORT else None,
        max_rounds=BATTLE_ROUNDS if kind in long_games else OPEN_ROUNDS,
        objective_rounds=OBJECTIVE_ROUNDS,
        removed=tuple(removed),
        base_in=base_in,
    )

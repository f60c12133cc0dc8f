"""A generated scenario (``engine.generators.scenario``) as a scenario file and as JSON.

The file is a ``ruleset = "d20"`` scenario (cards and options as ``engine/rulesets/d20/state``
reads them; an option the registered ruleset does not declare is left out, so the file always
loads). Tags: every figure carries one base tag of the kit (ids 16 up, heroes first), the
scenario's own terrain and then the random pieces the kit's eight terrain tags (ids 8-15); a
piece without a tag is not checked by the camera. A terrain tag sits at its piece's centroid.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from shapely.geometry import Polygon

from assistant.terrain_files import MM_PER_IN, TAG_MAX_MM, TAG_MIN_MM, piece_json
from calibration.kit_ids import PIECE_IDS, TERRAIN_IDS
from engine.generators.scenario import GeneratedScenario, Role, ScenarioTerrain, UnitPlacement
from engine.generators.scenario_deploy import eye_height_in, hidden_from_above
from engine.generators.scenario_table import ScenarioKind
from engine.generators.terrain import TerrainPiece
from engine.generators.terrain_types import TerrainType
from engine.protocols import UnknownNameError, find_ruleset

RULESET = "d20"
AI_CONTROLLER = "status-d20"
HUMAN_CONTROLLER = "status-d20"
"""The generated file's ruleset and controllers (the status AI plays both sides in
``simulate``)."""

BASE_TAG_MM = 14.0
"""Base tag side on the generated 1.25 in (32 mm) bases: the file's default kit (DESIGN §1's
14-16 mm on 32 mm bases). ``soloscope markers --scenario FILE --camera 1080p|4k`` (or
``--profile``) sizes the tags for the player's camera instead."""

VICTORY: dict[ScenarioKind, str] = {
    ScenarioKind.BASIC_BATTLE: (
        "After 5 rounds the side with the last surviving figures wins; with survivors on both "
        "sides, the side that defeated more points of enemies; equal points: a draw."
    ),
    ScenarioKind.AMBUSH: (
        "Every Ambusher takes a turn before any Target acts. Ends when all Ambushers or all "
        "Targets are gone."
    ),
    ScenarioKind.ESCAPE: (
        "The first army to get more than half of its figures off the opposite edge wins; 5 rounds."
    ),
    ScenarioKind.FORTRESS_ASSAULT: (
        "The fortress destroyed: the Assaulters win; all Assaulters defeated: the Defenders "
        "win (the fortress takes 5 wounds and defends on 11+)."
    ),
    ScenarioKind.INFILTRATE: (
        "The first army with 2 figures within 1 in of the opposite edge at the same time wins."
    ),
    ScenarioKind.SPAWNING: (
        "The Spawners deploy one figure; each round a d6 brings in an unplaced one. "
        "Ends when all are placed and one army is defeated."
    ),
    ScenarioKind.TRANSPORT: (
        "An object marker at the table centre: picking it up is an action; carry it back to "
        "your own starting side to win."
    ),
}
"""Each scenario's own end, in words (RULES §5.m), for the file's description."""

END_NOTE: dict[ScenarioKind, str] = {
    ScenarioKind.BASIC_BATTLE: "",
    ScenarioKind.AMBUSH: (" Not over after {rounds} rounds: objective VP decide."),
    ScenarioKind.ESCAPE: " After {rounds} rounds the army with more figures off wins.",
    ScenarioKind.FORTRESS_ASSAULT: (
        " The fortress still standing after {rounds} rounds: the Defenders win."
    ),
    ScenarioKind.INFILTRATE: " Not over after {rounds} rounds: objective VP decide.",
    ScenarioKind.SPAWNING: " Not over after {rounds} rounds: objective VP decide.",
    ScenarioKind.TRANSPORT: " Not over after {rounds} rounds: objective VP decide.",
}
"""What decides a scenario still undecided after its last round (D003-10)."""

CARGO_ID = "cargo"
"""Transport's object marker, an [[objectives]] entry the d20 rules score no VP for."""

_HEROES = ("Captain", "Archer", "Warrior", "Scout", "Guard", "Ranger", "Squire", "Knight")
_ENEMIES = ("Warlord", "Raider", "Slinger", "Brute", "Cutthroat", "Bowman", "Thug", "Lurker")


@dataclass(frozen=True)
class UnitEntry:
    """One figure of the file."""

    id: str
    name: str
    side: str
    placement: UnitPlacement
    tag: int
    card: dict[str, Any]


def _card(role: Role, index: int, placed: bool = True) -> dict[str, Any]:
    """A figure's d20 card: the army's leader (the AI's Arch Foe) takes 3 wounds; every
    third figure shoots (a short-range bow) as well as fighting in melee; a Spawner's figure
    not yet placed waits off the table (``reserve``)."""
    weapons: list[dict[str, Any]] = [{"name": "hand weapon", "kind": "melee"}]
    if index % 3 == 1:
        weapons.insert(0, {"name": "bow", "kind": "short"})
    card: dict[str, Any] = {"wounds": 3 if index == 0 else 1, "weapons": weapons}
    card["points"] = 3 if index == 0 else 1
    if index == 0:
        card["leader"] = True
        if role == "ai":
            card["arch_foe"] = True
            card["tactic"] = "roll"
    if not placed:
        card["reserve"] = True
    return card


def unit_entries(gen: GeneratedScenario) -> list[UnitEntry]:
    """The figures, heroes first, each with its base tag."""
    out = []
    tags = iter(PIECE_IDS)
    for army in gen.armies:
        names = _HEROES if army.role == "human" else _ENEMIES
        for p in (u for u in gen.units if u.role == army.role):
            base = names[p.index % len(names)]
            name = base if p.index < len(names) else f"{base} {p.index // len(names) + 1}"
            prefix = "hero" if army.role == "human" else "enemy"
            out.append(
                UnitEntry(
                    f"{prefix}-{p.index + 1}",
                    name,
                    army.label,
                    p,
                    next(tags),
                    _card(army.role, p.index, p.placed),
                )
            )
    return out


def terrain_tags(gen: GeneratedScenario) -> dict[str, int]:
    """Terrain piece id -> kit terrain tag: the scenario's own pieces first, then the random
    solid ones in layout order (large, then small), then rivers and roads, while the kit's
    eight last; a piece whose tag a taller neighbour would hide from the overhead camera gets
    none (the camera could not check it)."""
    pieces: list[tuple[str, float, float, TerrainType, tuple[tuple[float, float], ...]]] = [
        (t.id, t.x, t.y, t.type, t.polygon) for t in gen.scenario_terrain
    ]
    # Solid pieces before rivers and roads: a strip's tag says little about where it runs.
    layout = sorted(gen.terrain.pieces, key=lambda p: p.type.shape == "strip")
    pieces += [(p.id, p.x, p.y, p.type, p.polygon) for p in layout]
    eye = (gen.width_in / 2, gen.depth_in / 2, eye_height_in(gen.width_in, gen.depth_in))
    tags = iter(TERRAIN_IDS)
    out: dict[str, int] = {}
    for ident, x, y, kind, _ in pieces:
        z_in = tag_mm(1.0, kind)[1] / MM_PER_IN
        others = [(Polygon(poly), k.height_in) for i, _, _, k, poly in pieces if i != ident]
        if hidden_from_above(x, y, z_in, others, eye):
            continue
        tag = next(tags, None)
        if tag is None:
            break
        out[ident] = tag
    return out


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}" if value == int(value) and abs(value) < 1e15 else repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def tag_mm(short_in: float, kind: TerrainType) -> tuple[float, float]:
    """(size, height) of a terrain tag: 4/5 of the narrow side in 5 mm steps, 20 to 30 mm;
    on top of a solid piece, on the base of a wood or a flat piece."""
    size = min(TAG_MAX_MM, max(TAG_MIN_MM, (0.8 * short_in * MM_PER_IN) // 5 * 5))
    flat = kind.kind == "woods" or kind.height_in <= 0
    return size, 3.0 if flat else round(kind.height_in * MM_PER_IN, 1)


def _terrain_lines(
    ident: str, name: str, kind: TerrainType, polygon: tuple[tuple[float, float], ...],
    short_in: float, tag: int | None,
) -> list[str]:  # fmt: skip
    lines = ["", "[[terrain]]", f"id = {_toml(ident)}", f"name = {_toml(name)}"]
    lines.append(f"kind = {_toml(kind.kind)}")
    lines.append(f"polygon = {_toml([list(p) for p in polygon])}")
    for key, value in (
        ("blocks_los", kind.blocks_los),
        ("impassable", kind.impassable),
        ("difficult", kind.difficult),
        ("cover", kind.cover),
        ("dangerous", kind.dangerous),
        ("height_in", kind.height_in),
    ):
        lines.append(f"{key} = {_toml(value)}")
    if tag is not None:
        size, height = tag_mm(short_in, kind)
        lines.append(
            f"tags = [{{ id = {tag}, forward_mm = 0, size_mm = {_toml(size)}, "
            f"height_mm = {_toml(height)} }}]"
        )
    return lines


def _options(gen: GeneratedScenario) -> dict[str, object]:
    """The scenario's rule options, those the registered d20 ruleset declares."""
    human, ai = gen.armies
    wanted: dict[str, object] = {
        "battlefield": gen.battlefield.value,
        "victory": "basic" if gen.kind is ScenarioKind.BASIC_BATTLE else "objectives",
        "scenario": gen.kind.value,
    }
    if gen.kind is ScenarioKind.AMBUSH:
        wanted["ambushers"] = ai.label
    if gen.kind is ScenarioKind.FORTRESS_ASSAULT and gen.scenario_terrain:
        wanted["assaulters"] = human.label
        wanted["fortress"] = gen.scenario_terrain[0].id
    if gen.kind is ScenarioKind.SPAWNING:
        wanted["spawners"] = ai.label
    if gen.cargo is not None:
        wanted["cargo"] = CARGO_ID
    try:
        declared = set(find_ruleset(RULESET).options)
    except UnknownNameError:
        declared = set()
    return {"max_rounds": gen.max_rounds} | {k: v for k, v in wanted.items() if k in declared}


def scenario_name(gen: GeneratedScenario, seed: int) -> str:
    """The generated scenario's short name ("basic-battle-42")."""
    return f"{gen.kind.value}-{seed}"


def scenario_toml(gen: GeneratedScenario, seed: int, header: str = "") -> str:
    """The whole scenario file."""
    title = f"{gen.kind.display_name} (generated, seed {seed})"
    human, ai = gen.armies
    description = (
        f"A generated {gen.kind.display_name} on a {gen.width_in:g} x {gen.depth_in:g} in table "
        f"({human.figures} {human.label} against {ai.figures} {ai.label}). "
        + VICTORY[gen.kind]
        + END_NOTE[gen.kind].format(rounds=gen.max_rounds)
    )
    if gen.cargo is not None:
        description += (
            f" Put the cargo marker at ({gen.cargo[0]:g}, {gen.cargo[1]:g}) in (it is not an "
            "objective marker: holding it scores no VP)."
        )
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    lines += ["version = 1", "", "[scenario]", f"name = {_toml(scenario_name(gen, seed))}"]
    lines += [f"title = {_toml(title)}", f"description = {_toml(description)}"]
    lines += [f'ruleset = "{RULESET}"', f'ai_controller = "{AI_CONTROLLER}"']
    lines += [f'human_controller = "{HUMAN_CONTROLLER}"', "", "[table]"]
    lines += [f"width_in = {_toml(gen.width_in)}", f"depth_in = {_toml(gen.depth_in)}", ""]
    lines += ["[options]"] + [f"{k} = {_toml(v)}" for k, v in _options(gen).items()]
    for army in gen.armies:
        lines += ["", "[[sides]]", f"name = {_toml(army.label)}", f'role = "{army.role}"']
        lines += [f'edge = "{army.edge}"', f"deployment = {_toml([list(p) for p in army.zone])}"]
    for u in unit_entries(gen):
        p = u.placement
        lines += ["", "[[units]]", f"id = {_toml(u.id)}", f"name = {_toml(u.name)}"]
        lines += [f"side = {_toml(u.side)}", f"x = {_toml(p.x)}", f"y = {_toml(p.y)}"]
        lines += [f"heading = {_toml(p.heading_deg)}", f"base_diameter_in = {_toml(gen.base_in)}"]
        lines += [f"tags = [{{ id = {u.tag}, size_mm = {_toml(BASE_TAG_MM)} }}]"]
        lines += [f"card = {_toml(u.card)}"]
    tags = terrain_tags(gen)
    for t in gen.scenario_terrain:
        short = t.type.footprint_in(gen.battlefield)[1]
        lines += _terrain_lines(t.id, t.name, t.type, t.polygon, short, tags.get(t.id))
    for piece in gen.terrain.pieces:
        lines += _terrain_lines(
            piece.id, piece.name, piece.type, piece.polygon, piece.short_in, tags.get(piece.id)
        )
    for o in gen.objectives:
        lines += [
            "",
            "[[objectives]]",
            f"id = {_toml(o.marker.id)}",
            f"name = {_toml(o.marker.name)}",
        ]
        lines += [f"x = {_toml(o.x)}", f"y = {_toml(o.y)}"]
    if gen.cargo is not None:
        lines += ["", "[[objectives]]", f"id = {_toml(CARGO_ID)}", 'name = "cargo"']
        lines += [f"x = {_toml(gen.cargo[0])}", f"y = {_toml(gen.cargo[1])}"]
    return "\n".join(lines) + "\n"


def _scenario_piece_json(t: ScenarioTerrain, tag: int | None) -> dict[str, Any]:
    kind = t.type
    return {
        "id": t.id,
        "name": t.name,
        "size": kind.size.value,
        "type": kind.id,
        "section": None,
        "x": t.x,
        "y": t.y,
        "polygon": [list(p) for p in t.polygon],
        "kind": kind.kind,
        "blocks_los": kind.blocks_los,
        "impassable": kind.impassable,
        "difficult": kind.difficult,
        "cover": kind.cover,
        "dangerous": kind.dangerous,
        "height_levels": kind.height_levels,
        "destructible": True,
        "is_objective": True,
        "height_in": kind.height_in,
        "tag": tag,
        "scenario": True,
    }


def scenario_json(gen: GeneratedScenario, seed: int) -> dict[str, Any]:
    """``generate scenario --json``: ``{"scenario": NAME, "roll": R, ...}``."""
    tags = terrain_tags(gen)
    pieces: list[dict[str, Any]] = [
        _scenario_piece_json(t, tags.get(t.id)) for t in gen.scenario_terrain
    ]
    pieces += [piece_json(p, tags.get(p.id)) for p in gen.terrain.pieces]
    return {
        "scenario": gen.kind.display_name,
        "roll": gen.roll,
        "id": gen.kind.value,
        "name": scenario_name(gen, seed),
        "seed": seed,
        "ruleset": RULESET,
        "table": {"width_in": gen.width_in, "depth_in": gen.depth_in},
        "battlefield": gen.battlefield.value,
        "move_unit_in": gen.move_unit_in,
        "max_rounds": gen.max_rounds,
        "objective_rounds": gen.objective_rounds,
        "victory": VICTORY[gen.kind],
        "sides": [
            {
                "name": a.label,
                "role": a.role,
                "edge": a.edge,
                "deployment": [list(p) for p in a.zone],
                "figures": a.figures,
            }
            for a in gen.armies
        ],
        "units": [
            {
                "id": u.id,
                "name": u.name,
                "side": u.side,
                "x": u.placement.x,
                "y": u.placement.y,
                "heading": u.placement.heading_deg,
                "placed": u.placement.placed,
                "tag": u.tag,
                "card": u.card,
            }
            for u in unit_entries(gen)
        ],
        "objectives": [
            {
                "id": o.marker.id,
                "name": o.marker.name,
                "x": o.x,
                "y": o.y,
                "moved_in": o.moved_in,
                "vp": o.vp,
            }
            for o in gen.objectives
        ],
        "cargo": list(gen.cargo) if gen.cargo is not None else None,
        "pieces": pieces,
        "removed": list(gen.removed),
    }


def piece_of(gen: GeneratedScenario, piece_id: str) -> TerrainPiece | ScenarioTerrain:
    """A terrain piece of the scenario by id."""
    for t in gen.scenario_terrain:
        if t.id == piece_id:
            return t
    for p in gen.terrain.pieces:
        if p.id == piece_id:
            return p
    raise KeyError(piece_id)

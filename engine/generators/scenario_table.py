"""Seed 003's generic scenarios (RULES §5.m): the d20 scenario table, the spawn die, the
objective markers and the victory points each army scores for holding them.

Pure functions of the dice and the table size; :mod:`engine.generators.scenario` lays out a
whole generated scenario with them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from engine.dice import RandomSource
from engine.errors import EngineError
from engine.generators.terrain_rolls import sections_of

SCENARIO_DIE = 20
"""The scenario table is one d20."""

SPAWN_DIE = 6
"""D003-18: the spawn die is a d6."""

OBJECTIVE_ROUNDS = 4
"""Objective VP are scored after this many rounds (RULES §5.m)."""

BATTLE_ROUNDS = 5
"""Basic Battle and Escape end after this many rounds (RULES §5.m, D003-10)."""

OPEN_ROUNDS = 10
"""Ambush, Fortress Assault, Infiltrate, Spawning and Transport have no round count of their
own in §5.m (they end on their own condition, D003-10); the file caps them at this many
rounds, after which objective VP decide (the Fortress still standing: the Defenders win)."""

VP_OWN_SIDE = 1
VP_OPPOSING_SIDE = 4
VP_OTHER = 2
VP_LEADER = 2
"""Victory points (RULES §5.m): the objective nearest the centre of the army's own starting
side, the one nearest an opposing army's, any other held, and an opposing leader defeated."""

TIE_EPS_IN = 1e-6
"""Two objectives this close in distance to a side's centre are tied (D003-11: both count)."""

Edge = Literal["front", "back", "left", "right"]


class ScenarioGenError(EngineError, ValueError):
    """A scenario cannot be generated as asked (a die result off the table, too many units)."""


class ScenarioKind(StrEnum):
    """The seven generic scenarios; the value is the ``scenario`` field ``--json`` prints."""

    BASIC_BATTLE = "basic-battle"
    AMBUSH = "ambush"
    ESCAPE = "escape"
    FORTRESS_ASSAULT = "fortress-assault"
    INFILTRATE = "infiltrate"
    SPAWNING = "spawning"
    TRANSPORT = "transport"

    @property
    def display_name(self) -> str:
        """As the seed names it ("Basic Battle")."""
        return SCENARIO_TITLES[self]


SCENARIO_TITLES: dict[ScenarioKind, str] = {
    ScenarioKind.BASIC_BATTLE: "Basic Battle",
    ScenarioKind.AMBUSH: "Ambush",
    ScenarioKind.ESCAPE: "Escape",
    ScenarioKind.FORTRESS_ASSAULT: "Fortress Assault",
    ScenarioKind.INFILTRATE: "Infiltrate",
    ScenarioKind.SPAWNING: "Spawning",
    ScenarioKind.TRANSPORT: "Transport",
}

SCENARIO_TABLE: tuple[tuple[int, int, ScenarioKind], ...] = (
    (1, 8, ScenarioKind.BASIC_BATTLE),
    (9, 10, ScenarioKind.AMBUSH),
    (11, 12, ScenarioKind.ESCAPE),
    (13, 14, ScenarioKind.FORTRESS_ASSAULT),
    (15, 16, ScenarioKind.INFILTRATE),
    (17, 18, ScenarioKind.SPAWNING),
    (19, 20, ScenarioKind.TRANSPORT),
)
"""d20 ranges (inclusive) -> scenario (RULES §5.m; T003-08: Basic Battle 2/5, others 1/10)."""

SPAWN_TABLE: dict[int, str] = {
    1: "opposite",
    2: "right",
    3: "own",
    4: "own",
    5: "left",
    6: "none",
}
"""D003-18: d6 -> the edge a spawned figure comes in at, relative to the Spawner's own
starting edge (6: nothing this round)."""


def scenario_for_roll(roll: int) -> ScenarioKind:
    """The scenario a d20 result gives."""
    for low, high, kind in SCENARIO_TABLE:
        if low <= roll <= high:
            return kind
    raise ScenarioGenError(f"a scenario roll is a d20 result from 1 to 20, got {roll}")


def roll_scenario(dice: RandomSource) -> tuple[int, ScenarioKind]:
    """Roll the scenario table (one logged d20)."""
    roll = dice.roll(SCENARIO_DIE, "the d20 rules' scenario table")
    return roll, scenario_for_roll(roll)


def spawn_edge(roll: int) -> str:
    """Where a spawned figure comes in for a d6 result (D003-18)."""
    if roll not in SPAWN_TABLE:
        raise ScenarioGenError(f"a spawn roll is a d6 result from 1 to 6, got {roll}")
    return SPAWN_TABLE[roll]


def edge_centre(edge: Edge, width_in: float, depth_in: float) -> tuple[float, float]:
    """The centre of a table edge, inches (front: the human player's edge, y = 0)."""
    return {
        "front": (width_in / 2, 0.0),
        "back": (width_in / 2, depth_in),
        "left": (0.0, depth_in / 2),
        "right": (width_in, depth_in / 2),
    }[edge]


OPPOSITE_EDGE: dict[Edge, Edge] = {
    "front": "back",
    "back": "front",
    "left": "right",
    "right": "left",
}


@dataclass(frozen=True)
class ObjectiveMarker:
    """An objective marker (RULES §5.m): the centre of a section, or of the table."""

    id: str
    name: str
    x: float
    y: float
    """Inches."""


def objective_markers(width_in: float, depth_in: float) -> tuple[ObjectiveMarker, ...]:
    """One marker at the centre of each 1 ft section, in reading order, then the table centre
    (unless a section centre is already there)."""
    out: list[ObjectiveMarker] = []
    for s in sections_of(width_in, depth_in):
        x, y = s.centre
        out.append(ObjectiveMarker(f"objective-{len(out) + 1}", f"objective {len(out) + 1}", x, y))
    cx, cy = width_in / 2, depth_in / 2
    if all(math.dist((m.x, m.y), (cx, cy)) > TIE_EPS_IN for m in out):
        out.append(ObjectiveMarker("objective-centre", "the centre objective", cx, cy))
    return tuple(out)


def nearest_markers(
    markers: tuple[ObjectiveMarker, ...], point: tuple[float, float]
) -> frozenset[str]:
    """Ids of the markers nearest ``point`` (every tied one, D003-11)."""
    if not markers:
        return frozenset()
    best = min(math.dist((m.x, m.y), point) for m in markers)
    return frozenset(m.id for m in markers if math.dist((m.x, m.y), point) <= best + TIE_EPS_IN)


def objective_vp(
    markers: tuple[ObjectiveMarker, ...],
    own_edge: Edge,
    opposing_edges: tuple[Edge, ...],
    width_in: float,
    depth_in: float,
) -> dict[str, int]:
    """Marker id -> VP the army starting at ``own_edge`` scores for holding it (RULES §5.m,
    D003-11): 4 nearest an opposing side's centre, 1 nearest its own, 2 for any other."""
    own = nearest_markers(markers, edge_centre(own_edge, width_in, depth_in))
    theirs: set[str] = set()
    for edge in opposing_edges:
        theirs |= nearest_markers(markers, edge_centre(edge, width_in, depth_in))
    return {
        m.id: VP_OPPOSING_SIDE if m.id in theirs else VP_OWN_SIDE if m.id in own else VP_OTHER
        for m in markers
    }

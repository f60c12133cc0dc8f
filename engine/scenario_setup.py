"""What every ruleset's ``new_game`` reads from a scenario the same way: the sides, the table
(with its grid, if any), the terrain with its RULES §1.1 attributes and the objective markers.

The units' cards and their part of the unit state are the ruleset's own; where the scenario
places each unit is read here (:func:`unit_from_spec`).
"""

from __future__ import annotations

from typing import Any

from engine.geometry import Edge, Table, normalize_deg
from engine.model import Objective, Role, Side, TerrainPiece, Unit, UnitCard
from engine.scenario import Scenario, TerrainSpec, UnitSpec


def sides_of(scenario: Scenario) -> tuple[Side, ...]:
    """The scenario's sides with their roles and home edges."""
    return tuple(Side(s.name, Role(s.role), Edge(s.edge)) for s in scenario.sides)


def unit_from_spec(spec: UnitSpec, sheet_order: int, card: UnitCard, **fields: Any) -> Unit:
    """The unit as the scenario sets it out: its id, name and side, its place on the sheet,
    its base centre (inches), its facing folded into [0, 360) degrees and its base; ``card``
    and ``fields`` (wounds, cell, rules ...) are the ruleset's."""
    return Unit(
        id=spec.id,
        name=spec.name,
        side=spec.side,
        sheet_order=sheet_order,
        x=spec.x,
        y=spec.y,
        heading_deg=normalize_deg(spec.heading),
        card=card,
        base_diameter_in=spec.base_diameter_in,
        **fields,
    )


def table_of(scenario: Scenario) -> Table:
    """The table in inches, with the scenario's square grid when it has one."""
    spec = scenario.table
    return Table(spec.width_in, spec.depth_in, spec.grid_shape())


def terrain_piece(spec: TerrainSpec) -> TerrainPiece:
    """One scenery piece as the engine keeps it (outline in table inches)."""
    return TerrainPiece(
        id=spec.id,
        name=spec.name,
        kind=spec.kind,
        polygon=tuple(spec.polygon),
        blocks_los=spec.blocks_los,
        impassable=spec.impassable,
        difficult=spec.difficult,
        cover=spec.cover,
        dangerous=spec.dangerous,
        height_in=spec.height_in,
    )


def terrain_of(scenario: Scenario) -> tuple[TerrainPiece, ...]:
    """Every scenery piece of the scenario."""
    return tuple(terrain_piece(t) for t in scenario.terrain)


def objectives_of(scenario: Scenario) -> tuple[Objective, ...]:
    """The scenario's objective markers (table inches)."""
    return tuple(Objective(o.id, o.name, o.x, o.y) for o in scenario.objectives)

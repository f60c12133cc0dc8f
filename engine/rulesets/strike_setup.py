"""Setting up a strike-system battle (RULES §3.1.b, D001A-06/07): sides (no neutral side),
soldiers with their cards checked field by field, terrain, and seed 003's objectives when the
scenario names none."""

from __future__ import annotations

from pydantic import ValidationError

from engine.geometry import Edge, Table, normalize_deg
from engine.model import GameState, Objective, Role, Side, TerrainPiece, Unit
from engine.rulesets.strike_state import NAME, CardSpec, StrikeCard, StrikeState, StrikeUnit
from engine.rulesets.strike_victory import default_objectives
from engine.scenario import Scenario, ScenarioError, card_error

FIRST_PLAYER = ("roll-off", "fewer-dice")
VICTORY = ("objectives", "kills")


def new_game(scenario: Scenario, title: str) -> GameState:
    """The soldiers deployed with their cards, round 0 awaiting the first Oracle phase."""
    src = scenario.source
    for i, s in enumerate(scenario.sides):
        if s.role == "neutral":
            raise ScenarioError(
                f"{src}: sides[{i}].role: the {title} has no neutral side (allowed: ai, human)"
            )
    for key, allowed in (("first_player", FIRST_PLAYER), ("victory", VICTORY)):
        value = scenario.options.get(key)
        if value is not None and value not in allowed:
            raise ScenarioError(f"{src}: options.{key}: {value!r} (allowed: {', '.join(allowed)})")
    table = Table(scenario.table.width_in, scenario.table.depth_in, scenario.table.grid_shape())
    units = []
    for i, spec in enumerate(scenario.units):
        try:
            card = CardSpec.model_validate(spec.card)
        except ValidationError as exc:
            raise card_error(scenario, i, exc, CardSpec) from None
        units.append(
            Unit(
                id=spec.id,
                name=spec.name,
                side=spec.side,
                sheet_order=i,
                x=spec.x,
                y=spec.y,
                heading_deg=normalize_deg(spec.heading),
                card=StrikeCard(**card.model_dump(exclude={"skills"}), skills=card.skills),
                base_diameter_in=spec.base_diameter_in,
                cell=table.cell_of((spec.x, spec.y)),
                rules=StrikeUnit(),
            )
        )
    terrain = tuple(
        TerrainPiece(
            id=t.id,
            name=t.name,
            kind=t.kind,
            polygon=tuple(t.polygon),
            blocks_los=t.blocks_los,
            impassable=t.impassable,
            difficult=t.difficult,
            cover=t.cover,
            height_in=t.height_in,
        )
        for t in scenario.terrain
    )
    objectives = tuple(Objective(o.id, o.name, o.x, o.y) for o in scenario.objectives)
    return GameState(
        ruleset=NAME,
        scenario=scenario.scenario.name,
        table=table,
        sides=tuple(Side(s.name, Role(s.role), Edge(s.edge)) for s in scenario.sides),
        units=tuple(units),
        terrain=terrain,
        objectives=objectives or default_objectives(table.width_in, table.depth_in),
        options=tuple(sorted(scenario.options.items())),
        rules=StrikeState(),
    )

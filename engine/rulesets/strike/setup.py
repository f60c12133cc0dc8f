"""Setting up a strike-system battle (RULES §3.1.b, D001A-06/07): sides (no neutral side),
soldiers with their cards checked field by field, terrain, and seed 003's objectives when the
scenario names none."""

from __future__ import annotations

from pydantic import ValidationError

from engine.model import GameState
from engine.rulesets.strike.state import NAME, CardSpec, StrikeCard, StrikeState, StrikeUnit
from engine.rulesets.strike.victory import default_objectives
from engine.scenario import Scenario, ScenarioError, card_error
from engine.scenario_setup import objectives_of, sides_of, table_of, terrain_of, unit_from_spec

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
    table = table_of(scenario)
    units = []
    for i, spec in enumerate(scenario.units):
        try:
            card = CardSpec.model_validate(spec.card)
        except ValidationError as exc:
            raise card_error(scenario, i, exc, CardSpec) from None
        units.append(
            unit_from_spec(
                spec,
                i,
                card=StrikeCard(**card.model_dump(exclude={"skills"}), skills=card.skills),
                cell=table.cell_of((spec.x, spec.y)),
                rules=StrikeUnit(),
            )
        )
    terrain = terrain_of(scenario)
    objectives = objectives_of(scenario)
    return GameState(
        ruleset=NAME,
        memo=scenario.game_memo(NAME),
        scenario=scenario.scenario.name,
        table=table,
        sides=sides_of(scenario),
        units=tuple(units),
        terrain=terrain,
        objectives=objectives or default_objectives(table.width_in, table.depth_in),
        options=tuple(sorted(scenario.options.items())),
        rules=StrikeState(),
    )

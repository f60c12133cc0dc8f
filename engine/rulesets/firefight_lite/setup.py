"""A firefight-lite game from its scenario (RULES §4.b): the cards of the figures, the neutral
figures and the NPC's reinforcement kept in reserve, the terrain, the 54-card deck in the
state (shuffled by the first chance step), the NPC's starting troop types and deployment squares
(K♦)."""

from __future__ import annotations

from pydantic import ValidationError

from engine.cards import Deck
from engine.geometry import Table
from engine.model import GameState, Role, UnitStatus
from engine.rulesets.firefight_lite.deck import FULL_DECK
from engine.rulesets.firefight_lite.state import (
    DECK,
    NAME,
    FFCard,
    FFCardModel,
    FFState,
    FFUnit,
    card,
)
from engine.scenario import Scenario, ScenarioError, card_error
from engine.scenario_setup import sides_of, terrain_of, unit_from_spec


def new_game(scenario: Scenario, title: str) -> GameState:
    """The state at the start of the game (``title`` names the rules in messages)."""
    grid = scenario.table.grid_shape()
    if grid is None:
        raise ScenarioError(f"{scenario.source}: table.grid: {title} plays on a square grid")
    events = scenario.options.get("random_events", True)
    if not isinstance(events, bool):
        raise ScenarioError(
            f"{scenario.source}: options.random_events: true or false, got {events!r}"
        )
    table = Table(scenario.table.width_in, scenario.table.depth_in, grid)
    sides = sides_of(scenario)
    units = []
    for i, spec in enumerate(scenario.units):
        try:
            model = FFCardModel.model_validate(spec.card)
        except ValidationError as exc:
            raise card_error(scenario, i, exc, FFCardModel) from None
        role = next(s.role for s in scenario.sides if s.name == spec.side)
        if model.neutral and role != "neutral":
            raise ScenarioError(
                f"{scenario.source}: units[{i}].card.neutral: only figures of the neutral side are {model.neutral!r}"
            )
        if role == "neutral" and not model.neutral:
            raise ScenarioError(
                f"{scenario.source}: units[{i}].card.neutral: a figure of the neutral side says what it is (monk, citizen, bot, mob or mine)"
            )
        reserve = model.reserve or role == "neutral"
        at = table.cell_of((spec.x, spec.y))
        units.append(
            unit_from_spec(
                spec,
                i,
                card=FFCard(**model.model_dump()),
                status=UnitStatus.RESERVE if reserve else UnitStatus.ACTIVE,
                cell=None if reserve else at,
                rules=FFUnit(turn_start=None if reserve else at),
            )
        )
    ai = next(s for s in sides if s.role is Role.AI)
    initial = [u for u in units if u.side == ai.name and u.status is UnitStatus.ACTIVE]
    spec_cells = scenario.side_spec(ai.name).deployment_cells
    deploy = tuple(u.cell for u in initial if u.cell is not None)
    if spec_cells:
        from engine.scenario import parse_cell

        deploy = tuple(parse_cell(ref, grid) for ref in spec_cells)
    rules = FFState(
        initial_ai=tuple(card(u).troop or u.name for u in initial),
        deploy_cells=deploy,
    )
    options = tuple(sorted(scenario.options.items()))
    terrain = terrain_of(scenario)
    state = GameState(
        ruleset=NAME,
        memo=scenario.game_memo(NAME),
        scenario=scenario.scenario.name,
        table=table,
        sides=sides,
        units=tuple(units),
        terrain=terrain,
        options=options,
        decks=(Deck(DECK, FULL_DECK),),
        rules=rules,
    )
    return state

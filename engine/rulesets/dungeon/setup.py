"""Setting up a game of the grid rules (seed 004): the scenario's cards, walls and sides,
the ruleset's own options (checked in one line each) and the Arch Foe's start squares."""

from __future__ import annotations

import re

from pydantic import ValidationError
from shapely.geometry import Polygon

from engine.geometry import Table
from engine.geometry.grid import Cell
from engine.model import GameState, Role, Side, Unit, evolve
from engine.rulesets.dungeon.board import Board
from engine.rulesets.dungeon.cards import read_card
from engine.rulesets.dungeon.resolve import (
    is_enemy_side,
)
from engine.rulesets.dungeon.state import (
    ALERTED,
    PATROLLING,
    DungeonState,
    DungeonUnit,
    card_of,
    cell_of,
)
from engine.scenario import Scenario, ScenarioError, card_error, cell_name, parse_cell
from engine.scenario_setup import sides_of, unit_from_spec

NAME = "dungeon"
DEFAULT_MAX_ROUNDS = 30
"""Rounds after which the heroes have failed (the seed sets none; a scenario's max_rounds)."""
VICTORIES = ("all", "arch_foe", "minions", "count")
START_PURPOSE = "dragon start square"
OPTIONS: dict[str, str] = {
    "detection_arc": "degrees a Patrolling enemy sees ahead (180; 360 as in the d20 rules)",
    "monster_morale": "true or false: a goblin or troll rolling a 1 retreats",
    "victory": "'all' enemies (default), the 'arch_foe' only, the 'minions' only, or a "
    "'count' of enemies within 1d6 + 4 rounds",
    "defeat_count": "with victory 'count': how many enemies to defeat (default: half of them, "
    "rounded up)",
    "dragon_squares": "the Arch Foe's start squares for a d6 (1-2, 3-4, 5-6): 'A1 H3 A8'",
    "entrance_alert_sq": "squares from a hero start square within which entrance-alert "
    "figures are alerted by the heroes' first move (default 2)",
}
"""The scenario options of the dungeon rules (beside max_rounds, the time limit)."""
ACTION_KINDS = frozenset({"chance", "pass", "move", "attack", "heal", "patrol"})
"""The action kinds of the dungeon rules."""


def parse_squares(text: str, table: Table) -> tuple[Cell, ...]:
    """The cells of an option like "A1 H3 A8" (ValueError naming what is allowed)."""
    grid = table.grid
    assert grid is not None
    return tuple(parse_cell(ref, grid) for ref in re.split(r"[\s,;]+", text.strip()) if ref)


def new_game(scenario: Scenario) -> GameState:
    """The state at the start: cards read (a preset kind or a whole card), walls from the terrain
    that is impassable or blocks sight, every enemy Patrolling (or Alerted, ``starts_alerted``),
    options checked; the start step is still to come."""
    where = scenario.source
    grid = scenario.table.grid_shape()
    if grid is None:
        raise ScenarioError(f"{where}: table.grid: the dungeon rules need a gridded table")
    roles = [s.role for s in scenario.sides]
    if "neutral" in roles:
        raise ScenarioError(f"{where}: sides: the dungeon rules have no neutral side")
    table = Table(scenario.table.width_in, scenario.table.depth_in, grid)
    sides = sides_of(scenario)
    walls: set[Cell] = set()
    for piece in scenario.terrain:
        if piece.impassable or piece.blocks_los:
            shape = Polygon(piece.polygon)
            walls |= grid.filled_cells(shape if shape.is_valid else shape.buffer(0))
    units = []
    for i, u in enumerate(scenario.units):
        try:
            card = read_card(u.card)
        except ValidationError as exc:
            raise card_error(scenario, i, exc) from None
        except ValueError as exc:
            raise ScenarioError(f"{where}: units[{i}].card: {exc}") from None
        cell = table.cell_of((u.x, u.y))
        if cell is None or cell in walls:
            raise ScenarioError(f"{where}: units[{i}]: {u.id!r} must stand on an open square")
        if abs(u.heading / 45.0 - round(u.heading / 45.0)) > 1e-6:
            raise ScenarioError(
                f"{where}: units[{i}].heading: {u.heading:g} is not a grid facing "
                "(allowed: a multiple of 45)"
            )
        role = next(s.role for s in sides if s.name == u.side)
        x, y = grid.centre(cell)
        unit = unit_from_spec(
            u,
            i,
            card,
            statuses=frozenset({ALERTED if card.starts_alerted else PATROLLING})
            if role is Role.AI
            else frozenset(),
            cell=cell,
            rules=DungeonUnit(heals_left=card.heal.uses if card.heal else 0),
        )
        # a model stands in the middle of its square, facing one of the eight grid directions
        units.append(evolve(unit, x=x, y=y, heading_deg=round(u.heading / 45.0) % 8 * 45.0))
    options = tuple(sorted(scenario.options.items()))
    state = GameState(
        ruleset=NAME,
        memo=scenario.game_memo(NAME),
        scenario=scenario.scenario.name,
        table=table,
        sides=sides,
        units=tuple(units),
        options=options,
        rules=DungeonState(
            walls=frozenset(walls),
            hero_starts=frozenset(cell_of(u) for u in units if not is_enemy_side_of(sides, u.side)),
        ),
    )
    check_options(state, where)
    return state


def check_options(state: GameState, where: str) -> None:
    """The ruleset's own options, each refused in one line naming it and what it takes."""
    victory = state.option_value("victory", "all")
    if victory not in VICTORIES:
        raise ScenarioError(
            f"{where}: options.victory: {victory!r} (allowed: {', '.join(VICTORIES)})"
        )
    count = state.option_value("defeat_count", None)
    enemies = sum(is_enemy_side(state, u.side) for u in state.units)
    if count is not None and (
        isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= enemies
    ):
        raise ScenarioError(
            f"{where}: options.defeat_count: {count!r} (allowed: a whole number from 1 to "
            f"{enemies}, the enemies in the game)"
        )
    arc = state.option("detection_arc", 180.0)
    if not 0 < arc <= 360:
        raise ScenarioError(f"{where}: options.detection_arc: {arc:g} (allowed: 1 to 360)")
    if not isinstance(state.option_value("monster_morale", True), bool):
        raise ScenarioError(f"{where}: options.monster_morale: give true or false")
    if state.option("entrance_alert_sq", 2) < 0:
        raise ScenarioError(f"{where}: options.entrance_alert_sq: 0 or more squares")
    squares = state.option_value("dragon_squares", "")
    if squares:
        if not isinstance(squares, str):
            raise ScenarioError(f"{where}: options.dragon_squares: give squares like 'A1 H3 A8'")
        try:
            cells = parse_squares(squares, state.table)
        except ValueError as exc:
            raise ScenarioError(f"{where}: options.dragon_squares: {exc}") from None
        arch = arch_foe(state)
        if len(cells) != 3 or arch is None:
            raise ScenarioError(
                f"{where}: options.dragon_squares: three squares (d6 1-2, 3-4, 5-6) for the "
                "Arch Foe, which the scenario must have (a card with is_arch_foe)"
            )
        board = Board.of(state)
        for c in cells:
            if not board.free(c, arch.id):
                raise ScenarioError(
                    f"{where}: options.dragon_squares: {cell_name(c)} is not a free square"
                )


def is_enemy_side_of(sides: tuple[Side, ...], side: str) -> bool:
    """Whether ``side`` is the AI's (before a state exists)."""
    return next(s.role for s in sides if s.name == side) is Role.AI


def arch_foe(state: GameState) -> Unit | None:
    """The Arch Foe (the AI side's card with ``is_arch_foe``), on the board or not."""
    return next(
        (u for u in state.units if is_enemy_side(state, u.side) and card_of(u).is_arch_foe), None
    )

"""The table adapter of the test-only ruleset, registered from this file only: whose turn it
is, orders in cells, the unit card (the 'pinned' status, actions left, the initiative deck),
declarations, a move seen on the table read as a one-cell step, and ``soloscope odds``."""

from __future__ import annotations

import argparse
from dataclasses import replace

from assistant.errors import UserError
from assistant.session.observation import PieceSeen
from assistant.tables import register_adapter
from assistant.tables.base import (
    BaseAdapter,
    CardValue,
    Declaration,
    Expectation,
    ObservedMove,
    ReplayMove,
    Turn,
    UnitCard,
    targets_of,
    unit_status,
)
from engine.actions import Action, ActionKind, Event, Order
from engine.geometry import Point
from engine.model import GameState, Unit
from engine.protocols import Ruleset
from engine.scenario import cell_name
from tests.plugin.ruleset import NAME, PINNED, PluginState


class PluginAdapter(BaseAdapter):
    """The test-only rules at the table (cells; no facing)."""

    name = NAME
    odds_help = "chance that a shot pins (or drops a pinned target): a d6 of 4 or more"

    def event_words(self, state: GameState, event: Event) -> str | None:
        """A shot also says when it pinned its target (the engine's text gives the roll)."""
        text = super().event_words(state, event)
        target = event.get("target") if event.type == "shoot" else None
        if text and target and state.has_unit(target):
            unit = state.unit(target)
            if PINNED in unit.statuses and unit.on_table:
                return f"{text} {unit.name} is pinned."
        return text

    def order_instruction(self, state: GameState, order: Order) -> str:
        return self.describe_action(state, order.action) + "."

    def describe_action(self, state: GameState, action: Action) -> str:
        unit = state.unit(action.unit_id or "")
        if action.kind == ActionKind.MOVE:
            return f"{unit.name} moves to {cell_name(tuple(action.get('cell')))}"
        if action.kind == ActionKind.SHOOT:
            return f"{unit.name} shoots {state.unit(action.target_id or '').name}"
        if action.kind == "react_evade":
            return f"{unit.name} ducks"
        return f"{unit.name}: {action.kind}"

    def expectation(self, state: GameState, order: Order) -> Expectation:
        base = super().expectation(state, order)
        unit = state.unit(base.unit_id)
        cell = order.action.get("cell")
        grid = state.table.grid
        if cell is None or grid is None:
            return replace(base, cell=unit.cell, facing_tol_deg=180.0)
        x, y = grid.centre((cell[0], cell[1]))
        return replace(
            base, x_in=x, y_in=y, moves=True, cell=(cell[0], cell[1]), facing_tol_deg=180.0
        )

    def declarations(
        self, state: GameState, turn: Turn, moved: str | None
    ) -> tuple[Declaration, ...]:
        return (
            Declaration("done"),
            Declaration("shoot", targets_of(state, turn.side)),
            Declaration("pass"),
        )

    def moved_prompt(self, state: GameState, unit: Unit, distance_in: float) -> str:
        return f"{unit.name} moved one cell. Declare done, or shoot."

    def observed_path(
        self, state: GameState, ruleset: Ruleset, unit: Unit, seen: PieceSeen
    ) -> tuple[tuple[Point, ...] | None, str]:
        cell = state.table.cell_of((seen.x_in, seen.y_in))
        if cell is None:
            return None, f"{unit.name} is off the grid"
        action = _step(state, unit, cell)
        problems = ruleset.validate(state, action)
        if problems:
            return None, problems[0]
        return action.path, ""

    def observed_action(
        self,
        state: GameState,
        ruleset: Ruleset,
        what: str,
        target: str | None,
        move: ObservedMove | None,
        unit_id: str | None,
    ) -> Action | str:
        if what == "pass":
            return Action(ActionKind.PASS, side=state.unit(unit_id).side if unit_id else None)
        if what == "shoot":
            if unit_id is None or target is None:
                return "Say which unit shoots which enemy."
            return Action(ActionKind.SHOOT, unit_id, target_id=target)
        if move is None or move[1] is None:
            return "Move one unit one cell, then declare."
        unit = state.unit(move[0])
        end = move[1][-1]
        cell = state.table.cell_of(end)
        return _step(state, unit, cell) if cell is not None else f"{unit.name} is off the grid"

    def unit_card(self, state: GameState, unit: Unit) -> UnitCard:
        rules = state.rules
        left = (
            rules.actions_left if isinstance(rules, PluginState) and rules.acting == unit.id else 0
        )
        values = [CardValue("actions left", str(left))]
        deck = state.decks[0]
        values.append(CardValue(f"{deck.name} deck", f"{len(deck.draw_pile)} to draw"))
        return UnitCard(
            status=unit_status(unit),
            statuses=tuple(sorted(unit.statuses)),
            values=tuple(values),
        )

    def add_odds_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--need", type=int, default=4, help="d6 result needed (1-6)")

    def odds(self, args: argparse.Namespace) -> str:
        need = args.need
        if not 1 <= need <= 6:
            raise UserError(f"--need takes a d6 result from 1 to 6, not {need}")
        return f"a shot needing {need}+ hits {(7 - need) / 6:.1%}"

    def replay_move(
        self, state: GameState, ruleset: Ruleset, unit: Unit, seen: PieceSeen, slack_in: float
    ) -> ReplayMove:
        path, reason = self.observed_path(state, ruleset, unit, seen)
        if path is None:
            return ReplayMove((), False, reason)
        cell = state.table.cell_of(path[-1])
        assert cell is not None
        return ReplayMove((_step(state, unit, cell),), True)


def _step(state: GameState, unit: Unit, cell: tuple[int, int]) -> Action:
    """A one-cell move to ``cell``, with its path from the unit to the cell's centre."""
    grid = state.table.grid
    assert grid is not None
    path = (unit.position, grid.centre(cell))
    return Action(ActionKind.MOVE, unit.id, path=path, detail=(("cell", [cell[0], cell[1]]),))


def register() -> None:
    """Make the adapter findable by the ruleset's name."""
    register_adapter(NAME, PluginAdapter)

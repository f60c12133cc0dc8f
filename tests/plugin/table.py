"""The test-only ruleset at the table (registered from this file only), moves as one leg."""

from __future__ import annotations

import argparse

from assistant.errors import UserError
from assistant.session.observation import PieceSeen
from assistant.tables import base, register_adapter
from engine.actions import Action, ActionKind, Order
from engine.geometry import Point
from engine.model import GameState, Unit
from engine.protocols import Ruleset
from tests.plugin.ruleset import NAME

Declared = tuple[base.Declaration, ...]
Seen = tuple[tuple[Point, ...] | None, str]


class PluginAdapter(base.BaseAdapter):
    """The test-only rules at the table (inches)."""

    name, odds_help = NAME, "chance that a shot removes its target (--cover none, soft or hard)"

    def order_instruction(self, state: GameState, order: Order) -> str:
        return f"{self.describe_action(state, order.action)}."

    def describe_action(self, state: GameState, action: Action) -> str:
        unit, target = state.unit(action.unit_id or ""), action.target_id
        return f"{unit.name} shoots {state.unit(target).name}" if target else f"{unit.name} moves"

    def declarations(self, state: GameState, turn: base.Turn, moved: str | None) -> Declared:
        shoot = base.Declaration("shoot", base.targets_of(state, turn.side))
        return (base.Declaration("done"), shoot, base.Declaration("pass"))

    def moved_prompt(self, state: GameState, unit: Unit, distance_in: float) -> str:
        return f"{unit.name} moved {distance_in:.1f} in. Declare done, or shoot."

    def observed_path(
        self, state: GameState, ruleset: Ruleset, unit: Unit, seen: PieceSeen
    ) -> Seen:
        action = _leg(unit, (seen.x_in, seen.y_in))
        problems = ruleset.validate(state, action)
        return (None, problems[0]) if problems else (action.path, "")

    def observed_action(
        self,
        state: GameState,
        ruleset: Ruleset,
        what: str,
        target: str | None,
        move: base.ObservedMove | None,
        unit_id: str | None,
    ) -> Action | str:
        if what == "pass":
            return Action(ActionKind.PASS, side=state.unit(unit_id).side if unit_id else None)
        if what == "shoot":
            return Action(ActionKind.SHOOT, unit_id, target_id=target) if target else "Whom?"
        if move is None or move[1] is None:
            return "Move one unit, then declare."
        return _leg(state.unit(move[0]), move[1][-1])

    def unit_card(self, state: GameState, unit: Unit) -> base.UnitCard:
        return base.UnitCard(status=base.unit_status(unit))

    def add_odds_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--cover", default="none", help="none, soft or hard")

    def odds(self, args: argparse.Namespace) -> str:
        need = {"none": 4, "soft": 5, "hard": 6}.get(args.cover)
        if need is None:
            raise UserError(f"--cover takes none, soft or hard, not {args.cover}")
        return f"a shot at a target in {args.cover} cover needs {need}+: {(7 - need) / 6:.1%}"

    def replay_move(
        self, state: GameState, ruleset: Ruleset, unit: Unit, seen: PieceSeen, slack_in: float
    ) -> base.ReplayMove:
        path, reason = self.observed_path(state, ruleset, unit, seen)
        fits = (_leg(unit, path[-1]),) if path else ()
        return base.ReplayMove(fits, bool(path), reason)


def _leg(unit: Unit, end: Point) -> Action:
    return Action(ActionKind.MOVE, unit.id, path=(unit.position, end))


def register() -> None:
    """Make the adapter findable by the ruleset's name."""
    register_adapter(NAME, PluginAdapter)

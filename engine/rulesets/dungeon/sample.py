"""The finite list of a figure's possible actions in the grid game (the ruleset's
``sample_actions`` validates them): moves to every square it can reach, attacks with every
weapon at every enemy, heals, the twelve patrol outcomes, a pass."""

from __future__ import annotations

from engine.actions import Action, ActionKind
from engine.geometry.grid import step_facing_deg
from engine.model import GameState
from engine.rulesets.dungeon.board import Board
from engine.rulesets.dungeon.state import PATROLLING, card_of, cell_of, heals_left, rules_of

PATROL_ROLLS: tuple[tuple[int, int | None], ...] = (
    (1, None),
    (2, None),
    (3, 4),
    (3, 5),
    (3, 6),
    (3, 7),
    (3, 8),
    (4, None),
    (5, None),
    (6, None),
    (7, None),
    (8, None),
)
"""Every (d8, re-roll) pair of a patrol (the re-roll only after a 3, and only 4 to 8)."""


def patrol_action(state: GameState, unit_id: str, roll: int, turn_roll: int | None) -> Action:
    """The patrol action of a roll (with its re-roll after a 3)."""
    return Action(
        "patrol", unit_id, side=state.unit(unit_id).side, detail=patrol_detail(roll, turn_roll)
    )


def patrol_detail(roll: int, turn_roll: int | None) -> tuple[tuple[str, object], ...]:
    """A patrol action's rolls as detail pairs (the re-roll only after a 3)."""
    return (("roll", roll),) if turn_roll is None else (("roll", roll), ("turn_roll", turn_roll))


def move_action(state: GameState, unit_id: str, route: tuple[tuple[int, int], ...]) -> Action:
    """A move along the squares entered, facing its last step."""
    unit = state.unit(unit_id)
    grid = state.table.grid
    assert grid is not None
    cells = [cell_of(unit), *route]
    last = (cells[-1][0] - cells[-2][0], cells[-1][1] - cells[-2][1])
    return Action(
        ActionKind.MOVE,
        unit_id,
        path=tuple(grid.centre(c) for c in cells),
        heading_deg=step_facing_deg(last),
        detail=(("cells", [list(c) for c in route]),),
    )


def sample_actions(state: GameState, unit_id: str) -> list[Action]:
    """Candidates (not yet validated) for the unit's next action."""
    unit = state.unit(unit_id)
    if not unit.on_table:
        return []
    if PATROLLING in unit.statuses:
        return [patrol_action(state, unit_id, r, t) for r, t in PATROL_ROLLS]
    rules = rules_of(state)
    board = Board.of(state)
    out: list[Action] = []
    if rules.acting is None:
        for route in board.reachable(unit).values():
            if route:
                out.append(move_action(state, unit_id, route))
    card = card_of(unit)
    for weapon in card.attacks:
        for foe in board.enemies(unit):
            out.append(
                Action("attack", unit_id, target_id=foe.id, detail=(("weapon", weapon.name),))
            )
    if card.heal is not None and heals_left(unit) > 0:
        for friend in state.units:
            if friend.on_table and friend.side == unit.side:
                out.append(Action("heal", unit_id, target_id=friend.id))
    out.append(Action(ActionKind.PASS, unit_id, side=unit.side))
    return out

"""A finite sample of firefight-lite's legal actions (for the random controller and tests):
every shot and assault, a few moves drawn with the dice, Stay Frosty and Hold; every answer to
a reaction."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action, ActionKind
from engine.dice import RandomSource
from engine.geometry.grid import Cell, chebyshev
from engine.model import GameState
from engine.protocols import PendingKind
from engine.rulesets.firefight_lite import sequence as flow
from engine.rulesets.firefight_lite.board import cell, move_path, reach
from engine.rulesets.firefight_lite.state import card

if TYPE_CHECKING:
    from engine.rulesets.firefight_lite.ruleset import FirefightLite

MOVES = 3
"""Random destinations sampled per kind of move."""


def _cell(c: Cell) -> tuple[tuple[str, object], ...]:
    """The detail naming square ``c``."""
    return (("cell", [c[0], c[1]]),)


def _some(cells: list[Cell], dice: RandomSource, what: str) -> list[Cell]:
    cells = sorted(cells)
    if len(cells) <= MOVES:
        return cells
    return [cells[dice.roll(len(cells), what) - 1] for _ in range(MOVES)]


def sample(
    ruleset: FirefightLite, state: GameState, unit_id: str, dice: RandomSource
) -> list[Action]:
    """The sample (only legal actions)."""
    pending = ruleset.pending(state)
    unit = state.unit(unit_id)
    out: list[Action] = []
    if pending.kind is PendingKind.REACTION:
        out.append(Action(ActionKind.PASS, unit_id, side=unit.side))
        trigger = flow.rules(state).trigger
        attacker = trigger.get("attacker") if trigger else None
        if attacker:
            out.append(Action("return_fire", unit_id, target_id=attacker))
        if trigger is not None and trigger.unit:
            out.append(Action("overwatch_fire", unit_id, target_id=trigger.unit))
            mover = state.unit(trigger.unit)
            if mover.cell is not None:
                near = [
                    c for c in reach(state, unit, card(unit).move) if chebyshev(c, mover.cell) == 1
                ]
                out += [
                    Action("move_with", unit_id, path=move_path(state, unit, c), detail=_cell(c))
                    for c in _some(near, dice, "sample move with")
                ]
        half = list(reach(state, unit, max(1, card(unit).move // 2)))
        out += [
            Action("run_for_cover", unit_id, path=move_path(state, unit, c), detail=_cell(c))
            for c in _some(half, dice, "sample cover")
        ]
        return [a for a in out if not ruleset.validate(state, a)]
    here = cell(unit)
    full = list(reach(state, unit, card(unit).move))
    half = list(reach(state, unit, max(1, card(unit).move // 2)))
    out += [
        Action("move", unit_id, path=move_path(state, unit, c), detail=_cell(c))
        for c in _some(full, dice, "sample move")
    ]
    kinds = ("hold", "leave") if card(unit).neutral else ("stay_frosty", "hold")
    out += [Action(k, unit_id) for k in kinds]
    fire_from = [here, *_some(half, dice, "sample move and fire")]
    for target in state.units:
        if not target.on_table or target.id == unit_id or target.cell is None:
            continue
        out.append(Action("aimed_fire", unit_id, target_id=target.id))
        out.append(Action("serve", unit_id, target_id=target.id))
        for c in fire_from:
            out.append(
                Action(
                    "move_and_fire",
                    unit_id,
                    path=move_path(state, unit, c),
                    target_id=target.id,
                    detail=_cell(c),
                )
            )
        near = [c for c in [here, *full] if chebyshev(c, target.cell) == 1]
        if near:
            out.append(
                Action(
                    "assault",
                    unit_id,
                    path=move_path(state, unit, near[0]),
                    target_id=target.id,
                    detail=_cell(near[0]),
                )
            )
    return [a for a in out if not ruleset.validate(state, a)]

"""The status-d20 AI's goal step for the generic scenarios (RULES §5.k step 7, §5.m).

A figure that cannot attack this turn makes for its scenario's goal
(:func:`engine.rulesets.d20.victory_kinds.goal_point`): the opposite edge (Escape,
Infiltrate), the cargo and then its own edge with it (Transport), the fortress (the
Assaulters of a Fortress Assault). Touching the cargo it picks it up; next to the fortress an
Assaulter attacks it (D003-20). Other scenarios have no goal here (their objectives are the
controller's own objective step).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action, Order
from engine.rulesets.d20.state import Weapon
from engine.rulesets.d20.victory_kinds import (
    fortress,
    goal_point,
    pickup_problem,
    structure_problem,
)

if TYPE_CHECKING:
    from engine.controllers.status_d20 import Plan
    from engine.model import Unit

RULE = "alerted, priority 7: goal location"


def scenario_goal(ai: Plan, weapon: Weapon, target: Unit) -> Order | None:
    """The goal order of a figure that cannot attack (None: no goal, or it can attack)."""
    state, unit = ai.state, ai.unit
    goal = goal_point(state, unit)
    if goal is None:
        return None
    if ai._can_attack(weapon, target, ai._position(weapon, target)[-1]):
        return None
    point, name = goal
    if not ai.other:
        if not pickup_problem(state, unit):
            action = Action("interact", unit.id, detail=(("task", "pick up"),))
            return ai._order(action, RULE, f"it picks up {name}")
        piece = fortress(state)
        if piece is not None and not structure_problem(state, unit, piece.id):
            action = Action("attack", unit.id, detail=(("structure", piece.id),))
            return ai._order(action, RULE, f"it attacks {name}")
    if ai.moved and ai.other:
        return None
    path = ai.query.move_toward(unit, point)
    if len(path) < 2:
        return None
    return ai._order(ai._move(path), RULE, f"it cannot attack, so it makes for {name}")

"""The 2D6 skirmish's orders and actions as said at the table.

"Gorm: move 6 inches toward the shrine, then move 6 inches toward the shrine." An order of
several actions is said whole; the session says each later one again as "Next: ...". Inches.
"""

from __future__ import annotations

import math

from assistant.session.announce import inches, landmark
from engine.actions import Action, ActionKind, Order
from engine.model import GameState
from engine.rulesets.skirmish2d6.board import in_contact, path_length_in
from engine.rulesets.skirmish2d6.ruleset import AIM, CHARGE, DRIVE, MOVE, RECOVER, RUN, SHOOT
from engine.rulesets.skirmish2d6.state import rules_of


def _target(state: GameState, action: Action) -> str:
    return state.unit(action.target_id).name if action.target_id else "its target"


def _weapon(action: Action) -> str:
    weapon = action.get("weapon")
    style = action.get("style", "")
    words = f" with the {weapon}" if weapon else ""
    if style == "hook":
        words += ", hooking (-2 to hit; a hit staggers)"
    elif style == "blow_away":
        words += ", to blow it away (-2 to hit; a hit stuns and drives 3 inches)"
    return words


def action_phrase(state: GameState, action: Action, toward: str = "") -> str:
    """One action as an instruction to the player ("move 6 inches toward the shrine");
    ``toward`` names where a move heads (default: what is nearest its end)."""
    kind = str(action.kind)
    path = action.path
    if kind == MOVE:
        where = toward or landmark(state, path[-1], action.unit_id)
        n = action.get("actions", 1)
        count = f" ({n} Moves)" if isinstance(n, int) and n > 1 else ""
        return f"move {inches(path_length_in(path))} toward {where}{count}"
    if kind == AIM:
        return "aim (plus 1 to its next shot)"
    if kind == SHOOT:
        return f"shoot {_target(state, action)} with the bow"
    if kind == CHARGE:
        unit = state.unit(action.unit_id or "")
        target = state.unit(action.target_id or "")
        if in_contact(state, unit, target):
            return f"fight {target.name}{_weapon(action)}"
        return f"charge {target.name}{_weapon(action)}: roll 2D6 for the charge distance"
    if kind == RUN:
        rules = rules_of(state)
        chased = rules.charge_target or action.target_id
        name = state.unit(chased).name if chased else "its target"
        length = path_length_in(path) if len(path) > 1 else 0.0
        if length < 0.05:
            return f"stay in contact with {name} and fight"
        return f"move {inches(length)} straight at {name}"
    if kind == RECOVER:
        status = action.get("status")
        what = f" from being {status}" if status else ""
        return f"recover{what} (two actions; roll 2D6 + Skill over 7)"
    if kind == DRIVE:
        length = math.dist(path[0], path[-1]) if len(path) > 1 else 0.0
        return f"is driven back: move it {inches(length)} straight back"
    if kind == ActionKind.PASS:
        return "stand still and end its activation"
    return kind.replace("_", " ")


def order_instruction(state: GameState, order: Order) -> str:
    """The whole order: the unit, then each action in turn."""
    unit = state.unit(order.action.unit_id or "")
    moves = [a for a in order.actions if str(a.kind) == MOVE and a.path]
    toward = landmark(state, moves[-1].path[-1], unit.id) if moves else ""
    parts = [action_phrase(state, a, toward) for a in order.actions]
    if str(order.action.kind) == DRIVE:
        return f"{unit.name} {parts[0]}."
    return f"{unit.name}: {', then '.join(parts)}."


def describe_action(state: GameState, action: Action) -> str:
    """A short description: "Wren shoots Gorm"."""
    unit = state.unit(action.unit_id or "") if action.unit_id else None
    name = unit.name if unit else (action.side or "someone")
    kind = str(action.kind)
    if kind == SHOOT:
        return f"{name} shoots {_target(state, action)}"
    if kind == CHARGE:
        return f"{name} charges {_target(state, action)}"
    if kind == RUN:
        return f"{name} runs at its charge target"
    if kind == MOVE:
        n = action.get("actions", 1)
        count = f" ({n} Moves)" if isinstance(n, int) and n > 1 else ""
        return f"{name} moves {inches(path_length_in(action.path))}{count}"
    if kind == AIM:
        return f"{name} aims"
    if kind == RECOVER:
        return f"{name} tries to recover"
    if kind == DRIVE:
        return f"{name} is driven back"
    if kind == ActionKind.PASS:
        return f"{name} ends its activation"
    return f"{name}: {kind}"

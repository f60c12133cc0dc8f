"""What is legal in the 2D6 skirmish (RULES §3.2): the action words, and why an action of a
fighter is refused (one plain sentence each). Inches."""

from __future__ import annotations

from engine.actions import Action
from engine.geometry import Point, centre_distance_in
from engine.model import GameState, Unit
from engine.rulesets.skirmish2d6.board import (
    charge_path,
    gap,
    in_contact,
    path_length_in,
    path_problem,
    visible,
)
from engine.rulesets.skirmish2d6.fighters import (
    STAGGERED,
    card_of,
    melee_weapon,
    move_allowance_in,
)
from engine.rulesets.skirmish2d6.state import ACTIONS_PER_ACTIVATION, BOW_RANGE_IN, rules_of

MOVE, SHOOT, AIM, CHARGE, RUN, RECOVER, DRIVE = (
    "move",
    "shoot",
    "aim",
    "charge",
    "charge_move",
    "recover",
    "drive_back",
)
BREAK = "break"
STYLES = ("", "hook", "blow_away")
CHARGE_SLACK_IN = 0.5
"""A charge that falls short may end this much short of the full run (measuring at a table)."""
STYLE_WEAPON = {"hook": "axe", "blow_away": "maul"}
"""The weapon each special attack needs."""


def move_actions(action: Action) -> int | str:
    """How many Move actions one ``move`` spends (detail ``actions``, default 1): Moves in a
    row make one path of up to that many times 4 + Speed inches (D001B-13: repeats allowed);
    a sentence when the number is not one of 1, 2, 3."""
    n = action.get("actions", 1)
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= ACTIONS_PER_ACTIVATION:
        return f"a move spends 1 to {ACTIONS_PER_ACTIVATION} actions, not {n!r}"
    return n


def moves_spent(action: Action) -> int:
    """The Move actions a legal ``move`` spends."""
    n = move_actions(action)
    return n if isinstance(n, int) else 1


def charge_run(state: GameState) -> tuple[Point, ...]:
    """The run the rules propose for the rolled charge: straight at the target up to the
    reach, stopping in base contact (what the AI orders and the player is told)."""
    rules = rules_of(state)
    unit = state.unit(rules.acting or "")
    target = state.unit(rules.charge_target or "")
    return charge_path(state, unit, target, rules.charge_reach_in)


def check_action(state: GameState, unit: Unit, action: Action, left: int, aimed: bool) -> list[str]:
    """Why a Move, Aim, Shoot, Charge, Recover or Break of ``unit`` is refused (``left``: its
    actions left; ``aimed``: it has Aimed this activation)."""
    kind, card = str(action.kind), card_of(unit)
    if kind == MOVE:
        if STAGGERED in unit.statuses:
            return [f"{unit.name} is Staggered and cannot move"]
        moves = move_actions(action)
        if isinstance(moves, str):
            return [moves]
        if moves > left:
            return [f"{moves} Moves need {moves} actions; {unit.name} has {left} left"]
        problem = path_problem(state, unit, action.path, moves * move_allowance_in(unit))
        return [problem] if problem else []
    if kind == AIM:
        if not card.has("bow"):
            return [f"{unit.name} has no bow to aim"]
        return [f"{unit.name} has already aimed"] if aimed else []
    if kind in (SHOOT, CHARGE):
        target = enemy(state, unit, action.target_id)
        if isinstance(target, str):
            return [target]
        if kind == SHOOT:
            return check_shot(state, unit, target)
        return check_charge(state, unit, target, action)
    if kind == RECOVER:
        if left < 2:
            return [f"Recover takes two actions; {unit.name} has {left} left"]
        if not unit.statuses:
            return [f"{unit.name} has no status effect to recover from"]
        named = action.get("status")
        if named is not None and named not in unit.statuses:
            return [f"{unit.name} is not {named}"]
        return []
    if kind == BREAK:
        return ["Break has no defined effect in the rules yet"]
    return [f"{kind} is not an action of the 2D6 skirmish"]


def enemy(state: GameState, unit: Unit, target_id: str | None) -> Unit | str:
    """The enemy named as a target, or why there is none."""
    if not target_id or not state.has_unit(target_id):
        return "name an enemy fighter as the target"
    target = state.unit(target_id)
    if target.side == unit.side or not target.on_table:
        return f"{target.name} is not an enemy on the table"
    return target


def check_shot(state: GameState, unit: Unit, target: Unit) -> list[str]:
    """Why the Bow shot is refused: no Bow, out of range (D001B-10), out of sight (D001B-12)."""
    if not card_of(unit).has("bow"):
        return [f"{unit.name} has no bow"]
    reach = state.option("bow_range_in", BOW_RANGE_IN)
    if gap(unit, target) > reach + 1e-9:
        return [f"{target.name} is {gap(unit, target):.1f} in away, beyond {reach:g} in"]
    if not visible(state, unit, target):
        return [f"{unit.name} cannot see {target.name}"]
    return []


def check_charge(state: GameState, unit: Unit, target: Unit, action: Action) -> list[str]:
    """Why the charge is refused: Staggered (D001B-06), the weapon or style. A charge may be
    declared at any distance (RULES sets no limit): one beyond the 2D6 roll runs the whole
    roll toward the target and does not fight (D001B-06)."""
    if STAGGERED in unit.statuses:
        return [f"{unit.name} is Staggered and cannot charge"]
    return check_weapon(unit, action)


def check_weapon(unit: Unit, action: Action) -> list[str]:
    """Why the weapon or special attack named is refused (Hook needs the Axe, Blow Away the
    Maul)."""
    style = action.get("style", "")
    if style not in STYLES:
        return [f"{style!r} is not an attack style (hook, blow_away)"]
    name = action.get("weapon")
    weapon = melee_weapon(unit, name)
    if weapon is None:
        return [f"{unit.name} has no {name} to fight with"]
    if style and weapon.name != STYLE_WEAPON[style]:
        return [f"{style.replace('_', ' ')} needs the {STYLE_WEAPON[style]}"]
    return []


def check_run(state: GameState, unit: Unit, action: Action) -> list[str]:
    """Why a rolled charge's run is refused: too long, blocked, away from the target, or short
    of both contact and the whole roll (D001B-06)."""
    rules = rules_of(state)
    target = state.unit(rules.charge_target or "")
    path = action.path or (unit.position,)
    problem = path_problem(state, unit, path, rules.charge_reach_in)
    if problem:
        return [problem]
    before = centre_distance_in(unit.position, target.position)
    if centre_distance_in(path[-1], target.position) > before + 1e-6:
        return [f"a charge runs toward {target.name}, not away"]
    if in_contact(state, unit, target, path[-1]):
        return []
    # Short of contact: the charge runs the whole roll (D001B-06), as far as the rules'
    # own run gets (an obstacle may stop it), within the table's measuring slack.
    full = path_length_in(charge_run(state))
    if path_length_in(path) < full - CHARGE_SLACK_IN:
        return [
            f"{unit.name} did not reach {target.name}: a charge runs its whole "
            f"{rules.charge_reach_in:g} in toward it ({full:.1f} in here)"
        ]
    return []


def check_drive(state: GameState, unit: Unit, action: Action) -> list[str]:
    """Only the drive-back itself is legal while a model is to be driven back."""
    if str(action.kind) != DRIVE:
        return [f"{unit.name} must first be driven back"]
    return []

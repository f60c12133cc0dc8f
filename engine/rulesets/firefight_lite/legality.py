"""Whether a firefight-lite action is legal (RULES §4, D002-01's FF-lite column): the card an
action names, a Joker's reshuffle, the answers to a reaction, each action of a figure. Plain
sentences, empty when legal; ``firefight_lite.FirefightLite.validate`` dispatches here."""

from __future__ import annotations

from engine.actions import Action
from engine.cards import JOKER
from engine.geometry.grid import Cell, chebyshev
from engine.model import GameState, Unit
from engine.rulesets.firefight_lite import sequence as flow
from engine.rulesets.firefight_lite.board import cell, figures, monk_shielded, reach
from engine.rulesets.firefight_lite.state import DECK, UNTARGETABLE, card, hostile, is_combatant
from engine.scenario import cell_name

COMBAT_KINDS = ("move", "aimed_fire", "move_and_fire", "assault", "stay_frosty", "hold")
REACTIONS = ("return_fire", "run_for_cover", "overwatch_fire", "move_with")
NEUTRAL_KINDS = ("move", "assault", "serve", "leave", "hold")
NEUTRAL_OWN = {"assault": "mob", "serve": "bot", "leave": "monk"}
"""Neutral actions only one kind of figure takes: the mob fights, the bot serves, monks leave."""


def half_move(unit: Unit) -> int:
    """Squares of a Move and Fire or a Run for Cover move (half the move, at least 1)."""
    return max(1, card(unit).move // 2)


def attackable(attacker: Unit, target: Unit) -> bool:
    """Whether ``attacker`` may name ``target``: a hostile figure, or the addled citizen and
    the dispenser bot (anyone may attack them, Q♥ J♥); never a monk or the air mine."""
    if not target.on_table or card(target).neutral in UNTARGETABLE:
        return False
    if hostile(attacker, target):
        return True
    return is_combatant(attacker) and card(target).neutral in ("citizen", "bot")


def _shielded(target: Unit) -> str:
    """K♥: no attack, reaction fire included, may name a figure a monk could cover."""
    return f"a monk could shield {target.name}: no attack may target it"


def cell_of(action: Action) -> Cell | None:
    raw = action.get("cell")
    if raw is None or len(raw) != 2:
        return None
    return (int(raw[0]), int(raw[1]))


def check_card(state: GameState, unit: Unit, action: Action) -> list[str]:
    drawn = action.get("card")
    if drawn is None:
        return []
    if not is_combatant(unit):
        return [f"{unit.name} draws no cards"]
    if drawn == JOKER:
        return ["a Joker is not read: reshuffle the deck and draw again"]
    if drawn not in state.deck(DECK).draw_pile:
        return [f"{drawn} is not in the draw pile"]
    return []


def check_joker(state: GameState, unit: Unit, action: Action) -> list[str]:
    if action.get("card") != JOKER or JOKER not in state.deck(DECK).draw_pile:
        return ["a reshuffle needs a Joker drawn from the draw pile"]
    if not is_combatant(unit):
        return [f"{unit.name} draws no cards"]
    return []


def check_reaction(state: GameState, unit: Unit, action: Action, why: str) -> list[str]:
    kind = str(action.kind)
    trigger = flow.rules(state).trigger
    if kind == "pass":
        return check_card(state, unit, action)
    if kind == "reshuffle" and why == "defence":
        return check_joker(state, unit, action)
    problems = check_card(state, unit, action)
    if kind == "return_fire" and why == "defence":
        attacker = state.unit(trigger.get("attacker") if trigger else "")
        if not attacker.on_table:
            problems.append(f"{attacker.name} is no longer on the table")
        elif not flow.sight_ok(state, unit, cell(unit), attacker) or card(unit).range == 0:
            problems.append(f"{unit.name} cannot see {attacker.name} in range to return fire")
        elif monk_shielded(state, cell(unit), cell(attacker)):
            problems.append(_shielded(attacker))
        return problems
    if kind == "run_for_cover" and why in ("defence", "event"):
        to = cell_of(action)
        if to is None or (to != cell(unit) and to not in reach(state, unit, half_move(unit))):
            problems.append(
                f"{unit.name} runs for cover to a square within {half_move(unit)} it can reach"
            )
        return problems
    if kind == "overwatch_fire" and why == "overwatch":
        if trigger is None or action.target_id != trigger.unit:
            problems.append("overwatch fire is at the figure starting its action")
        elif monk_shielded(state, cell(unit), cell(state.unit(trigger.unit or ""))):
            problems.append(_shielded(state.unit(trigger.unit or "")))
        return problems
    if kind == "move_with" and why == "move_with":
        mover = state.unit(trigger.unit if trigger and trigger.unit else "")
        to = cell_of(action)
        if (
            to is None
            or chebyshev(to, cell(mover)) != 1
            or to not in reach(state, unit, card(unit).move)
        ):
            problems.append(
                f"{unit.name} moves with {mover.name} to a square next to it that it can reach"
            )
        return problems
    return [f"{kind.replace('_', ' ')} is not an answer here ({why})"]


def check_action(state: GameState, unit: Unit, action: Action) -> list[str]:
    kind = str(action.kind)
    neutral = card(unit).neutral
    allowed = NEUTRAL_KINDS if neutral else COMBAT_KINDS
    own = NEUTRAL_OWN.get(kind)
    if kind not in allowed or (neutral and own is not None and neutral != own):
        return [f"{kind.replace('_', ' ')} is not an action of {unit.name}"]
    problems = check_card(state, unit, action)
    if problems:
        return problems
    here = cell(unit)
    to = cell_of(action) or here
    if kind == "move":
        if cell_of(action) is None or (
            to != here and to not in reach(state, unit, card(unit).move)
        ):
            return [f"{unit.name} cannot reach {cell_name(to)} with a move of {card(unit).move}"]
        return []
    if kind in ("stay_frosty", "hold"):
        return []
    if kind == "leave":
        # Stepping off costs one General die (K♥): a walk to an edge square first may take
        # the others.
        grid = state.table.grid
        assert grid is not None
        walk = card(unit).move - 1
        if to != here and to not in reach(state, unit, walk):
            return [f"{unit.name} cannot reach {cell_name(to)} and leave with a move of {walk + 1}"]
        if to[0] in (0, grid.cols - 1) or to[1] in (0, grid.rows - 1):
            return []
        return [f"{cell_name(to)} is not an edge square"]
    target_id = action.target_id or ""
    if not state.has_unit(target_id):
        return [f"{kind.replace('_', ' ')} needs a target"]
    target = state.unit(target_id)
    if kind == "serve":
        if (
            neutral != "bot"
            or not target.on_table
            or not is_combatant(target)
            or chebyshev(here, cell(target)) != 1
        ):
            return ["the bot serves a figure next to it"]
        return []
    if not attackable(unit, target):
        return [f"{target.name} cannot be attacked"]
    if kind == "move_and_fire" and to != here and to not in reach(state, unit, half_move(unit)):
        return [f"{unit.name} moves at most {half_move(unit)} squares before firing"]
    if kind == "assault" and to != here and to not in reach(state, unit, card(unit).move):
        return [f"{unit.name} cannot reach {cell_name(to)}"]
    if monk_shielded(state, to, cell(target)):
        return [_shielded(target)]
    if kind == "assault":
        if chebyshev(to, cell(target)) != 1:
            return [f"{unit.name} must end next to {target.name} to assault it"]
        return []
    if card(unit).range == 0:
        return [f"{unit.name} has no ranged weapon"]
    if chebyshev(to, cell(target)) > card(unit).range:
        return [f"{target.name} is out of range"]
    if not figures(state).sees(unit, to, cell(target)):
        return [f"{unit.name} cannot see {target.name} from {cell_name(to)}"]
    return []

"""``patrol-d8``: the enemies' status AI of the grid game (seed 004, RULES §6.d).

Per activation of an enemy:

- **Patrolling**: roll the d8 patrol table (purpose ``patrol: Troll at C4``), a 3 re-rolled
  for the turn while it shows 1 to 3 (D004-03); the order is the ``patrol`` action with the
  rolls. (Detection after the action, the Arch Foe alerting everyone, the entrance goblins
  and the turn to face the closest hero are the ruleset's: they happen whoever commands.)
- **Alerted**: a healer with heals left goes to heal the Arch Foe if it is wounded, else the
  nearest wounded ally; otherwise it picks the nearest hero (Chebyshev, then centre
  distance, then a logged roll ``nearest hero: ...``), and moves, at most its move, to the
  square from which its primary weapon (best chance to wound, D004-09) reaches a hero —
  nearest that hero on foot — then attacks the nearest hero it can; the dragon claws an
  adjacent hero as well as breathing on another (D004-09/12). With no attack anywhere it
  walks toward the nearest hero.

It answers ``decide`` for heroes too (as an Alerted figure would), so it can command either
side in the shared random play.
"""

from __future__ import annotations

from engine.actions import Action, Order
from engine.dice import RandomSource, choice
from engine.geometry.grid import Cell, chebyshev
from engine.model import GameState, Unit
from engine.protocols import ControllerBase, Ruleset, register_controller
from engine.rulesets.dungeon.board import Board, label
from engine.rulesets.dungeon.cards import Attack
from engine.rulesets.dungeon.state import PATROLLING, card_of, cell_of, heals_left
from engine.rulesets.dungeon.tactics import (
    Strike,
    acting_now,
    nearest,
    patrol_order,
    plan_order,
)
from engine.scenario import cell_name

NAME = "patrol-d8"


def continue_order(
    state: GameState,
    ruleset: Ruleset,
    unit: Unit,
    worth_of: dict[str, float],
    dice: RandomSource,
) -> Order:
    """In the middle of an activation: the most valuable attack or heal left (``worth_of``
    by weapon name or "heal"; the nearest target on a tie), else end the turn."""
    legal = [
        a for a in ruleset.sample_actions(state, unit.id, dice) if a.kind in ("attack", "heal")
    ]
    if not legal:
        return Order(Action("pass", unit.id, side=unit.side), "turn over", "nothing left to do")

    def key(a: Action) -> tuple[float, int]:
        target = state.unit(a.target_id or "")
        worth = worth_of.get(str(a.get("weapon") or "heal"), 0.0)
        return (-worth, chebyshev(cell_of(unit), cell_of(target)))

    pick = min(legal, key=key)
    target = state.unit(pick.target_id or "")
    what = pick.get("weapon") or "heal"
    where = cell_name(cell_of(target))
    return Order(pick, "attack", f"{what} at the {card_of(target).title} on {where}")


class PatrolD8(ControllerBase):
    """The seed-004 enemy AI (see the module docstring)."""

    name = NAME
    rulesets: tuple[str, ...] = ("dungeon",)

    def decide(self, state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource) -> Order:
        """The patrol, the rest of an activation under way, a healer's heal, or the Alerted
        move-and-attack plan (see the module docstring)."""
        unit = state.unit(unit_id)
        if PATROLLING in unit.statuses and not acting_now(state, unit_id):
            return patrol_order(state, unit, dice)
        card = card_of(unit)
        primary = card.primary
        if acting_now(state, unit_id):
            ranks = {a.name: (2.0 if a is primary else 1.0) + a.p_wound for a in card.attacks}
            return continue_order(state, ruleset, unit, ranks, dice)
        patient = self._patient(state, unit)
        if patient is not None:
            return self._heal_order(state, unit, patient)
        foes = [u for u in state.units if u.on_table and u.side != unit.side]
        tied = nearest(unit, foes)
        goal = choice(dice, tied, f"nearest hero: {label(unit)}") if tied else None

        def worth(me: Unit, weapon: Attack, foe: Unit) -> float:
            bonus = 0.05 if goal is not None and foe.id == goal.id else 0.0
            return (1.0 if weapon is primary else 0.5) + weapon.p_wound * 0.1 + bonus

        return plan_order(state, unit, goal, worth, rule="alerted: toward the nearest hero")

    def _patient(self, state: GameState, unit: Unit) -> Unit | None:
        """Whom a healer goes to heal: the wounded Arch Foe, else the nearest wounded ally."""
        card = card_of(unit)
        if card.heal is None or heals_left(unit) <= 0:
            return None
        hurt = [
            u
            for u in state.units
            if u.on_table
            and u.side == unit.side
            and u.wounds > 0
            and (u.id != unit.id or card.heal.self_allowed)
        ]
        arch = [u for u in hurt if card_of(u).is_arch_foe]
        if arch:
            return arch[0]
        tied = nearest(unit, hurt)
        return tied[0] if tied else None

    def _heal_order(self, state: GameState, unit: Unit, patient: Unit) -> Order:
        """Move next to the patient and heal it (attacks only as a fallback plan)."""

        def worth(me: Unit, weapon: Attack, foe: Unit) -> float:
            return weapon.p_wound * 0.1

        def heal_there(board: Board, cell: Cell) -> list[Strike]:
            if patient.id != unit.id and chebyshev(cell, cell_of(patient)) != 1:
                return []
            return [Strike("heal", patient, 10.0)]

        return plan_order(state, unit, patient, worth, heal_there, rule="healer: heal an ally")


register_controller(NAME, PatrolD8)

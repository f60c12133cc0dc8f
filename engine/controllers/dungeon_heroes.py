"""``dungeon-heroes``: the autopilot of the Dungeon Crawl's heroes, so that ``simulate`` plays
whole games (seed 004; not a rule of the seed).

Each hero in turn (the ruleset's order: Fighting Man, Magic User, Thief, Priest) moves to the
reachable square from which its attack is worth most — the chance to wound, more for a wound
that defeats and for the Arch Foe; the nearest monster on foot breaks ties — then attacks.
The Priest heals an adjacent hero instead when that is worth more: a wounded hero close to
defeat, while heals are left. With nothing in reach a hero walks toward the nearest monster.
A Patrolling figure it commands (in the shared random play) rolls its patrol like
``patrol-d8``.

It never uses the game's dice for its own choices (equally near monsters: the first in sheet
order): it stands in for the player, so a game it played in ``simulate`` uses the same dice
stream as the same game played at the table, where the player decides and it is not asked.
"""

from __future__ import annotations

from engine.actions import Order
from engine.controllers.patrol_d8 import continue_order
from engine.dice import RandomSource
from engine.geometry.grid import Cell, chebyshev
from engine.model import GameState, Unit
from engine.protocols import ControllerBase, Ruleset, register_controller
from engine.rulesets.dungeon.board import Board
from engine.rulesets.dungeon.cards import Attack
from engine.rulesets.dungeon.state import PATROLLING, card_of, cell_of, heals_left
from engine.rulesets.dungeon.tactics import Strike, acting_now, nearest, patrol_order, plan_order

NAME = "dungeon-heroes"
ARCH_FOE_WEIGHT = 1.5
KILL_WEIGHT = 1.3


def attack_worth(me: Unit, weapon: Attack, foe: Unit) -> float:
    """Chance to wound, weighted for a defeating wound and for the Arch Foe."""
    card = card_of(foe)
    value = weapon.p_wound
    if card.max_wounds - foe.wounds <= 1:
        value *= KILL_WEIGHT
    if card.is_arch_foe:
        value *= ARCH_FOE_WEIGHT
    return value


def heal_worth(unit: Unit, patient: Unit) -> float:
    """Chance to heal times how near defeat the patient is (none for an unwounded hero)."""
    card = card_of(unit)
    if card.heal is None or patient.wounds <= 0:
        return 0.0
    p = max(0, 7 - card.heal.wound_on) / 6.0
    return p * 1.5 * patient.wounds / card_of(patient).max_wounds


class DungeonHeroes(ControllerBase):
    """The heroes' autopilot (see the module docstring)."""

    name = NAME
    rulesets: tuple[str, ...] = ("dungeon",)

    def decide(self, state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource) -> Order:
        unit = state.unit(unit_id)
        if PATROLLING in unit.statuses and not acting_now(state, unit_id):
            return patrol_order(state, unit, dice)
        card = card_of(unit)
        if acting_now(state, unit_id):
            worth = {a.name: a.p_wound for a in card.attacks}
            worth["heal"] = max(
                (heal_worth(unit, u) for u in state.units if u.on_table and u.side == unit.side),
                default=0.0,
            )
            return continue_order(state, ruleset, unit, worth, dice)
        foes = [u for u in state.units if u.on_table and u.side != unit.side]
        tied = nearest(unit, foes)
        goal = tied[0] if tied else None  # sheet order: the autopilot never rolls
        extra = None
        if card.heal is not None and heals_left(unit) > 0:
            friends = [
                u
                for u in state.units
                if u.on_table
                and u.side == unit.side
                and u.wounds > 0
                and (u.id != unit.id or card.heal.self_allowed)
            ]

            def heals_from(board: Board, cell: Cell) -> list[Strike]:
                options = [
                    Strike("heal", f, heal_worth(unit, f))
                    for f in friends
                    if f.id == unit.id or chebyshev(cell, cell_of(f)) == 1
                ]
                options.sort(key=lambda s: -s.value)
                return options[:1]

            extra = heals_from
        return plan_order(state, unit, goal, attack_worth, extra, rule="hero: move then attack")


register_controller(NAME, DungeonHeroes)

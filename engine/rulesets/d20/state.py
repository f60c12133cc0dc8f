"""The d20 solitaire rules' tables, card and state (RULES §5; seed 003).

The scenario card (``[[units]] card = {...}`` in a ``ruleset = "d20"`` scenario), every field
optional:

* ``wounds`` (int, default 1): wounds the figure takes before it is defeated (§5.h: common
  figures 1, unique characters 2-5).
* ``size``: "average" (default), "small", "large", "mount", "slow_vehicle", "fast_vehicle"
  and ``heavy_armour`` (bool): the Move Unit of §5.f (small/large battlefield column);
  ``move`` (int spaces) overrides it.
* ``weapons``: a list of ``{name, kind, damage = 1, stun = false, area = false,
  special = false}``; ``kind`` is "melee" (adjacent), "reach" (up to 2 spaces), "short"
  (thrown/short range) or "long" (long range, not adjacent) (§5.g). ``stun`` weapons stun
  instead of wounding (D003-16); ``area`` weapons also hit every figure within 1 space of the
  target (§5.g area effect); ``special`` marks a stunt the Dramatic tactic prefers. Default:
  one melee weapon "hand weapon".
* ``attack_twice`` / ``defend_twice`` / ``talented`` (bool): roll the attack, the defence or a
  non-combat action twice and keep the higher (§5.h).
* ``buffs``: abilities used once each as the other action, lasting the battle: "attack"
  (attacks rolled twice), "damage" (+1 wound per hit), "defence" (defence rolled twice).
* ``heals`` (int, default 0): healing uses (a "heal" action removes one wound of an adjacent
  ally).
* ``points`` (int, default 1) and ``power`` (int, default = points): the Basic Battle's
  points-defeated count (D003-21) and morale's "more powerful" comparison (D003-17).
* ``arch_foe`` (bool): the AI side's Arch Foe (§5.c; one at most; default the first AI
  figure). ``leader`` (bool): a special character worth 2 VP when defeated (§5.m).
* ``tactic``: one of the 18 tactics of §5.l (lower case, e.g. "ambitious"), "roll" (rolled
  with a d20 at the first initiative, 19-20 re-rolled) or "" (none); ``previous_tactic`` is
  what "unexpected" keeps when it comes up again (T003-05).
* ``partner``: the id of a Partnership tactic's partner.
* ``reserve`` (bool): the figure waits off the table for the spawn die (Spawning, §5.m).

Scenario options (``[options]``): ``battlefield`` ("small"/"large"; default small when the
table is at most 24 in each way), ``space_in`` (the size of a space on a table without a
grid, inches, default 1), ``patrol`` (bool, D003-04, default true), ``enemy_action`` (bool,
the random enemy action table, default true), ``victory`` ("basic": the Basic Battle, 5
rounds; "objectives": VP of §5.m after 4 rounds), ``dangerous_die`` (6 or 20, D003-08),
``morale_recheck`` (bool, D003-17: check again after each further loss below half);
``scenario`` (the generic scenario of §5.m whose own end and special rules apply, with
``ambushers``, ``assaulters``, ``fortress``, ``fortress_wounds``, ``spawners``, ``cargo``: see
:mod:`engine.rulesets.d20.victory_kinds`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.model import RulesState, Unit, UnitCard, UnitRules

NAME = "d20"

# Statuses (RULES §5.k) kept in Unit.statuses; "stunned" is a condition (§5.h).
PREPARED, ALERTED, RETREATING, STUNNED = "prepared", "alerted", "retreating", "stunned"

TACTICS: tuple[str, ...] = (
    "ambitious",
    "cautious",
    "commanding",
    "controlling",
    "curious",
    "determined",
    "dramatic",
    "efficient",
    "negotiating",
    "opportunistic",
    "partnership",
    "pragmatic",
    "quick",
    "reckless",
    "selective",
    "slaying",
    "unexpected",
    "vengeful",
)
"""The 18 combat tactics of §5.l, in d20 order (19-20 roll again)."""

MOVE_UNIT: dict[str, tuple[int, int]] = {
    "average": (6, 3),
    "small": (5, 2),
    "large": (6, 3),
    "mount": (9, 5),
    "slow_vehicle": (9, 5),
    "fast_vehicle": (12, 7),
}
"""Move Unit in spaces: (large battlefield, small battlefield) (§5.f)."""

RANGES: dict[str, tuple[int, int]] = {
    "melee": (1, 1),
    "reach": (2, 2),
    "short": (10, 5),
    "long": (25, 12),
}
"""Reach of a weapon kind in spaces: (large battlefield, small battlefield) (§5.g, D003-09)."""

MELEE_NEED, RANGED_NEED, COVER_NEED, DEFEND_NEED, TASK_NEED = 6, 11, 16, 11, 11


def patrol_result(roll: int) -> str:
    """The patrol table (§5.k): "stay", "forward", "left", "right" or "about"."""
    if roll <= 6:
        return "stay"
    if roll <= 11:
        return "forward"
    if roll <= 14:
        return "left"
    if roll <= 17:
        return "right"
    return "about"


def enemy_action_result(roll: int) -> str:
    """The random enemy action table (§5.d): "one", "half", "all" or "all_return"."""
    if roll <= 2:
        return "one"
    if roll <= 8:
        return "half"
    if roll <= 17:
        return "all"
    return "all_return"


def tactic_for(roll: int) -> str | None:
    """The tactic of a d20 roll (None: 19-20, roll again)."""
    return TACTICS[roll - 1] if roll <= 18 else None


def morale_result(roll: int, stronger: bool) -> str:
    """A morale roll (§5.j): "defeated" on a 1, else "pass" on 6+ (stronger than the cause)
    or 11+ (equal or weaker), else "retreat"."""
    if roll == 1:
        return "defeated"
    return "pass" if roll >= (6 if stronger else 11) else "retreat"


def best_of(rolls: int) -> dict[int, Fraction]:
    """Exact distribution of the higher of ``rolls`` d20 (1 or 2): each face 1/20, or the
    higher of two k with (2k - 1)/400 (k's 2k - 1 of the 400 pairs)."""
    if rolls == 1:
        return {k: Fraction(1, 20) for k in range(1, 21)}
    return {k: Fraction(2 * k - 1, 400) for k in range(1, 21)}


def p_at_least(need: int, twice: bool = False) -> Fraction:
    """P(a d20, or the higher of two, is ``need`` or more): 1 less the chance that every die
    shows one of the faces below ``need``."""
    below = min(max(need - 1, 0), 20)
    return 1 - Fraction(below, 20) ** (2 if twice else 1)


def p_damage(
    kind: str, cover: bool = False, attack_twice: bool = False, defend_twice: bool = False
) -> Fraction:
    """P(an attack does damage): hit (melee 6+, ranged 11+, ranged at a target in cover 16+)
    times a failed defence (10 or less) (T003-06)."""
    need = MELEE_NEED if kind in ("melee", "reach") else (COVER_NEED if cover else RANGED_NEED)
    return p_at_least(need, attack_twice) * (1 - p_at_least(DEFEND_NEED, defend_twice))


class WeaponSpec(BaseModel):
    """One weapon on a d20 card."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(min_length=1)
    kind: Literal["melee", "reach", "short", "long"] = "melee"
    damage: int = Field(default=1, ge=0, le=5)
    stun: bool = False
    area: bool = False
    special: bool = False


class CardSpec(BaseModel):
    """The card fields of a d20 figure (see the module docstring)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    wounds: int = Field(default=1, ge=1, le=10)
    size: Literal["average", "small", "large", "mount", "slow_vehicle", "fast_vehicle"] = "average"
    heavy_armour: bool = False
    move: int | None = Field(default=None, ge=0, le=30)
    weapons: tuple[WeaponSpec, ...] = (WeaponSpec(name="hand weapon"),)
    attack_twice: bool = False
    defend_twice: bool = False
    talented: bool = False
    buffs: tuple[Literal["attack", "damage", "defence"], ...] = ()
    heals: int = Field(default=0, ge=0, le=10)
    points: int = Field(default=1, ge=0, le=1000)
    power: int | None = Field(default=None, ge=0, le=1000)
    arch_foe: bool = False
    leader: bool = False
    tactic: str = ""
    previous_tactic: str = ""
    partner: str = ""
    reserve: bool = False


@dataclass(frozen=True)
class Weapon:
    """A weapon as the rules read it."""

    name: str
    kind: str
    damage: int = 1
    stun: bool = False
    area: bool = False
    special: bool = False

    @property
    def ranged(self) -> bool:
        """Thrown/short or long range (hits on 11+, 16+ at a target in cover)."""
        return self.kind in ("short", "long")


@dataclass(frozen=True)
class D20Card(UnitCard):
    """A figure's numbers (§5.f, §5.h)."""

    wounds: int = 1
    move: int = 3
    """Move Unit in spaces on this battlefield."""
    weapons: tuple[Weapon, ...] = (Weapon("hand weapon", "melee"),)
    attack_twice: bool = False
    defend_twice: bool = False
    talented: bool = False
    buffs: tuple[str, ...] = ()
    heals: int = 0
    points: int = 1
    power: int = 1
    arch_foe: bool = False
    leader: bool = False
    tactic: str = ""
    partner: str = ""
    previous_tactic: str = ""


@dataclass(frozen=True)
class D20Unit(UnitRules):
    """A figure's own d20 state."""

    group: str = ""
    """The d20 unit (§5.c) it belongs to: its company, or its own id."""
    start: tuple[float, float] = (0.0, 0.0)
    """Where it was set up, inches (the retreat goal, D003-25, and where it returns)."""
    tactic: str = ""
    """Its combat tactic for this battle (rolled ones are settled at the first initiative)."""
    buffs_used: tuple[str, ...] = ()
    heals_used: int = 0
    stunned_round: int = 0
    """The round it loses to a stun (no actions in it)."""
    recovered: bool = False
    """Took its Recovery action this session (D003-22)."""


@dataclass(frozen=True)
class D20State(RulesState):
    """Whose turn it is in the round and what the acting unit has left."""

    order: tuple[str, ...] = ()
    """Sides in this round's initiative order (§5.d)."""
    turn: int = 0
    """Index into ``order`` of the side that acts next."""
    acting: str | None = None
    """The figure taking its turn (the first figure of its d20 unit)."""
    moved: bool = False
    """It has used its move action."""
    other: bool = False
    """It has used its other action."""
    quota: int | None = None
    """How many AI units may act this round (random enemy action); None: all."""
    chosen: str | None = None
    """The one AI figure that acts this round (a 1-2 on the enemy action table)."""
    ai_acted: int = 0
    returned: str | None = None
    """The d20 unit (group) of the figure that returned this round (an 18-20 on the enemy
    action table): it acts after every other enemy unit (D003-07)."""
    heroes_moved: bool = False
    """The heroes have moved (enemies may become alerted only afterwards, T003-16)."""
    morale_checked: tuple[str, ...] = ()
    """Sides that have made their below-half morale check (D003-17)."""
    defeated_points: tuple[tuple[str, int], ...] = ()
    """Points of enemies each side has defeated (D003-21)."""
    dangerous_rolled: tuple[str, ...] = ()
    """Figures that rolled for dangerous terrain this turn."""
    stage: str = ""
    """The round's start still under way: "tactics", "initiative" or "enemy action" (a chance
    step each die); empty once the units act."""
    rolls: tuple[tuple[str, int], ...] = ()
    """Initiative rolled so far this round (side, d20)."""
    fortress_wounds: int = 0
    """Wounds the fortress has taken (Fortress Assault, D003-20)."""
    spawn_round: int = 0
    """The last round the spawn die was rolled (Spawning, D003-18)."""


def card_of(unit: Unit) -> D20Card:
    """The unit's d20 card (a plain card when the unit is not a d20 figure)."""
    return unit.card if isinstance(unit.card, D20Card) else D20Card()


def rules_of(unit: Unit) -> D20Unit:
    """The figure's own d20 state."""
    return unit.rules if isinstance(unit.rules, D20Unit) else D20Unit(group=unit.id)

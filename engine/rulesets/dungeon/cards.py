"""Unit cards of the grid game (seed 004, RULES §6.h and §8.6): weapons, wounds, heals.

A scenario may write a whole card, or only ``kind`` for one of the Dungeon Crawl's figures
(``card = { kind = "troll" }``) and override any field. Ranges are in squares (cells);
a weapon "wounds on N+" on a d6.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from engine.model import UnitCard


class AttackSpec(BaseModel):
    """One weapon of a card (RULES §8.6 ``attacks``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    wound_on: int = Field(ge=1, le=7)
    """The d6 result that wounds, or more (7: never)."""
    max_range_sq: int | None = Field(default=None, ge=1, le=99)
    """Farthest target in squares (Chebyshev, G-08); None: the whole board."""
    adjacent_only: bool = False
    """Only at a target in one of the 8 squares around (sword, axe, club, claws)."""
    forbidden_if_enemy_adjacent: bool = False
    """Not usable while any enemy stands next to the attacker (fireball, troll spear)."""
    forbid_adjacent_target: bool = False
    """Never at an adjacent target (the dragon's breath; it may still breathe farther)."""
    needs_clear_line: bool = True
    """Needs a straight unblocked line of squares (G-03): walls and the attacker's enemies
    other than the target block."""


class HealSpec(BaseModel):
    """A healing power (the Priest: 3 attempts, 3+, never himself, D004-11)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    wound_on: int = Field(default=3, ge=1, le=7)
    uses: int = Field(default=3, ge=0, le=99)
    self_allowed: bool = False


class CardSpec(BaseModel):
    """The ``card`` table of a unit of the ``ruleset`` ruleset."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: str = Field(min_length=1)
    """What the figure is ("troll"); names a Dungeon Crawl preset when the card gives no
    attacks."""
    power: int = Field(default=1, ge=0, le=1000)
    """Activation order, strongest first (D004-07 breaks ties by reading order)."""
    is_arch_foe: bool = False
    minion_team: str | None = None
    move_sq: int = Field(default=2, ge=0, le=20)
    max_wounds: int = Field(default=1, ge=1, le=99)
    """Defeated on this many wounds (D004-06)."""
    attacks: tuple[AttackSpec, ...] = ()
    multi_attack_distinct_targets: bool = False
    """Each weapon once per turn at different targets (the dragon, D004-12)."""
    heal: HealSpec | None = None
    morale_on_attack_roll_1: bool = False
    """Rolling a 1 to attack makes it retreat (goblin, troll; D004-13)."""
    entrance_alert: bool = False
    """Alerted once the heroes have first moved when within ``entrance_alert_sq`` squares of
    a hero start square (the goblins near the entrance, D004-08)."""
    starts_alerted: bool = False
    """An enemy that begins the game Alerted (RULES §6.d: some scenarios do)."""


@dataclass(frozen=True)
class Attack:
    """A weapon (see :class:`AttackSpec`)."""

    name: str
    wound_on: int
    max_range_sq: int | None = None
    adjacent_only: bool = False
    forbidden_if_enemy_adjacent: bool = False
    forbid_adjacent_target: bool = False
    needs_clear_line: bool = True

    @property
    def p_wound(self) -> float:
        """Chance to wound with one d6."""
        return max(0, 7 - self.wound_on) / 6.0

    @property
    def reach_sq(self) -> int | None:
        """Farthest target in squares (None: unlimited)."""
        return 1 if self.adjacent_only else self.max_range_sq


@dataclass(frozen=True)
class Heal:
    """A healing power (see :class:`HealSpec`)."""

    wound_on: int = 3
    uses: int = 3
    self_allowed: bool = False


@dataclass(frozen=True)
class DungeonCard(UnitCard):
    """A figure of the grid game (RULES §8.6)."""

    kind: str = "figure"
    power: int = 1
    is_arch_foe: bool = False
    minion_team: str | None = None
    move_sq: int = 2
    max_wounds: int = 1
    attacks: tuple[Attack, ...] = ()
    multi_attack_distinct_targets: bool = False
    heal: Heal | None = None
    morale_on_attack_roll_1: bool = False
    entrance_alert: bool = False
    starts_alerted: bool = False

    @property
    def title(self) -> str:
        """The kind in words ("Fighting Man")."""
        return self.kind.replace("_", " ").replace("-", " ").title()

    def attack(self, name: str) -> Attack | None:
        """The weapon of that name (None: it has none)."""
        return next((a for a in self.attacks if a.name == name), None)

    @property
    def primary(self) -> Attack | None:
        """The primary weapon (D004-09): the best chance to wound (damage is 1 for every
        weapon, so the next key is the card's order)."""
        if not self.attacks:
            return None
        return min(self.attacks, key=lambda a: a.wound_on)


def _adj(name: str, wound_on: int) -> dict[str, Any]:
    return {"name": name, "wound_on": wound_on, "adjacent_only": True}


PRESETS: dict[str, dict[str, Any]] = {
    "fighting_man": {"power": 4, "max_wounds": 4, "attacks": [_adj("sword", 3)]},
    "magic_user": {
        "power": 3,
        "max_wounds": 2,
        "attacks": [
            {"name": "fireball", "wound_on": 4, "forbidden_if_enemy_adjacent": True},
            _adj("staff", 5),
        ],
    },
    "thief": {
        "power": 2,
        "max_wounds": 3,
        "attacks": [{"name": "dagger", "wound_on": 4, "max_range_sq": 5}],
    },
    "priest": {
        "power": 1,
        "max_wounds": 3,
        "attacks": [_adj("mace", 4)],
        "heal": {"wound_on": 3, "uses": 3, "self_allowed": False},
    },
    "goblin": {
        "power": 2,
        "max_wounds": 1,
        "attacks": [_adj("axe", 5)],
        "morale_on_attack_roll_1": True,
        "entrance_alert": True,
    },
    "troll": {
        "power": 5,
        "max_wounds": 2,
        "attacks": [
            {
                "name": "spear",
                "wound_on": 4,
                "max_range_sq": 5,
                "forbidden_if_enemy_adjacent": True,
            },
            _adj("club", 5),
        ],
        "morale_on_attack_roll_1": True,
    },
    "dragon": {
        "power": 10,
        "is_arch_foe": True,
        "max_wounds": 4,
        "attacks": [
            {"name": "breath", "wound_on": 3, "forbid_adjacent_target": True},
            _adj("claws", 4),
        ],
        "multi_attack_distinct_targets": True,
    },
}
"""The Dungeon Crawl's figures (RULES §6.h table): what ``card = { kind = ... }`` means."""


def read_card(raw: dict[str, Any]) -> DungeonCard:
    """The card of a scenario's ``card`` table (a preset kind, with any field overridden).

    Raises pydantic's ValidationError naming the field, or ValueError for a card with neither
    a weapon nor a heal (the ruleset turns either into one line).
    """
    kind = raw.get("kind")
    merged = {**PRESETS.get(str(kind), {}), **raw} if isinstance(kind, str) else dict(raw)
    spec = CardSpec.model_validate(merged)
    if not spec.attacks and spec.heal is None:
        raise ValueError(f"no attacks (give attacks, or a kind of: {', '.join(PRESETS)})")
    return DungeonCard(
        kind=spec.kind,
        power=spec.power,
        is_arch_foe=spec.is_arch_foe,
        minion_team=spec.minion_team,
        move_sq=spec.move_sq,
        max_wounds=spec.max_wounds,
        attacks=tuple(Attack(**a.model_dump()) for a in spec.attacks),
        multi_attack_distinct_targets=spec.multi_attack_distinct_targets,
        heal=None if spec.heal is None else Heal(**spec.heal.model_dump()),
        morale_on_attack_roll_1=spec.morale_on_attack_roll_1,
        entrance_alert=spec.entrance_alert,
        starts_alerted=spec.starts_alerted,
    )

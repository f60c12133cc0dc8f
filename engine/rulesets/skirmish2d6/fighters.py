"""Fighters of the 2D6 skirmish (RULES §3.2.h): stats, roles, weapons, the build rules and
the effective stats a check uses (statuses, Champion, Guardian aura, Shield, Heavy).

A fighter's card holds its assigned Skill, Speed and Armor (1, 2 and 3 in some order), its
Role and its weapons (two hands: D001B-08). Everything here is pure; distances in inches.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError
from engine.model import Unit, UnitCard

WOUNDED, STAGGERED, STUNNED = "wounded", "staggered", "stunned"
STATUSES = (WOUNDED, STAGGERED, STUNNED)
"""The three status effects (§3.2.g)."""
RECOVER_ORDER = (STUNNED, STAGGERED, WOUNDED)
"""Which status a Recover removes when the owner names none (the most crippling first)."""

STATS = ("skill", "speed", "armor")
ROLES = (
    "assault",
    "brute",
    "champion",
    "duelist",
    "earthshaper",
    "follower",
    "guardian",
    "hunter",
    "sniper",
)
"""The nine roles; Assault, Brute, Follower, Hunter and Sniper have no rule (D001B-09)."""

GUARDIAN_REACH_IN = 2.0
"""Guardian: +2 Armor to itself and to allies within this edge-to-edge distance (§3.2.h)."""
GUARDIAN_BONUS = 2
HEAVY_ARMOR_CAP = 2
"""Maul (Heavy): the target's Armor counts as this when higher (T001B-07)."""
FINISHER_BONUS = 3
"""Axe (Finisher): +3 Damage against a Stunned target."""
HEAVY_HIT_PENALTY = 2
"""Axe Hook and Maul Blow Away: the attack is made at -2 to hit."""


@dataclass(frozen=True)
class Weapon:
    """One upgrade of the weapons table (§3.2.h)."""

    name: str
    hands: int
    damage: int
    traits: tuple[str, ...]
    ranged: bool = False


WEAPONS: dict[str, Weapon] = {
    "sword": Weapon("sword", 1, 2, ("follow-up",)),
    "longsword": Weapon("longsword", 2, 3, ("true time",)),
    "bow": Weapon("bow", 2, 1, ("ranged", "aim"), ranged=True),
    "axe": Weapon("axe", 1, 2, ("finisher", "hook")),
    "longaxe": Weapon("longaxe", 2, 3, ("decapitate", "intimidating")),
    "mace": Weapon("mace", 1, 1, ("crushing",)),
    "maul": Weapon("maul", 2, 2, ("heavy", "blow away")),
    "shield": Weapon("shield", 1, 0, ("protective",)),
}
UNARMED = Weapon("unarmed", 0, 0, ())
"""A fighter with no melee weapon fights at Damage 0 (D001B-08)."""
HANDS = 2


@dataclass(frozen=True)
class FighterCard(UnitCard):
    """A fighter as built: assigned stats, role, weapons."""

    skill: int
    speed: int
    armor: int
    role: str
    weapons: tuple[str, ...] = ()
    points: int = 1
    """Worth in kills (every kill is 1 VP, §3.2.b); kept for rosters."""

    @property
    def items(self) -> tuple[Weapon, ...]:
        """The weapons it carries."""
        return tuple(WEAPONS[w] for w in self.weapons)

    def has(self, weapon: str) -> bool:
        """Whether it carries that weapon."""
        return weapon in self.weapons

    @property
    def melee_weapons(self) -> tuple[Weapon, ...]:
        """The weapons it may fight with in melee (the Bow only shoots); unarmed if none."""
        melee = tuple(w for w in self.items if not w.ranged)
        return melee or (UNARMED,)

    @property
    def shown_stats(self) -> tuple[int, int, int]:
        """Skill, Speed, Armor as the card prints them (Champion +1 to each, D001B-14)."""
        bonus = 1 if self.role == "champion" else 0
        return (self.skill + bonus, self.speed + bonus, self.armor + bonus)


def build_problems(raw: Mapping[str, Any]) -> list[str]:
    """Every reason a fighter as written cannot be fielded (T001B-09), one sentence each;
    empty when it is legal."""
    problems: list[str] = []
    stats = []
    for stat in STATS:
        value = raw.get(stat)
        if isinstance(value, bool) or not isinstance(value, int):
            problems.append(f"{stat} must be a whole number (1, 2 or 3), not {value!r}")
        else:
            stats.append(value)
    if len(stats) == 3 and sorted(stats) != [1, 2, 3]:
        got = ", ".join(f"{s} {v}" for s, v in zip(STATS, stats, strict=True))
        problems.append(f"skill, speed and armor must be 1, 2 and 3 in some order (got {got})")
    role = raw.get("role")
    if role not in ROLES:
        problems.append(f"role {role!r} is not a role (allowed: {', '.join(ROLES)})")
    weapons = raw.get("weapons", [])
    if not isinstance(weapons, list | tuple) or not all(isinstance(w, str) for w in weapons):
        problems.append("weapons must be a list of weapon names")
        return problems
    unknown = [w for w in weapons if w not in WEAPONS]
    for w in unknown:
        problems.append(f"{w!r} is not a weapon (allowed: {', '.join(WEAPONS)})")
    known = [WEAPONS[w] for w in weapons if w in WEAPONS]
    hands = sum(w.hands for w in known)
    if hands > HANDS:
        two = [w.name for w in known if w.hands == 2]
        others = [w.name for w in known if not two or w.name != two[0]]
        if two and others:
            why = f"the two-handed {two[0]} leaves no hand for the {' and '.join(others)}"
        else:
            why = f"{' + '.join(w.name for w in known)} need {hands} hands"
        problems.append(f"a fighter has two hands: {why}")
    extra = set(raw) - {*STATS, "role", "weapons", "points"}
    for key in sorted(extra):
        problems.append(f"unknown field {key!r} (allowed: skill, speed, armor, role, weapons)")
    return problems


def card_from(raw: Mapping[str, Any]) -> FighterCard:
    """The card of a legal build (raises EngineError listing the problems otherwise)."""
    problems = build_problems(raw)
    if problems:
        raise EngineError("; ".join(problems))
    return FighterCard(
        skill=int(raw["skill"]),
        speed=int(raw["speed"]),
        armor=int(raw["armor"]),
        role=str(raw["role"]),
        weapons=tuple(raw.get("weapons", ())),
        points=int(raw.get("points", 1)),
    )


def card_of(unit: Unit) -> FighterCard:
    """The unit's fighter card."""
    if not isinstance(unit.card, FighterCard):
        raise EngineError(f"{unit.name} has no 2D6-skirmish fighter card")
    return unit.card


def skill_of(unit: Unit) -> int:
    """Effective Skill: assigned, +1 Champion, -1 Wounded, -3 Stunned (§3.2.g, D001B-14)."""
    card = card_of(unit)
    value = card.shown_stats[0]
    if WOUNDED in unit.statuses:
        value -= 1
    if STUNNED in unit.statuses:
        value -= 3
    return value


def speed_of(unit: Unit) -> int:
    """Effective Speed: assigned, +1 Champion, -1 Wounded."""
    value = card_of(unit).shown_stats[1]
    return value - 1 if WOUNDED in unit.statuses else value


def move_allowance_in(unit: Unit) -> float:
    """How far one Move action carries the fighter: 4 + Speed inches (D001B-02), never less
    than 0; nothing when Staggered (§3.2.g)."""
    if STAGGERED in unit.statuses:
        return 0.0
    return float(max(0, 4 + speed_of(unit)))


def armor_of(unit: Unit, guarded: bool, *, heavy: bool = False) -> int:
    """Effective Armor against a Damage roll: assigned, +1 Champion, -1 Wounded, +2 when
    ``guarded`` (a Guardian within 2 in or itself; several do not stack, D001B-14), +1 Shield
    unless Staggered or Stunned; a Maul (``heavy``) makes it 2 when higher (T001B-07)."""
    card = card_of(unit)
    value = card.shown_stats[2]
    if WOUNDED in unit.statuses:
        value -= 1
    if guarded:
        value += GUARDIAN_BONUS
    if card.has("shield") and not unit.statuses & {STAGGERED, STUNNED}:
        value += 1
    if heavy and value > HEAVY_ARMOR_CAP:
        value = HEAVY_ARMOR_CAP
    return value


def damage_of(weapon: Weapon, target: Unit) -> int:
    """The weapon's Damage against ``target`` (Finisher: +3 against a Stunned target; Wounded
    does not lower Damage, D001B-14)."""
    bonus = FINISHER_BONUS if "finisher" in weapon.traits and STUNNED in target.statuses else 0
    return weapon.damage + bonus


def best_melee_weapon(unit: Unit) -> Weapon:
    """The melee weapon with the highest Damage (the one a free attack or a defender uses)."""
    return max(card_of(unit).melee_weapons, key=lambda w: w.damage)


def melee_weapon(unit: Unit, name: str | None) -> Weapon | None:
    """The named melee weapon of the unit (None: it has none of that name); no name: its
    best one."""
    if name is None:
        return best_melee_weapon(unit)
    for weapon in card_of(unit).melee_weapons:
        if weapon.name == name:
            return weapon
    return None


def describe_build(card: FighterCard) -> str:
    """ "Skill 3, Speed 1, Armor 2; Champion; sword and shield" as the card shows it."""
    skill, speed, armor = card.shown_stats
    gear = " and ".join(card.weapons) if card.weapons else "unarmed"
    return f"Skill {skill}, Speed {speed}, Armor {armor}; {card.role.title()}; {gear}"


def statuses_in_order(statuses: Iterable[str]) -> tuple[str, ...]:
    """The statuses in the order of the rules table (wounded, staggered, stunned)."""
    have = set(statuses)
    return tuple(s for s in STATUSES if s in have)

"""Attack resolution of the 2D6 skirmish (RULES §3.2.f with the weapon and role rules of §3.2.h).

One attack: the Hit roll (opposed: Skill vs Skill in melee, Skill vs Speed at range), then on a
Hit the Damage roll (opposed: Damage vs Armor, D001B-03): a success Wounds, Advantage >= 3 kills
(D001B-04), a second Wound kills (D001B-05). Then the Hit's own effects (Crushing, Hook, Blow
Away) and, in melee, the drive-back (D001B-07). Free attacks (Sword Follow-up, Duelist, Longsword
True time) come straight after the roll that grants them, before its drive-back, and never grant
another free attack. Drive-backs move the model at once and are queued for the player to carry
out at the table.

A free attack is a melee blow, so it is made only in base contact (§3.2.f). Decision (RULES is
silent on the order): each free attack is resolved whole, its own drive-back included, before the
next; a free attack whose two models are no longer in base contact when its turn comes is lost
(a ``free_attack_lost`` line says why) and rolls no die. So a draw that grants both the Sword's
Follow-up and the Duelist's free attack gives the second only if the first left the two in
contact: a target is never struck again 1 in away, nor driven back a second inch by it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.actions import Event, event
from engine.dice import RandomSource
from engine.model import GameState, Unit, UnitStatus, evolve
from engine.rulesets.skirmish2d6.board import guarded, in_contact, push_path
from engine.rulesets.skirmish2d6.checks import Check, opposed_check
from engine.rulesets.skirmish2d6.fighters import (
    HEAVY_HIT_PENALTY,
    STAGGERED,
    STUNNED,
    WEAPONS,
    WOUNDED,
    Weapon,
    armor_of,
    best_melee_weapon,
    card_of,
    damage_of,
    skill_of,
    speed_of,
)

PUSH_IN = 1.0
"""A melee drive-back, inches."""
BLOW_AWAY_IN = 3.0
"""Maul Blow Away drive-back, inches."""
DECAPITATE_ADV = 5
CRUSHING_ADV = 3
KILL_ADV = 3
TRUE_TIME_ADV = 2
FOLLOW_UP_BONUS = 1

Drive = tuple[str, tuple[float, float], tuple[float, float]]
"""A drive-back the player still has to make: (unit id, from, to), inches."""


@dataclass
class Fight:
    """The state and the log while one action's attacks resolve."""

    state: GameState
    dice: RandomSource
    events: list[Event] = field(default_factory=list)
    drives: list[Drive] = field(default_factory=list)
    wounded_again_kills: bool = True
    """D001B-05 (the alternative: wounds do not stack)."""

    def unit(self, unit_id: str) -> Unit:
        """The unit as it is now."""
        return self.state.unit(unit_id)

    def set_status(self, unit: Unit, status: str, on: bool) -> Unit:
        """Add or remove a status, with its ``status`` line."""
        if (status in unit.statuses) == on:
            return unit
        statuses = unit.statuses | {status} if on else unit.statuses - {status}
        unit = evolve(unit, statuses=frozenset(statuses))
        self.state = self.state.with_unit(unit)
        word = "is now" if on else "is no longer"
        self.events.append(
            event(
                "status",
                self.state.round,
                f"{unit.name} {word} {status}.",
                unit.id,
                status=status,
                change="gained" if on else "lost",
            )
        )
        return unit

    def kill(self, unit: Unit, by: Unit, why: str) -> None:
        """Remove the unit as a kill for the attacker's side."""
        self.state = self.state.with_unit(evolve(unit, status=UnitStatus.FALLEN))
        self.events.append(
            event(
                "fall",
                self.state.round,
                f"{unit.name} is killed ({why}).",
                unit.id,
                by=by.id,
                side=by.side,
                why=why,
            )
        )

    def push(self, pushed: Unit, away_from: Unit, distance_in: float) -> None:
        """Drive the model back along the centre line (D001B-07)."""
        path = push_path(self.state, pushed, away_from, distance_in)
        if len(path) < 2:
            self.events.append(
                event(
                    "drive_back",
                    self.state.round,
                    f"{pushed.name} cannot be driven back (blocked).",
                    pushed.id,
                    path=[list(pushed.position)],
                    distance_in=0.0,
                )
            )
            return
        end = path[-1]
        self.state = self.state.with_unit(evolve(pushed, x=end[0], y=end[1]))
        moved = ((end[0] - path[0][0]) ** 2 + (end[1] - path[0][1]) ** 2) ** 0.5
        self.events.append(
            event(
                "drive_back",
                self.state.round,
                f"{pushed.name} is driven back {moved:.1f} in.",
                pushed.id,
                path=[list(p) for p in path],
                distance_in=round(moved, 3),
            )
        )
        for i, (uid, start, _) in enumerate(self.drives):
            if uid == pushed.id:
                self.drives[i] = (uid, start, end)
                return
        self.drives.append((pushed.id, path[0], end))

    def check_event(self, check: Check, text: str) -> None:
        """Log a check."""
        self.events.append(check.to_event(self.state.round, text))


def _result_words(check: Check) -> str:
    sign = "+" if check.advantage > 0 else ""
    return f"{check.total} vs {check.against}: {check.result} ({sign}{check.advantage})"


def attack(
    fight: Fight,
    attacker_id: str,
    target_id: str,
    weapon: Weapon,
    *,
    ranged: bool = False,
    bonus: int = 0,
    style: str = "",
    free: bool = False,
) -> None:
    """One attack of ``attacker_id`` on ``target_id`` with ``weapon``.

    ``bonus``: to-hit modifier (Aim +1, Follow-up +1); ``style``: "hook" (Axe) or
    "blow_away" (Maul), each at -2 to hit; ``free``: a free attack (it grants none).
    """
    att, tgt = fight.unit(attacker_id), fight.unit(target_id)
    if not att.on_table or not tgt.on_table:
        return
    mod = bonus - (HEAVY_HIT_PENALTY if style in ("hook", "blow_away") else 0)
    defence_stat, defence = ("speed", speed_of(tgt)) if ranged else ("skill", skill_of(tgt))
    what = "shoots" if ranged else "attacks"
    label = f"{' free' if free else ''} {style.replace('_', ' ')}".rstrip()
    hit = opposed_check(
        fight.dice,
        att.id,
        "skill",
        skill_of(att) + mod,
        tgt.id,
        defence_stat,
        defence,
        f"hit{label}: {att.name} {what} {tgt.name}",
        (att.name, tgt.name),
    )
    fight.check_event(
        hit,
        f"{att.name}{label} {what} {tgt.name} with the {weapon.name}: {_result_words(hit)}.",
    )
    if hit.result == "success":
        _on_hit(fight, att, tgt, weapon, hit, ranged, style)
        return
    if ranged:
        return
    if not free:
        _free_attacks(fight, att.id, tgt.id, weapon, hit)
    att, tgt = fight.unit(att.id), fight.unit(tgt.id)
    if not att.on_table or not tgt.on_table:
        return
    if "intimidating" in weapon.traits:
        fight.push(tgt, att, PUSH_IN)
    else:
        fight.push(att, tgt, PUSH_IN)


def _on_hit(
    fight: Fight, att: Unit, tgt: Unit, weapon: Weapon, hit: Check, ranged: bool, style: str
) -> None:
    if "decapitate" in weapon.traits and hit.advantage >= DECAPITATE_ADV:
        fight.kill(tgt, att, f"decapitated, Advantage {hit.advantage}")
        return
    armor = armor_of(tgt, guarded(fight.state, tgt), heavy="heavy" in weapon.traits)
    damage = damage_of(weapon, tgt)
    roll = opposed_check(
        fight.dice,
        att.id,
        "damage",
        damage,
        tgt.id,
        "armor",
        armor,
        f"damage: {att.name} on {tgt.name}",
        (att.name, tgt.name),
    )
    fight.check_event(
        roll,
        f"{att.name}'s {weapon.name} (Damage {damage}) vs Armor {armor}: {_result_words(roll)}.",
    )
    if roll.result == "success":
        if roll.advantage >= KILL_ADV:
            fight.kill(tgt, att, f"Damage Advantage {roll.advantage}")
            return
        if WOUNDED in tgt.statuses and fight.wounded_again_kills:
            fight.kill(tgt, att, "wounded again")
            return
        tgt = fight.set_status(tgt, WOUNDED, True)
    if "crushing" in weapon.traits and hit.advantage >= CRUSHING_ADV:
        tgt = fight.set_status(tgt, STUNNED, True)
    if style == "hook":
        tgt = fight.set_status(tgt, STAGGERED, True)
    if style == "blow_away":
        tgt = fight.set_status(tgt, STUNNED, True)
    if not ranged:
        fight.push(tgt, fight.unit(att.id), BLOW_AWAY_IN if style == "blow_away" else PUSH_IN)


def _free_attacks(fight: Fight, att_id: str, tgt_id: str, weapon: Weapon, hit: Check) -> None:
    """The free attacks a drawn or badly failed melee Hit roll grants (none grant more), one
    after the other, each only while the two are still in base contact."""
    att, tgt = fight.unit(att_id), fight.unit(tgt_id)
    if hit.result == "draw":
        if "follow-up" in weapon.traits:
            _free_attack(fight, att_id, tgt_id, weapon, "Follow-up", FOLLOW_UP_BONUS)
        duelists = [u for u in (att, tgt) if card_of(u).role == "duelist"]
        if len(duelists) == 1:
            duelist = fight.unit(duelists[0].id)
            other = tgt_id if duelist.id == att_id else att_id
            _free_attack(fight, duelist.id, other, best_melee_weapon(duelist), "Duelist")
    elif hit.advantage <= -TRUE_TIME_ADV and card_of(tgt).has("longsword"):
        _free_attack(fight, tgt_id, att_id, WEAPONS["longsword"], "True time")


def _free_attack(
    fight: Fight, by_id: str, on_id: str, weapon: Weapon, rule: str, bonus: int = 0
) -> None:
    """One free attack granted by ``rule``, made only in base contact (else it is lost)."""
    by, on = fight.unit(by_id), fight.unit(on_id)
    if not by.on_table or not on.on_table:
        return
    if not in_contact(fight.state, by, on):
        fight.events.append(
            event(
                "free_attack_lost",
                fight.state.round,
                f"{by.name}'s free attack ({rule}) is lost: "
                f"{on.name} is no longer in base contact.",
                by.id,
                target=on.id,
                rule=rule,
            )
        )
        return
    attack(fight, by_id, on_id, weapon, bonus=bonus, free=True)

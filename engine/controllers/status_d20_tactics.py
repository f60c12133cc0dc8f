"""Combat tactics of the d20 status AI (RULES §5.l with the operational meanings of D003-23).

A tactic changes whom a figure attacks (:func:`pick_target`), which weapon it prefers
(:func:`weapon_preference`) and where it stands (:func:`destination_key`):

* ambitious — the hero with the highest threat (expected damage it deals, then points);
* cautious — stays at least one Move Unit farther from the heroes than its nearest ally and
  attacks only what it reaches without moving;
* commanding — picks a focus hero each round (the nearest to it); allies without a tactic
  attack the focus too;
* controlling — prefers an area weapon and the target whose ring holds the most heroes;
* curious — goes to the nearest objective it has not yet touched before attacking, unless a
  hero is adjacent;
* determined — keeps its previous target until that target is defeated;
* dramatic — prefers a special (stunt) weapon and uses its abilities first;
* efficient — the hero it is likeliest to defeat with this attack;
* negotiating — prefers a stun (non-damaging) weapon;
* opportunistic — goes to the nearest objective until it touches one, then fights;
* partnership — stays next to its partner and attacks the partner's last target;
* pragmatic — prefers to stand in cover;
* quick — prefers a target other than its last one and moves after attacking;
* reckless — closes on the nearest hero, never minding cover;
* selective — prefers ranged weapons and stands as far off as its range allows;
* slaying — stands where it is next to the most heroes and attacks any adjacent one;
* unexpected — rolled again before each encounter (by the rules); left "unexpected" it
  fights without a tactic;
* vengeful — the most wounded hero, closing to melee.

With no tactic: the closest hero (§5.k step 6), ties by a logged roll (G-07).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.dice import RandomSource
from engine.model import Unit

Memory = dict[str, object]


@dataclass(frozen=True)
class Picked:
    """A chosen target and why."""

    target: Unit
    reason: str
    rolls: tuple[tuple[str, int], ...] = ()


def _nearest(
    unit: Unit,
    options: Sequence[Unit],
    distance: Callable[[Unit, Unit], float],
    dice: RandomSource,
    purpose: str,
) -> tuple[Unit, tuple[tuple[str, int], ...]]:
    """The nearest (a logged roll among exact ties, G-07)."""
    best = min(round(distance(unit, o), 6) for o in options)
    tied = [o for o in options if round(distance(unit, o), 6) == best]
    if len(tied) == 1:
        return tied[0], ()
    roll = dice.roll(len(tied), purpose)
    return tied[roll - 1], ((purpose, roll),)


def pick_target(
    tactic: str,
    unit: Unit,
    options: Sequence[Unit],
    distance: Callable[[Unit, Unit], float],
    dice: RandomSource,
    memory: Memory,
    threat: Callable[[Unit], float] = lambda h: 0.0,
    p_defeat: Callable[[Unit], float] = lambda h: 0.0,
    heroes_near: Callable[[Unit], int] = lambda h: 0,
) -> Picked:
    """The hero to attack among ``options`` (non-empty) by the tactic (module docstring)."""
    purpose = f"target for {unit.name}"
    last = memory.get(f"target:{unit.id}")
    by_id = {o.id: o for o in options}
    if tactic == "determined" and isinstance(last, str) and last in by_id:
        return Picked(by_id[last], "determined: it finishes its foe first")
    if tactic == "partnership":
        partner = memory.get(f"partner_target:{unit.id}")
        if isinstance(partner, str) and partner in by_id:
            return Picked(by_id[partner], "partnership: it attacks its partner's target")
    focus = memory.get("focus")
    if tactic in ("commanding", "") and isinstance(focus, str) and focus in by_id:
        return Picked(by_id[focus], "commanding: the commander's focus this round")
    ranked: list[Unit] = list(options)
    reason = "the closest foe"
    if tactic == "ambitious":
        top = max(threat(o) for o in options)
        ranked = [o for o in options if threat(o) == top]
        reason = "ambitious: the greatest threat"
    elif tactic == "efficient":
        top = max(p_defeat(o) for o in options)
        ranked = [o for o in options if p_defeat(o) == top]
        reason = "efficient: the easiest to defeat"
    elif tactic == "vengeful":
        top = max(o.wounds for o in options)
        ranked = [o for o in options if o.wounds == top]
        reason = "vengeful: the most wounded hero"
    elif tactic == "controlling":
        top = max(heroes_near(o) for o in options)
        ranked = [o for o in options if heroes_near(o) == top]
        reason = "controlling: the most heroes in one blow"
    elif tactic == "quick" and isinstance(last, str) and len(options) > 1:
        ranked = [o for o in options if o.id != last] or list(options)
        reason = "quick: a different foe than last time"
    pick, rolls = _nearest(unit, ranked, distance, dice, purpose)
    return Picked(pick, reason, rolls)


def weapon_preference(tactic: str) -> Callable[[object], int]:
    """A key that orders a tactic's favourite weapons first (0 first); none: all equal."""

    def key(weapon: object) -> int:
        ranged = getattr(weapon, "ranged", False)
        if tactic == "selective":
            return 0 if ranged else 1
        if tactic == "controlling":
            return 0 if getattr(weapon, "area", False) else 1
        if tactic == "negotiating":
            return 0 if getattr(weapon, "stun", False) else 1
        if tactic == "dramatic":
            return 0 if getattr(weapon, "special", False) else 1
        if tactic in ("vengeful", "reckless", "slaying"):
            return 0 if not ranged else 1
        return 0

    return key


def moves_after_attack(tactic: str) -> bool:
    """Quick: hit and run."""
    return tactic == "quick"


def destination_key(
    tactic: str,
    *,
    attacks: bool,
    cover: bool,
    ranged: bool,
    target_gap: float,
    hero_gap: float,
    heroes_adjacent: int,
    behind_ally: bool,
    partner_adjacent: bool,
    moved: float,
) -> tuple[float, ...]:
    """How good a spot is (smaller first): whether the attack is possible from it, then the
    tactic's wish, then cover for ranged primaries (§5.k step 5), then the distance left to the
    target (while out of reach) and the length of the move (staying put when it may)."""
    wish = 0.0
    if tactic == "slaying":
        wish = -float(heroes_adjacent)
    elif tactic == "cautious":
        wish = 0.0 if behind_ally else 1.0
    elif tactic == "selective":
        wish = -hero_gap
    elif tactic == "partnership":
        wish = 0.0 if partner_adjacent else 1.0
    wants_cover = tactic == "pragmatic" or (ranged and tactic != "reckless")
    cover_key = 0.0 if (cover or not wants_cover) else 1.0
    closing = 0.0 if attacks else target_gap  # once in reach, nearer is no better
    if tactic == "reckless":
        return (0.0 if attacks else 1.0, target_gap, moved)
    if tactic == "cautious":
        return (wish, 0.0 if attacks else 1.0, cover_key, closing, moved)
    return (0.0 if attacks else 1.0, wish, cover_key, closing, moved)

"""Post-battle wound resolution, RULES §2.n D000-13.

Option A (default): the wound tokens a character ends the battle with carry over as starting
wounds; a fallen character starts the next battle with every slot filled.
Option B: one d6 per wound token, 4-6 heals it, 1-3 carries it over; a fallen character rolls
one d6: 1-2 lost for the campaign, 3-6 returns as in option A (every slot filled).

Readings where D000-13 leaves room (decided here, documented in the campaign docs):
- a character who left the table alive (routed off, or escaped with an objective) is not
  fallen: its wound tokens are resolved like any survivor's;
- a fallen character under option B rolls only the one d6 (no per-token rolls): returning, it
  has every slot filled.

The dice come from any ``engine.dice.RandomSource`` (seeded, scripted, or the player's
physical dice entered one by one); every roll is logged with its purpose.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import RandomSource

FIT, WOUNDED, LOST = "fit", "wounded", "lost"
"""A character's campaign status."""


@dataclass(frozen=True)
class BattleWounds:
    """How a character came out of a battle."""

    key: str
    name: str
    wounds: int
    """Wound tokens on its card at the end of the battle."""
    slots: int
    """Wound slots on its card."""
    fallen: bool
    """Wounded to the ground (removed) in the battle."""


@dataclass(frozen=True)
class Resolved:
    """A character after wound resolution."""

    key: str
    wounds: int
    status: str
    rolls: tuple[int, ...]
    text: str
    """One sentence for the player (spoken and shown)."""


def _tokens(n: int) -> str:
    return f"{n} wound" + ("" if n == 1 else "s")


def _back(entry: BattleWounds) -> str:
    """How a fallen character returns: every wound slot filled, or unhurt when its card has
    no wound slot (it cannot carry a wound into a battle)."""
    if entry.slots == 0:
        return "unhurt (its card has no wound slots to fill)"
    return f"with every wound slot filled ({_tokens(entry.slots)})"


def status_for(wounds: int) -> str:
    """fit or wounded, by the wounds carried."""
    return WOUNDED if wounds else FIT


def resolve(option: str, entry: BattleWounds, dice: RandomSource) -> Resolved:
    """Resolve one character's wounds under option A or B (D000-13)."""
    if option == "A":
        wounds = entry.slots if entry.fallen else entry.wounds
        if entry.fallen:
            text = f"{entry.name} fell; returns next battle {_back(entry)}."
        elif wounds:
            text = f"{entry.name} carries {_tokens(wounds)} into the next battle."
        else:
            text = f"{entry.name} is unhurt."
        return Resolved(entry.key, wounds, status_for(wounds), (), text)
    if entry.fallen:
        roll = dice.roll(6, f"{entry.name}: fallen, lost on 1-2")
        if roll <= 2:
            text = f"{entry.name} fell; rolled {roll}: lost for the campaign."
            return Resolved(entry.key, 0, LOST, (roll,), text)
        wounds = entry.slots
        text = f"{entry.name} fell; rolled {roll}: returns {_back(entry)}."
        return Resolved(entry.key, wounds, status_for(wounds), (roll,), text)
    rolls = tuple(
        dice.roll(6, f"{entry.name}: wound {i + 1} heals on 4-6") for i in range(entry.wounds)
    )
    carried = sum(1 for r in rolls if r <= 3)
    if not rolls:
        text = f"{entry.name} is unhurt."
    else:
        shown = ", ".join(str(r) for r in rolls)
        healed = len(rolls) - carried
        text = (
            f"{entry.name} rolled {shown}: {healed} healed, carries {_tokens(carried)}."
            if carried
            else f"{entry.name} rolled {shown}: every wound heals."
        )
    return Resolved(entry.key, carried, status_for(carried), rolls, text)


def rolls_needed(option: str, entries: list[BattleWounds]) -> int:
    """How many d6 the resolution of these characters takes (for physical dice)."""
    if option == "A":
        return 0
    return sum(1 if e.fallen else e.wounds for e in entries)

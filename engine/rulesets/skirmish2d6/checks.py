"""2D6 checks of the skirmish (RULES §3.2.a) and their exact odds (§3.2.l).

A basic check is 2d6 + stat against a difficulty; an opposed check is 2d6 + stat against the
opponent's 2d6 + stat. "Beat" is strictly greater; equal totals are a draw (D001B-01);
Advantage is own total minus what was to be beaten (negative: Disadvantage). Every die goes
through the game's random source; the odds are exact fractions by enumeration.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Literal

from engine.actions import Event, event
from engine.dice import RandomSource

Result = Literal["success", "draw", "fail"]
RECOVER_DIFFICULTY = 7
"""Recover: Skill vs 7 (§3.2.f step 4)."""


@dataclass(frozen=True)
class Check:
    """One resolved check."""

    kind: Literal["basic", "opposed"]
    unit: str
    stat: str
    """What the active side added ("skill", "damage")."""
    value: int
    """The stat value added (with every modifier)."""
    rolls: tuple[int, int]
    total: int
    against: int
    """The difficulty (basic) or the opponent's total (opposed)."""
    opponent: str | None = None
    opponent_stat: str | None = None
    opponent_value: int | None = None
    opponent_rolls: tuple[int, int] | None = None
    purpose: str = ""

    @property
    def advantage(self) -> int:
        """Own total minus what was to be beaten."""
        return self.total - self.against

    @property
    def result(self) -> Result:
        """Success when strictly higher, draw when equal (D001B-01), else fail."""
        if self.advantage > 0:
            return "success"
        return "draw" if self.advantage == 0 else "fail"

    def to_event(self, round_: int, text: str) -> Event:
        """The ``check`` line of ``simulate --json`` (the issue's contract, plus the
        opponent's part of an opposed check and the purpose)."""
        extra: dict[str, object] = {}
        if self.kind == "opposed":
            extra = {
                "opponent": self.opponent,
                "opponent_stat": self.opponent_stat,
                "opponent_value": self.opponent_value,
                "opponent_rolls": list(self.opponent_rolls or ()),
            }
        return event(
            "check",
            round_,
            text,
            self.unit,
            kind=self.kind,
            stat=self.stat,
            value=self.value,
            rolls=list(self.rolls),
            total=self.total,
            against=self.against,
            advantage=self.advantage,
            result=self.result,
            purpose=self.purpose,
            **extra,
        )


def roll_2d6(dice: RandomSource, purpose: str) -> tuple[int, int]:
    """Two d6, each logged with the purpose."""
    return (dice.roll(6, purpose), dice.roll(6, purpose))


def basic_check(
    dice: RandomSource, unit: str, stat: str, value: int, difficulty: int, purpose: str
) -> Check:
    """2d6 + ``value`` against ``difficulty``."""
    rolls = roll_2d6(dice, purpose)
    return Check("basic", unit, stat, value, rolls, sum(rolls) + value, difficulty, purpose=purpose)


def opposed_check(
    dice: RandomSource,
    unit: str,
    stat: str,
    value: int,
    opponent: str,
    opponent_stat: str,
    opponent_value: int,
    purpose: str,
    names: tuple[str, str] | None = None,
) -> Check:
    """2d6 + ``value`` for the active side, then 2d6 + ``opponent_value`` for the other; each
    die's purpose names whose roll it is (``names``: how the player calls the two)."""
    who, whom = names or (unit, opponent)
    mine = roll_2d6(dice, f"{purpose} ({who}'s 2D6)")
    theirs = roll_2d6(dice, f"{purpose} ({whom}'s 2D6)")
    return Check(
        "opposed",
        unit,
        stat,
        value,
        mine,
        sum(mine) + value,
        sum(theirs) + opponent_value,
        opponent,
        opponent_stat,
        opponent_value,
        theirs,
        purpose,
    )


# ------------------------------------------------------------------------------ exact odds
def two_d6() -> Counter[int]:
    """How many of the 36 outcomes of 2d6 give each total (a fresh count)."""
    return Counter(a + b for a, b in product(range(1, 7), repeat=2))


def difference_counts() -> Counter[int]:
    """How many of the 6^4 outcomes give each D = 2d6 - 2d6 (T001B-01) (a fresh count)."""
    return Counter(a + b - c - d for a, b, c, d in product(range(1, 7), repeat=4))


def _tails(counts: Counter[int], low: int, high: int, total: int) -> tuple[Fraction, ...]:
    """P(result >= k) for k = low .. high + 1, exact (a table built once at import)."""
    return tuple(
        Fraction(sum(c for v, c in counts.items() if v >= k), total) for k in range(low, high + 2)
    )


_DIFF_LOW, _DIFF_HIGH = -10, 10
_DIFF_AT_LEAST = _tails(difference_counts(), _DIFF_LOW, _DIFF_HIGH, 6**4)
"""P(2d6 - 2d6 >= k) for k = -10 .. 11 (an immutable table, not a cache)."""
_TOTAL_LOW, _TOTAL_HIGH = 2, 12
_TOTAL_AT_LEAST = _tails(two_d6(), _TOTAL_LOW, _TOTAL_HIGH, 36)
"""P(2d6 >= k) for k = 2 .. 13 (an immutable table)."""


def _at_least(table: tuple[Fraction, ...], low: int, k: int) -> Fraction:
    """P(result >= k) from a table of :func:`_tails` starting at ``low``."""
    if k <= low:
        return table[0]
    return table[min(k - low, len(table) - 1)]


@dataclass(frozen=True)
class OpposedOdds:
    """Exact odds of an opposed check with stat difference d = own - opponent."""

    d: int
    success: Fraction
    draw: Fraction
    fail: Fraction

    def advantage_at_least(self, n: int) -> Fraction:
        """P(Advantage >= n)."""
        return opposed_at_least(self.d, n)


def opposed_at_least(d: int, n: int) -> Fraction:
    """P(2d6 + d - 2d6 >= n): the active side's Advantage is at least ``n``."""
    return _at_least(_DIFF_AT_LEAST, _DIFF_LOW, n - d)


def opposed_odds(d: int) -> OpposedOdds:
    """Success, draw and fail of an opposed check with stat difference ``d`` (T001B-01)."""
    success = opposed_at_least(d, 1)
    draw = opposed_at_least(d, 0) - success
    return OpposedOdds(d, success, draw, 1 - success - draw)


def basic_success(value: int, difficulty: int) -> Fraction:
    """P(2d6 + value > difficulty)."""
    return _at_least(_TOTAL_AT_LEAST, _TOTAL_LOW, difficulty - value + 1)


def recover_odds(skill: int) -> Fraction:
    """P(a Recover succeeds): 2d6 + Skill beats 7 (T001B-02)."""
    return basic_success(skill, RECOVER_DIFFICULTY)


def charge_reach(distance_in: float) -> Fraction:
    """P(2d6 >= distance): a charge's roll reaches that far (T001B-03)."""
    return _at_least(_TOTAL_AT_LEAST, _TOTAL_LOW, math.ceil(distance_in - 1e-9))


def kill_odds(hit_d: int, damage_d: int, *, wounded: bool = False) -> Fraction:
    """P(kill) of one attack: Hit, then Damage Advantage >= 3 (or any Damage success on an
    already Wounded target, D001B-05)."""
    need = 1 if wounded else 3
    return opposed_at_least(hit_d, 1) * opposed_at_least(damage_d, need)

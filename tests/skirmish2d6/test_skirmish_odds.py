"""Exact odds of the 2D6 skirmish (RULES §3.2.l, T001B-01..07), by enumeration: the odds
functions enumerate 2d6 and 2d6 - 2d6, and the Hit chance of T001B-04/05 is also counted by
driving the ruleset itself through every one of the 6^4 Hit rolls with scripted dice."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import product

import pytest

from engine.actions import Action
from engine.dice import ScriptedDice
from engine.rulesets.skirmish2d6.checks import (
    charge_reach,
    difference_counts,
    opposed_at_least,
    opposed_odds,
    recover_odds,
)
from tests.skirmish2d6.fights import A, B, fight, fighter, game

TABLE = {
    -3: (F(103, 648), F(13, 162), F(493, 648), F(35, 648), F(5, 432)),
    -2: (F(155, 648), F(125, 1296), F(287, 432), F(7, 72), F(35, 1296)),
    -1: (F(145, 432), F(35, 324), F(721, 1296), F(103, 648), F(35, 648)),
    0: (F(575, 1296), F(73, 648), F(575, 1296), F(155, 648), F(7, 72)),
    1: (F(721, 1296), F(35, 324), F(145, 432), F(145, 432), F(103, 648)),
    2: (F(287, 432), F(125, 1296), F(155, 648), F(575, 1296), F(155, 648)),
    3: (F(493, 648), F(13, 162), F(103, 648), F(721, 1296), F(145, 432)),
}


def test_t001b_01_the_difference_of_two_2d6_rolls() -> None:
    counts = difference_counts()
    expected = [146, 140, 125, 104, 80, 56, 35, 20, 10, 4, 1]
    assert [counts[d] for d in range(11)] == expected
    assert [counts[-d] for d in range(11)] == expected
    assert sum(counts.values()) == 1296


@pytest.mark.parametrize("d", sorted(TABLE))
def test_t001b_01_opposed_check_table(d: int) -> None:
    success, draw, fail, adv3, adv5 = TABLE[d]
    odds = opposed_odds(d)
    assert (odds.success, odds.draw, odds.fail) == (success, draw, fail)
    assert opposed_at_least(d, 3) == adv3
    assert opposed_at_least(d, 5) == adv5


def test_t001b_02_recover() -> None:
    assert [recover_odds(s) for s in range(5)] == [
        F(5, 12),
        F(7, 12),
        F(13, 18),
        F(5, 6),
        F(11, 12),
    ]
    assert recover_odds(1 - 3) == F(1, 6)  # Stunned, Skill 1


def test_t001b_03_charge_reach() -> None:
    expected = [
        1,
        F(35, 36),
        F(11, 12),
        F(5, 6),
        F(13, 18),
        F(7, 12),
        F(5, 12),
        F(5, 18),
        F(1, 6),
        F(1, 12),
        F(1, 36),
    ]
    assert [charge_reach(d) for d in range(2, 13)] == expected


def test_t001b_04_sword_skill_3_against_skill_1_armor_2() -> None:
    p_hit = opposed_at_least(2, 1)
    p_dmg = opposed_at_least(0, 1)
    p_kill_hit = opposed_at_least(0, 3)
    assert (p_hit, p_dmg, p_kill_hit) == (F(287, 432), F(575, 1296), F(155, 648))
    assert p_hit * p_kill_hit == F(44485, 279936)
    assert p_hit * (p_dmg - p_kill_hit) == F(76055, 559872)
    draw = opposed_odds(2).draw
    assert p_hit + draw * opposed_at_least(3, 1) == F(619553, 839808)


def test_t001b_04_the_ruleset_hits_as_often_as_the_table_says() -> None:
    """Every one of the 1296 Hit rolls of a Skill 3 Sword against Skill 1, through ``apply``."""
    ruleset, state = game(
        [
            fighter("att", A, 10.0, 10.0, skill=3, weapons=["mace"]),
            fighter("dfd", B, 11.0, 10.0, skill=1, armor=2),
        ]
    )
    hits = 0
    for rolls in product(range(1, 7), repeat=4):
        dice = ScriptedDice([*rolls, 1, 1, 6, 6, 1, 1, 6, 6])
        events = ruleset.apply(state, fight("att", "dfd"), dice).events
        hits += next(e for e in events if e.type == "check").get("result") == "success"
    assert F(hits, 1296) == F(287, 432)


def test_t001b_05_bow_skill_2_against_speed_3_armor_1() -> None:
    assert opposed_at_least(-1, 1) == F(145, 432)
    assert opposed_at_least(0, 1) == F(575, 1296)
    assert opposed_at_least(-1, 1) * opposed_at_least(0, 3) == F(22475, 279936)
    assert opposed_at_least(0, 1) * opposed_at_least(0, 3) == F(89125, 839808)
    ruleset, state = game(
        [
            fighter("att", A, 10.0, 10.0, skill=2, weapons=["bow"]),
            fighter("dfd", B, 10.0, 20.0, speed=3, armor=1),
        ]
    )
    hits = 0
    for rolls in product(range(1, 7), repeat=4):
        dice = ScriptedDice([*rolls, 1, 1, 6, 6])
        events = ruleset.apply(state, Action("shoot", "att", target_id="dfd"), dice).events
        hits += events[1].get("result") == "success"
    assert F(hits, 1296) == F(145, 432)


def test_t001b_06_true_time() -> None:
    # The defender's Advantage >= 2: the attacker's Advantage <= -2.
    def p(d: int) -> F:
        return 1 - opposed_at_least(d, -1)

    assert (p(0), p(1), p(-1)) == (F(145, 432), F(155, 648), F(575, 1296))


def test_t001b_07_heavy() -> None:
    assert opposed_at_least(2 - 2, 1) == F(575, 1296)
    assert opposed_at_least(2 - 2, 3) == F(155, 648)

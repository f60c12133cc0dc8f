"""Attack resolution of the 2D6 skirmish with scripted dice (RULES §3.2.f): each weapon rule and
each role rule in a constructed fight, T001B-07 and T001B-08 exactly.

Dice order of a melee attack: the attacker's two Hit dice, the defender's two; on a Hit the
attacker's two Damage dice, the defender's two Armor dice.
"""

from __future__ import annotations

import math

import pytest

from engine.model import UnitStatus
from engine.rulesets.skirmish2d6.fighters import armor_of
from tests.skirmish2d6.fights import A, B, act, checks, fight, fighter, game, types


def _duel(  # type: ignore[no-untyped-def]
    att: dict[str, object], dfd: dict[str, object], **kw: object
):
    a = fighter("att", A, 10.0, 10.0, **att)  # type: ignore[arg-type]
    d = fighter("dfd", B, 11.0, 10.0, **dfd)  # type: ignore[arg-type]
    return game([a, d], **kw)  # type: ignore[arg-type]


def test_a_hit_that_beats_armor_wounds_and_drives_the_target_back_one_inch() -> None:
    ruleset, state = _duel({"skill": 2}, {"skill": 2, "armor": 3, "weapons": ["sword"]})
    # Hit 12 + 2 vs 2 + 2; Damage 2 + 8 = 10 vs 3 + 6 = 9: Advantage 1, Wounded only.
    state, events, _ = act(ruleset, state, fight("att", "dfd"), [6, 6, 1, 1, 4, 4, 3, 3])
    hit, dmg = checks(events)
    assert hit.get("kind") == "opposed" and hit.get("stat") == "skill"
    assert (hit.get("total"), hit.get("against"), hit.get("result")) == (14, 4, "success")
    assert dmg.get("stat") == "damage" and dmg.get("advantage") == 1
    assert "wounded" in state.unit("dfd").statuses
    status = next(e for e in events if e.type == "status")
    assert status.to_json()["status"] == "wounded" and status.get("change") == "gained"
    assert state.unit("dfd").x == pytest.approx(12.0)  # 1 in straight away from the attacker
    assert state.unit("att").x == pytest.approx(10.0)


def test_damage_advantage_three_kills_and_a_second_wound_kills() -> None:
    ruleset, state = _duel({"skill": 2}, {"armor": 3})
    # Damage 2 + 9 = 11 vs 3 + 5 = 8: Advantage 3 kills (D001B-04).
    after, events, _ = act(ruleset, state, fight("att", "dfd"), [6, 6, 1, 1, 5, 4, 3, 2])
    assert after.unit("dfd").status is UnitStatus.FALLEN
    assert "fall" in types(events) and "drive_back" not in types(events)


@pytest.mark.parametrize(("stacking", "dies"), [(True, True), (False, False)])
def test_a_wounded_fighter_wounded_again_dies_unless_the_option_says_no(
    stacking: bool, dies: bool
) -> None:
    """D001B-05, and its alternative through ``wounded_again_kills``."""
    ruleset, state = _duel({"skill": 2}, {"armor": 3}, options={"wounded_again_kills": stacking})
    state = state.with_unit(_with(state.unit("dfd"), "wounded"))
    # Wounded: Armor 2. Damage 2 + 6 = 8 vs 2 + 5 = 7: a success with Advantage 1.
    after, _, _ = act(ruleset, state, fight("att", "dfd"), [6, 6, 1, 1, 3, 3, 3, 2])
    assert (after.unit("dfd").status is UnitStatus.FALLEN) is dies


def test_a_failed_melee_attack_drives_the_attacker_back() -> None:
    ruleset, state = _duel({"skill": 2, "weapons": ["mace"]}, {"skill": 2})
    state, events, _ = act(ruleset, state, fight("att", "dfd"), [1, 1, 6, 6])
    assert checks(events)[0].get("result") == "fail"
    assert state.unit("att").x == pytest.approx(9.0)
    assert state.unit("dfd").x == pytest.approx(11.0)


def test_t001b_08_a_drawn_attack_drives_the_attacker_back() -> None:
    ruleset, state = _duel({"skill": 2, "weapons": ["mace"]}, {"skill": 2})
    # 9 vs 9: a draw (D001B-01), no Hit.
    state, events, _ = act(ruleset, state, fight("att", "dfd"), [4, 3, 4, 3])
    (hit,) = checks(events)
    assert (hit.get("total"), hit.get("against"), hit.get("result")) == (9, 9, "draw")
    assert state.unit("att").x == pytest.approx(9.0)


def test_t001b_08_longaxe_intimidating_drives_the_target_back_even_on_a_draw() -> None:
    ruleset, state = _duel({"skill": 2, "weapons": ["longaxe"]}, {"skill": 2})
    state, _, _ = act(ruleset, state, fight("att", "dfd"), [4, 3, 4, 3])
    assert state.unit("att").x == pytest.approx(10.0)
    assert state.unit("dfd").x == pytest.approx(12.0)


def test_t001b_08_sword_follow_up_attacks_again_at_plus_one_after_a_draw() -> None:
    ruleset, state = _duel({"skill": 2, "weapons": ["sword"]}, {"skill": 2})
    # First attack 9 vs 9; the free one at +1: 2 + 1 + 5 = 8 vs 2 + 6 = 8, a draw again: no
    # third attack (a free attack grants none).
    state, events, _ = act(ruleset, state, fight("att", "dfd"), [4, 3, 4, 3, 3, 2, 3, 3])
    _first, free = checks(events)
    assert free.get("value") == 3 and "free" in free.get("purpose")
    assert free.get("result") == "draw"


def test_t001b_08_a_duelist_gets_a_free_attack_on_a_draw_unless_facing_a_duelist() -> None:
    ruleset, state = _duel({"skill": 2, "weapons": ["mace"]}, {"skill": 2, "role": "duelist"})
    # 9 vs 9 draw: the defending Duelist attacks the attacker (D001B-16), and misses.
    _, events, _ = act(ruleset, state, fight("att", "dfd"), [4, 3, 4, 3, 1, 1, 6, 6])
    _first, free = checks(events)
    assert free.unit == "dfd" and free.get("opponent") == "att"
    ruleset, state = _duel(
        {"skill": 2, "weapons": ["mace"], "role": "duelist"}, {"skill": 2, "role": "duelist"}
    )
    _, events, _ = act(ruleset, state, fight("att", "dfd"), [4, 3, 4, 3])
    assert len(checks(events)) == 1


def test_a_free_attack_is_lost_once_an_earlier_one_broke_base_contact() -> None:
    """§3.2.f: the Follow-up hits and drives the target 1 in away; the Duelist's free attack of
    the same draw is then lost (no die), so the target is not struck again at 1 in."""
    ruleset, state = _duel({"skill": 2, "weapons": ["sword"], "role": "duelist"}, {"skill": 2})
    # 9 vs 9 draw; Follow-up 2 + 1 + 12 = 15 vs 4: a Hit; Damage 2 + 2 = 4 vs 3 + 12 = 15.
    state, events, _ = act(
        ruleset, state, fight("att", "dfd"), [4, 3, 4, 3, 6, 6, 1, 1, 1, 1, 6, 6]
    )
    assert len(checks(events)) == 3  # the draw, the Follow-up and its Damage roll
    lost = next(e for e in events if e.type == "free_attack_lost")
    assert lost.unit == "att" and lost.get("rule") == "Duelist"
    assert "no longer in base contact" in lost.text
    assert state.unit("dfd").x == pytest.approx(12.0)  # driven back once, not twice
    assert state.unit("att").x == pytest.approx(9.0)  # the draw's own drive-back


def test_a_defending_duelist_loses_its_free_attack_when_the_follow_up_drove_the_attacker_off() -> (
    None
):
    ruleset, state = _duel({"skill": 2, "weapons": ["sword"]}, {"skill": 2, "role": "duelist"})
    # 9 vs 9 draw; the Follow-up 2 + 1 + 2 = 5 vs 2 + 12 = 14 fails: the attacker is driven
    # back, out of contact, and the Duelist's free attack is lost.
    state, events, _ = act(ruleset, state, fight("att", "dfd"), [4, 3, 4, 3, 1, 1, 6, 6])
    assert len(checks(events)) == 2
    assert [e.unit for e in events if e.type == "free_attack_lost"] == ["dfd"]


@pytest.mark.parametrize(("att_rolls", "free"), [((1, 2), True), ((2, 2), False)])
def test_longsword_true_time_strikes_back_when_the_attack_fails_by_two(
    att_rolls: tuple[int, int], free: bool
) -> None:
    ruleset, state = _duel(
        {"skill": 2, "weapons": ["mace"]}, {"skill": 2, "weapons": ["longsword"]}
    )
    # Attacker 2 + 3 = 5 (or 6) vs defender 2 + 5 = 7: defender's Advantage 2 (or 1).
    rolls = [*att_rolls, 3, 2] + ([1, 1, 6, 6] if free else [])
    _, events, _ = act(ruleset, state, fight("att", "dfd"), rolls)
    assert (len(checks(events)) == 2) is free


def test_longaxe_decapitates_on_hit_advantage_five_with_no_damage_roll() -> None:
    ruleset, state = _duel({"skill": 2, "weapons": ["longaxe"]}, {"skill": 2, "armor": 3})
    state, events, _ = act(ruleset, state, fight("att", "dfd"), [6, 4, 3, 2])
    assert len(checks(events)) == 1
    assert state.unit("dfd").status is UnitStatus.FALLEN


def test_mace_crushing_stuns_on_hit_advantage_three() -> None:
    ruleset, state = _duel({"skill": 2, "weapons": ["mace"]}, {"skill": 2, "armor": 3})
    # Hit 2 + 8 vs 2 + 5: Advantage 3; Damage 1 + 2 vs 3 + 12: fail. Still Stunned.
    state, _, _ = act(ruleset, state, fight("att", "dfd"), [4, 4, 2, 3, 1, 1, 6, 6])
    assert state.unit("dfd").statuses == frozenset({"stunned"})


def test_axe_hook_hits_at_minus_two_and_staggers() -> None:
    ruleset, state = _duel({"skill": 2, "weapons": ["axe"]}, {"skill": 2, "armor": 3})
    state, events, _ = act(
        ruleset, state, fight("att", "dfd", "axe", "hook"), [6, 6, 1, 1, 1, 1, 6, 6]
    )
    assert checks(events)[0].get("value") == 0
    assert state.unit("dfd").statuses == frozenset({"staggered"})


def test_axe_finisher_adds_three_damage_against_a_stunned_target() -> None:
    ruleset, state = _duel({"skill": 2, "weapons": ["axe"]}, {"skill": 2, "armor": 3})
    state = state.with_unit(_with(state.unit("dfd"), "stunned"))
    _, events, _ = act(ruleset, state, fight("att", "dfd"), [6, 6, 1, 1, 1, 1, 6, 6])
    assert checks(events)[1].get("value") == 5


def test_t001b_07_maul_heavy_counts_armor_five_as_two() -> None:
    """Armor 3 + Guardian 2 = 5 is treated as 2 against a Maul (T001B-07)."""
    ruleset, state = _duel(
        {"skill": 2, "weapons": ["maul"]},
        {"skill": 1, "armor": 3, "role": "guardian", "weapons": ["mace"]},
    )
    dfd = state.unit("dfd")
    assert armor_of(dfd, True) == 5 and armor_of(dfd, True, heavy=True) == 2
    _, events, _ = act(ruleset, state, fight("att", "dfd"), [6, 6, 1, 1, 1, 1, 1, 1])
    dmg = checks(events)[1]
    assert dmg.get("value") == 2 and dmg.get("opponent_value") == 2


def test_maul_blow_away_hits_at_minus_two_stuns_and_drives_back_three_inches() -> None:
    ruleset, state = _duel({"skill": 2, "weapons": ["maul"]}, {"skill": 2, "armor": 3})
    state, events, _ = act(
        ruleset, state, fight("att", "dfd", "maul", "blow_away"), [6, 6, 1, 1, 1, 1, 6, 6]
    )
    assert checks(events)[0].get("value") == 0
    assert "stunned" in state.unit("dfd").statuses
    assert state.unit("dfd").x == pytest.approx(14.0)


def test_shield_adds_armor_unless_staggered_or_stunned() -> None:
    _ruleset, state = _duel({}, {"armor": 2, "weapons": ["sword", "shield"]})
    dfd = state.unit("dfd")
    assert armor_of(dfd, False) == 3
    assert armor_of(_with(dfd, "staggered"), False) == 2
    assert armor_of(_with(dfd, "stunned"), False) == 2
    assert armor_of(_with(dfd, "wounded"), False) == 2


def test_champion_adds_one_to_every_stat_in_the_checks() -> None:
    ruleset, state = _duel({"skill": 2, "role": "champion"}, {"skill": 1, "armor": 3})
    _, events, _ = act(ruleset, state, fight("att", "dfd"), [6, 6, 1, 1, 1, 1, 6, 6])
    hit, dmg = checks(events)
    assert hit.get("value") == 3
    assert dmg.get("value") == 2  # weapon Damage is no stat: the Champion bonus stays off it


def test_guardian_protects_itself_and_allies_within_two_inches_without_stacking() -> None:
    units = [
        fighter("att", A, 10.0, 10.0),
        fighter("dfd", B, 11.0, 10.0, armor=1, speed=3, skill=2, weapons=["sword"]),
        fighter("g1", B, 14.0, 10.0, role="guardian", weapons=["mace"]),
        fighter("g2", B, 11.0, 13.0, role="guardian", weapons=["mace"]),
        fighter("far", B, 20.0, 10.0, armor=1, speed=3, skill=2),
    ]
    ruleset, state = game(units)
    from engine.rulesets.skirmish2d6.board import guarded

    assert guarded(state, state.unit("dfd"))  # g1 1 in away edge to edge, g2 too
    assert guarded(state, state.unit("g1"))
    assert not guarded(state, state.unit("far"))
    # Two Guardians: +2 once (D001B-14).
    _, events, _ = act(ruleset, state, fight("att", "dfd"), [6, 6, 1, 1, 1, 1, 1, 1])
    assert checks(events)[1].get("opponent_value") == 3


def test_earthshapers_break_is_refused_with_a_reason() -> None:
    ruleset, state = _duel({"role": "earthshaper"}, {})
    from engine.actions import Action

    problems = ruleset.validate(state, Action("break", "att"))
    assert problems == ["Break has no defined effect in the rules yet"]


def test_drive_backs_stop_at_a_base_and_at_the_table_edge() -> None:
    units = [fighter("att", A, 34.0, 10.0), fighter("dfd", B, 35.0, 10.0)]
    ruleset, state = game(units)
    state, events, _ = act(ruleset, state, fight("att", "dfd"), [6, 6, 1, 1, 1, 1, 6, 6])
    assert state.unit("dfd").x == pytest.approx(35.5, abs=1e-3)  # the edge stops it
    drive = next(e for e in events if e.type == "drive_back")
    assert math.isclose(drive.get("distance_in"), 0.5, abs_tol=1e-3)


def _with(unit, status):  # type: ignore[no-untyped-def]
    from dataclasses import replace

    return replace(unit, statuses=unit.statuses | {status})


def test_both_sides_are_named() -> None:
    assert A != B


@pytest.mark.parametrize("role", ["assault", "brute", "follower", "hunter", "sniper"])
def test_roles_without_a_rule_change_nothing(role: str) -> None:
    """D001B-09: the same fight with the same dice gives the same checks as a Follower's."""
    outcomes = []
    for who in ("follower", role):
        ruleset, state = _duel({"skill": 2, "role": who}, {"skill": 2, "armor": 3, "role": who})
        _, events, _ = act(ruleset, state, fight("att", "dfd"), [6, 6, 1, 1, 4, 4, 3, 3])
        outcomes.append([e.to_json() for e in checks(events)])
    assert outcomes[0] == outcomes[1]

"""Seed 000's derived probabilities (RULES §2.p, T000-01..09), by enumerating scripted dice
through the real ruleset's apply() and comparing with exact fractions.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from builders import AI, HUMANS, apply, build, melee, of_type, shoot, types, unit, wall

from engine.actions import Action, ActionKind, EventType
from engine.dice import ScriptedDice
from engine.geometry import Edge
from engine.model import UnitStatus
from engine.odds import narrative_wound_chance
from engine.rulesets.narrative.ruleset import rout_threshold
from engine.rulesets.narrative.state import rules_of

# RULES §2.g / T000-01: P(wound) for delta = ATK - DEF = -3..+3.
WOUND_TABLE = {
    -3: Fraction(1, 6),
    -2: Fraction(1, 6),
    -1: Fraction(1, 3),
    0: Fraction(1, 2),
    1: Fraction(2, 3),
    2: Fraction(5, 6),
    3: Fraction(5, 6),
}


def _duel(atk: int, dfn: int, *, contact: bool, slots: int = 5, wounds: int = 0):
    """An AI attacker and a human target, 6 in apart (shooting) or in base contact (melee)."""
    ty = 11.0 if contact else 6.0
    return build(
        [
            unit("a", AI, 12, 12, heading=180, atk=atk, rng=12),
            unit("t", HUMANS, 12, ty, dfn=dfn, slots=slots, wounds=wounds),
        ]
    )


def _wounds(atk: int, dfn: int, face: int, *, contact: bool, moved: bool = False) -> bool:
    ruleset, state = _duel(atk, dfn, contact=contact)
    if moved:
        action = Action(ActionKind.MOVE_AND_SHOOT, "a", path=((12, 12), (12, 11.5)), target_id="t")
    elif contact:
        action = melee("a", "t")
    else:
        action = shoot("a", "t")
    events = apply(ruleset, state, action, [face]).events
    attack = of_type(events, EventType.ATTACK)[0]
    assert attack.get("roll") == face
    wounded = bool(of_type(events, EventType.WOUND))
    assert attack.get("wound") is wounded
    return wounded


def _chance(atk: int, dfn: int, *, contact: bool = False, moved: bool = False) -> Fraction:
    hits = sum(_wounds(atk, dfn, f, contact=contact, moved=moved) for f in range(1, 7))
    return Fraction(hits, 6)


@pytest.mark.parametrize("delta", sorted(WOUND_TABLE))
@pytest.mark.parametrize("contact", [False, True], ids=["shoot", "melee"])
def test_t000_01_wound_chance_by_delta(delta: int, contact: bool) -> None:
    atk, dfn = max(delta, 0), max(-delta, 0)
    assert _chance(atk, dfn, contact=contact) == WOUND_TABLE[delta]
    assert narrative_wound_chance(atk, dfn) == WOUND_TABLE[delta]


@pytest.mark.parametrize(("atk", "dfn"), [(0, 10), (10, 0), (3, 9), (9, 3)])
def test_t000_01_saturation(atk: int, dfn: int) -> None:
    expected = Fraction(1, 6) if atk < dfn else Fraction(5, 6)
    assert _chance(atk, dfn) == expected


@pytest.mark.parametrize(
    ("atk", "dfn", "face", "wounds"),
    [(1, 1, 4, True), (1, 1, 3, False), (0, 5, 6, True), (5, 0, 1, False)],
)
def test_t000_01_scripted_examples(atk: int, dfn: int, face: int, wounds: bool) -> None:
    assert _wounds(atk, dfn, face, contact=False) is wounds


def test_t000_02_move_and_shoot_costs_one() -> None:
    assert _chance(1, 0) == Fraction(2, 3)
    assert _chance(1, 0, moved=True) == Fraction(1, 2)
    assert narrative_wound_chance(1, 0, moved=True) == Fraction(1, 2)
    assert _wounds(1, 0, 3, contact=False, moved=True) is False
    assert _wounds(1, 0, 3, contact=False) is True


def test_t000_03_wound_slots_then_fallen() -> None:
    ruleset, state = build(
        [
            unit("a", AI, 12, 12, heading=180, atk=0),
            unit("t", HUMANS, 12, 11, slots=2, company="pair"),
            unit("t2", HUMANS, 2, 2, company="pair"),
        ]
    )
    seen = []
    for _ in range(3):
        state = replace(state, units=tuple(replace(u, activated=False) for u in state.units))
        state = replace(state, active_side=AI)
        outcome = apply(ruleset, state, melee("a", "t"), [6])
        state = outcome.state
        seen.append((state.unit("t").wounds, state.unit("t").status))
        if len(seen) < 3:
            assert EventType.FALL not in types(outcome.events)
    assert seen == [(1, UnitStatus.ACTIVE), (2, UnitStatus.ACTIVE), (2, UnitStatus.FALLEN)]


@pytest.mark.parametrize("size", range(1, 11))
def test_t000_04_rout_threshold_table(size: int) -> None:
    """Through apply(): a loss triggers a check exactly from loss floor(N/2)+1 on (held: 4)."""
    expected_first = {1: 1, 2: 2, 3: 2, 4: 3, 5: 3, 6: 4, 7: 4, 8: 5, 9: 5, 10: 6}[size]
    assert rout_threshold(size) == expected_first
    humans = [unit(f"h{i}", HUMANS, 2 + 2 * i, 4, company="band") for i in range(size)]
    ruleset, start = build([unit("a", AI, 2, 20, heading=180, rng=30), *humans], width=24)
    for loss in range(1, size + 1):
        fallen = {f"h{i}" for i in range(loss - 1)}
        units = tuple(
            replace(u, status=UnitStatus.FALLEN) if u.id in fallen else u for u in start.units
        )
        state = replace(start, units=units)
        target = state.unit(f"h{loss - 1}")
        state = state.with_unit(replace(state.unit("a"), x=target.x))
        checks = loss >= expected_first
        outcome = apply(ruleset, state, shoot("a", target.id), [6, 4] if checks else [6])
        assert bool(of_type(outcome.events, EventType.ROUT_CHECK)) is checks, loss


def _company_of_four():
    humans = [unit(f"h{i}", HUMANS, 3 + 3 * i, 4, company="band") for i in range(4)]
    return build([unit("a", AI, 3, 20, heading=180, rng=30), *humans])


def _fell(ruleset, state, uid: str, rolls: list[int]):
    target = state.unit(uid)
    state = state.with_unit(replace(state.unit("a"), x=target.x, activated=False))
    state = replace(state, active_side=AI)
    return apply(ruleset, state, shoot("a", uid), rolls)


@pytest.mark.parametrize(("face", "routs"), [(3, True), (4, False)])
def test_t000_04_company_of_four(face: int, routs: bool) -> None:
    ruleset, state = _company_of_four()
    for uid in ("h0", "h1"):
        outcome = _fell(ruleset, state, uid, [6])
        assert not of_type(outcome.events, EventType.ROUT_CHECK)
        state = outcome.state
    outcome = _fell(ruleset, state, "h2", [6, face])
    check = of_type(outcome.events, EventType.ROUT_CHECK)[0]
    assert check.get("routs") is routs
    assert ("band" in rules_of(outcome.state).routing_companies) is routs
    assert bool(of_type(outcome.events, EventType.ROUTING)) is routs


def test_t000_04_routing_is_permanent_and_checks_repeat_until_then() -> None:
    ruleset, state = _company_of_four()
    state = _fell(ruleset, state, "h0", [6]).state
    state = _fell(ruleset, state, "h1", [6]).state
    state = _fell(ruleset, state, "h2", [6, 5]).state  # holds
    assert not rules_of(state).routing_companies
    # With a fifth member, the fourth loss checks again (and routs).
    ruleset5, state5 = build(
        [unit("a", AI, 3, 20, heading=180, rng=30)]
        + [unit(f"h{i}", HUMANS, 3 + 3 * i, 4, company="band") for i in range(5)]
    )
    for uid, rolls in (("h0", [6]), ("h1", [6]), ("h2", [6, 6]), ("h3", [6, 1])):
        state5 = _fell(ruleset5, state5, uid, rolls).state
    assert rules_of(state5).routing_companies == frozenset({"band"})
    # Once routing, a further loss rolls nothing: routing is permanent.
    outcome = _fell(ruleset5, state5, "h4", [6])
    assert not of_type(outcome.events, EventType.ROUT_CHECK)


def test_t000_04_rout_chance_is_one_half() -> None:
    routs = 0
    for face in range(1, 7):
        ruleset, state = _company_of_four()
        state = _fell(ruleset, state, "h0", [6]).state
        state = _fell(ruleset, state, "h1", [6]).state
        routs += "band" in rules_of(_fell(ruleset, state, "h2", [6, face]).state).routing_companies
    assert Fraction(routs, 6) == Fraction(1, 2)


def test_t000_05_initiative() -> None:
    ruleset, state = build(
        [unit("a", AI, 12, 20, heading=180), unit("h", HUMANS, 12, 4)], turn=None
    )
    first = {}
    for face in range(1, 7):
        outcome = apply(ruleset, state, Action(ActionKind.CHANCE), [face])
        first[face] = outcome.state.active_side
        assert of_type(outcome.events, EventType.INITIATIVE)[0].get("side") == first[face]
    assert first[3] == AI and first[4] == HUMANS
    assert Fraction(sum(s == AI for s in first.values()), 6) == Fraction(1, 2)


def _contact_ring(n: int):
    """An AI unit at (12, 12) facing 0 with ``n`` enemies in contact at bearings 30 + k * 360/n."""
    from engine.geometry import advance

    enemies = []
    for k in range(n):
        x, y = advance((12.0, 12.0), 30 + k * 360 / n, 1.02)
        enemies.append(unit(f"e{k}", HUMANS, x, y))
    return build([unit("a", AI, 12, 12, heading=0), *enemies])


@pytest.mark.parametrize(
    ("n", "faces", "expected"),
    [
        (2, [1], "e0"),
        (2, [3], "e0"),
        (2, [4], "e1"),  # T000-07: scripted 4 -> the second enemy clockwise
        (2, [6], "e1"),
        (3, [2], "e0"),
        (3, [3], "e1"),
        (3, [5], "e2"),
        (4, [5, 6, 4], "e3"),  # results above N are rolled again
        (5, [6, 2], "e1"),
        (6, [6], "e5"),
    ],
)
def test_t000_07_multi_contact_d6(n: int, faces: list[int], expected: str) -> None:
    from engine.protocols import find_controller

    ruleset, state = _contact_ring(n)
    dice = ScriptedDice(faces)
    order = find_controller("narrative-ai").decide(state, ruleset, "a", dice)
    assert dice.remaining == 0
    assert order.action.kind == ActionKind.CONTINUE_MELEE
    assert order.action.target_id == expected
    assert [r for _, r in order.rolls] == faces


def test_t000_07_clockwise_starts_at_heading() -> None:
    """Enemies at bearings 300 and 60 from a unit facing 270: clockwise from 270, 300 is first."""
    from engine.geometry import advance
    from engine.protocols import find_controller

    east = advance((12.0, 12.0), 60, 1.02)
    west = advance((12.0, 12.0), 300, 1.02)
    ruleset, state = build(
        [
            unit("a", AI, 12, 12, heading=270),
            unit("east", HUMANS, *east),
            unit("west", HUMANS, *west),
        ]
    )
    ai = find_controller("narrative-ai")
    assert ai.decide(state, ruleset, "a", ScriptedDice([1])).action.target_id == "west"
    assert ai.decide(state, ruleset, "a", ScriptedDice([6])).action.target_id == "east"


def _move(path: tuple[tuple[float, float], ...]) -> Action:
    return Action(ActionKind.MOVE, "a", path=path)


def test_t000_08_straight_is_blocked_bend_with_short_legs_is_legal() -> None:
    ruleset, state = _build_corner()
    straight = ruleset.validate(state, _move(((5, 5), (10.5, 5))))
    assert straight and "wall" in straight[0]
    assert ruleset.validate(state, _move(((5, 5), (7.75, 6.1), (10.5, 5)))) == []


@pytest.mark.parametrize(
    "bend",
    [(8.1, 5.9), (7.4, 6.4)],  # legs 3.23 + 2.56 and 2.67 + 3.38: each under 6 in total
)
def test_t000_08_a_bend_leg_over_half_the_move_is_illegal(bend: tuple[float, float]) -> None:
    ruleset, state = _build_corner()
    problems = ruleset.validate(state, _move(((5, 5), bend, (10.5, 5))))
    assert problems and "3 in allowed" in problems[0]


def test_t_geo_05_four_inch_first_leg_illegal_even_with_empty_second_leg() -> None:
    ruleset, state = _build_corner()
    assert ruleset.validate(state, _move(((5, 5), (5, 9)))) == []
    problems = ruleset.validate(state, _move(((5, 5), (5, 9), (5, 9))))
    assert problems and "first leg is 4 in" in problems[0]
    assert ruleset.validate(state, _move(((5, 5), (5, 8), (5, 11)))) == []


def _build_corner():
    """T000-08: M = 6; the point 5.5 in east is behind a thin wall, reachable only with a bend."""
    return build(
        [unit("a", AI, 5, 5, move=6), unit("h", HUMANS, 20, 20)],
        [wall("wall", 7.7, 2, 7.8, 4.7)],
    )


@pytest.mark.parametrize(("slots", "expected"), [(0, 2), (1, 4), (2, 6), (3, 8)])
def test_t000_09_expected_attacks_to_fell(slots: int, expected: int) -> None:
    """E[attacks] = sum over wound levels of 1 / P(an attack lands), each P enumerated."""
    total = Fraction(0)
    for wounds in range(slots + 1):
        hits = 0
        for face in range(1, 7):
            ruleset, state = build(
                [
                    unit("a", AI, 12, 12, heading=180),
                    unit("t", HUMANS, 12, 11, slots=slots, wounds=wounds, company="t"),
                    unit("t2", HUMANS, 2, 2, company="t"),
                ]
            )
            events = apply(ruleset, state, melee("a", "t"), [face]).events
            landed = of_type(events, EventType.WOUND) or of_type(events, EventType.FALL)
            assert bool(of_type(events, EventType.FALL)) is (bool(landed) and wounds == slots)
            hits += bool(landed)
        total += 1 / Fraction(hits, 6)
    assert total == expected


def test_t_geo_04_nearest_edge_for_rout_and_ties() -> None:
    ruleset, state = build(
        [unit("a", AI, 20, 20, heading=180), unit("h", HUMANS, 3, 12), unit("g", HUMANS, 3, 3)]
    )
    assert ruleset.nearest_edge(state, state.unit("h"), ScriptedDice([])) is Edge.LEFT
    # (3, 3): left and front tie; the humans' own edge is the front.
    assert ruleset.nearest_edge(state, state.unit("g"), ScriptedDice([])) is Edge.FRONT
    # An AI unit at (3, 3): its own edge (back) is not tied, so a logged roll decides.
    ai_corner = replace(state.unit("a"), x=3.0, y=3.0)
    dice = ScriptedDice([2])
    edge = ruleset.nearest_edge(state.with_unit(ai_corner), ai_corner, dice)
    assert edge in (Edge.LEFT, Edge.FRONT)
    assert len(dice.rolls) == 1 and "nearest-edge tie" in dice.rolls[0].purpose

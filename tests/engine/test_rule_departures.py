"""Seed-000 departures from RULES.md found by independent tests (issue 9, items 1-7), each pinned
with scripted dice and exact positions:

1. moves toward an edge (a rout, the AI's carrier) and the AI's bonus "forward" move are straight
   (G-05, D000-08) and stop where they are blocked;
2. AI step 4 finds firing positions that need a bent path or an unusual bearing (D000-09);
3. no round limit unless the scenario sets ``max_rounds``; a battle nobody can ever act in again
   is a draw that says why (D000-16);
4. a move ends facing along its last leg (§2.e: pivots only before a leg);
5. a nearest-edge tie that the own edge does not settle is rolled and the roll is logged (G-05);
6. base contact and "next to" compare with a tolerance for floating point (one helper);
7. a move and shoot may not end in base contact with an enemy (D000-16).
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from builders import AI, HUMANS, apply, build, melee, objective, of_type, types, unit, wall

from engine.actions import Action, ActionKind, EventType
from engine.dice import ScriptedDice, SeededDice
from engine.geometry import bearing_deg, within_in
from engine.model import UnitStatus
from engine.protocols import PendingKind, find_controller
from engine.rulesets.narrative.board import contacting_enemies, gap_between
from engine.rulesets.narrative.state import rules_of, with_rules


def ai_order(ruleset, state, uid: str = "a", rolls=()):  # type: ignore[no-untyped-def]
    dice = ScriptedDice(list(rolls))
    order = find_controller("narrative-ai").decide(state, ruleset, uid, dice)
    assert dice.remaining == 0
    assert ruleset.validate(state, order.action) == [], order
    return order


# --- 1. straight toward the edge, stopping where blocked


def _boxed_router():  # type: ignore[no-untyped-def]
    """An AI figure 3 in from the left edge with a rock straight between it and that edge."""
    ruleset, state = build(
        [unit("a", AI, 3, 12, heading=0, company="raiders"), unit("h", HUMANS, 20, 20)],
        [wall("rock", 1, 11, 2, 13, blocks_los=False)],
    )
    return ruleset, with_rules(state, routing_companies=frozenset({"raiders"}))


def test_a_blocked_rout_stops_where_it_is_blocked_instead_of_going_round() -> None:
    ruleset, state = _boxed_router()
    order = ai_order(ruleset, state)
    assert order.action.kind == ActionKind.FLEE
    assert order.action.path == ((3.0, 12.0), pytest.approx((2.5, 12.0), abs=1e-6))
    outcome = apply(ruleset, state, order.action)
    moved = outcome.state.unit("a")
    assert moved.status is UnitStatus.ACTIVE  # still on the table, up against the rock
    assert (moved.x, moved.y) == pytest.approx((2.5, 12.0), abs=1e-6)
    assert moved.heading_deg == 270.0
    # Without an announced path the ruleset flees the same straight way.
    bare = apply(ruleset, state, Action(ActionKind.FLEE, "a")).state.unit("a")
    assert (bare.x, bare.y) == pytest.approx((2.5, 12.0), abs=1e-6)


def test_the_ai_carrier_runs_straight_and_stops_at_the_obstacle() -> None:
    ruleset, state = build(
        [unit("a", AI, 3, 12, heading=0), unit("h", HUMANS, 20, 2)],
        [wall("rock", 1, 11, 2, 13, blocks_los=False)],
        [objective("chest", 3, 12)],
    )
    order = ai_order(ruleset, state)
    assert order.rule.startswith("step 1")
    assert order.action.pick_up == "chest"
    assert order.action.path == ((3.0, 12.0), pytest.approx((2.5, 12.0), abs=1e-6))


def test_the_ai_carrier_stops_short_of_contact_with_an_enemy_in_its_way() -> None:
    ruleset, state = build(
        [unit("a", AI, 5, 12, heading=0), unit("h", HUMANS, 2, 12), unit("h2", HUMANS, 20, 2)],
        objectives=[objective("chest", 5, 12)],
    )
    order = ai_order(ruleset, state)
    end = order.action.path[-1]
    assert end[1] == 12.0 and end[0] > 3.0  # straight left, not round the enemy
    moved = replace(state.unit("a"), x=end[0], y=end[1])
    gap = gap_between(moved, state.unit("h"))
    assert 0.1 < gap <= 0.1 + 1e-4  # just out of base contact (a Move may not end in it)


def test_the_bonus_forward_move_is_straight_toward_the_felled_enemy() -> None:
    """D000-08: facing where the felled enemy stood, straight on; a wall ahead stops it."""
    ruleset, state = build(
        [unit("a", AI, 12, 12, heading=90), unit("h", HUMANS, 3, 22)],
        [wall("hedge", 11, 9.5, 13, 10, blocks_los=False)],
    )
    state = with_rules(
        state,
        waiting=PendingKind.CONTINUE,
        bonus_unit="a",
        bonus_move_in=3.0,
        bonus_toward=(12.0, 11.0),
    )
    order = ai_order(ruleset, state)
    assert order.rule.startswith("bonus")
    assert order.action.path == ((12.0, 12.0), pytest.approx((12.0, 10.5), abs=1e-6))
    assert order.action.heading_deg is None
    after = apply(ruleset, state, order.action).state.unit("a")
    assert after.heading_deg == pytest.approx(180.0)


def test_the_autopilots_carrier_runs_straight_and_stops_at_the_obstacle() -> None:
    """G-05 for the human side in simulations too: a rock straight between the carrier and
    its edge stops the run there (it used to bend round the rock)."""
    ruleset, state = build(
        [unit("h", HUMANS, 12, 4, heading=180), unit("a", AI, 12, 22)],
        [wall("rock", 11, 1, 13, 2, blocks_los=False)],
        [objective("chest", 12, 4)],
        turn=HUMANS,
    )
    dice = ScriptedDice([])
    order = find_controller("autopilot").decide(state, ruleset, "h", dice)
    assert order.rule == "carry" and order.action.pick_up == "chest"
    assert order.action.path == ((12.0, 4.0), pytest.approx((12.0, 2.5), abs=1e-6))
    assert ruleset.validate(state, order.action) == []


def test_simulated_flights_and_carriers_never_bend() -> None:
    """G-05 over whole battles: every rout and every carrier run, of the AI and of the
    autopilot that plays the human side, is one straight leg perpendicular to an edge (in
    ford-at-dawn about half of the AI's used to bend; seed 2's Archer Fen bent round a rock)."""
    from assistant.scenarios import load_game
    from engine.runner import controllers_for, play_battle

    scenario, ruleset, state = load_game("ford-at-dawn")
    runs = 0
    for seed in range(10):
        record = play_battle(state, ruleset, controllers_for(scenario), SeededDice(seed))
        for order in record.orders:
            if order is None or not order.rule.startswith(("P1", "step 1", "forced", "carry")):
                continue
            path = order.action.path
            if len(path) < 2:
                continue
            runs += 1
            assert len(path) == 2, order
            (x0, y0), (x1, y1) = path
            assert math.isclose(x0, x1, abs_tol=1e-9) or math.isclose(y0, y1, abs_tol=1e-9), order
    assert runs >= 10


# --- 2. AI step 4 searches every movement pattern


def test_step4_finds_a_firing_position_that_needs_a_bend() -> None:
    """A wall right in front of the shooter: every straight leg that could bring the target in
    range runs into it; going round it (two legs of 3 in) gives a shot."""
    ruleset, state = build(
        [unit("a", AI, 12, 20, heading=180, rng=9), unit("h", HUMANS, 12, 8)],
        [wall("wall", 10, 18.5, 14, 19)],
    )
    order = ai_order(ruleset, state)
    assert order.rule.startswith("step 4")
    assert order.action.kind == ActionKind.MOVE_AND_SHOOT and order.action.target_id == "h"
    assert len(order.action.path) == 3
    assert order.distance_in <= 6.0 + 1e-6


def test_step4_finds_the_shortest_move_on_any_bearing() -> None:
    """The shot opens round the end of a thin wall; the shortest move runs square to the line
    from the target past the wall's corner, 55 degrees off the bearing to the target."""
    ruleset, state = build(
        [unit("a", AI, 12, 20, heading=180, rng=12), unit("h", HUMANS, 12, 10)],
        [wall("wall", 5, 15, 15.5, 15.2)],
    )
    order = ai_order(ruleset, state)
    assert order.rule.startswith("step 4")
    assert len(order.action.path) == 2
    # Distance from the start to the line through the target and the corner (15.5, 15).
    shortest = 3.5 * 10 / math.hypot(3.5, 5.0)
    assert shortest - 1e-6 <= order.distance_in <= shortest + 0.01
    assert bearing_deg(*order.action.path) == pytest.approx(125.0, abs=3.0)


# --- 3. no round limit unless the scenario sets one; a stalemate is a draw


def test_without_max_rounds_there_is_no_round_limit() -> None:
    ruleset, state = build([unit("a", AI, 4, 20, heading=180), unit("h", HUMANS, 4, 2)], turn=None)
    state = replace(state, round=12)
    outcome = apply(ruleset, state, Action(ActionKind.CHANCE), [2])
    assert outcome.state.round == 13
    assert (
        rules_of(outcome.state).waiting is PendingKind.CHOOSE_UNIT and outcome.state.winner is None
    )


def test_max_rounds_from_the_scenario_still_ends_the_battle() -> None:
    ruleset, state = build(
        [unit("a", AI, 4, 20, heading=180), unit("h", HUMANS, 4, 2)],
        options={"max_rounds": 3},
        turn=None,
    )
    outcome = apply(ruleset, replace(state, round=3), Action(ActionKind.CHANCE))
    assert rules_of(outcome.state).waiting is PendingKind.OVER
    assert "3 rounds played" in outcome.state.end_reason


def _pocket(x: float, y: float) -> list[dict]:
    """Four walls that hold a 1 in base at (x, y) exactly: it cannot move at all."""
    return [
        wall(f"w{x}a", x - 1.5, y - 1.5, x - 0.5, y + 1.5),
        wall(f"w{x}b", x + 0.5, y - 1.5, x + 1.5, y + 1.5),
        wall(f"w{x}c", x - 0.5, y - 1.5, x + 0.5, y - 0.5),
        wall(f"w{x}d", x - 0.5, y + 0.5, x + 0.5, y + 1.5),
    ]


def test_a_battle_nobody_can_ever_act_in_again_is_a_draw_that_says_why() -> None:
    ruleset, state = build(
        [unit("a", AI, 5, 18, heading=180, rng=30), unit("h", HUMANS, 18, 5, rng=30)],
        _pocket(5, 18) + _pocket(18, 5),
        turn=None,
    )
    outcome = apply(ruleset, replace(state, round=4), Action(ActionKind.CHANCE))
    end = of_type(outcome.events, EventType.END)[0]
    assert outcome.state.winner == "draw" and end.get("winner") == "draw"
    assert "neither side can ever act again" in outcome.state.end_reason
    # One side able to move keeps the battle going.
    freed = replace(state, round=4).with_unit(replace(state.unit("h"), x=12.0, y=12.0))
    going = apply(ruleset, freed, Action(ActionKind.CHANCE), [1])
    assert rules_of(going.state).waiting is PendingKind.CHOOSE_UNIT


# --- 4. a move ends facing along its last leg


def _walker():  # type: ignore[no-untyped-def]
    return build([unit("a", AI, 12, 18, heading=180, move=6), unit("h", HUMANS, 2, 2)])


def test_a_move_may_not_turn_after_its_last_leg() -> None:
    ruleset, state = _walker()
    turned = Action(ActionKind.MOVE, "a", path=((12, 18), (12, 12)), heading_deg=90.0)
    assert ruleset.validate(state, turned) == [
        "a ends the move facing along its last leg (180 degrees), not 90: "
        "a pivot comes only before a leg"
    ]
    along = Action(ActionKind.MOVE, "a", path=((12, 18), (12, 12)), heading_deg=180.05)
    assert ruleset.validate(state, along) == []
    moved = apply(ruleset, state, along).state.unit("a")
    assert moved.heading_deg == 180.0  # the leg's direction, not the rounded heading


def test_a_pivot_needs_a_last_leg_of_length_zero() -> None:
    ruleset, state = _walker()
    # Pattern 1: a leg of 3 in, a pivot, a second leg of length zero.
    pivot_after = Action(ActionKind.MOVE, "a", path=((12, 18), (12, 15), (12, 15)), heading_deg=90)
    assert ruleset.validate(state, pivot_after) == []
    assert apply(ruleset, state, pivot_after).state.unit("a").heading_deg == 90.0
    # Not after a full-length leg: pattern 1 allows 3 in before the pivot.
    too_far = Action(ActionKind.MOVE, "a", path=((12, 18), (12, 13), (12, 13)), heading_deg=90)
    assert ruleset.validate(state, too_far) == ["the first leg is 5 in, more than the 3 in allowed"]
    # Without a stated heading the facing is the last leg that moved.
    plain = Action(ActionKind.MOVE, "a", path=((12, 18), (15, 18), (15, 18)))
    assert apply(ruleset, state, plain).state.unit("a").heading_deg == 90.0


# --- 5. nearest-edge ties: own edge, else a logged roll


def test_a_tie_without_the_own_edge_is_rolled_and_the_roll_is_logged() -> None:
    ruleset, state = build(
        [unit("a", AI, 3, 3, heading=0, company="raiders"), unit("h", HUMANS, 20, 20)]
    )
    state = with_rules(state, routing_companies=frozenset({"raiders"}))
    order = ai_order(ruleset, state, rolls=[2])
    assert order.rolls == (("nearest-edge tie for a", 2),)
    assert order.action.path[-1][1] == 3.0  # the second tied edge (left)
    # A flight declared without a path is rolled by the ruleset, and the event says so.
    outcome = apply(ruleset, state, Action(ActionKind.FLEE, "a"), [1])
    roll = of_type(outcome.events, EventType.TIE)
    assert len(roll) == 1 and roll[0].get("roll") == 1 and roll[0].get("edge") == "front"
    assert "rolled 1" in roll[0].text


def test_a_human_flight_between_two_tied_edges_is_checked_against_the_roll() -> None:
    """G-05: a routing human figure as near the back edge as the left (neither its own) cannot
    pick one by announcing it; the tie is rolled and the flight must follow the roll."""
    ruleset, state = build(
        [unit("h", HUMANS, 3, 21, company="wardens"), unit("a", AI, 20, 3)], turn=HUMANS
    )
    state = with_rules(state, routing_companies=frozenset({"wardens"}))
    back = Action(ActionKind.FLEE, "h", path=((3.0, 21.0), (3.0, 23.55)))
    left = Action(ActionKind.FLEE, "h", path=((3.0, 21.0), (0.45, 21.0)))
    for announced in (back, left):
        (problem,) = ruleset.validate(state, announced)
        assert "as near the back and left edges: a d2 decides" in problem
    # Roll 1 of the d2 picks the back edge (tied edges in front, right, back, left order).
    rolled = replace(back, detail=(("edge_roll", 1),))
    assert ruleset.validate(state, rolled) == []
    wrong = replace(left, detail=(("edge_roll", 1),))
    assert ruleset.validate(state, wrong) == [
        "h rolled 1 for the tie between the back and left edges: it flees toward the back "
        "edge, not the left edge"
    ]
    # Announced without a path, the ruleset rolls the tie itself and logs it.
    outcome = apply(ruleset, state, Action(ActionKind.FLEE, "h"), [2])
    (tie,) = of_type(outcome.events, EventType.TIE)
    assert tie.get("roll") == 2 and tie.get("edge") == "left"
    assert outcome.state.unit("h").status is UnitStatus.ROUTED_OFF


def test_the_autopilots_flight_carries_its_tie_roll() -> None:
    ruleset, state = build(
        [unit("h", HUMANS, 3, 21, company="wardens"), unit("a", AI, 20, 3)], turn=HUMANS
    )
    state = with_rules(state, routing_companies=frozenset({"wardens"}))
    dice = ScriptedDice([2])
    order = find_controller("autopilot").decide(state, ruleset, "h", dice)
    assert order.action.get("edge_roll") == 2 and order.action.path[-1][1] == 21.0
    assert ruleset.validate(state, order.action) == []


def test_the_own_edge_settles_a_tie_without_a_roll() -> None:
    ruleset, state = build(
        [unit("a", AI, 3, 21, heading=0, company="raiders"), unit("h", HUMANS, 20, 2)]
    )
    state = with_rules(state, routing_companies=frozenset({"raiders"}))
    order = ai_order(ruleset, state)
    assert order.rolls == () and order.action.path[-1][0] == 3.0  # back edge, the AI's own
    assert not of_type(apply(ruleset, state, Action(ActionKind.FLEE, "a")).events, EventType.TIE)


# --- 6. contact and reach compare with a tolerance for floating point


@pytest.mark.parametrize(("x_ai", "x_h"), [(1.0, 2.1), (5.0, 6.1), (3.3, 4.4), (7.7, 8.8)])
def test_bases_0_1_in_apart_are_in_contact_whatever_the_rounding(x_ai: float, x_h: float) -> None:
    ruleset, state = build(
        [unit("a", AI, x_ai, 12, heading=90), unit("h", HUMANS, x_h, 12), unit("h2", HUMANS, 20, 2)]
    )
    assert [e.id for e in contacting_enemies(state, state.unit("a"))] == ["h"]
    assert ruleset.validate(state, melee("a", "h")) == []
    order = ai_order(ruleset, state, rolls=[])
    assert order.rule.startswith("step 2")


def test_next_to_an_objective_whatever_the_rounding() -> None:
    # Centre 1.2, marker 2.2: the gap is 0.5000000000000002 in floating point.
    ruleset, state = build(
        [unit("a", AI, 1.2, 12, heading=90), unit("h", HUMANS, 20, 2)],
        objectives=[objective("chest", 2.2, 12)],
    )
    grab = Action(ActionKind.MOVE, "a", pick_up="chest", heading_deg=90.0)
    assert ruleset.validate(state, grab) == []
    assert within_in(0.10000000000000009, 0.1) and within_in(0.0999999999999996, 0.1)
    assert not within_in(0.1001, 0.1)


# --- 7. a move and shoot may not end in base contact


def test_a_move_and_shoot_may_not_end_in_base_contact() -> None:
    ruleset, state = build([unit("a", AI, 12, 16, heading=180, rng=8), unit("h", HUMANS, 12, 10)])
    into_contact = Action(
        ActionKind.MOVE_AND_SHOOT, "a", path=((12, 16), (12, 11.05)), target_id="h"
    )
    assert ruleset.validate(state, into_contact) == [
        "the move ends in contact with h: a move and shoot may not end in base contact "
        "(only a move into melee may)"
    ]
    short = Action(ActionKind.MOVE_AND_SHOOT, "a", path=((12, 16), (12, 13)), target_id="h")
    assert ruleset.validate(state, short) == []
    outcome = apply(ruleset, state, short, [3])
    assert types(outcome.events)[:3] == [EventType.ACTIVATION, EventType.MOVE, EventType.ATTACK]

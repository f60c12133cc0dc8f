"""The seed-000 AI's priority list (RULES §2.k): each rule firing in a constructed position, and
each losing to the rule above it. Asserts on Order.rule, the action kind and the target.
"""

from __future__ import annotations

import math
from dataclasses import replace

from builders import AI, HUMANS, build, objective, unit, wall

from engine.actions import ActionKind, Order
from engine.dice import ScriptedDice
from engine.geometry import advance, point_gap_in
from engine.model import GameState
from engine.protocols import PendingKind, find_controller
from engine.rulesets.narrative.board import gap_between
from engine.rulesets.narrative.ruleset import NarrativeRuleset
from engine.rulesets.narrative.state import carrying, with_carrying, with_rules


def decide(ruleset: NarrativeRuleset, state: GameState, uid: str = "a", rolls=()) -> Order:
    """The AI's order for ``uid``; asserts it is legal and used exactly the scripted rolls."""
    dice = ScriptedDice(list(rolls))
    order = find_controller("narrative-ai").decide(state, ruleset, uid, dice)
    assert dice.remaining == 0
    assert ruleset.validate(state, order.action) == [], order
    return order


def step(order: Order) -> str:
    """The rule id: "P1", "step 3", "bonus"..."""
    return order.rule.split(":")[0]


# --- pre-activation


def test_p1_routing_beats_melee() -> None:
    ruleset, state = build(
        [unit("a", AI, 12, 12, heading=180, company="raiders"), unit("h", HUMANS, 12, 11)]
    )
    state = with_rules(state, routing_companies=frozenset({"raiders"}))
    order = decide(ruleset, state)
    assert step(order) == "P1"
    assert order.action.kind == ActionKind.FLEE


def test_p2_melee_beats_pickup_and_shooting() -> None:
    ruleset, state = build(
        [
            unit("a", AI, 12, 12, heading=180, rng=12),
            unit("h", HUMANS, 12, 11),
            unit("far", HUMANS, 18, 6),
        ],
        objectives=[objective("chest", 12.8, 12.5)],
    )
    order = decide(ruleset, state)
    assert step(order) == "step 2"
    assert order.action.kind == ActionKind.CONTINUE_MELEE
    assert order.action.target_id == "h"
    assert order.action.pick_up is None


def test_p3_pickup_then_step1_carry_beats_shooting() -> None:
    ruleset, state = build(
        [unit("a", AI, 12, 14, heading=180, rng=12), unit("h", HUMANS, 12, 8)],
        objectives=[objective("chest", 12.0, 13.2)],
    )
    order = decide(ruleset, state)
    assert order.action.pick_up == "chest"
    assert step(order) == "step 1"
    assert order.action.kind == ActionKind.MOVE
    assert order.action.path[-1] == (12.0, 20.0)  # straight for the back edge, a full move
    outcome = ruleset.apply(state, order.action, ScriptedDice([]))
    assert carrying(outcome.state.unit("a")) == "chest"


def test_step1_carrier_runs_off_its_nearest_edge() -> None:
    ruleset, state = build(
        [unit("a", AI, 12, 21, heading=180, rng=12), unit("h", HUMANS, 12, 14)],
        objectives=[objective("chest", 12, 21)],
    )
    state = state.with_unit(with_carrying(state.unit("a"), "chest"))
    state = state.with_objective(replace(state.objective("chest"), carried_by="a"))
    order = decide(ruleset, state)
    assert step(order) == "step 1"
    assert "off the table" in order.reason
    outcome = ruleset.apply(state, order.action, ScriptedDice([]))
    assert outcome.state.objective("chest").scored_by == AI


# --- steps 3 to 9


def test_t000_06_shoot_beats_visible_objective() -> None:
    ruleset, state = build(
        [unit("a", AI, 12, 18, heading=180, rng=10), unit("h", HUMANS, 12, 10)],
        objectives=[objective("chest", 10, 16)],
    )
    order = decide(ruleset, state)
    assert step(order) == "step 3"
    assert order.action.kind == ActionKind.SHOOT
    assert order.action.target_id == "h"


def test_step3_shoots_the_nearest_visible_enemy_in_range() -> None:
    ruleset, state = build(
        [
            unit("a", AI, 12, 18, heading=180, rng=12),
            unit("near", HUMANS, 12, 12),
            unit("nearer_hidden", HUMANS, 6, 14),
            unit("far", HUMANS, 16, 10),
        ],
        [wall("wall", 8, 15, 9.5, 16.5)],
    )
    order = decide(ruleset, state)
    assert step(order) == "step 3"
    assert order.action.target_id == "near"


def test_step3_characters_block_the_line() -> None:
    ruleset, state = build(
        [
            unit("a", AI, 12, 18, heading=180, rng=12),
            unit("screen", AI, 12, 15),
            unit("behind", HUMANS, 12, 12),
            unit("side", HUMANS, 17, 11),
        ]
    )
    order = decide(ruleset, state)
    assert order.action.target_id == "side"


def test_step4_move_and_shoot_beats_objective_and_uses_the_shortest_move() -> None:
    ruleset, state = build(
        [unit("a", AI, 12, 20, heading=180, rng=10), unit("h", HUMANS, 12, 6)],
        objectives=[objective("chest", 10, 18)],
    )
    order = decide(ruleset, state)
    assert step(order) == "step 4"
    assert order.action.kind == ActionKind.MOVE_AND_SHOOT
    assert order.action.target_id == "h"
    # 13 in apart with a 10 in range: the shortest straight move is 3 in toward the target.
    assert 3.0 - 1e-6 <= order.distance_in <= 3.25 + 1e-6
    assert order.action.path[-1][0] == 12.0


def test_step5_objective_in_reach_beats_charge() -> None:
    ruleset, state = build(
        [unit("a", AI, 12, 18, heading=180), unit("h", HUMANS, 15, 15)],
        objectives=[objective("chest", 10, 15)],
    )
    order = decide(ruleset, state)
    assert step(order) == "step 5"
    assert order.action.kind == ActionKind.MOVE
    end = order.action.path[-1]
    assert point_gap_in(end, 0.5, (10, 15)) <= 0.5


def test_step5_needs_the_objective_in_the_current_arc() -> None:
    """D000-03: the AI's "visible" test uses its current heading, without a pivot."""
    ruleset, state = build(
        [unit("a", AI, 12, 18, heading=180), unit("h", HUMANS, 12, 9)],
        objectives=[objective("chest", 12, 21)],  # behind it, in reach
    )
    order = decide(ruleset, state)
    assert step(order) == "step 8"


def test_step6_charge_beats_objective_in_sight() -> None:
    ruleset, state = build(
        [unit("a", AI, 12, 18, heading=180), unit("h", HUMANS, 12, 14)],
        objectives=[objective("chest", 4, 8)],
    )
    order = decide(ruleset, state)
    assert step(order) == "step 6"
    assert order.action.kind == ActionKind.MOVE_INTO_MELEE
    assert order.action.target_id == "h"
    moved = replace(state.unit("a"), x=order.action.path[-1][0], y=order.action.path[-1][1])
    assert gap_between(moved, state.unit("h")) <= 0.1


def test_step6_skips_enemies_already_in_contact() -> None:
    ruleset, state = build(
        [
            unit("a", AI, 12, 18, heading=180),
            unit("busy", HUMANS, 12, 14),
            unit("friend", AI, 13.02, 14, heading=270),
            unit("free", HUMANS, 9, 15),
        ]
    )
    order = decide(ruleset, state)
    assert step(order) == "step 6"
    assert order.action.target_id == "free"


def test_step7_objective_in_sight_beats_enemy_in_sight() -> None:
    ruleset, state = build(
        [unit("a", AI, 12, 20, heading=180), unit("h", HUMANS, 12, 8)],
        objectives=[objective("chest", 6, 10)],
    )
    order = decide(ruleset, state)
    assert step(order) == "step 7"
    assert order.action.kind == ActionKind.MOVE
    assert math.isclose(order.distance_in, 6.0, abs_tol=1e-6)
    end = order.action.path[-1]
    assert math.dist(end, (6, 10)) < math.dist((12, 20), (6, 10)) - 5.9


def test_step8_enemy_in_sight_beats_step9() -> None:
    ruleset, state = build(
        [unit("a", AI, 12, 20, heading=180), unit("h", HUMANS, 12, 8), unit("g", HUMANS, 3, 3)]
    )
    order = decide(ruleset, state)
    assert step(order) == "step 8"
    assert order.action.kind == ActionKind.MOVE
    assert math.isclose(order.distance_in, 6.0, abs_tol=1e-6)
    assert order.reason == "h is the nearest enemy in sight"


def test_step9_nothing_in_sight_faces_nearest_enemy() -> None:
    ruleset, state = build([unit("a", AI, 12, 10, heading=180), unit("h", HUMANS, 14, 22)])
    order = decide(ruleset, state)
    assert step(order) == "step 9"
    assert order.action.kind == ActionKind.MOVE
    assert order.action.path == ()
    expected = math.degrees(math.atan2(2, 12)) % 360
    assert math.isclose(order.action.heading_deg or 0.0, expected, abs_tol=1e-6)
    after = ruleset.apply(state, order.action, ScriptedDice([])).state.unit("a")
    assert (after.x, after.y) == (12, 10)
    assert math.isclose(after.heading_deg, expected, abs_tol=1e-6)


def test_step9_when_terrain_blocks_the_only_enemy() -> None:
    ruleset, state = build(
        [unit("a", AI, 12, 20, heading=180), unit("h", HUMANS, 12, 8)],
        [wall("wall", 9, 13, 15, 14)],
    )
    order = decide(ruleset, state)
    assert step(order) == "step 9"


# --- bonus activation (D000-08)


def _bonus_state(enemy_at: tuple[float, float]) -> tuple[NarrativeRuleset, GameState]:
    ruleset, state = build(
        [unit("a", AI, 12, 12, heading=90, move=6), unit("h", HUMANS, *enemy_at)]
    )
    state = with_rules(
        state,
        waiting=PendingKind.CONTINUE,
        bonus_unit="a",
        bonus_move_in=3.0,
        bonus_toward=(12.0, 11.0),
    )
    assert ruleset.pending(state).kind is PendingKind.CONTINUE
    return ruleset, state


def test_bonus_turns_to_the_felled_enemy_and_moves_forward_half() -> None:
    ruleset, state = _bonus_state((3, 22))  # behind it once it faces south: nothing applies
    order = decide(ruleset, state)
    assert step(order) == "bonus"
    end = order.action.path[-1]
    assert math.isclose(end[0], 12.0, abs_tol=1e-6) and math.isclose(end[1], 9.0, abs_tol=1e-6)
    assert math.isclose(order.distance_in, 3.0, abs_tol=1e-6)


def test_bonus_evaluates_steps_with_half_the_move() -> None:
    ruleset, state = _bonus_state(advance((12.0, 12.0), 200, 4.0))  # 3 in edge to edge
    order = decide(ruleset, state)
    assert step(order) == "step 6"
    assert order.action.kind == ActionKind.MOVE_INTO_MELEE
    assert order.distance_in <= 3.0 + 1e-6


def test_bonus_half_move_is_not_enough_for_a_farther_charge() -> None:
    ruleset, state = _bonus_state(advance((12.0, 12.0), 200, 5.0))  # 4 in away: step 8 instead
    order = decide(ruleset, state)
    assert step(order) == "step 8"
    assert order.distance_in <= 3.0 + 1e-6


def test_ai_activates_in_sheet_order_and_never_passes_with_characters_ready() -> None:
    ruleset, state = build(
        [
            unit("h", HUMANS, 12, 4),
            unit("second", AI, 4, 20, heading=180),
            unit("first", AI, 20, 20, heading=180),
        ]
    )
    ai = find_controller("narrative-ai")
    pending = ruleset.pending(state)
    assert pending.candidates == ("second", "first")  # sheet order = file order
    assert ai.choose_unit(state, ruleset, pending, ScriptedDice([])) == "second"
    state = state.with_unit(replace(state.unit("second"), activated=True))
    assert ai.choose_unit(state, ruleset, ruleset.pending(state), ScriptedDice([])) == "first"


# --- exact ties in "nearest" are broken by a logged roll (G-07)


def test_exact_tie_in_nearest_enemy_is_rolled() -> None:
    ruleset, state = build(
        [unit("a", AI, 12, 20, heading=180), unit("w", HUMANS, 9, 8), unit("e", HUMANS, 15, 8)]
    )
    first = decide(ruleset, state, rolls=[1])
    second = decide(ruleset, state, rolls=[2])
    assert step(first) == step(second) == "step 8"
    assert {first.reason.split(" ")[0], second.reason.split(" ")[0]} == {"w", "e"}
    assert first.rolls == (("nearest-target tie for a", 1),)


def test_exact_tie_in_step9_facing_is_rolled() -> None:
    ruleset, state = build(
        [unit("a", AI, 12, 10, heading=180), unit("w", HUMANS, 9, 22), unit("e", HUMANS, 15, 22)]
    )
    headings = {decide(ruleset, state, rolls=[r]).action.heading_deg for r in (1, 2)}
    assert len(headings) == 2

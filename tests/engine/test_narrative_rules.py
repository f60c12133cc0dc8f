"""Seed-000 rules through the real ruleset: rounds and passing (D000-06), co-operative rotation
(§2.c), bonus activations (D000-05), objectives (D000-11/12), victory, illegal actions, and line
of sight blocked by terrain and by other characters (G-03, seed-000 blockers).
"""

from __future__ import annotations

import json
import math
from dataclasses import replace

import pytest
from builders import AI, HUMANS, apply, build, melee, objective, of_type, shoot, types, unit, wall

from engine.actions import Action, ActionKind, EventType, IllegalActionError
from engine.dice import ScriptedDice
from engine.model import GameState, UnitStatus
from engine.protocols import PendingKind
from engine.rulesets.narrative.ruleset import NarrativeRuleset
from engine.rulesets.narrative.state import carrying, rules_of, with_carrying, with_rules


def pivot(uid: str, heading: float = 90.0) -> Action:
    """An activation that only turns the character (a move of no distance)."""
    return Action(ActionKind.MOVE, uid, heading_deg=heading)


def pass_(side: str | None = None) -> Action:
    return Action(ActionKind.PASS, side=side)


def _two_each() -> tuple[NarrativeRuleset, GameState]:
    return build(
        [
            unit("h1", HUMANS, 4, 3),
            unit("h2", HUMANS, 20, 3),
            unit("a1", AI, 4, 21, heading=180),
            unit("a2", AI, 20, 21, heading=180),
        ],
        turn=HUMANS,
    )


# --- round sequence and passing


def test_a_pass_gives_up_only_the_current_opportunity() -> None:
    ruleset, state = _two_each()
    state = apply(ruleset, state, pass_(HUMANS)).state
    assert state.active_side == AI and rules_of(state).passes_in_row == 1
    state = apply(ruleset, state, pivot("a1")).state
    assert state.active_side == HUMANS and rules_of(state).passes_in_row == 0
    assert ruleset.pending(state).candidates == ("h1", "h2")  # nobody lost a turn for good


def test_two_passes_in_a_row_end_the_round() -> None:
    ruleset, state = _two_each()
    state = apply(ruleset, state, pass_(HUMANS)).state
    outcome = apply(ruleset, state, pass_(AI))
    assert types(outcome.events) == [EventType.PASS, EventType.ROUND_END]
    assert rules_of(outcome.state).waiting is PendingKind.CHANCE
    assert ruleset.pending(outcome.state).kind is PendingKind.CHANCE
    # The next round clears the activation marks.
    nxt = apply(ruleset, outcome.state, Action(ActionKind.CHANCE), [5]).state
    assert nxt.round == 2 and not any(u.activated for u in nxt.units)


def test_generals_alternate_and_the_round_ends_when_all_have_activated() -> None:
    ruleset, state = _two_each()
    order = []
    for _ in range(4):
        pending = ruleset.pending(state)
        order.append(pending.side)
        outcome = apply(ruleset, state, pivot(pending.candidates[0]))
        state = outcome.state
    assert order == [HUMANS, AI, HUMANS, AI]
    assert EventType.ROUND_END in types(outcome.events)
    assert rules_of(state).waiting is PendingKind.CHANCE


def test_a_general_with_nobody_left_lets_the_other_keep_activating() -> None:
    ruleset, state = _two_each()
    state = state.with_unit(replace(state.unit("h2"), status=UnitStatus.FALLEN))
    state = apply(ruleset, state, pivot("h1")).state
    state = apply(ruleset, state, pivot("a1")).state
    assert state.active_side == AI  # the humans have nobody ready
    assert ruleset.pending(state).candidates == ("a2",)


def test_initiative_goes_to_the_other_side_if_the_winner_has_nobody_ready() -> None:
    ruleset, state = _two_each()
    units = tuple(replace(u, status=UnitStatus.FALLEN) if u.id == "h2" else u for u in state.units)
    state = with_rules(replace(state, units=units, active_side=None), waiting=PendingKind.CHANCE)
    state = apply(ruleset, state, Action(ActionKind.CHANCE), [6]).state
    assert state.active_side == HUMANS


def test_only_the_side_to_play_may_pass_or_activate() -> None:
    ruleset, state = _two_each()
    assert ruleset.validate(state, pass_(AI)) == ["AI cannot pass now"]
    problems = ruleset.validate(state, pivot("a1"))
    assert problems == ["a1 cannot act now (may act: h1, h2)"]
    with pytest.raises(IllegalActionError, match=r"a1 cannot act now \(may act: h1, h2\)"):
        ruleset.apply(state, pivot("a1"), ScriptedDice([]))


# --- co-operative play


def test_coop_rotation_h1_ai_h2_ai() -> None:
    ruleset, state = build(
        [
            unit("ann1", HUMANS, 3, 3, general="Ann"),
            unit("ann2", HUMANS, 6, 3, general="Ann"),
            unit("ben1", HUMANS, 18, 3, general="Ben"),
            unit("ben2", HUMANS, 21, 3, general="Ben"),
            *[unit(f"a{i}", AI, 3 + 5 * i, 21, heading=180) for i in range(4)],
        ],
        turn=HUMANS,
        generals=("Ann", "Ben"),
    )
    seen = []
    for _ in range(8):
        pending = ruleset.pending(state)
        seen.append(pending.general or pending.side)
        if pending.general is not None:
            owners = {state.unit(c).general for c in pending.candidates}
            assert owners == {pending.general}
        state = apply(ruleset, state, pivot(pending.candidates[0])).state
    assert seen == ["Ann", AI, "Ben", AI, "Ann", AI, "Ben", AI]


# --- bonus activation (D000-05)


def _charge_setup() -> tuple[NarrativeRuleset, GameState]:
    return build(
        [
            unit("a", AI, 12, 12, heading=180, move=6, atk=3),
            unit("h", HUMANS, 12, 11, company="band"),
            unit("h2", HUMANS, 12, 8.0, company="band"),
            unit("h3", HUMANS, 2, 2, company="band"),
            unit("h4", HUMANS, 22, 2, company="band"),
        ]
    )


def test_felling_in_melee_grants_a_half_move_bonus_and_chains() -> None:
    ruleset, state = _charge_setup()
    outcome = apply(ruleset, state, melee("a", "h"), [6])
    assert types(outcome.events)[-1] is EventType.BONUS_ACTIVATION
    state = outcome.state
    pending = ruleset.pending(state)
    assert pending.kind is PendingKind.CONTINUE and pending.candidates == ("a",)
    assert rules_of(state).bonus_move_in == 3.0 and rules_of(state).bonus_toward == (12, 11)
    # More than half the move is illegal in the bonus activation.
    too_far = Action(ActionKind.MOVE, "a", path=((12, 12), (15.5, 12)))
    assert ruleset.validate(state, too_far)
    # A charge of up to 3 in that fells again chains another bonus of half the BASE move.
    charge = Action(ActionKind.MOVE_INTO_MELEE, "a", path=((12, 12), (12, 9.02)), target_id="h2")
    assert ruleset.validate(state, charge) == []
    outcome = apply(ruleset, state, charge, [6])
    assert (
        rules_of(outcome.state).waiting is PendingKind.CONTINUE
        and rules_of(outcome.state).bonus_move_in == 3.0
    )
    # Declining the bonus ends the activation; the turn passes to the other side.
    outcome = apply(ruleset, outcome.state, pass_())
    assert (
        rules_of(outcome.state).waiting is PendingKind.CHOOSE_UNIT
        and outcome.state.active_side == HUMANS
    )
    assert outcome.state.unit("a").activated


def test_felling_by_shooting_grants_no_bonus() -> None:
    ruleset, state = build(
        [
            unit("a", AI, 12, 18, heading=180, rng=12),
            unit("h", HUMANS, 12, 10, company="band"),
            unit("h2", HUMANS, 2, 2, company="band"),
        ]
    )
    outcome = apply(ruleset, state, shoot("a", "h"), [6])
    assert EventType.FALL in types(outcome.events)
    assert EventType.BONUS_ACTIVATION not in types(outcome.events)
    assert (
        rules_of(outcome.state).waiting is PendingKind.CHOOSE_UNIT
        and outcome.state.active_side == HUMANS
    )


# --- objectives and victory


def test_pick_up_only_when_next_to_the_objective() -> None:
    ruleset, state = build(
        [unit("a", AI, 12, 12, heading=180), unit("h", HUMANS, 12, 2)],
        objectives=[objective("near", 13.0, 12.0), objective("far", 11.0 - 0.56, 12.0)],
    )
    take = Action(ActionKind.MOVE, "a", heading_deg=90, pick_up="near")
    assert ruleset.validate(state, take) == []  # 0.5 in from the base edge
    too_far = Action(ActionKind.MOVE, "a", heading_deg=90, pick_up="far")
    assert ruleset.validate(state, too_far) == ["a is not next to far"]
    outcome = apply(ruleset, state, take)
    assert carrying(outcome.state.unit("a")) == "near"
    assert outcome.state.objective("near").carried_by == "a"
    assert EventType.PICK_UP in types(outcome.events)


def _carrier(x: float, y: float) -> tuple[NarrativeRuleset, GameState]:
    ruleset, state = build(
        [
            unit("a", AI, x, y, heading=0, company="raiders"),
            unit("a2", AI, 4, 20, company="raiders"),
            unit("h", HUMANS, 12, 2, atk=5, rng=30),
        ],
        objectives=[objective("chest", x, y)],
    )
    state = state.with_unit(with_carrying(state.unit("a"), "chest"))
    state = state.with_objective(replace(state.objective("chest"), carried_by="a"))
    return ruleset, state


def test_a_carrier_leaving_by_an_edge_scores() -> None:
    ruleset, state = _carrier(12, 21)
    run_off = Action(ActionKind.MOVE, "a", path=((12, 21), (12, 24.1)))
    assert ruleset.validate(state, run_off) == []
    outcome = apply(ruleset, state, run_off)
    assert types(outcome.events)[1:3] == [EventType.SCORE, EventType.LEFT_TABLE]
    assert outcome.state.objective("chest").scored_by == AI
    assert outcome.state.unit("a").status is UnitStatus.ESCAPED
    assert not ruleset.check_state(outcome.state)


def test_a_non_carrier_may_not_leave_the_table() -> None:
    ruleset, state = _carrier(12, 21)
    off = Action(ActionKind.MOVE, "a2", path=((4, 20), (4, 24.2)))
    assert ruleset.validate(state, off) == ["the base would leave the table"]


def test_a_carrier_that_falls_drops_the_objective_where_it_stood() -> None:
    ruleset, state = _carrier(12, 14)
    state = replace(state, active_side=HUMANS)
    outcome = apply(ruleset, state, shoot("h", "a"), [6])
    assert EventType.DROP in types(outcome.events)
    chest = outcome.state.objective("chest")
    assert chest.carried_by is None and (chest.x, chest.y) == (12, 14)
    assert carrying(outcome.state.unit("a")) is None
    assert not ruleset.check_state(outcome.state)


def test_a_side_with_no_characters_on_the_table_loses() -> None:
    ruleset, state = build([unit("a", AI, 12, 12, heading=180, atk=3), unit("h", HUMANS, 12, 11)])
    outcome = apply(ruleset, state, melee("a", "h"), [6, 6])  # the fall, then the rout check
    end = of_type(outcome.events, EventType.END)[0]
    assert end.get("winner") == AI
    assert rules_of(outcome.state).waiting is PendingKind.OVER and outcome.state.winner == AI
    assert ruleset.pending(outcome.state).kind is PendingKind.OVER
    assert ruleset.validate(outcome.state, pass_()) == ["the battle is over"]


def test_after_the_round_limit_objectives_then_survivors_decide() -> None:
    ruleset, state = build(
        [unit("a", AI, 4, 20, heading=180), unit("h", HUMANS, 4, 2), unit("h2", HUMANS, 8, 2)],
        objectives=[objective("chest", 12, 12)],
        options={"max_rounds": 2},
        turn=None,
    )
    state = replace(state, round=2)
    outcome = apply(ruleset, state, Action(ActionKind.CHANCE))
    assert outcome.state.winner == HUMANS  # no objective scored; 2 standing against 1
    scored = replace(state.objective("chest"), scored_by=AI)
    outcome = apply(ruleset, state.with_objective(scored), Action(ActionKind.CHANCE))
    assert outcome.state.winner == AI


# --- illegal actions are refused with a plain reason


def _arena() -> tuple[NarrativeRuleset, GameState]:
    return build(
        [
            unit("a", AI, 12, 18, heading=180, move=6, rng=8),
            unit("brute", AI, 4, 18, heading=180, move=5),
            unit("h", HUMANS, 12, 8),
            unit("h2", HUMANS, 4, 17),  # in contact with the brute
        ],
        [wall("tower", 15, 12, 18, 15), wall("hedge", 18.5, 16, 23, 16.5, blocks_los=False)],
    )


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        (
            Action(ActionKind.MOVE, "a", path=((12, 18), (12, 11))),
            "the first leg is 7 in, more than the 6 in allowed",
        ),
        (Action(ActionKind.MOVE, "a", path=((11, 18), (11, 15))), "the path must start where a"),
        (shoot("a", "h"), "h is 9.0 in away, beyond the 8 in range"),
        (shoot("brute", "h"), "brute is in melee and must continue the melee"),
        (melee("a", "h"), "a is not in melee"),
        (shoot("a", "a"), "a is not an enemy on the table"),
        (
            Action(ActionKind.MOVE_INTO_MELEE, "a", path=((12, 18), (12, 13)), target_id="h"),
            "the move does not reach base contact with h",
        ),
        (Action(ActionKind.CHANCE), "no roll is due now"),
        (Action(ActionKind.FLEE, "a"), "a is not routing"),
        (Action(ActionKind.SHOOT, "ghost", target_id="h"), "there is no figure 'ghost'"),
    ],
)
def test_illegal_actions_are_refused_with_a_reason(action: Action, expected: str) -> None:
    ruleset, state = _arena()
    problems = ruleset.validate(state, action)
    assert problems and problems[0].startswith(expected), problems
    with pytest.raises(IllegalActionError) as err:
        ruleset.apply(state, action, ScriptedDice([6, 6, 6]))
    assert err.value.reasons[0].startswith(expected)
    # The message carries the action's JSON, the round and the step (python-chess style).
    shown = json.dumps(action.to_json(), separators=(", ", ": "))
    assert str(err.value).startswith(
        f"illegal action {shown} in round {state.round}, step {state.step}: {expected}"
    )


def test_a_character_without_a_range_cannot_shoot() -> None:
    ruleset, state = _arena()
    state = state.with_unit(replace(state.unit("h2"), x=20, y=2))  # free the brute
    assert ruleset.validate(state, shoot("brute", "h")) == ["brute has no shooting range"]


def test_a_move_may_not_end_in_contact_without_declaring_melee() -> None:
    ruleset, state = _arena()
    into = Action(ActionKind.MOVE, "a", path=((12, 18), (12, 13)))
    state = state.with_unit(replace(state.unit("h"), y=12.0))
    problems = ruleset.validate(state, into)
    assert problems == ["the move ends in contact with h: declare a move into melee instead"]


def test_a_unit_cannot_activate_twice_in_a_round() -> None:
    ruleset, state = _arena()
    state = state.with_unit(replace(state.unit("a"), activated=True))
    assert ruleset.validate(state, pivot("a")) == ["a has already activated this round"]


def test_a_routing_character_may_only_flee() -> None:
    ruleset, state = _arena()
    state = with_rules(state, routing_companies=frozenset({AI}))
    assert ruleset.validate(state, shoot("a", "h")) == ["a is routing and must flee"]
    outcome = apply(ruleset, state, Action(ActionKind.FLEE, "a"))
    moved = outcome.state.unit("a")
    assert (moved.x, moved.y) == (12, 23.5 + 0.05) and moved.status is UnitStatus.ROUTED_OFF


# --- line of sight in the seed-000 sense (terrain and any other character block)


def _sight(blocker: dict | None, terrain: list | None = None) -> list[str]:
    units = [unit("a", AI, 12, 20, heading=180, rng=20), unit("h", HUMANS, 12, 8)]
    if blocker is not None:
        units.append(blocker)
    ruleset, state = build(units, terrain)
    return ruleset.validate(state, shoot("a", "h"))


def test_los_clear() -> None:
    assert _sight(None) == []


def test_los_blocked_by_terrain_that_blocks_sight() -> None:
    assert _sight(None, [wall("tower", 11, 13, 13, 15)]) == ["a cannot see h"]


def test_los_not_blocked_by_low_terrain() -> None:
    assert _sight(None, [wall("hedge", 9, 13, 15, 13.5, blocks_los=False)]) == []


@pytest.mark.parametrize("side", [AI, HUMANS])
def test_los_blocked_by_any_other_character(side: str) -> None:
    assert _sight(unit("x", side, 12.3, 14)) == ["a cannot see h"]


def test_los_passes_beside_a_character() -> None:
    assert _sight(unit("x", HUMANS, 13.6, 14)) == []


def test_fallen_characters_do_not_block() -> None:
    ruleset, state = build(
        [
            unit("a", AI, 12, 20, heading=180, rng=20),
            unit("h", HUMANS, 12, 8),
            unit("x", HUMANS, 12, 14),
        ]
    )
    assert ruleset.validate(state, shoot("a", "h")) == ["a cannot see h"]
    state = state.with_unit(replace(state.unit("x"), status=UnitStatus.FALLEN))
    assert ruleset.validate(state, shoot("a", "h")) == []


def test_shoot_pivots_first_so_any_direction_is_legal() -> None:
    """D000-03: the arc is checked after the pivot, so a target behind can be shot."""
    ruleset, state = build([unit("a", AI, 12, 12, heading=0, rng=10), unit("h", HUMANS, 12, 4)])
    outcome = apply(ruleset, state, shoot("a", "h"), [2])
    assert math.isclose(outcome.state.unit("a").heading_deg, 180.0)


def test_no_pick_up_while_routing_or_in_melee() -> None:
    ruleset, state = build(
        [unit("a", AI, 12, 12, heading=180), unit("h", HUMANS, 12, 11), unit("far", HUMANS, 2, 2)],
        objectives=[objective("chest", 12.9, 12.3)],
    )
    grab_and_fight = Action(ActionKind.CONTINUE_MELEE, "a", target_id="h", pick_up="chest")
    assert ruleset.validate(state, grab_and_fight) == ["a is in melee and cannot pick anything up"]
    routing = with_rules(state, routing_companies=frozenset({AI}))
    grab_and_run = Action(ActionKind.FLEE, "a", pick_up="chest")
    assert ruleset.validate(routing, grab_and_run) == ["a is routing and cannot pick anything up"]


def test_an_announced_flight_fixes_the_edge_of_a_tie() -> None:
    """G-05: at a corner tie that is not its own edge the AI rolls once, in its order; applying
    that order flees the announced way and rolls nothing more."""
    from engine.protocols import find_controller

    ruleset, state = build(
        [unit("a", AI, 3, 3, heading=0, company="raiders"), unit("h", HUMANS, 20, 20)]
    )
    state = with_rules(state, routing_companies=frozenset({"raiders"}))
    for face, edge_x in ((1, 3.0), (2, None)):
        dice = ScriptedDice([face])
        order = find_controller("narrative-ai").decide(state, ruleset, "a", dice)
        assert order.action.kind == ActionKind.FLEE and len(dice.rolls) == 1
        outcome = apply(ruleset, state, order.action)  # no scripted rolls left to use
        moved = outcome.state.unit("a")
        assert moved.status is UnitStatus.ROUTED_OFF
        if edge_x is not None:
            assert moved.x == edge_x  # straight down off the front edge
        else:
            assert moved.y == 3.0  # straight left off the left edge


def test_a_flight_that_is_not_toward_the_nearest_edge_is_refused() -> None:
    ruleset, state = build(
        [unit("a", AI, 3, 12, heading=0, company="raiders"), unit("h", HUMANS, 20, 20)]
    )
    state = with_rules(state, routing_companies=frozenset({"raiders"}))
    wrong = Action(ActionKind.FLEE, "a", path=((3, 12), (9, 12)))
    assert ruleset.validate(state, wrong) == ["a must flee straight toward the nearest edge (left)"]


def test_autopilot_rolls_a_carrier_edge_tie_with_the_real_dice() -> None:
    from engine.protocols import find_controller

    ruleset, state = build(
        [unit("a", AI, 3, 20, heading=180), unit("h", HUMANS, 21, 21)],
        objectives=[objective("chest", 21, 21)],
        turn=HUMANS,
    )
    state = state.with_unit(with_carrying(state.unit("h"), "chest"))
    state = state.with_objective(replace(state.objective("chest"), carried_by="h"))
    autopilot = find_controller("autopilot")
    assert autopilot.choose_unit(state, ruleset, ruleset.pending(state), ScriptedDice([])) == "h"
    dice = ScriptedDice([2])
    order = autopilot.decide(state, ruleset, "h", dice)
    assert [r.purpose for r in dice.rolls] == ["nearest-edge tie for h"]
    assert order.action.kind == ActionKind.MOVE


# --- movement against terrain and bases (D000-02)


def _mover(terrain: list) -> tuple[NarrativeRuleset, GameState]:
    return build(
        [unit("a", AI, 4, 12, heading=90, move=6), unit("b", AI, 6, 14), unit("h", HUMANS, 20, 2)],
        terrain,
    )


def test_difficult_ground_counts_double() -> None:
    ruleset, state = _mover(
        [wall("marsh", 6, 0, 9, 24, blocks_los=False, impassable=False, difficult=True)]
    )
    # 5 in east: 1.5 in clear, then 3 in of marsh counted twice and 0.5 in clear = 8 in.
    problems = ruleset.validate(state, Action(ActionKind.MOVE, "a", path=((4, 12), (9.5, 12))))
    assert problems and "difficult ground counts double" in problems[0]
    # Ending in the marsh after 1.5 + 2 * 2.25 = 6 in is legal.
    assert ruleset.validate(state, Action(ActionKind.MOVE, "a", path=((4, 12), (7.75, 12)))) == []


def test_impassable_terrain_and_other_bases_block_a_leg() -> None:
    ruleset, state = _mover([wall("rock", 6, 8, 7, 12.8, blocks_los=False)])
    through_rock = ruleset.validate(state, Action(ActionKind.MOVE, "a", path=((4, 12), (9, 12))))
    assert through_rock == ["the path crosses rock"]
    through_friend = ruleset.validate(state, Action(ActionKind.MOVE, "a", path=((4, 12), (8, 16))))
    assert through_friend == ["the path runs through b"]


def _coop() -> tuple[NarrativeRuleset, GameState]:
    return build(
        [
            unit("ann1", HUMANS, 3, 3, general="Ann"),
            unit("ben1", HUMANS, 18, 3, general="Ben"),
            unit("a1", AI, 3, 21, heading=180),
        ],
        turn=HUMANS,
        generals=("Ann", "Ben"),
    )


def test_coop_a_pass_hands_the_next_human_turn_to_the_next_general() -> None:
    ruleset, state = _coop()
    assert ruleset.pending(state).general == "Ann"
    outcome = apply(ruleset, state, pass_(HUMANS))
    assert outcome.events[0].get("general") == "Ann"
    state = apply(ruleset, outcome.state, pivot("a1")).state
    assert ruleset.pending(state).general == "Ben"


def test_coop_the_round_ends_only_when_every_general_who_could_act_passed() -> None:
    ruleset, state = _coop()
    state = state.with_unit(replace(state.unit("a1"), activated=True))  # the AI is done
    state = apply(ruleset, state, pass_(HUMANS)).state  # Ann passes: Ben still may act
    assert rules_of(state).waiting is PendingKind.CHOOSE_UNIT
    assert ruleset.pending(state).general == "Ben"
    outcome = apply(ruleset, state, pass_(HUMANS))  # Ben passes too
    assert types(outcome.events) == [EventType.PASS, EventType.ROUND_END]


def test_the_rout_line_names_the_side_or_introduces_the_company() -> None:
    """A company the player never saw is named by its side when it is the whole side, else
    introduced with its side and its members."""
    units = [unit("h", HUMANS, 12, 11, atk=3), unit("a", AI, 12, 12, company="Cutthroats")]
    ruleset, state = build(units, turn=HUMANS)
    outcome = apply(ruleset, state, melee("h", "a"), [6, 6])  # a falls; the rout check
    (check,) = of_type(outcome.events, EventType.ROUT_CHECK)
    assert check.text == "AI have lost 1 of 1: rout check 6, they hold."
    assert check.get("company") == "Cutthroats"
    two = [*units, unit("b", AI, 20, 20, company="Cutthroats"), unit("c", AI, 4, 20)]
    ruleset, state = build(two, turn=HUMANS)
    state = state.with_unit(replace(state.unit("b"), status=UnitStatus.FALLEN))
    outcome = apply(ruleset, state, melee("h", "a"), [6, 2])
    check, routing = of_type(outcome.events, EventType.ROUT_CHECK) + of_type(
        outcome.events, EventType.ROUTING
    )
    assert check.text == "Cutthroats of the AI (a and b) have lost 2 of 2: rout check 2, they rout!"
    assert routing.text.startswith("Cutthroats of the AI (a and b) are routing")

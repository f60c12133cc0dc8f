"""The 2D6 skirmish's sequence and actions (RULES §3.2.b-j): three actions per activation
(D001B-13), Move 4 + Speed (D001B-02), status effects and Recover, Aim and Shoot (sight through
enemies but not friends, D001B-12), the two-step Charge (D001B-06), objectives held and VP, the
build rules (T001B-09)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.actions import Action
from engine.model import UnitStatus
from engine.protocols import PendingKind
from engine.rulesets.skirmish2d6.fighters import build_problems, card_from
from engine.rulesets.skirmish2d6.state import rules_of, victory_points
from engine.scenario import ScenarioError, parse_scenario
from tests.skirmish2d6.fights import A, B, act, checks, fight, fighter, game, types


def _move(uid: str, *path: tuple[float, float]) -> Action:
    return Action("move", uid, path=path)


def test_three_actions_then_the_other_side_activates() -> None:
    ruleset, state = game([fighter("a", A, 5, 5, speed=2), fighter("b", B, 30, 30)])
    assert ruleset.pending(state).kind is PendingKind.CHOOSE_UNIT
    for i in range(3):
        y = 5 + 6 * (i + 1)
        state, events, _ = act(ruleset, state, _move("a", (5, y - 6), (5, y)))
        if i == 0:
            assert types(events)[0] == "activation"
        if i < 2:
            pending = ruleset.pending(state)
            assert (pending.kind, pending.unit, pending.may_pass) == (
                PendingKind.CONTINUE,
                "a",
                True,
            )
    pending = ruleset.pending(state)
    assert (pending.kind, pending.side) == (PendingKind.CHOOSE_UNIT, B)


def test_a_move_is_four_plus_speed_inches() -> None:
    ruleset, state = game([fighter("a", A, 5, 5, speed=2), fighter("b", B, 30, 30)])
    assert not ruleset.validate(state, _move("a", (5, 5), (5, 11)))
    assert ruleset.validate(state, _move("a", (5, 5), (5, 11.1)))
    wounded = state.with_unit(replace(state.unit("a"), statuses=frozenset({"wounded"})))
    assert ruleset.validate(wounded, _move("a", (5, 5), (5, 10.5)))  # Speed 1: 5 in
    staggered = state.with_unit(replace(state.unit("a"), statuses=frozenset({"staggered"})))
    assert "Staggered" in ruleset.validate(staggered, _move("a", (5, 5), (5, 6)))[0]
    assert "Staggered" in ruleset.validate(staggered, fight("a", "b"))[0]


def test_moves_in_a_row_are_one_path_spending_as_many_actions() -> None:
    ruleset, state = game([fighter("a", A, 5, 5, speed=2), fighter("b", B, 30, 30)])
    two = Action("move", "a", path=((5, 5), (5, 12), (9, 14)), detail=(("actions", 2),))
    assert not ruleset.validate(state, two)  # 7 + 4.5 in of 12
    assert "may move 6 in" in ruleset.validate(state, replace(two, detail=()))[0]
    four = replace(two, detail=(("actions", 4),))
    assert "1 to 3 actions" in ruleset.validate(state, four)[0]
    state, events, _ = act(ruleset, state, two)
    assert events[-1].get("actions") == 2 and rules_of(state).actions_left == 1
    again = Action("move", "a", path=((9, 14), (9, 20)), detail=(("actions", 2),))
    assert "2 Moves need 2 actions" in ruleset.validate(state, again)[0]


def test_pass_ends_the_activation() -> None:
    ruleset, state = game([fighter("a", A, 5, 5), fighter("b", B, 30, 30)])
    state, _, _ = act(ruleset, state, _move("a", (5, 5), (5, 6)))
    state, events, _ = act(ruleset, state, Action("pass", "a", side=A))
    assert ruleset.pending(state).side == B and types(events) == ["pass"]


def test_recover_takes_two_actions_and_removes_the_named_status() -> None:
    ruleset, state = game([fighter("a", A, 5, 5, skill=1), fighter("b", B, 30, 30)])
    unit = replace(state.unit("a"), statuses=frozenset({"stunned", "wounded"}))
    state = state.with_unit(unit)
    # Skill 1 - 1 (Wounded) - 3 (Stunned) = -3: 2d6 - 3 must beat 7.
    state, events, _ = act(
        ruleset, state, Action("recover", "a", detail=(("status", "stunned"),)), [6, 5]
    )
    (check,) = checks(events)
    assert (check.get("kind"), check.get("value"), check.get("against")) == ("basic", -3, 7)
    assert check.get("result") == "success"
    assert state.unit("a").statuses == frozenset({"wounded"})
    assert rules_of(state).actions_left == 1
    assert "two actions" in ruleset.validate(state, Action("recover", "a"))[0]


def test_aim_adds_one_to_the_next_shot_only() -> None:
    ruleset, state = game([fighter("a", A, 5, 5, skill=2, weapons=["bow"]), fighter("b", B, 5, 15)])
    state, _, _ = act(ruleset, state, Action("aim", "a"))
    assert ruleset.validate(state, Action("aim", "a"))  # not twice
    shot = Action("shoot", "a", target_id="b")
    state, events, _ = act(ruleset, state, shot, [1, 1, 6, 6])
    assert checks(events)[0].get("value") == 3
    state, events, _ = act(ruleset, state, shot, [1, 1, 6, 6])
    assert checks(events)[0].get("value") == 2


def test_sight_is_blocked_by_friends_and_terrain_but_not_by_enemies() -> None:
    units = [
        fighter("a", A, 5, 5, weapons=["bow"]),
        fighter("friend", A, 5, 10),
        fighter("b", B, 5, 15),
        fighter("c", B, 12, 5),
        fighter("d", B, 20, 5),
        fighter("e", B, 12, 15),
    ]
    wall = {
        "id": "w",
        "name": "the wall",
        "polygon": [[8, 8], [9, 8], [9, 12], [8, 12]],
        "blocks_los": True,
    }
    ruleset, state = game(units, terrain=[wall])
    assert "cannot see" in ruleset.validate(state, Action("shoot", "a", target_id="b"))[0]
    assert "cannot see" in ruleset.validate(state, Action("shoot", "a", target_id="e"))[0]
    assert not ruleset.validate(state, Action("shoot", "a", target_id="d"))  # through c
    ruleset, state = game(
        [fighter("a", A, 5, 5, weapons=["bow"]), fighter("b", B, 5, 25)], terrain=[]
    )
    assert "beyond 18 in" in ruleset.validate(state, Action("shoot", "a", target_id="b"))[0]
    no_bow = game([fighter("a", A, 5, 5), fighter("b", B, 5, 9)])
    assert "no bow" in no_bow[0].validate(no_bow[1], Action("shoot", "a", target_id="b"))[0]


def test_a_charge_rolls_its_reach_then_runs_and_fights_on_contact() -> None:
    ruleset, state = game([fighter("a", A, 10, 10), fighter("b", B, 10, 16)])
    state, events, _ = act(ruleset, state, fight("a", "b"), [3, 4])
    charge = next(e for e in events if e.type == "charge")
    assert charge.get("reach_in") == 7 and tuple(charge.get("rolls")) == (3, 4)
    pending = ruleset.pending(state)
    assert (pending.kind, pending.unit, pending.may_pass) == (PendingKind.CONTINUE, "a", False)
    run = ruleset.charge_run(state)
    assert run[-1] == pytest.approx((10, 15))
    assert ruleset.validate(state, Action("move", "a", path=run))
    state, events, _ = act(
        ruleset, state, Action("charge_move", "a", path=run), [6, 6, 1, 1, 1, 1, 6, 6]
    )
    assert types(events)[:2] == ["move", "check"]
    assert rules_of(state).actions_left == 2


def test_a_short_charge_runs_the_full_roll_and_does_not_fight() -> None:
    ruleset, state = game([fighter("a", A, 10, 10), fighter("b", B, 10, 20)])
    state, _, _ = act(ruleset, state, fight("a", "b"), [1, 2])
    run = ruleset.charge_run(state)
    assert run[-1] == pytest.approx((10, 13))
    stop = Action("charge_move", "a", path=((10, 10), (10, 12)))
    assert "runs its whole 3 in" in ruleset.validate(state, stop)[0]  # D001B-06
    state, events, _ = act(ruleset, state, Action("charge_move", "a", path=run))
    assert "check" not in types(events) and "charge_short" in types(events)


def test_a_charge_beyond_twelve_inches_may_be_declared_and_runs_the_whole_roll() -> None:
    """RULES sets no charge limit: 13 in away, a 12 runs 12 in and falls short."""
    ruleset, state = game([fighter("a", A, 10, 10), fighter("b", B, 10, 24)])
    assert ruleset.validate(state, fight("a", "b")) == []
    state, _, _ = act(ruleset, state, fight("a", "b"), [6, 6])
    run = ruleset.charge_run(state)
    assert run[-1] == pytest.approx((10, 22))
    state, events, _ = act(ruleset, state, Action("charge_move", "a", path=run))
    assert "charge_short" in types(events) and "check" not in types(events)


def test_drive_backs_are_carried_out_one_model_at_a_time() -> None:
    ruleset, state = game([fighter("a", A, 10, 10), fighter("b", B, 11, 10)])
    state, _, _ = act(ruleset, state, fight("a", "b"), [1, 1, 6, 6], drive=False)
    assert state.unit("a").x == 10  # it stays until the player drives it back
    pending = ruleset.pending(state)
    assert (pending.kind, pending.unit, pending.purpose) == (
        PendingKind.CONTINUE,
        "a",
        "drive back",
    )
    drive = ruleset.drive_action(state)
    assert drive.path[0] == pytest.approx((10, 10)) and drive.path[1] == pytest.approx((9, 10))
    assert ruleset.validate(state, Action("pass", "a"))
    state, _, _ = act(ruleset, state, drive)
    assert state.unit("a").x == pytest.approx(9)
    assert ruleset.pending(state).kind is PendingKind.CONTINUE  # a has 2 actions left


OBJ = {"id": "o", "name": "the cairn", "x": 18.0, "y": 18.0}
CAIRN = {
    "id": "o",
    "name": "the cairn",
    "polygon": [[17, 17], [19, 17], [19, 19], [17, 19]],
    "impassable": True,
}


def test_an_objective_is_held_by_more_models_within_one_inch() -> None:
    units = [
        fighter("a1", A, 16.2, 18),
        fighter("a2", A, 18, 16.2),
        fighter("b1", B, 19.8, 18),
        fighter("b2", B, 30, 30),
    ]
    _ruleset, state = game(units, terrain=[CAIRN], objectives=[OBJ])
    assert victory_points(state) == {A: 3, B: 0}
    state = state.with_unit(replace(state.unit("b2"), x=18, y=19.8))
    assert victory_points(state) == {A: 0, B: 0}  # 2 against 2: nobody
    state = state.with_unit(replace(state.unit("b2"), status=UnitStatus.FALLEN))
    assert victory_points(state) == {A: 4, B: 0}  # a kill and the cairn


def test_the_game_ends_after_round_four_with_the_vp_and_a_wipe_out_ends_it_at_once() -> None:
    units = [fighter("a", A, 16.2, 18), fighter("b", B, 30, 30)]
    ruleset, state = game(units, terrain=[CAIRN], objectives=[OBJ], options={"max_rounds": 1})
    state, _, _ = act(ruleset, state, Action("pass", "a", side=A))
    state, events, _ = act(ruleset, state, Action("pass", "b", side=B))
    end = events[-1]
    assert end.type == "end" and end.get("winner") == A and end.get("vp") == {A: 3, B: 0}
    assert ruleset.pending(state).kind is PendingKind.OVER
    ruleset, state = game([fighter("a", A, 10, 10), fighter("b", B, 11, 10, armor=1)])
    state, events, _ = act(ruleset, state, fight("a", "b"), [6, 6, 1, 1, 6, 6, 1, 1])
    assert events[-1].type == "end" and state.winner == A


def test_t001b_09_builds() -> None:
    assert not build_problems(
        {"skill": 3, "speed": 1, "armor": 2, "role": "champion", "weapons": ["sword", "shield"]}
    )
    assert card_from({"skill": 1, "speed": 2, "armor": 3, "role": "champion"}).shown_stats == (
        2,
        3,
        4,
    )
    bad = build_problems(
        {
            "skill": 3,
            "speed": 3,
            "armor": 1,
            "role": "wizard",
            "weapons": ["maul", "shield", "spear"],
        }
    )
    text = " | ".join(bad)
    assert "1, 2 and 3" in text and "'wizard' is not a role" in text
    assert "'spear' is not a weapon" in text
    assert "two-handed maul leaves no hand for the shield" in text
    assert (
        build_problems(
            {"skill": 1, "speed": 2, "armor": 3, "role": "hunter", "weapons": ["sword", "axe"]}
        )
        == []
    )
    assert (
        "need 3 hands"
        in build_problems(
            {
                "skill": 1,
                "speed": 2,
                "armor": 3,
                "role": "hunter",
                "weapons": ["sword", "axe", "mace"],
            }
        )[0]
    )


def test_a_bad_build_in_a_scenario_names_the_unit_and_the_reason() -> None:
    with pytest.raises(ScenarioError, match=r"units\[1\]\.card: .*two-handed longsword"):
        game([fighter("a", A, 5, 5), fighter("b", B, 9, 9, weapons=["longsword", "shield"])])


def test_the_table_query_uses_the_skirmish_rules() -> None:
    """A controller for any ruleset sees 4 + Speed moves, sight through enemies but not
    friends, and bow targets in sight and range (RULES §1.7)."""
    units = [
        fighter("a", A, 5, 5, speed=3, weapons=["bow"]),
        fighter("friend", A, 5, 10),
        fighter("b", B, 5, 15),
        fighter("c", B, 12, 5),
        fighter("d", B, 20, 5),
        fighter("far", B, 30, 30),
    ]
    ruleset, state = game(units)
    query = ruleset.query(state)
    a = state.unit("a")
    assert query.movement_allowance_in(a) == 7
    assert not query.visible(a, state.unit("b")) and query.visible(a, state.unit("d"))
    assert [u.id for u in query.targets(a, "shoot")] == ["c", "d"]
    assert query.move_toward(a, (5, 1))[-1] == (5, 1)  # 4 in: nothing in the way
    assert query.move_toward(a, (5, 0))[-1][1] == pytest.approx(0.5, abs=1e-5)  # the edge


def test_each_round_opens_with_a_roll_off_and_a_tie_is_settled_by_one_more_die() -> None:
    """D001B-13; the tie die keeps the roll bounded (footage read back can branch over it)."""
    ruleset, state = game([fighter("a", A, 5, 5), fighter("b", B, 30, 30)])
    fresh = replace(state, round=0, active_side=None)
    for rolls, first in (([2, 5], B), ([6, 1], A), ([3, 3, 2], B), ([3, 3, 1], A)):
        after, events, _ = act(ruleset, fresh, Action("chance"), rolls)
        assert after.active_side == first and events[1].get("side") == first
    assert ruleset.pending(state).kind is PendingKind.CHOOSE_UNIT
    state, _, _ = act(ruleset, state, Action("pass", "a", side=A))
    state, _, _ = act(ruleset, state, Action("pass", "b", side=B))
    pending = ruleset.pending(state)
    assert (pending.kind, pending.purpose) == (PendingKind.CHANCE, "roll-off")
    state, _, _ = act(ruleset, state, Action("chance"), [1, 4])
    assert state.round == 2 and not any(u.activated for u in state.units)


def test_an_objective_marker_outside_terrain_is_held_by_the_marker_alone() -> None:
    marker = {"id": "m", "name": "the standard", "x": 18.0, "y": 18.0}
    units = [fighter("a", A, 18, 19.4), fighter("b", B, 18, 21)]  # 0.9 and 2.5 in away
    _, state = game(units, objectives=[marker])
    assert victory_points(state) == {A: 3, B: 0}


def test_a_neutral_side_is_refused_in_one_line() -> None:
    from engine.scenario import Scenario

    scenario = Scenario.model_validate(
        {
            "scenario": {"name": "n", "ruleset": "skirmish2d6", "ai_controller": "skirmish-ai"},
            "sides": [
                {"name": A, "role": "human", "edge": "front"},
                {"name": B, "role": "ai", "edge": "back"},
                {"name": "Crows", "role": "neutral", "edge": "left"},
            ],
            "units": [fighter("a", A, 5, 5), fighter("b", B, 9, 9), fighter("c", "Crows", 2, 9)],
            "source": "n.toml",
        }
    )
    from engine.protocols import find_ruleset

    with pytest.raises(ScenarioError, match=r"n.toml: sides\[2\]: the 2D6 skirmish has no neutral"):
        find_ruleset("skirmish2d6").new_game(scenario)


_NO_TABLE = """
version = 1
[scenario]
name = "no-table"
ruleset = "{ruleset}"
ai_controller = "{ai}"
[[sides]]
name = "Alpha"
role = "human"
edge = "front"
[[sides]]
name = "Beta"
role = "ai"
edge = "back"
[[units]]
id = "a"
name = "A"
side = "Alpha"
x = 4
y = 4
card = {card}
[[units]]
id = "b"
name = "B"
side = "Beta"
x = 30
y = 30
card = {card}
"""
_CARD = '{ skill = 1, speed = 2, armor = 3, role = "follower", weapons = ["sword"] }'


def test_a_scenario_without_a_table_gets_the_rulesets_36_by_36_inches() -> None:
    """§3.2.b: the 2D6 skirmish's table is 36 x 36 in unless the scenario says otherwise."""
    text = _NO_TABLE.format(ruleset="skirmish2d6", ai="skirmish-ai", card=_CARD)
    scenario = parse_scenario(text, "no-table.toml")
    assert (scenario.table.width_in, scenario.table.depth_in) == (36.0, 36.0)
    narrow = parse_scenario(text.replace("[[sides]]", "[table]\nwidth_in = 48\n[[sides]]", 1))
    assert (narrow.table.width_in, narrow.table.depth_in) == (48.0, 36.0)
    card = "{ move_in = 6, attack = 1, defence = 1, wound_slots = 1 }"
    with pytest.raises(ScenarioError, match="not wholly on the 24 x 24 in table"):
        parse_scenario(_NO_TABLE.format(ruleset="narrative", ai="narrative-ai", card=card))

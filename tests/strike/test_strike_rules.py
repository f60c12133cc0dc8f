"""The strike system's rule readings (RULES §3.1, D001A-01..07) and derived tests T001A-01..05,
with scripted dice and constructed boards."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.actions import Action, ActionKind, IllegalActionError
from engine.dice import ScriptedDice
from engine.protocols import PendingKind
from engine.rulesets.strike.board import StrikeBoard
from engine.rulesets.strike.count import COVER, OBSCURED, Counted, apply_disregard
from engine.rulesets.strike.odds import (
    expected_count,
    p_at_least,
    p_at_least_enumerated,
)
from engine.rulesets.strike.state import activatable, rules_of
from engine.rulesets.strike.victory import victory_points
from tests.strike.builders import RULESET, game, soldier, with_pools


# ---------------------------------------------------------------- T001A-01
@pytest.mark.parametrize(
    ("n", "exact", "shown"),
    [
        (1, Fraction(1, 6), 0.1667),
        (2, Fraction(11, 36), 0.3056),
        (3, Fraction(91, 216), 0.4213),
        (4, Fraction(671, 1296), 0.5177),
        (5, None, 0.5981),
        (6, Fraction(31031, 46656), 0.6651),
        (8, None, 0.7674),
        (10, None, 0.8385),
        (12, None, 0.8878),
    ],
)
def test_t001a_01_a_given_face_at_least_once(n: int, exact: Fraction | None, shown: float) -> None:
    p = p_at_least(n)
    assert p == 1 - Fraction(5, 6) ** n
    if exact is not None:
        assert p == exact
    if n <= 6:
        assert p_at_least_enumerated(n) == p  # every one of the 6^n outcomes listed
    assert round(float(p), 4) == shown
    assert expected_count(n) == Fraction(n, 6)


# ---------------------------------------------------------------- T001A-02
def test_t001a_02_activation_capacity() -> None:
    faces = [1, 1, 4, 4, 6, 5]  # Command x2, Heavy x2, Support, Skirmish
    capacity = activatable((1, 1, 4, 6, 6), faces)
    assert capacity == {1: 2, 4: 1, 5: 0, 6: 1}
    used = sum(capacity.values())
    assert 5 - used == 1  # one 6 left over for skills


def test_t001a_02_through_the_rules_the_candidates_match_the_pool() -> None:
    kinds = ["command", "command", "heavy", "heavy", "support", "skirmish"]
    units = [soldier(f"a{i}", "A", 2 + 3 * i, 2, kind=k) for i, k in enumerate(kinds)]
    units.append(soldier("b1", "B", 12, 22))
    state = with_pools(game(units), A=[1, 1, 4, 6, 6], B=[2])
    pending = RULESET.pending(state)
    assert pending.kind is PendingKind.CHOOSE_UNIT and pending.side == "A"
    assert pending.candidates == ("a0", "a1", "a2", "a3", "a4")  # no 5: the Skirmisher waits
    refused = RULESET.validate(state, Action("hold", "a5"))
    assert refused == ["A5 (skirmish) needs a die showing 5 and there is none"]


def test_a_states_decision_point_is_worked_out_once() -> None:
    # the replay asks the decision point of every state it tries several times: the same
    # state answers with the one object, kept in the game's memo, not on the state
    state = with_pools(game([soldier("a1", "A", 2, 2), soldier("b1", "B", 12, 22)]), A=[1], B=[1])
    first = RULESET.pending(state)
    assert RULESET.pending(state) is first
    assert "turn-order" not in str(vars(state))


# ---------------------------------------------------------------- T001A-03
def _t001a_03_board(with_s5: bool = True) -> tuple[StrikeBoard, object]:
    """E (Toughness 3) at (12, 12); a low wall (cover, no sight block) 0.5 in west of E's base;
    a B soldier beside S2's right sight line."""
    units = [
        soldier("s1", "A", 12, 6),  # clear, weight 1 (the striker)
        soldier("s2", "A", 12, 18),  # one tangent blocked by b2: obscured
        soldier("s3", "A", 6, 12),  # behind the wall: in cover
        soldier("s4", "A", 6, 13, deadly=True),  # behind the wall, Deadly: in cover, weight 2
        soldier("b1", "B", 12, 12, toughness=3),  # E
        soldier("b2", "B", 12.9, 15),
    ]
    if with_s5:
        units.insert(4, soldier("s5", "A", 18, 12, lethal=True))  # clear, Lethal: weight 3
    wall = {
        "id": "wall",
        "name": "the wall",
        "polygon": [[10.6, 10], [11.0, 10], [11.0, 14], [10.6, 14]],
        "cover": "hard",
        "impassable": True,
    }
    state = with_pools(game(units, terrain=[wall]), A=[2, 2], B=[2])
    return StrikeBoard(state), state


def test_t001a_03_the_count_of_the_worked_example() -> None:
    board, state = _t001a_03_board()
    from engine.model import GameState

    assert isinstance(state, GameState)
    count = board.count(state.unit("s1"), state.unit("b1"))
    classes = {c.unit: c.cls for c in (*count.counted, *count.disregarded)}
    assert classes == {"s1": "clear", "s2": OBSCURED, "s3": COVER, "s4": COVER, "s5": "clear"}
    assert sorted(c.unit for c in count.disregarded) == ["s2", "s3", "s4"]
    assert [(c.unit, c.weight) for c in count.counted] == [("s1", 1), ("s5", 3)]
    assert count.total == 4 and count.removed


def test_t001a_03_the_strike_line_and_the_removal() -> None:
    _, state = _t001a_03_board()
    from engine.model import GameState, UnitStatus

    assert isinstance(state, GameState)
    out = RULESET.apply(state, Action("strike", "s1", target_id="b1"), ScriptedDice([]))
    strike = next(e for e in out.events if e.type == "strike").to_json()
    assert {k: strike[k] for k in ("unit", "target", "toughness", "total", "removed")} == {
        "unit": "s1",
        "target": "b1",
        "toughness": 3,
        "total": 4,
        "removed": True,
    }
    assert strike["counted"] == [
        {"unit": "s1", "weight": 1, "class": "clear"},
        {"unit": "s5", "weight": 3, "class": "clear"},
    ]
    assert [d["unit"] for d in strike["disregarded"]] == ["s2", "s3", "s4"]
    assert out.state.unit("b1").status is UnitStatus.FALLEN
    activation = out.events[0].to_json()
    assert activation["type"] == "activation" and activation["die"] == 2


def test_t001a_03_without_the_lethal_ally_the_target_stands() -> None:
    board, state = _t001a_03_board(with_s5=False)
    from engine.model import GameState

    assert isinstance(state, GameState)
    count = board.count(state.unit("s1"), state.unit("b1"))
    assert count.total == 1 and not count.removed


# ---------------------------------------------------------------- T001A-04
def test_t001a_04_the_lowest_weight_is_disregarded_first() -> None:
    entries = [Counted("x", 3, OBSCURED, 2.0), Counted("y", 1, OBSCURED, 1.0)]
    kept, dropped = apply_disregard(entries)
    assert [d.unit for d in dropped] == ["y"] and sum(k.weight for k in kept) == 3


def test_d001a_04c_ties_disregard_the_farthest_first() -> None:
    entries = [
        Counted("near", 1, COVER, 1.0),
        Counted("far", 1, COVER, 5.0),
        Counted("mid", 1, COVER, 3.0),
        Counted("heavy", 2, COVER, 9.0),
    ]
    kept, dropped = apply_disregard(entries)
    assert [d.unit for d in dropped] == ["far", "mid"]
    assert [k.unit for k in kept] == ["near", "heavy"]


# ---------------------------------------------------------------- T001A-05
@pytest.mark.parametrize(("gap", "legal"), [(3.0, True), (3.01, False)])
def test_t001a_05_threat_range_boundary(gap: float, legal: bool) -> None:
    units = [soldier("a1", "A", 5, 5, threat="close"), soldier("b1", "B", 5, 5 + 1 + gap)]
    state = with_pools(game(units), A=[2], B=[2])
    problems = RULESET.validate(state, Action("strike", "a1", target_id="b1"))
    assert (problems == []) is legal
    if not legal:
        assert problems == ["B1 is 3.01 in away, beyond A1's close threat range"]


# ---------------------------------------------------------------- D001A-01/03
def test_d001a_01_the_pool_is_the_initiative_of_the_soldiers_on_the_table() -> None:
    units = [
        soldier("a1", "A", 4, 2, kind="command", initiative=2),
        soldier("a2", "A", 8, 2, initiative=1),
        soldier("b1", "B", 4, 22, kind="heavy", initiative=3),
    ]
    state = game(units)
    assert RULESET.pending(state).kind is PendingKind.CHANCE
    dice = ScriptedDice([1, 2, 6, 4, 4, 5, 3, 3, 5, 2])  # A: 1 2 6; B: 4 4 5; roll-off 3-3, 5-2
    out = RULESET.apply(state, Action(ActionKind.CHANCE), dice)
    oracle = [e.to_json() for e in out.events if e.type == "oracle"]
    assert [(o["side"], o["dice"]) for o in oracle] == [("A", [1, 2, 6]), ("B", [4, 4, 5])]
    first = next(e for e in out.events if e.type == "initiative").to_json()
    assert first["side"] == "A" and first["rolls"] == [[3, 3], [5, 2]]  # D001A-03
    assert rules_of(out.state).pool("A") == (1, 2, 6)
    assert [r.purpose for r in dice.rolls][:3] == [
        "Oracle pool: A die 1 of 3",
        "Oracle pool: A die 2 of 3",
        "Oracle pool: A die 3 of 3",
    ]


def test_d001a_03_alternative_the_side_with_fewer_dice_starts() -> None:
    units = [
        soldier("a1", "A", 4, 2, initiative=2),
        soldier("b1", "B", 4, 22, initiative=1),
    ]
    state = game(units, options={"first_player": "fewer-dice"})
    out = RULESET.apply(state, Action(ActionKind.CHANCE), ScriptedDice([2, 2, 2]))
    assert out.state.active_side == "B"


# ---------------------------------------------------------------- D001A-02
def test_d001a_02_a_side_without_a_matching_die_stops_and_the_other_goes_on() -> None:
    units = [
        soldier("a1", "A", 4, 2),
        soldier("a2", "A", 8, 2),
        soldier("b1", "B", 4, 22, kind="heavy"),
    ]
    state = with_pools(game(units, options={"max_rounds": 2}), A=[2, 2, 3], B=[1])
    pending = RULESET.pending(state)
    assert pending.side == "A"  # B has no 4: A acts alone
    state = RULESET.apply(state, Action("hold", "a1"), ScriptedDice([])).state
    assert RULESET.pending(state).side == "A"
    out = RULESET.apply(state, Action("hold", "a2"), ScriptedDice([]))
    assert [e.type for e in out.events][-1] == "round_end"
    assert RULESET.pending(out.state).kind is PendingKind.CHANCE
    # Unused dice are discarded: the next Oracle phase rolls fresh pools.
    nxt = RULESET.apply(out.state, Action(ActionKind.CHANCE), ScriptedDice([6, 6, 4, 1, 2]))
    assert rules_of(nxt.state).pool("A") == (6, 6) and rules_of(nxt.state).pool("B") == (4,)


def test_a_pass_stops_the_side_for_the_round() -> None:
    units = [soldier("a1", "A", 4, 2), soldier("a2", "A", 8, 2), soldier("b1", "B", 4, 22)]
    state = with_pools(game(units), A=[2, 2], B=[2])
    out = RULESET.apply(state, Action(ActionKind.PASS, side="A"), ScriptedDice([]))
    assert RULESET.pending(out.state).side == "B"
    assert "A" in rules_of(out.state).stopped


# ---------------------------------------------------------------- D001A-04
def test_d001a_04a_d_the_striker_and_activated_allies_count() -> None:
    units = [
        soldier("a1", "A", 10, 10),
        soldier("a2", "A", 14, 10),
        soldier("b1", "B", 12, 14, toughness=2),
    ]
    state = with_pools(game(units), A=[2], B=[2])
    from dataclasses import replace

    state = state.with_unit(replace(state.unit("a2"), activated=True))
    out = RULESET.apply(state, Action("strike", "a1", target_id="b1"), ScriptedDice([]))
    strike = next(e for e in out.events if e.type == "strike")
    assert strike.get("total") == 2 and strike.get("removed") is True


def test_d001a_04b_cover_wins_over_obscured() -> None:
    units = [
        soldier("a1", "A", 6, 12),
        soldier("b1", "B", 12, 12),
        soldier("b2", "B", 9, 12.9),  # hides the left edge of b1 from a1
    ]
    wall = {
        "id": "wall",
        "name": "the wall",
        "polygon": [[10.6, 10], [11.0, 10], [11.0, 14], [10.6, 14]],
        "cover": "soft",
    }
    state = with_pools(game(units, terrain=[wall]), A=[2], B=[2])
    board = StrikeBoard(state)
    seen = board.sighting(("a1", 6, 12, 0.5), ("b1", 12, 12, 0.5))
    assert not all(seen.clear) and seen.cls == COVER and seen.cover_by == "the wall"


def test_d001a_04b_a_target_keeps_its_cover_when_the_viewer_stands_in_the_same_piece() -> None:
    """Both in one wood (cover, no sight block): the line crosses the wood, the target is in it."""
    units = [soldier("a1", "A", 8, 12), soldier("b1", "B", 14, 12)]
    wood = {
        "id": "wood",
        "name": "the wood",
        "polygon": [[6, 9], [16, 9], [16, 15], [6, 15]],
        "cover": "soft",
    }
    board = StrikeBoard(with_pools(game(units, terrain=[wood]), A=[2], B=[2]))
    seen = board.sighting(("a1", 8, 12, 0.5), ("b1", 14, 12, 0.5))
    assert seen.cls == COVER and seen.cover_by == "the wood"
    # Seen from outside the wood too, and not from a spot where the line misses the wood.
    assert board.sighting(("a1", 2, 12, 0.5), ("b1", 14, 12, 0.5)).cls == COVER
    assert board.sighting(("a1", 2, 20, 0.5), ("b1", 2, 16, 0.5)).cls != COVER


def test_terrain_that_blocks_sight_hides_the_target() -> None:
    units = [soldier("a1", "A", 6, 12), soldier("b1", "B", 18, 12)]
    tower = {
        "id": "tower",
        "name": "the tower",
        "polygon": [[10, 8], [14, 8], [14, 16], [10, 16]],
        "blocks_los": True,
        "impassable": True,
    }
    state = with_pools(game(units, terrain=[tower]), A=[2], B=[2])
    assert RULESET.validate(state, Action("strike", "a1", target_id="b1")) == ["A1 cannot see B1"]


# ---------------------------------------------------------------- D001A-05
def test_d001a_05_each_free_action_once_and_the_activation_ends_after_both() -> None:
    units = [soldier("a1", "A", 4, 4), soldier("b1", "B", 4, 22)]
    state = with_pools(game(units), A=[2], B=[2])
    move = Action(ActionKind.MOVE, "a1", path=((4, 4), (4, 8)))
    state = RULESET.apply(state, move, ScriptedDice([])).state
    assert RULESET.pending(state).kind is PendingKind.CONTINUE
    again = Action(ActionKind.MOVE, "a1", path=((4, 8), (4, 9)))
    assert RULESET.validate(state, again) == ["A1 has already used its move this activation"]
    with pytest.raises(IllegalActionError, match="already used its move"):
        RULESET.apply(state, again, ScriptedDice([]))
    out = RULESET.apply(state, Action("strike", "a1", target_id="b1"), ScriptedDice([]))
    assert rules_of(out.state).acting is None  # move and strike done: the activation ends


def test_d001a_05_skill_dice_up_to_initiative() -> None:
    sprint = [{"name": "Dash", "effect": "sprint", "inches": 2}]
    units = [soldier("a1", "A", 4, 2, speed_in=4, skills=sprint), soldier("b1", "B", 4, 22)]
    state = with_pools(game(units), A=[2, 5, 6], B=[2])
    far = Action(ActionKind.MOVE, "a1", path=((4, 2), (4, 8)), detail=(("sprint_dice", [5]),))
    assert RULESET.validate(state, far) == []
    out = RULESET.apply(state, far, ScriptedDice([]))
    assert rules_of(out.state).pool("A") == (6,)  # the 2 activated, the 5 sprinted
    too_many = Action(
        ActionKind.MOVE, "a1", path=((4, 2), (4, 10)), detail=(("sprint_dice", [5, 6]),)
    )
    assert RULESET.validate(state, too_many) == [
        "A1 may spend at most 1 dice on skills in an activation (Initiative), not 2"
    ]
    short = Action(ActionKind.MOVE, "a1", path=((4, 2), (4, 8)))
    assert RULESET.validate(state, short) == ["the move is 6.00 in, more than the 4 in allowed"]


def test_a_move_may_not_run_through_a_base() -> None:
    units = [soldier("a1", "A", 4, 2), soldier("b1", "B", 4, 5)]
    state = with_pools(game(units), A=[2], B=[2])
    through = Action(ActionKind.MOVE, "a1", path=((4, 2), (4, 8)))
    assert RULESET.validate(state, through) == ["the path runs through B1"]


# ---------------------------------------------------------------- D001A-07
def test_d001a_07_seed_003_objective_points() -> None:
    units = [
        soldier("a1", "A", 6, 6.5),  # touches (6, 6): A's own side marker, 1 VP
        soldier("a2", "A", 6, 18.5),  # touches (6, 18): nearest B's edge, 4 VP
        soldier("a3", "A", 12, 12.5),  # touches the centre, 2 VP
        soldier("b1", "B", 18, 18.5, leader=True),  # touches (18, 18): B's own, 1 VP
        soldier("b2", "B", 13.5, 13.5),  # within 2 in of the centre: A does not hold it
    ]
    state = game(units)
    assert victory_points(state) == {"A": 1 + 4, "B": 1}
    from dataclasses import replace

    from engine.model import UnitStatus

    fallen = state.with_unit(replace(state.unit("b1"), status=UnitStatus.FALLEN))
    assert victory_points(fallen) == {"A": 1 + 4 + 2, "B": 0}  # the leader's 2 VP; b2 still
    # stands within 2 in of the centre, so A does not hold it


def test_d001a_07_alternative_three_per_objective_one_per_kill() -> None:
    units = [
        soldier("a1", "A", 6, 6.5),  # holds (6, 6): 3 VP whatever its place
        soldier("b1", "B", 18, 18.5),
        soldier("b2", "B", 20, 20),
    ]
    state = game(units, options={"victory": "kills"})
    from dataclasses import replace

    from engine.model import UnitStatus

    fallen = state.with_unit(replace(state.unit("b2"), status=UnitStatus.FALLEN))
    assert victory_points(fallen) == {"A": 3 + 1, "B": 3}


def test_a_bad_option_or_card_is_one_sentence(tmp_path: object) -> None:
    from engine.scenario import ScenarioError

    units = [soldier("a1", "A", 4, 2), soldier("b1", "B", 4, 22)]
    with pytest.raises(
        ScenarioError, match=r"options.first_player: 'coin' \(allowed: roll-off, fewer-dice\)"
    ):
        game(units, options={"first_player": "coin"})
    units[0]["card"]["threat"] = "sniper"
    with pytest.raises(ScenarioError, match=r"units\[0\].card.threat"):
        game(units)


def test_an_oracle_skill_rolls_the_spare_dice_again() -> None:
    """§3.1.c: skills that modify the action-dice roll; the "reroll" skill rolls again up to
    its count of the dice no soldier of the side needs, once per Oracle phase (a choice)."""
    orders = [{"name": "Orders", "effect": "reroll", "count": 2}]
    units = [
        soldier("a1", "A", 4, 2, kind="command", initiative=2, skills=orders),
        soldier("a2", "A", 8, 2, kind="heavy", initiative=2),
        soldier("b1", "B", 4, 22, initiative=1),
    ]
    state = game(units)
    dice = ScriptedDice([1, 1, 1, 6, 2])  # A: 1 1 1 6 (no 4 for the Heavy); B: 2
    out = RULESET.apply(state, Action(ActionKind.CHANCE), dice)
    pending = RULESET.pending(out.state)
    assert pending.kind is PendingKind.CHOICE and pending.side == "A"
    assert pending.options == ("keep", "re-roll")
    assert pending.purpose == "roll again the spare dice 1 1, or keep the pool"
    from engine.controllers.strike_ai import StrikeAI

    assert StrikeAI().choose(out.state, RULESET, pending, ScriptedDice([])) == "re-roll"
    choose = Action(ActionKind.CHOOSE, side="A", detail=(("option", "re-roll"),))
    after = RULESET.apply(out.state, choose, ScriptedDice([4, 3, 5, 2]))  # re-rolls, roll-off
    reroll = next(e for e in after.events if e.type == "reroll").to_json()
    assert reroll["rerolled"] == [1, 1] and reroll["rolled"] == [4, 3]
    assert rules_of(after.state).pool("A") == (1, 3, 4, 6)
    assert after.state.active_side == "A"  # the roll-off 5-2 after the re-roll
    keep = Action(ActionKind.CHOOSE, side="A", detail=(("option", "keep"),))
    kept = RULESET.apply(out.state, keep, ScriptedDice([5, 2]))
    assert rules_of(kept.state).pool("A") == (1, 1, 1, 6)

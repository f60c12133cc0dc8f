"""Readings within the camera's error in a replay without a log (issue 10): a player's shot
that the footage puts a fraction of an inch beyond its range is read at a place within the
camera's error, a little dearer than one at the seen place, and the units are stood back
where the footage shows them; an AI order that turns on a card the footage cannot show is one
the cards could give that the move carries out, or the move is judged by the rules."""

from __future__ import annotations

import math

import pytest

from assistant.replay.engine_checks import check_ai
from assistant.replay.engine_model import FAR_REACH_IN, NEARBY_SHARE, pose_error
from assistant.replay.engine_replay import GameReplayer
from assistant.replay.engine_unseen import reach_turn, stand_back, within_error
from assistant.replay.reconstruct import PieceMove
from engine.actions import Action, ActionKind
from engine.board import gap_between
from engine.model import GameState

SCENARIO = "crossroads-cards"
RANGE_IN = 12.0
"""Crossbow Ivy's shooting range in crossroads-cards, base edge to base edge."""


def _crossbow_turn(game: GameReplayer) -> GameState:
    """A state where Crossbow Ivy acts (the first the rules reach from the start)."""
    found = reach_turn(game, game.initial, "crossbow")
    assert found, "the rules never reach Crossbow Ivy's turn"
    return found[0][0]


def _shot_at_gap(game: GameReplayer, gap_in: float) -> tuple[GameState, Action]:
    """Crossbow Ivy at (22, 3) facing the Goblin Archer straight up the open right-hand side
    of the table, their bases ``gap_in`` apart."""
    state = _crossbow_turn(game)
    crossbow = state.unit("crossbow")
    archer = state.unit("goblin-archer")
    state = game.adapter.place(state, "crossbow", 22.0, 3.0, 0.0)
    reach = gap_in + crossbow.base_diameter_in / 2 + archer.base_diameter_in / 2
    state = game.adapter.place(state, "goblin-archer", 22.0, 3.0 + reach, 180.0)
    shooter, target = state.unit("crossbow"), state.unit("goblin-archer")
    assert gap_between(shooter, target, shooter.position) == pytest.approx(gap_in)
    return state, Action(ActionKind.SHOOT, "crossbow", target_id="goblin-archer")


def test_a_shot_in_range_is_read_at_the_seen_place() -> None:
    game = GameReplayer(SCENARIO)
    state, shot = _shot_at_gap(game, RANGE_IN - 0.5)
    assert game.ruleset.validate(state, shot) == []


def test_a_shot_just_beyond_range_is_read_within_the_camera_error() -> None:
    game = GameReplayer(SCENARIO)
    near_in = NEARBY_SHARE * game.tolerances.position_in
    state, shot = _shot_at_gap(game, RANGE_IN + near_in / 2)
    assert game.ruleset.validate(state, shot), "out of range at the seen place"
    found = within_error(game, state, shot)
    assert found is not None
    nearer, cost = found
    # the Gaussian pose error of a reading that far off the seen place
    assert cost == pose_error(near_in, game.tolerances.position_in)
    assert 0.0 < cost < 0.1
    assert game.ruleset.validate(nearer, shot) == []
    moved = [u.id for u in state.units if u.position != nearer.unit(u.id).position and u.on_table]
    assert len(moved) == 1
    shift_in = math.dist(state.unit(moved[0]).position, nearer.unit(moved[0]).position)
    assert shift_in == pytest.approx(near_in)
    # after the shot, both stand where the footage shows them again
    back = stand_back(game, state, nearer, ("crossbow", "goblin-archer"))
    for uid in ("crossbow", "goblin-archer"):
        assert back.unit(uid).position == state.unit(uid).position


def test_a_little_further_costs_more_and_far_beyond_is_not_read() -> None:
    game = GameReplayer(SCENARIO)
    near_in = NEARBY_SHARE * game.tolerances.position_in
    state, shot = _shot_at_gap(game, RANGE_IN + near_in + FAR_REACH_IN / 2)
    found = within_error(game, state, shot)
    far_in = near_in + FAR_REACH_IN
    assert found is not None and found[1] == pose_error(far_in, game.tolerances.position_in)
    assert found[1] > pose_error(near_in, game.tolerances.position_in)
    state, shot = _shot_at_gap(game, RANGE_IN + near_in + FAR_REACH_IN + 0.2)
    assert within_error(game, state, shot) is None
    # an action with no target has no reading within the error
    assert within_error(game, state, Action(ActionKind.MOVE, "crossbow", heading_deg=0.0)) is None


def test_an_ai_order_that_turns_on_a_card_is_one_the_move_carries_out_or_the_rules_judge_it() -> (
    None
):
    game = GameReplayer(SCENARIO)
    state = game.initial
    found = reach_turn(game, state, "goblin-boss")
    assert found, "the rules never reach the Goblin Boss's turn"
    acting = found[0][0]
    boss = acting.unit("goblin-boss")
    # the boss steps 3 in straight ahead (toward the Road Wardens' edge)
    to = (boss.x, boss.y - 3.0)
    move = PieceMove(
        "Goblin Boss", boss.side, (21,), boss.position, to, boss.heading_deg, 180.0, 10.0, 11.0
    )
    check = check_ai(game, acting, boss, move)
    (order,) = [e for e in check.events if e["kind"] == "order"]
    if "not worked out" in order["text"]:
        (legality,) = [e for e in check.events if e["kind"] == "legality"]
        assert legality["legal"] is True
        assert check.verdict == ", legal"
    else:
        assert "the move carries it out" in order["text"]
        assert check.verdict == ", followed the order"
    # either way the engine has the move's legal actions to resolve
    assert check.actions

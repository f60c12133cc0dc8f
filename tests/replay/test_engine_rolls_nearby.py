"""A move the camera measures a little off (within its position tolerance) still rolls the
dice seen after it: a shot the seen place puts just beyond range is read at a place within the
camera's tolerance where it is in range (issue 10; the sample footage's first shot)."""

from __future__ import annotations

import math
from dataclasses import replace

from assistant.replay.engine_replay import GameReplayer
from engine.board import gap_between
from tests.replay.engine_rolls_battle import battle_footage

SCENARIO = "crossroads-ambush"


def test_a_shot_the_camera_puts_just_out_of_range_still_takes_its_target_off() -> None:
    footage = battle_footage(SCENARIO, 3)
    game = GameReplayer(SCENARIO)
    first = footage.moves[0]  # Crossbow Ivy moves and shoots Goblin Stabber (a 4: it falls)
    stabber = game.initial.unit("goblin-stabber")
    away = (first.to_in[0] - stabber.x, first.to_in[1] - stabber.y)
    norm = math.hypot(*away)
    # the end as the camera reads it: a little further away, 0.08 in beyond the 12 in range
    shift = 12.08 - gap_between(game.initial.unit("crossbow"), stabber, first.to_in)
    assert 0.0 < shift <= 0.15 < game.tolerances.position_in
    seen_end = (first.to_in[0] + away[0] / norm * shift, first.to_in[1] + away[1] / norm * shift)
    moved = replace(first, to_in=seen_end)
    rolls = [r for r in footage.rolls if r.t_s < footage.moves[1].t_start]
    removals = [r for r in footage.removals if r.t < footage.moves[1].t_start]
    assert [r.piece for r in removals] == ["Goblin Stabber"]
    result = game.replay([moved], removals, None, rolls)
    (removed,) = [e for e in result.events if e["kind"] == "removed"]
    assert removed["known"] == "rules" and "By the rules it fell" in removed["text"]
    (attack,) = [e for e in result.events if e["kind"] == "attack"] or [None]
    assert attack is None or attack.get("known") == "seen"

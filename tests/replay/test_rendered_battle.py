"""On footage from the project's renderer: moves found to 0.5 in and 0.5 s, no phantom moves
while a hand hovers or a figure hides its tag; per-piece moves with the pieces known."""

from __future__ import annotations

import json
import math
from pathlib import Path

from assistant.replay.reconstruct import Roster, piece_moves
from assistant.replay.run import ReplayResult
from assistant.replay.timeline import angle_diff_deg
from tests.replay.rendered_clip import BattleScript

POS_TOL_IN = 0.5
TIME_TOL_S = 0.5


def test_every_move_found_and_no_phantom_moves(
    clip_and_truth: tuple[BattleScript, Path, list[dict]], replay: ReplayResult
) -> None:
    _, _, truth = clip_and_truth
    got = replay.timeline.moves
    assert [m.tag_id for m in got] == [t["tag"] for t in truth], [m.to_json() for m in got]
    for want, move in zip(truth, got, strict=True):
        assert math.dist(move.from_in, want["from"]) <= POS_TOL_IN
        assert math.dist(move.to_in, want["to"]) <= POS_TOL_IN
        assert angle_diff_deg(move.heading_to_deg, want["heading_to"]) <= 5.0
        assert abs(move.t_start - want["t_start"]) <= TIME_TOL_S
        assert abs(move.t_end - want["t_end"]) <= TIME_TOL_S
    assert not [e for e in replay.timeline.events if e.kind == "removed"]
    assert replay.warnings == []


def test_piece_moves_from_the_piece_specs(
    clip_and_truth: tuple[BattleScript, Path, list[dict]], replay: ReplayResult
) -> None:
    script, _, _ = clip_and_truth
    roster = Roster(
        script.scene.table.width_in,
        script.scene.table.depth_in,
        tuple(p.spec for p in script.scene.pieces),
        {p.name: "raiders" for p in script.scene.pieces},
    )
    moves = piece_moves(replay.timeline.moves, roster)
    start = {p.name: p for p in script.scene.pieces}
    assert [m.piece for m in moves] == [m.piece for m in script.moves]
    for want, got in zip(script.moves, moves, strict=True):
        p0 = start[want.piece]
        assert math.dist(got.from_in, (p0.x_in, p0.y_in)) <= POS_TOL_IN
        assert math.dist(got.to_in, want.to[:2]) <= POS_TOL_IN
        assert angle_diff_deg(got.heading_to_deg, want.to[2]) <= 5.0


def test_timeline_json_matches(replay: ReplayResult) -> None:
    doc = json.loads((replay.out_dir / "timeline.json").read_text())
    assert [m["tag"] for m in doc["moves"]] == [m.tag_id for m in replay.timeline.moves]
    assert len(doc["activations"]) == len(doc["moves"])

"""On footage from the project's renderer: moves found to 0.5 in and 0.5 s, no phantom moves
while a hand hovers or a figure hides its tag; per-piece moves with the pieces known."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from assistant.replay.reconstruct import Roster, piece_moves
from assistant.replay.run import ReplayOptions, ReplayResult, run_replay
from assistant.replay.timeline import angle_diff_deg
from tests.replay.rendered_clip import BattleScript, render_battle, standard_battle

POS_TOL_IN = 0.5
TIME_TOL_S = 0.5


@pytest.fixture(scope="module")
def battle(tmp_path_factory: pytest.TempPathFactory) -> tuple[BattleScript, list[dict], Path]:
    folder = tmp_path_factory.mktemp("rendered")
    script = standard_battle()
    truth, first = render_battle(script, folder / "battle.mp4")
    hidden = [t.tag_id for t in first.tags if not t.visible and t.tag_id >= 16]
    assert hidden, "the scene should have figures hiding their own tags"
    return script, truth, folder / "battle.mp4"


@pytest.fixture(scope="module")
def result(
    battle: tuple[BattleScript, list[dict], Path], tmp_path_factory: pytest.TempPathFactory
) -> ReplayResult:
    return run_replay(ReplayOptions(battle[2], tmp_path_factory.mktemp("out")))


def test_every_move_found_and_no_phantom_moves(
    battle: tuple[BattleScript, list[dict], Path], result: ReplayResult
) -> None:
    _, truth, _ = battle
    got = result.timeline.moves
    assert [m.tag_id for m in got] == [t["tag"] for t in truth], [m.to_json() for m in got]
    for want, move in zip(truth, got, strict=True):
        assert math.dist(move.from_in, want["from"]) <= POS_TOL_IN
        assert math.dist(move.to_in, want["to"]) <= POS_TOL_IN
        assert angle_diff_deg(move.heading_to_deg, want["heading_to"]) <= 5.0
        assert abs(move.t_start - want["t_start"]) <= TIME_TOL_S
        assert abs(move.t_end - want["t_end"]) <= TIME_TOL_S
    assert not [e for e in result.timeline.events if e.kind == "removed"]
    assert result.warnings == []


def test_piece_moves_from_the_piece_specs(
    battle: tuple[BattleScript, list[dict], Path], result: ReplayResult
) -> None:
    script, _, _ = battle
    roster = Roster(
        script.scene.table.width_in,
        script.scene.table.depth_in,
        tuple(p.spec for p in script.scene.pieces),
        {p.name: "raiders" for p in script.scene.pieces},
    )
    moves = piece_moves(result.timeline.moves, roster)
    start = {p.name: p for p in script.scene.pieces}
    assert [m.piece for m in moves] == [m.piece for m in script.moves]
    for want, got in zip(script.moves, moves, strict=True):
        p0 = start[want.piece]
        assert math.dist(got.from_in, (p0.x_in, p0.y_in)) <= POS_TOL_IN
        assert math.dist(got.to_in, want.to[:2]) <= POS_TOL_IN
        assert angle_diff_deg(got.heading_to_deg, want.to[2]) <= 5.0


def test_timeline_json_matches(result: ReplayResult) -> None:
    doc = json.loads((result.out_dir / "timeline.json").read_text())
    assert [m["tag"] for m in doc["moves"]] == [m.tag_id for m in result.timeline.moves]
    assert len(doc["activations"]) == len(doc["moves"])

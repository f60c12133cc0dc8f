"""With a scenario: tags become units (base centre to base centre, by name), terrain is drawn."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from assistant.replay.reconstruct import piece_centre_in, roster_from_scenario
from assistant.replay.run import ReplayOptions, run_replay
from assistant.scenarios import load_scenario, scenario_path
from tests.replay.rendered_clip import BattleScript, PieceMoveScript, render_battle
from vision.render import Figure, PlacedPiece, Scene, TableSpec
from vision.types import PieceSpec, TagId, TagMount

MM_PER_IN = 25.4


def test_piece_centre_from_a_tag_round_trips() -> None:
    mount = TagMount(TagId(20), forward_mm=5.0, right_mm=-3.0, rotation_deg=180.0)
    x, y, facing = 10.0, 7.0, 75.0
    h = math.radians(facing)
    tx = x + (5.0 * math.sin(h) - 3.0 * math.cos(h)) / MM_PER_IN
    ty = y + (5.0 * math.cos(h) + 3.0 * math.sin(h)) / MM_PER_IN
    cx, cy, cf = piece_centre_in(tx, ty, (facing + 180.0) % 360.0, mount)
    assert math.dist((cx, cy), (x, y)) < 1e-9
    assert cf == pytest.approx(facing)


def _big_tag_scenario(folder: Path) -> Path:
    """ford-at-dawn with 16 mm tags on 32 mm bases (what a 1080p camera reads reliably)."""
    text = scenario_path("ford-at-dawn").read_text(encoding="utf-8")
    text = re.sub(r"tags = \[\{ id = (\d+) \}\]", r"tags = [{ id = \1, size_mm = 16 }]", text)
    text = re.sub(r"(\nheading = [-\d.]+\n)", r"\1base_diameter_in = 1.26\n", text)
    path = folder / "ford-big-tags.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_scenario_replay_names_the_units_that_moved(tmp_path: Path) -> None:
    path = _big_tag_scenario(tmp_path)
    scenario = load_scenario(str(path))
    roster = roster_from_scenario(str(path))
    assert roster.terrain and roster.title == "The Ford at Dawn"
    units = {u.name: u for u in scenario.units}
    pieces = tuple(
        PlacedPiece(
            spec,
            units[spec.name].x,
            units[spec.name].y,
            units[spec.name].heading,
            figure=Figure(forward_mm=-8.0),
        )
        for spec in roster.pieces
        if spec.name in units and isinstance(spec, PieceSpec)
    )
    scene = Scene(TableSpec(scenario.table.width_in, scenario.table.depth_in), pieces)
    raiders = [u for u in scenario.units if u.side == "Raiders"]
    moves = []
    t = 2.5
    for u in raiders[:3]:
        moves.append(PieceMoveScript(u.name, (u.x + 1.5, u.y - 4.0, 170.0), t, t + 1.2))
        t += 4.0
    script = BattleScript(scene, moves, duration_s=t + 0.5, fps=8.0)
    render_battle(script, tmp_path / "ford.mp4")
    result = run_replay(ReplayOptions(tmp_path / "ford.mp4", tmp_path / "out", scenario=str(path)))
    doc = json.loads((tmp_path / "out" / "timeline.json").read_text())
    got = doc["piece_moves"]
    assert [m["piece"] for m in got] == [m.piece for m in moves]
    for want, move in zip(moves, got, strict=True):
        start = units[want.piece]
        assert math.dist(move["from"], (start.x, start.y)) <= 0.5
        assert math.dist(move["to"], want.to[:2]) <= 0.5
        assert move["side"] == "Raiders"
    assert [a["label"].split(" moves")[0] for a in doc["activations"]] == [m.piece for m in moves]
    assert doc["roster"]["terrain"][0]["polygon"]
    assert len(result.timeline.moves) == 3

    # Without --scenario, the metadata file beside the video names it (as `soloscope footage`
    # writes it); before, the pieces were "tag 16"... (issue 22). A quick pass is enough.
    meta = {"version": 1, "scenario": path.name, "seed": 1, "video": "ford.mp4"}
    (tmp_path / "ford.json").write_text(json.dumps(meta), encoding="utf-8")
    quick = run_replay(ReplayOptions(tmp_path / "ford.mp4", tmp_path / "named", stride=4))
    assert quick.scenario == str(tmp_path / path.name)
    named = json.loads((tmp_path / "named" / "timeline.json").read_text())
    assert named["roster"]["title"] == "The Ford at Dawn"
    assert named["source"]["scenario"] == quick.scenario
    assert {m["piece"] for m in named["piece_moves"]} <= {m.piece for m in moves}
    assert not [
        e for e in named["events"] if re.search(r"\btag 1[6-9]\b|\btag [2-4]\d\b", e["text"])
    ]


def test_a_piece_with_two_tags_makes_one_move_from_both() -> None:
    from assistant.replay.reconstruct import Roster, piece_moves
    from assistant.replay.timeline import Move

    front = TagMount(TagId(30), forward_mm=10.0)
    rear = TagMount(TagId(31), forward_mm=-10.0, rotation_deg=180.0)
    roster = Roster(24.0, 24.0, (PieceSpec("Ogre", (front, rear), 40.0),), {"Ogre": "Goblins"})
    d = 10.0 / MM_PER_IN
    moves = [  # facing 0 -> 90: the front tag ahead, the rear tag behind (turned 180 degrees)
        Move(30, (5.0, 5.0 + d), (9.0 + d, 6.0), 0.0, 90.0, 2.0, 3.1),
        Move(31, (5.0, 5.0 - d), (9.0 - d, 6.0), 180.0, 270.0, 2.1, 3.0),
    ]
    (move,) = piece_moves(moves, roster)
    assert move.piece == "Ogre" and move.tags == (30, 31)
    assert math.dist(move.from_in, (5.0, 5.0)) < 1e-9
    assert math.dist(move.to_in, (9.0, 6.0)) < 1e-9
    assert move.heading_to_deg == pytest.approx(90.0)
    assert (move.t_start, move.t_end) == (2.0, 3.1)

"""The bundled sample battle (sample_footage/, rendered with ground truth) replayed whole."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow


def true_moves(truth: dict[str, Any]) -> list[dict[str, Any]]:
    """Every lift-and-set-down of a piece that landed somewhere else, from the per-frame truth,
    with whether its tag can be seen at the new place once the hand has gone."""
    state: dict[str, dict[str, Any]] = {}
    moves: list[dict[str, Any]] = []
    for frame in truth["frames"]:
        for p in frame["pieces"]:
            if p.get("kind", "piece") != "piece":
                continue
            pose = (p["x_in"], p["y_in"], p["heading_deg"], p["on_table"])
            s = state.setdefault(p["name"], {"pose": pose})
            if s["pose"][3] and not pose[3]:
                s["lift"], s["from"] = frame["t"], s["pose"]
            elif not s["pose"][3] and pose[3]:
                moves.append(
                    {
                        "piece": p["name"],
                        "from": s["from"][:2],
                        "to": pose[:2],
                        "t_start": s["lift"],
                        "t_end": frame["t"],
                    }
                )
            s["pose"] = pose
    tags_of = {p["name"]: [t["id"] for t in p.get("tags", [])] for p in truth["pieces"]}
    for m in moves:
        after = [f for f in truth["frames"] if m["t_end"] + 1.5 <= f["t"] <= m["t_end"] + 3.0]
        m["visible_after"] = any(
            t["visible"] for f in after for t in f["tags"] if t["id"] in tags_of[m["piece"]]
        )
    return [m for m in moves if math.dist(m["from"], m["to"]) > 0.2]


@pytest.fixture(scope="module")
def replayed(sample_replay: tuple[dict, dict, Path]) -> tuple[dict[str, Any], dict[str, Any]]:
    truth, doc, _ = sample_replay
    return truth, doc


def _matches(move: dict[str, Any], want: dict[str, Any]) -> bool:
    return (
        math.dist(move["from"], want["from"]) <= 0.5
        and math.dist(move["to"], want["to"]) <= 0.5
        and abs(move["t_start"] - want["t_start"]) <= 0.5
        and abs(move["t_end"] - want["t_end"]) <= 0.5
    )


def test_sample_battle_moves_found_without_phantoms(
    replayed: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    truth, doc = replayed
    wanted = true_moves(truth)
    got = doc["piece_moves"]
    # no phantom: every move found is a true move, within 0.5 in and 0.5 s
    for move in got:
        assert any(_matches(move, want) for want in wanted), (move, wanted)
    # every true move is found, unless its tag cannot be seen where it was set down
    missed = [w for w in wanted if not any(_matches(m, w) for m in got)]
    assert all(not w["visible_after"] for w in missed), missed
    assert len(got) >= sum(1 for w in wanted if w["visible_after"])


def _engine(doc: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in doc["events"] if e.get("source") == "engine" and e["kind"] == kind]


def test_sample_battle_reconstructed_by_the_engine(
    replayed: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    """No session log beside the clip: the engine reads the game from the moves."""
    _, doc = replayed
    sides = {p["name"]: p["side"] for p in doc["roster"]["pieces"]}
    moves = doc["piece_moves"]
    ai_moves = [m for m in moves if sides[m["piece"]] == "Goblins"]
    human_moves = [m for m in moves if sides[m["piece"]] == "Road Wardens"]
    assert ai_moves and human_moves
    orders, checks = _engine(doc, "order"), _engine(doc, "order_check")
    # every AI move the footage shows is reported with the AI's order and how it was carried out
    assert [o["t"] for o in orders] == [m["t_start"] for m in ai_moves]
    assert [c["t"] for c in checks] == [m["t_end"] for m in ai_moves]
    assert all(o["rule"] and o["text"].startswith("AI order: ") for o in orders)
    # The clip was rendered from the engine's own orders, so all of them are followed.
    differs = [c["text"] for c in checks if not c["followed"]]
    assert differs == [], differs
    # the player's moves were the engine's legal actions: all legal, allowing for the camera
    legality = _engine(doc, "legality")
    assert [e["t"] for e in legality] == [m["t_end"] for m in human_moves]
    assert all(e["legal"] for e in legality), [e["text"] for e in legality]
    # activations come from the engine; every piece taken off leaves the game
    assert len(doc["activations"]) == len(moves)
    assert all("(round " in a["label"] for a in doc["activations"])
    taken_off = [e for e in doc["events"] if e["kind"] == "removed" and "source" not in e]
    assert len(_engine(doc, "removed")) == len(taken_off) > 0
    notes = [e["text"] for e in _engine(doc, "note")]
    assert sum("need the session log or the dice" in n for n in notes) == 1

"""A second opinion from the player: review.toml written, corrected and replayed with."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from assistant.errors import UserError
from assistant.replay.engine_replay import GameReplayer
from assistant.replay.reconstruct import PieceMove
from assistant.replay.review import Corrections, load_corrections, review_text

SCENARIO = "crossroads-ambush"


def _battle(game: GameReplayer) -> list[PieceMove]:
    """Every unit of the scenario moves 1 inch forward, one after the other (round 1); the
    fourth move was found from the picture (its tag hidden at the new place)."""
    moves = []
    for i, u in enumerate(game.initial.units):
        t = 2.0 + 3.0 * i
        known = "inferred" if i == 3 else "seen"
        moves.append(
            PieceMove(
                u.name,
                u.side,
                (i,),
                (u.x, u.y),
                (u.x, u.y + 1.0),
                u.heading_deg,
                u.heading_deg,
                t,
                t + 1.2,
                known=known,
                how="" if known == "seen" else "its tag reappeared elsewhere",
            )
        )
    return moves


def _doc(game: GameReplayer, moves: list[PieceMove]) -> dict[str, Any]:
    return {
        "piece_moves": [m.to_json() for m in moves],
        "roster": {"pieces": [{"name": u.name} for u in game.initial.units]},
        "events": [],
    }


def test_review_lists_the_uncertain_moves_and_round_trips(tmp_path: Path) -> None:
    game = GameReplayer(SCENARIO)
    moves = _battle(game)
    text = review_text(_doc(game, moves))
    path = tmp_path / "review.toml"
    path.write_text(text)
    names = [u.name for u in game.initial.units]
    corrections = load_corrections(path, names)
    # only the move found from the picture is asked about
    assert list(corrections.moves) == [moves[3].t_end]
    assert corrections.moves[moves[3].t_end] == moves[3].piece
    # unchanged, the file changes nothing
    sides = {u.name: u.side for u in game.initial.units}
    again = corrections.apply_moves(moves, sides)
    assert again == moves
    assert game.replay(again).events == game.replay(moves).events


def test_a_corrected_activation_changes_exactly_the_affected_events(tmp_path: Path) -> None:
    game = GameReplayer(SCENARIO)
    moves = _battle(game)
    units = game.initial.units
    sides = {u.name: u.side for u in units}
    # the player says the fourth move was made by the last unit of the same side, not the
    # one the replay named (its starting place is the one the footage shows)
    wrong = moves[3]
    right = next(u for u in reversed(units) if u.side == wrong.side and u.name != wrong.piece)
    path = tmp_path / "fixed.toml"
    path.write_text(
        review_text(_doc(game, moves)).replace(
            f'piece = "{wrong.piece}"', f'piece = "{right.name}"'
        )
    )
    fixed = load_corrections(path, [u.name for u in units]).apply_moves(moves, sides)
    changed = [i for i, (a, b) in enumerate(zip(moves, fixed, strict=True)) if a != b]
    assert changed == [3] and fixed[3].piece == right.name and fixed[3].how == "corrected"
    before = game.replay(moves)
    after = game.replay(fixed)

    def upto(events: tuple[dict[str, Any], ...]) -> list[dict[str, Any]]:
        return [e for e in events if e["t"] < wrong.t_start and e["kind"] != "note"]

    # what came before the corrected activation is untouched
    assert upto(after.events) == upto(before.events)
    assert after.activations[:3] == before.activations[:3]
    # the corrected activation is the other unit's
    act = [e for e in after.events if e["kind"] == "activation" and e["t"] == wrong.t_start]
    assert [e["unit"] for e in act] == [game.unit_of_piece[right.name]]
    assert after.activations[3]["unit"] == game.unit_of_piece[right.name]
    assert before.activations[3]["unit"] == game.unit_of_piece[wrong.piece]


def test_a_wrong_corrections_file_is_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('[[fall]]\nt = 3.0\npiece = "Nobody"\n')
    with pytest.raises(UserError, match="names 'Nobody', not a model of the scenario"):
        load_corrections(path, ["Sergeant Ash"])
    path.write_text("[[activation]\n")
    with pytest.raises(UserError, match="cannot read corrections"):
        load_corrections(path, ["Sergeant Ash"])
    path.write_text('[[activation]]\npiece = "Sergeant Ash"\n')
    with pytest.raises(UserError, match="needs a time t and a piece"):
        load_corrections(path, ["Sergeant Ash"])
    # a fall is matched by its time
    assert Corrections(falls={3.0: "B"}).fall_piece(3.1, "A") == "B"
    assert Corrections(falls={3.0: "B"}).fall_piece(4.0, "A") == "A"
    assert replace(Corrections(), moves={}).move_piece(1.0, "A") == "A"

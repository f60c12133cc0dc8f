"""The replay viewer's steps are numbered as the game counts its activations (issue 22: the
replay said 26 activations, its viewer "Activation 1 / 28": a bonus move after a fall was a
step of its own)."""

from __future__ import annotations

from typing import Any

from assistant.replay.document import game_summary, numbered_steps
from assistant.replay.engine_story import EngineReplay


def _activation(t: float, unit: str) -> dict[str, Any]:
    return {"t": t, "kind": "activation", "text": f"{unit} activates", "unit": unit,
            "source": "engine"}  # fmt: skip


def _step(t: float, unit: str, label: str) -> dict[str, Any]:
    return {"t": t, "t_start": t - 1.0, "label": label, "unit": unit}


def test_a_bonus_move_is_part_of_its_activation() -> None:
    events = (
        _activation(5.0, "ivy"),
        _activation(20.0, "boss"),
        _activation(86.5, "boss"),
        _activation(145.8, "rook"),
        _activation(145.8, "archer"),
        _activation(145.8, "rook"),
    )
    steps = [
        _step(6.6, "ivy", "Crossbow Ivy moves 2.8 in"),
        _step(21.1, "boss", "Goblin Boss moves 6.1 in"),
        _step(86.5, "boss", "Goblin Boss acts where it stands"),
        _step(92.3, "boss", "Goblin Boss moves 0.3 in (bonus)"),
        _step(145.8, "rook", "Shieldman Rook acts where it stands (round 3)"),
        _step(145.8, "archer", "Goblin Archer acts where it stands"),
        _step(145.8, "rook", "Shieldman Rook acts where it stands (round 4)"),
        _step(151.9, "rook", "Shieldman Rook moves 2.6 in (bonus)"),
    ]
    game = EngineReplay(events, tuple(steps))
    numbered = numbered_steps(steps, game, logged=False)
    assert [s["number"] for s in numbered] == [1, 2, 3, 3, 4, 5, 6, 6]
    assert (
        {s["of"] for s in numbered}
        == {6}
        == {game_summary(list(events), game)["game"]["activations"]}
    )
    assert {s["counts"] for s in numbered} == {"activation"}
    assert [s["label"] for s in numbered] == [s["label"] for s in steps]


def test_without_a_game_the_steps_are_counted_as_what_they_are() -> None:
    moves = [_step(3.0, "p16", "Ranger moves 4.0 in"), _step(8.0, "p17", "Orc moves 2.0 in")]
    assert [(s["number"], s["of"], s["counts"]) for s in numbered_steps(moves, None, False)] == [
        (1, 2, "move"),
        (2, 2, "move"),
    ]
    logged = numbered_steps(moves, None, logged=True)
    assert [(s["number"], s["of"], s["counts"]) for s in logged] == [
        (1, 2, "activation"),
        (2, 2, "activation"),
    ]

"""Footage of the test-only ruleset read back through the engine (the replay drives it through
the ruleset and the adapter registered from tests/plugin): a straight leg is an activation with
a legal move; a leg into the wall is flagged with the ruleset's own reason."""

from __future__ import annotations

from pathlib import Path

from assistant.replay.engine_replay import GameReplayer
from assistant.replay.reconstruct import PieceMove

SCENARIO = Path(__file__).with_name("plugin.toml")


def _replay_leg_to(
    end: tuple[float, float],
) -> tuple[list[dict[str, object]], tuple[dict[str, object], ...]]:
    game = GameReplayer(str(SCENARIO))
    red = game.initial.unit("r1")
    assert red.position == (3.0, 2.0)
    move = PieceMove("Red One", "", (0,), (red.x, red.y), end, 0.0, 0.0, 2.0, 3.2)
    result = game.replay([move])
    legality = [e for e in result.events if e["kind"] == "legality"]
    return legality, tuple(result.activations)


def test_a_straight_leg_is_a_legal_activation() -> None:
    legality, activations = _replay_leg_to((3.0, 4.5))
    assert [e["legal"] for e in legality] == [True]
    assert [a["unit"] for a in activations] == ["r1"]


def test_a_leg_into_the_wall_is_flagged_with_the_rulesets_reason() -> None:
    legality, _ = _replay_leg_to((4.8, 4.3))
    assert [e["legal"] for e in legality] == [False]
    assert legality[0]["reason"] == "the move runs into the wall"

"""Footage of the test-only ruleset read back through the engine (the replay drives it through
the ruleset and the adapter registered from tests/plugin): a one-cell step is an activation
with a legal move; a two-cell jump is flagged with the ruleset's own reason."""

from __future__ import annotations

from pathlib import Path

from assistant.replay.engine_replay import GameReplayer
from assistant.replay.reconstruct import PieceMove

SCENARIO = Path(__file__).with_name("plugin.toml")


def _replay_step_to(
    cell: tuple[int, int],
) -> tuple[list[dict[str, object]], tuple[dict[str, object], ...]]:
    game = GameReplayer(str(SCENARIO))
    red = game.initial.unit("r1")
    grid = game.initial.table.grid
    assert grid is not None and red.cell == (1, 5)
    move = PieceMove("Red One", "", (0,), (red.x, red.y), grid.centre(cell), 0.0, 0.0, 2.0, 3.2)
    result = game.replay([move])
    legality = [e for e in result.events if e["kind"] == "legality"]
    return legality, tuple(result.activations)


def test_a_one_cell_step_is_a_legal_activation() -> None:
    legality, activations = _replay_step_to((1, 4))
    assert [e["legal"] for e in legality] == [True]
    assert [a["unit"] for a in activations] == ["r1"]


def test_a_two_cell_jump_is_flagged_with_the_rulesets_reason() -> None:
    legality, _ = _replay_step_to((1, 3))
    assert [e["legal"] for e in legality] == [False]
    assert legality[0]["reason"] == "B4 is not a cell next to Red One"

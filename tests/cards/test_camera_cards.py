"""Firefight-lite with the ``cards`` AI through the camera (issue 14): ``soloscope footage``
renders a seeded two-turn battle of the bundled ``bosworth-market`` carried out by a virtual
hand (the AI's cards drawn automatically), ``soloscope play`` reads it through the real detector
and tracker with the player's declarations and reaches the simulated outcome (winner, turns,
every figure's status, the deck), and ``soloscope replay`` reads the footage back with the
session's event log.

Three changes to the bundled scenario, nothing else: ``max_rounds`` 2 (a short clip); the
figures' tags printed at 12 mm, 5 mm ahead of the base centre (the bundled 14 mm tag at the
centre lies under the rendered figure's body and is not read); and the stand-in player draws
its random choices from its own dice. The bundled ``random`` player draws them from the
game's dice, which the live session (the player's moves read from the table and the
declarations) never rolls for the player, so every card and roll after the player's first
choice would differ from the simulation."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.scenarios import load_game, scenario_path
from assistant.session.store import load_saved
from engine.dice import SeededDice
from engine.runner import controllers_for, play_battle
from tests.own_dice import own_dice_player as own_dice

SEED = 3
"""Two turns without a random event; one defensive draw (a reaction); the Retinue win."""


PLAYER = "random-own-dice"
"""The stand-in player of this test: ``random`` with dice of its own (tests/own_dice.py)."""


@pytest.fixture
def own_dice_player() -> Iterator[None]:
    """``random-own-dice`` findable by name for the footage, the session and the replay."""
    with own_dice("random") as name:
        assert name == PLAYER
        yield


def _scenario(tmp_path: Path) -> str:
    """The bundled ``bosworth-market``, two turns, its figures' tags ahead of the figure."""
    text = Path(scenario_path("bosworth-market")).read_text(encoding="utf-8")
    text = re.sub(r"max_rounds = \d+", "max_rounds = 2", text)
    text = re.sub(r"size_mm = \d+, forward_mm = 0", "size_mm = 12, forward_mm = 5", text)
    text = text.replace('human_controller = "random"', f'human_controller = "{PLAYER}"')
    path = tmp_path / "bosworth-market.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.slow
def test_a_rendered_card_battle_plays_live_to_the_simulated_outcome_and_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], own_dice_player: None
) -> None:
    scenario_file = _scenario(tmp_path)
    scenario, ruleset, state = load_game(scenario_file)
    simulated = play_battle(state, ruleset, controllers_for(scenario), SeededDice(SEED))
    assert any(e.type == "reaction" for e in simulated.events)

    clip = tmp_path / "clip"
    footage = ["footage", scenario_file, "--seed", str(SEED), "--out", str(clip)]
    assert main([*footage, "--resolution", "1080p", "--fps", "8", "--quiet"]) == 0
    run = tmp_path / "run"
    play = ["play", "--source", str(clip / "battle.mp4"), "--scenario", scenario_file]
    play += ["--seed", str(SEED), "--declarations", str(clip / "battle.declarations.jsonl")]
    assert main([*play, "--speech", "off", "--no-page", "--out", str(run)]) == 0
    out = capsys.readouterr().out
    assert f"The battle is over: {simulated.final.winner} win" in out

    game, _, _ = load_saved(run / "game.json", lambda _text: None)
    assert game.state.winner == simulated.final.winner
    assert game.state.round == simulated.final.round
    assert [(u.id, u.status, u.statuses) for u in game.state.units] == [
        (u.id, u.status, u.statuses) for u in simulated.final.units
    ]

    replay = tmp_path / "replay"
    args = ["replay", str(clip / "battle.mp4"), "--events", str(run)]
    assert main([*args, "--scenario", scenario_file, "--out", str(replay), "--quiet"]) == 0
    doc = json.loads((replay / "timeline.json").read_text(encoding="utf-8"))
    logged = [e for e in doc["events"] if e.get("source") == "log"]
    assert [e["text"] for e in logged if e["kind"] == "end"] == [simulated.events[-1].text]
    assert len(doc["moves"]) >= 5  # the moves the camera saw

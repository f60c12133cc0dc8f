"""The 2D6 skirmish through the live loop on a rendered table: ``soloscope footage`` renders a
seeded battle of the small test scenario carried out by a virtual hand (720p, 8 fps), ``soloscope
play`` reads it through the real detector and tracker with the player's declarations and
reaches the simulated outcome (charges, drive-backs of both sides, a kill), and ``soloscope
replay`` reads the footage back with the session's event log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.scenarios import load_game
from assistant.session.store import load_saved
from engine.dice import SeededDice
from engine.runner import controllers_for, play_battle

SCENARIO = str(Path(__file__).with_name("skirmish-duel.toml"))
SEED = 1


@pytest.mark.slow
def test_a_rendered_battle_plays_live_to_the_simulated_outcome_and_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario, ruleset, state = load_game(SCENARIO)
    simulated = play_battle(state, ruleset, controllers_for(scenario), SeededDice(SEED))
    assert any(e.type == "drive_back" for e in simulated.events)
    assert any(e.type == "fall" for e in simulated.events)

    clip = tmp_path / "clip"
    footage = ["footage", SCENARIO, "--seed", str(SEED), "--out", str(clip)]
    assert main([*footage, "--resolution", "720p", "--fps", "8", "--quiet"]) == 0
    run = tmp_path / "run"
    play = ["play", "--source", str(clip / "battle.mp4"), "--scenario", SCENARIO]
    play += ["--seed", str(SEED), "--declarations", str(clip / "battle.declarations.jsonl")]
    assert main([*play, "--speech", "off", "--no-page", "--out", str(run)]) == 0
    out = capsys.readouterr().out
    assert f"The battle is over: {simulated.final.winner} win" in out
    assert "is driven back: move it" in out  # the AI's drive-back, ordered and seen done

    game, _, _ = load_saved(run / "game.json", lambda _text: None)
    assert game.state.winner == simulated.final.winner
    assert [(u.status, u.statuses) for u in game.state.units] == [
        (u.status, u.statuses) for u in simulated.final.units
    ]

    replay = tmp_path / "replay"
    args = ["replay", str(clip / "battle.mp4"), "--events", str(run), "--scenario", SCENARIO]
    assert main([*args, "--out", str(replay), "--quiet"]) == 0
    doc = json.loads((replay / "timeline.json").read_text(encoding="utf-8"))
    logged = [e for e in doc["events"] if e.get("source") == "log"]
    activations = [e["text"] for e in logged if e["kind"] == "activation"]
    assert activations == [e.text for e in simulated.events if e.type == "activation"]
    assert [e["text"] for e in logged if e["kind"] == "end"] == [simulated.events[-1].text]
    # A check line's own "kind" (opposed, basic) does not rename it in the timeline.
    assert any(e["kind"] == "check" for e in logged)
    assert not any(e["kind"] in ("opposed", "basic") for e in logged)
    assert len(doc["moves"]) >= 8  # the moves, charges and drive-backs the camera saw

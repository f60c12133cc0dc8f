"""The strike system through the live loop on a rendered table: footage of a one-round battle
(the virtual camera and a virtual hand), read by the real detector and tracker, reaches the
simulated outcome with the AI's strike count spoken; then the replay of that session's
recording shows the Oracle pools, the activation and the strike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.footage import write_battle_footage
from assistant.replay.run import ReplayOptions, run_replay
from assistant.session.start import SessionOptions, run_session
from engine.dice import SeededDice
from engine.runner import controllers_for, play_battle, start_game
from engine.scenario import parse_scenario

SCENARIO = Path(__file__).with_name("strike-duel.toml")
SEED = 14
"""The AI moves in and removes one of the player's soldiers, the player's other soldier moves,
then the AI removes that one too (the player starts nothing before the set-up is seen)."""


@pytest.mark.slow
def test_a_rendered_battle_reaches_the_simulated_outcome_and_replays(tmp_path: Path) -> None:
    scenario = parse_scenario(SCENARIO.read_text(encoding="utf-8"), SCENARIO.name)
    ruleset, state = start_game(scenario)
    simulated = play_battle(state, ruleset, controllers_for(scenario), SeededDice(SEED))
    meta = write_battle_footage(
        scenario, str(SCENARIO), ruleset, state, SEED, tmp_path / "clip", fps=5.0
    )
    clip = tmp_path / "clip"
    result = run_session(
        SessionOptions(
            source=str(clip / meta["video"]),
            scenario=str(SCENARIO),
            seed=SEED,
            speech="off",
            serve=False,
            out=tmp_path / "run",
            declarations=clip / meta["declarations"],
        ),
        echo=lambda text: None,
    )
    game = result.game
    assert game.state.winner == simulated.final.winner
    assert [u.status for u in game.state.units] == [u.status for u in simulated.final.units]
    said = [a.text for a in game.announcements]
    assert any("take a 5 (skirmish) from the Marauders dice" in s for s in said)
    assert any("count 2 against Toughness 2 (" in s for s in said)  # the count, ally by ally

    replay = run_replay(
        ReplayOptions(
            clip / meta["video"],
            tmp_path / "replay",
            scenario=str(SCENARIO),
            events=tmp_path / "run" / "recording",
        )
    )
    assert replay.footage_s > 0
    doc = json.loads((tmp_path / "replay" / "timeline.json").read_text(encoding="utf-8"))
    kinds = [e["kind"] for e in doc["events"]]
    assert kinds.count("oracle") == 2 and "strike" in kinds and "end" in kinds
    strike = next(e for e in doc["events"] if e["kind"] == "strike")
    assert "count 2 against Toughness 2" in strike["text"]
    assert [a["label"] for a in doc["activations"]] == [
        e.text for e in simulated.events if e.type == "activation"
    ]

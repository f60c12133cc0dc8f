"""The d20 system with the ``status-d20`` AI through the camera: the first eight actions of
``soloscope demo --scenario d20-grid-skirmish --seed 5`` (its footage with the kit sized for
the camera), read by the real detector and tracker, reach the state ``simulate`` reaches
after as many actions: statuses change and a figure falls; the replay of the session's
recording tells the same activations."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.demo_path import DemoCut, cut_fixture

SCENARIO, SEED, ACTIONS = "d20-grid-skirmish", 5, 8


cut = cut_fixture(SCENARIO, SEED, ACTIONS)


@pytest.mark.slow
def test_the_demo_reaches_the_simulated_state_through_the_camera(cut: DemoCut) -> None:
    assert {"status", "fall"} <= {e.type for e in cut.events}
    assert cut.outcome == cut.clip.simulated()
    assert len(cut.game.steps) == ACTIONS


@pytest.mark.slow
def test_the_replay_tells_the_same_activations(cut: DemoCut, tmp_path: Path) -> None:
    doc = cut.replay(tmp_path / "replay")
    logged = [e for e in doc["events"] if e.get("source") == "log"]
    assert [e["text"] for e in logged if e["kind"] == "activation"] == [
        e.text for e in cut.events if e.type == "activation"
    ]

"""The strike system's demo through the camera: the first twelve actions of ``soloscope demo
--scenario strike-causeway`` (seed 1; its 4K footage with the kit sized for that camera),
read by the real detector and tracker, reach the state ``simulate`` reaches after as many
actions, with the AI's strike count spoken; the replay of the session's recording shows the
Oracle pools, the activations and the strike."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.demo_path import DemoCut, cut_fixture

SCENARIO, SEED, ACTIONS = "strike-causeway", 1, 12
"""Both Oracle pools, six activations; Captain Idris strikes Stalker Rhi, who is removed."""


cut = cut_fixture(SCENARIO, SEED, ACTIONS)


@pytest.mark.slow
def test_the_demo_reaches_the_simulated_state_through_the_camera(cut: DemoCut) -> None:
    assert cut.clip.video.name.endswith(".mp4") and "-4k-" in cut.clip.video.name
    assert cut.outcome == cut.clip.simulated()
    assert len(cut.game.steps) == ACTIONS
    assert any("count 2 against Toughness 2: Stalker Rhi removed" in s for s in cut.said)
    assert any("take a 5 (skirmish) from the Marauders dice" in s for s in cut.said)


@pytest.mark.slow
def test_the_replay_shows_the_pools_the_activations_and_the_strike(
    cut: DemoCut, tmp_path: Path
) -> None:
    doc = cut.replay(tmp_path / "replay")
    kinds = [e["kind"] for e in doc["events"]]
    assert kinds.count("oracle") == 2 and "strike" in kinds
    strike = next(e for e in doc["events"] if e["kind"] == "strike")
    assert "count 2 against Toughness 2" in strike["text"]
    assert [a["label"] for a in doc["activations"]] == [
        e.text for e in cut.events if e.type == "activation"
    ]

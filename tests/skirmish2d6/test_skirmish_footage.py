"""The 2D6 skirmish's demo through the camera: the first ten actions of ``soloscope demo
--scenario skirmish-cairns --seed 3`` (its footage with the kit sized for the camera), read by
the real detector and tracker, reach the state ``simulate`` reaches after as many actions: a
charge, a drive-back ordered and seen done, a kill; the replay of the session's recording
tells the same activations and checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.demo_path import DemoCut, cut_fixture

SCENARIO, SEED, ACTIONS = "skirmish-cairns", 3, 10


cut = cut_fixture(SCENARIO, SEED, ACTIONS)


@pytest.mark.slow
def test_the_demo_reaches_the_simulated_state_through_the_camera(cut: DemoCut) -> None:
    types = {e.type for e in cut.events}
    assert {"drive_back", "fall"} <= types
    assert cut.outcome == cut.clip.simulated()
    assert len(cut.game.steps) == ACTIONS
    assert any("is driven back: move it" in s for s in cut.said)


@pytest.mark.slow
def test_the_replay_tells_the_activations_and_the_checks(cut: DemoCut, tmp_path: Path) -> None:
    doc = cut.replay(tmp_path / "replay")
    logged = [e for e in doc["events"] if e.get("source") == "log"]
    activations = [e["text"] for e in logged if e["kind"] == "activation"]
    assert activations == [e.text for e in cut.events if e.type == "activation"]
    # A check line's own "kind" (opposed, basic) does not rename it in the timeline.
    assert any(e["kind"] == "check" for e in logged)
    assert not any(e["kind"] in ("opposed", "basic") for e in logged)

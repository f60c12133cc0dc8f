"""The narrative rules' demo through the camera: the first ten actions of ``soloscope demo
--scenario crossroads-ambush`` (seed 1; its footage with the kit sized for the camera), read
by the real detector and tracker, reach the state ``simulate`` reaches after as many actions,
two attacks among them."""

from __future__ import annotations

import pytest

from tests.demo_path import DemoCut, cut_fixture

SCENARIO, SEED, ACTIONS = "crossroads-ambush", 1, 10


cut = cut_fixture(SCENARIO, SEED, ACTIONS)


@pytest.mark.slow
def test_the_demo_reaches_the_simulated_state_through_the_camera(cut: DemoCut) -> None:
    assert sum(e.type == "attack" for e in cut.events) == 2
    assert cut.outcome == cut.clip.simulated()
    assert len(cut.game.steps) == ACTIONS

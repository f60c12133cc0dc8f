"""The Dungeon Crawl's demo through the camera: the first fourteen actions of ``soloscope demo
--scenario dungeon-crawl`` (seed 1; the printed board framed closely by a 1080p camera, the
flat markers' tags sized for it), read by the real detector and tracker, reach the state
``simulate`` reaches after as many actions, the patrols and the first attack among them.

Before, the demo's footage was of another battle than ``simulate``'s: it asked the AI afresh
for every action of an order of several actions and dropped its memory."""

from __future__ import annotations

import pytest

from tests.demo_path import DemoCut, cut_fixture

SCENARIO, SEED, ACTIONS = "dungeon-crawl", 1, 14


cut = cut_fixture(SCENARIO, SEED, ACTIONS)


@pytest.mark.slow
def test_the_demo_reaches_the_simulated_state_through_the_camera(cut: DemoCut) -> None:
    assert {"patrol", "attack"} <= {e.type for e in cut.events}
    assert "-1080p-" in cut.clip.video.name
    assert cut.outcome == cut.clip.simulated()
    assert len(cut.game.steps) == ACTIONS
    assert any(": patrol roll " in s for s in cut.said)
    assert not [s for s in cut.said if "centre it" in s or "not legal" in s]

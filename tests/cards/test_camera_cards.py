"""Firefight-lite with the ``cards`` AI through the camera: the first fourteen actions of
``soloscope demo --scenario bosworth-market --seed 3`` (its footage with the kit sized for the
camera), read by the real detector and tracker, reach the state ``simulate`` reaches after as
many actions: the AI's cards, a defence card drawn when a figure is attacked before it acted
(a reaction), and the player's stand-in (``random``) rolling the game's dice for its choices
— rolled again at the table before each declaration; the replay of the session's recording
ends on the same log."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.demo_path import DemoCut, cut_fixture

SCENARIO, SEED, ACTIONS = "bosworth-market", 3, 14


cut = cut_fixture(SCENARIO, SEED, ACTIONS)


@pytest.mark.slow
def test_the_demo_reaches_the_simulated_state_through_the_camera(cut: DemoCut) -> None:
    assert any(e.type == "reaction" for e in cut.events)
    assert cut.outcome == cut.clip.simulated()
    assert len(cut.game.steps) == ACTIONS
    assert cut.game.plan_rolls and any(cut.game.plan_rolls)  # the stand-in's rolls, rolled
    decks = {d.name: (len(d.draw_pile), len(d.discard)) for d in cut.game.state.decks}
    assert decks and all(sum(v) > 0 for v in decks.values())


@pytest.mark.slow
def test_the_replay_reads_the_moves_with_the_log(cut: DemoCut, tmp_path: Path) -> None:
    doc = cut.replay(tmp_path / "replay")
    logged = [e for e in doc["events"] if e.get("source") == "log"]
    assert [e["text"] for e in logged if e["kind"] == "activation"] == [
        e.text for e in cut.events if e.type == "activation"
    ]
    assert len(doc["moves"]) >= 3  # the moves the camera saw

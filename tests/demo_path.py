"""A short cut of a scenario's demo footage played through the camera, as ``soloscope demo
--scenario NAME --seed N`` plays the whole battle: the footage rendered by the demo's cache
(the kit sized for its camera, the first ``actions`` actions of the battle ``simulate``
plays), read by the real detector and tracker in the live session with the stand-in's
declarations; then the outcome the table reached against ``simulate``'s after as many
actions, and the replay of the session's recording.

Each cut is rendered once per test session (the demo's cache, in the session's temporary
folder)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from assistant.demo_clips import Clip, Outcome, demo_clip
from assistant.footage import battle_moves
from assistant.replay.run import ReplayOptions, run_replay
from assistant.scenarios import load_game
from assistant.session.game import LiveGame
from assistant.session.start import run_session


@dataclass
class DemoCut:
    """A cut played: the clip, the live game at its end, what was said, the simulated battle's
    events over the same actions, and where the session was saved."""

    clip: Clip
    game: LiveGame
    said: list[str]
    events: list[Any]
    run: Path

    @property
    def outcome(self) -> Outcome:
        return Outcome.of(self.game.state)

    def replay(self, out: Path) -> dict[str, Any]:
        """The replay of the session's recording (footage and event log): its timeline."""
        run_replay(
            ReplayOptions(
                self.clip.video,
                out,
                kit=self.clip.kit,
                scenario=self.clip.scenario,
                events=self.run / "recording",
            )
        )
        return dict(json.loads((out / "timeline.json").read_text(encoding="utf-8")))


def play_cut(factory: pytest.TempPathFactory, name: str, seed: int, actions: int) -> DemoCut:
    """Render (once per session) and play the first ``actions`` actions of the demo."""
    cache = factory.getbasetemp() / "demo-footage"
    folder, clip_name = demo_clip(name, seed, cache, max_actions=actions)
    clip = Clip.read(folder, clip_name)
    run = factory.mktemp(f"{name}-run")
    result = run_session(
        clip.session_options(run / "game", speech="off", serve=False), echo=lambda text: None
    )
    try:
        game = result.game
    finally:
        result.close()
    scenario, ruleset, state = load_game(name)
    events = battle_moves(scenario, ruleset, state, seed, actions).events
    return DemoCut(clip, game, [a.text for a in game.announcements], events, run / "game")


def cut_fixture(name: str, seed: int, actions: int) -> Any:
    """A module-scoped fixture that plays the first ``actions`` actions of the demo of
    scenario ``name`` with ``seed`` (``cut = cut_fixture(...)`` in a test module)."""

    @pytest.fixture(scope="module")
    def cut(tmp_path_factory: pytest.TempPathFactory) -> DemoCut:
        return play_cut(tmp_path_factory, name, seed, actions)

    return cut

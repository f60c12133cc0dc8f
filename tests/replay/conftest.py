"""Shared replay fixtures: one rendered battle clip (the project's renderer, with ground truth)
and its replay, made once per test run (shared by the xdist workers, see tests/run_once.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.replay.run import ReplayOptions, ReplayResult, run_replay
from tests.replay.rendered_clip import BattleScript, render_battle, standard_battle
from tests.run_once import once_per_run


@pytest.fixture(scope="session")
def clip_and_truth(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[BattleScript, Path, list[dict]]:
    """The standard battle (1080p, 8 fps, 17 s: three moves, a hover, hidden tags), its path
    and its true moves (tag centres in inches, degrees, seconds)."""

    def make(folder: Path) -> tuple[BattleScript, Path, list[dict], list[int]]:
        script = standard_battle()
        path = folder / "battle.mp4"
        truth, first = render_battle(script, path)
        hidden = [t.tag_id for t in first.tags if not t.visible and t.tag_id >= 16]
        return script, path, truth, hidden

    script, path, truth, hidden = once_per_run(tmp_path_factory, "standard-battle", make)
    assert hidden, "the scene should have figures hiding their own tags"
    return script, path, truth


@pytest.fixture(scope="session")
def replay(
    clip_and_truth: tuple[BattleScript, Path, list[dict]],
    tmp_path_factory: pytest.TempPathFactory,
) -> ReplayResult:
    """The replay of the standard battle, with the annotated video."""
    _, path, _ = clip_and_truth
    return once_per_run(
        tmp_path_factory,
        "standard-battle-replay",
        lambda out: run_replay(ReplayOptions(footage=path, out_dir=out, video=True)),
    )


SAMPLE = Path(__file__).resolve().parents[2] / "sample_footage"
SAMPLE_VIDEO = SAMPLE / "crossroads-seed3.mp4"
SAMPLE_TRUTH = SAMPLE / "crossroads-seed3.truth.json"


@pytest.fixture(scope="session")
def sample_replay(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, dict, Path]:
    """The bundled sample battle replayed with its scenario and no session log: its ground
    truth, its timeline.json and the replay folder. Made once per test session."""
    if not SAMPLE_VIDEO.exists() or not SAMPLE_TRUTH.exists():
        pytest.skip("sample_footage/crossroads-seed3.* is not there (see sample_footage/README)")
    truth = json.loads(SAMPLE_TRUTH.read_text())

    def make(out: Path) -> Path:
        run_replay(ReplayOptions(SAMPLE_VIDEO, out, scenario="crossroads-ambush"))
        return out

    out = once_per_run(tmp_path_factory, "sample-replay", make)
    return truth, json.loads((out / "timeline.json").read_text()), out

"""Shared replay fixtures: one scripted clip and its replay per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.replay.run import ReplayOptions, ReplayResult, run_replay
from tests.replay.clipmaker import Clip, standard_clip, write_clip


@pytest.fixture(scope="session")
def clip_and_truth(tmp_path_factory: pytest.TempPathFactory) -> tuple[Clip, Path, list[dict]]:
    folder = tmp_path_factory.mktemp("clip")
    clip = standard_clip()
    path = folder / "battle.mp4"
    truth = write_clip(clip, path)
    return clip, path, truth


@pytest.fixture(scope="session")
def replay(
    clip_and_truth: tuple[Clip, Path, list[dict]], tmp_path_factory: pytest.TempPathFactory
) -> ReplayResult:
    _, path, _ = clip_and_truth
    out = tmp_path_factory.mktemp("replay")
    return run_replay(ReplayOptions(footage=path, out_dir=out, video=True))

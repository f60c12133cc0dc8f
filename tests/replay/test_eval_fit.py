"""The fit of the replay's likelihood model (benchmarks/fit_replay.py) takes every rule
system's training battles and never an evaluation battle (issue 26 items 1 and 3)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def _load(name: str) -> ModuleType:
    sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_fit_takes_every_systems_training_battles_and_no_evaluation_one() -> None:
    fit = _load("fit_replay")
    battles = _load("replay_battles")
    chosen = fit.training_battles()
    scenarios = {scenario for scenario, _, _ in chosen.values()}
    assert set(battles.SYSTEM_SCENARIOS.values()) <= scenarios
    assert "crossroads-ambush" in scenarios
    assert all(seed in battles.TRAINING_SEEDS for _, seed, _ in chosen.values())
    assert not set(chosen) & set(battles.SETS["evaluation"])


def test_the_only_option_picks_training_battles_by_name(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fit = _load("fit_replay")
    assert set(fit.training_battles("dungeon-crawl")) == {
        "dungeon-crawl seed 1",
        "dungeon-crawl seed 2, hover",
        "dungeon-crawl seed 3, camera nudged",
    }
    monkeypatch.setattr(sys, "argv", ["fit_replay.py", "--only", "no such battle"])
    assert fit.main() == 2
    assert capsys.readouterr().err == "No training battle's name holds 'no such battle'.\n"


def test_the_cut_option_counts_actions_from_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fit = _load("fit_replay")
    monkeypatch.setattr(sys, "argv", ["fit_replay.py", "--cut", "0"])
    assert fit.main() == 2
    assert capsys.readouterr().err == "--cut counts actions from 1, not 0.\n"

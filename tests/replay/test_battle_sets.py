"""The replay benchmark's battles in two disjoint sets (issue 26): the training battles a fit
of the likelihood model may use, and the evaluation battles it never sees."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def _load(name: str) -> ModuleType:
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH))


def test_training_and_evaluation_battles_are_disjoint() -> None:
    battles = _load("replay_battles")
    assert set(battles.TRAINING_SEEDS).isdisjoint(battles.EVALUATION_SEEDS)
    assert all(seed in battles.TRAINING_SEEDS for _, seed, _ in battles.BATTLES.values())
    assert all(seed in battles.EVALUATION_SEEDS for _, seed, _ in battles.EVALUATION.values())
    # a hovering hand and a bumped camera among the evaluation battles of every scenario
    for scenario in {s for s, _, _ in battles.EVALUATION.values()}:
        options = [o for s, _, o in battles.EVALUATION.values() if s == scenario]
        assert ["--hover-after"] in [o[:1] for o in options], scenario
        assert ["--nudge-after"] in [o[:1] for o in options], scenario


def test_every_system_has_three_evaluation_battles_with_a_hover_and_a_nudge() -> None:
    battles = _load("replay_battles")
    for which, seeds in (
        ("training", battles.TRAINING_SEEDS),
        ("evaluation", battles.EVALUATION_SEEDS),
    ):
        chosen = battles.SETS[which]
        for system, scenario in battles.SYSTEM_SCENARIOS.items():
            mine = [(seed, o) for s, seed, o in chosen.values() if s == scenario]
            assert len(mine) >= 3, (which, system)
            assert all(seed in seeds for seed, _ in mine), (which, system)
            assert [o for _, o in mine if "--hover-after" in o], (which, system)
            assert [o for _, o in mine if "--nudge-after" in o], (which, system)
            assert battles.system_of(scenario) == system


@pytest.mark.parametrize(("which", "heads"), [("training", 1), ("evaluation", 1), ("all", 2)])
def test_the_set_option_reports_each_set_under_its_heading(
    which: str, heads: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    battles = _load("replay_battles")
    argv = ["replay_battles.py", "--set", which, "--only", "no such battle"]
    monkeypatch.setattr(sys, "argv", argv)
    assert battles.main() == 0
    out = capsys.readouterr().out
    assert out.count(" battles\n") == heads
    assert ("training battles" in out) == (which != "evaluation")
    assert ("evaluation battles" in out) == (which != "training")


def test_a_fitted_share_is_never_zero_or_one() -> None:
    fit = _load("fit_replay")
    assert fit.share(0, 36) == pytest.approx(0.5 / 37)
    assert fit.share(10, 10) == pytest.approx(10.5 / 11)
    assert 0.0 < fit.share(0, 0) < 1.0

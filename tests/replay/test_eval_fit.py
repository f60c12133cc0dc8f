"""The fit of the replay's likelihood model (benchmarks/fit_replay.py) takes every rule
system's training battles and never an evaluation battle (issue 26 items 1 and 3)."""

from __future__ import annotations

import importlib.util
import math
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
    sys.modules[name] = module  # its dataclasses look their module up there
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


def test_the_steps_count_each_traceless_event_by_what_the_footage_shows_of_it() -> None:
    fit = _load("fit_replay")
    move = fit.PieceMove("a", 1.0, 2.0, 0.0)
    roll = fit.TrayRoll((4,), "hit")
    steps = [
        fit.ActionStep(["round_start", "initiative"], "chance", [roll], False),  # vouched
        fit.ActionStep(["activation", "move"], "move", [move, roll], False),  # its move shows it
        fit.ActionStep(["activation", "attack"], "shoot", [roll], False),  # vouched
        fit.ActionStep(["activation", "attack"], "shoot", [roll], True),  # a die the tray hides
        fit.ActionStep([], "pass", [], False),  # a pass the engine logs no event for
        fit.ActionStep(["pass"], "pass", [], False),
        fit.ActionStep(["round_start"], "chance", [], False),
    ]
    assert fit.step_counts(steps) == {"unseen_step": (4, 7), "seen_step": (2, 7)}


def test_the_tray_counts_the_readings_that_are_wrong() -> None:
    fit = _load("fit_replay")
    doc = {
        "events": [
            {"kind": "roll", "source": "tray", "known": "seen", "values": [5]},
            {"kind": "roll", "source": "tray", "known": "unknown", "values": []},
            {"kind": "roll", "source": "tray", "known": "seen", "values": [3]},
            {"kind": "roll", "source": "tray", "known": "seen", "values": [6, 2]},
        ]
    }
    played = fit.BattleMoves(final=None)  # type: ignore[arg-type]
    played.shown = [fit.TrayRoll((5,), "a"), fit.TrayRoll((4,), "b"), fit.TrayRoll((6, 2), "c")]
    assert fit.tray_counts(doc, played) == (1, 3)


def test_the_pose_share_is_the_rayleigh_chance_of_the_reaches() -> None:
    fit = _load("fit_replay")
    tol_in = 0.25
    (near_in, _), (far_in, _) = fit.engine_model.error_reaches(tol_in)
    sigma_in = 0.5 * tol_in
    p_near = math.exp(-(near_in**2) / (2 * sigma_in**2))
    p_far = math.exp(-(far_in**2 - near_in**2) / (2 * sigma_in**2))
    n = 100000
    k_near = round(p_near * n)
    found = fit.rayleigh_share((k_near, n), (round(p_far * k_near), k_near), tol_in)
    assert found == pytest.approx(0.5, rel=0.01)
    assert fit.reach_counts([0.0, near_in, far_in - 0.01, far_in, 2.0], tol_in) == (1, 2, 2)

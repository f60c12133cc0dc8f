"""d20 benchmark (not a test): games per second and milliseconds per status-AI decision.

Generates a 5-against-6 Basic Battle (``soloscope generate scenario --scenario basic-battle``,
seed 003 with random terrain, RULES §5.m/§5.n), then plays it through on one core with the
``status-d20`` controller on both sides (as ``soloscope simulate`` does) for a range of dice
seeds, and reports:

* games per second (CPU time of this process, and the wall clock beside it);
* the median and 95th-percentile time of one ``decide`` call of the AI side.

The fastest of ``--repeat`` runs is reported (noise only ever adds time).

Run: ``.venv/bin/python benchmarks/d20_bench.py [--seeds 40] [--bundled d20-grid-skirmish]``.
Aims (issue 13): AI decision median at most 2 ms; at least 50 games per second.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.scenario_files import scenario_toml
from engine.actions import Order
from engine.dice import RandomSource, SeededDice
from engine.generators.scenario import ScenarioKind, generate_scenario
from engine.model import GameState, Role
from engine.protocols import Controller, ControllerBase, Pending, Ruleset
from engine.runner import controllers_for, play_battle, start_game
from engine.scenario import Scenario, parse_scenario


class _Timed(ControllerBase):
    """Wraps a controller and records each ``decide`` call's CPU time, in seconds."""

    def __init__(self, inner: Controller, times: list[float]) -> None:
        self._inner = inner
        self._times = times
        self.name = inner.name
        self.rulesets = inner.rulesets

    def choose_unit(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str | None:
        return self._inner.choose_unit(state, ruleset, pending, dice)

    def decide(self, state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource) -> Order:
        t0 = time.process_time()
        order = self._inner.decide(state, ruleset, unit_id, dice)
        self._times.append(time.process_time() - t0)
        return order


def scenario_text(seed: int) -> str:
    """The generated 5-against-6 Basic Battle."""
    gen = generate_scenario(SeededDice(seed), 5, 6, kind=ScenarioKind.BASIC_BATTLE)
    return scenario_toml(gen, seed)


def run(scenario: Scenario, seeds: range) -> tuple[float, float, list[float]]:
    """Play one game per seed of one scenario object (its games share the answers about its
    terrain, issue 25); (CPU s, wall s, AI decide CPU times in s)."""
    times: list[float] = []
    cpu = wall = 0.0
    for seed in seeds:
        ruleset, state = start_game(scenario)  # a fresh memo: each game pays for its searches
        controllers = dict(controllers_for(scenario))
        ai = next(s.name for s in scenario.sides if s.role == Role.AI.value)
        controllers[ai] = _Timed(controllers[ai], times)  # type: ignore[assignment]
        t0, w0 = time.process_time(), time.perf_counter()
        play_battle(state, ruleset, controllers, SeededDice(seed))
        cpu += time.process_time() - t0
        wall += time.perf_counter() - w0
    return cpu, wall, times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=40, help="games to play (dice seeds 0..N-1)")
    parser.add_argument("--scenario-seed", type=int, default=1, help="seed of the generated battle")
    parser.add_argument(
        "--bundled", metavar="NAME", help="play a bundled d20 scenario instead (d20-grid-skirmish)"
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs; the fastest is reported")
    args = parser.parse_args()
    if args.bundled:
        root = Path(__file__).resolve().parents[1] / "assistant" / "data" / "scenarios"
        text = (root / f"{args.bundled}.toml").read_text(encoding="utf-8")
    else:
        text = scenario_text(args.scenario_seed)
    scenario = parse_scenario(text, "generated")  # read once
    run(scenario, range(1000, 1002))  # warm imports
    runs = [run(scenario, range(args.seeds)) for _ in range(max(1, args.repeat))]
    cpu, wall, times = min(runs, key=lambda r: r[0])
    ms = sorted(t * 1000 for t in times)
    p95 = ms[int(0.95 * (len(ms) - 1))]
    if args.bundled:
        print(f"bundled scenario {args.bundled}")
    else:
        print(f"generated Basic Battle (seed {args.scenario_seed}), 5 against 6 on an open table")
    print(
        f"games per second: {args.seeds / cpu:.1f} on CPU time ({cpu:.2f} s), "
        f"{args.seeds / wall:.1f} on the wall clock"
    )
    median = statistics.median(ms)
    print(f"AI decision: median {median:.2f} ms, p95 {p95:.2f} ms ({len(ms)} calls)")
    rate = args.seeds / cpu
    print(
        f"aims: decision median <= 2 ms {'met' if median <= 2.0 else 'MISSED'}; "
        f">= 50 games per second {'met' if rate >= 50 else 'MISSED'} (reported, not a failure)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Generated d20 scenarios benchmark (not a test): issue 13's "games per second on one core for a
generated 5-against-6 Basic Battle", and how long generating a scenario takes.

Generates a Basic Battle (``soloscope generate scenario --scenario basic-battle``: 5 heroes, 6
enemies, random terrain) for each of ``--tables`` seeds, then plays each with the status AI on
both sides for ``--games`` dice seeds (``soloscope simulate`` without output). Times are CPU
time of this process (``time.process_time``), so other jobs on a shared machine count less; the
wall-clock rate is printed beside it. The fastest of ``--repeat`` runs is reported.

Run: ``.venv/bin/python benchmarks/d20_generated_bench.py [--tables 5] [--games 10]``.
Aim (issue 13): at least 50 games per second on one core.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.scenario_files import scenario_toml
from engine.dice import SeededDice
from engine.generators.scenario import generate_scenario
from engine.generators.scenario_table import ScenarioKind
from engine.runner import controllers_for, play_battle, start_game
from engine.scenario import Scenario, parse_scenario


def _scenarios(tables: int) -> tuple[list[Scenario], list[float]]:
    out, times = [], []
    for seed in range(tables):
        start = time.process_time()
        gen = generate_scenario(SeededDice(seed), 5, 6, kind=ScenarioKind.BASIC_BATTLE)
        text = scenario_toml(gen, seed)
        times.append(time.process_time() - start)
        out.append(parse_scenario(text, f"basic-battle-{seed}.toml"))
    return out, times


def _play(scenarios: list[Scenario], games: int) -> tuple[float, float, int, dict[str, int]]:
    """CPU seconds, wall seconds, games played, winners."""
    winners: dict[str, int] = {}
    cpu0, wall0 = time.process_time(), time.perf_counter()
    played = 0
    for scenario in scenarios:
        ruleset, state = start_game(scenario)
        controllers = controllers_for(scenario)
        for seed in range(games):
            record = play_battle(state, ruleset, controllers, SeededDice(seed))
            winner = record.final.winner or "none"
            winners[winner] = winners.get(winner, 0) + 1
            played += 1
    return time.process_time() - cpu0, time.perf_counter() - wall0, played, winners


def main() -> int:
    """Generate, play, report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=5, help="generated scenarios (5)")
    parser.add_argument("--games", type=int, default=10, help="games on each (10)")
    parser.add_argument("--repeat", type=int, default=2, help="runs; the fastest counts (2)")
    args = parser.parse_args()
    scenarios, gen_times = _scenarios(args.tables)
    best: tuple[float, float, int, dict[str, int]] | None = None
    for _ in range(max(1, args.repeat)):
        run = _play(scenarios, args.games)
        if best is None or run[0] < best[0]:
            best = run
    assert best is not None
    cpu, wall, played, winners = best
    print(
        f"generate scenario (Basic Battle, 5 v 6, 24 x 24 in): median "
        f"{statistics.median(gen_times) * 1000:.1f} ms CPU over {len(gen_times)} seeds"
    )
    print(
        f"games: {played} on {len(scenarios)} generated tables; {played / cpu:.1f} games/s "
        f"CPU ({played / wall:.1f}/s wall); aim >= 50"
    )
    print("winners: " + ", ".join(f"{k} {v}" for k, v in sorted(winners.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())

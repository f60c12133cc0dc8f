"""Crash trials for the campaign store (issue 16): ``campaign next --simulate`` and ``campaign
resolve`` run as real processes and are killed (SIGKILL) at a point drawn from a seeded RNG;
after each kill the campaign must be consistent (a battle recorded with its wounds, or not at
all; a resolution written whole, or not at all) and the campaign must carry on.

Used by ``tests/campaign/test_crash.py`` (50 trials) and ``benchmarks/campaign_crash.py``
(60 and more). Each step runs in a child forked from :mod:`tests.campaign.crash_runner` (soloscope
imported once). The kill points are fractions of the CPU time an uncut run of the same step
takes, or (half the battles) a few milliseconds of CPU after the battle's log is written, just
before its transaction; so they fall before, during and after the step's write. They are
counted in the child's CPU time, so a loaded machine does not move them. Nothing here asserts
anything about time.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.campaign.battle import runs_root, simulate_next
from assistant.campaign.files import load_campaign
from assistant.campaign.resolve import dice_for, resolve_last
from assistant.campaign.store import CampaignStore, table_dump
from assistant.campaign.view import campaign_json


@dataclass
class CrashReport:
    """What the trials did."""

    trials: int = 0
    killed_before: dict[str, int] = field(default_factory=lambda: {"next": 0, "resolve": 0})
    """Killed with nothing written."""
    written: dict[str, int] = field(default_factory=lambda: {"next": 0, "resolve": 0})
    """The step's change was in the database (finished, or killed after its commit)."""
    campaigns: int = 1
    after_log: int = 0
    """Battles killed after their log was written and before they were recorded (inside the
    window where a torn write would show)."""
    problems: list[str] = field(default_factory=list)


ROOT = Path(__file__).resolve().parents[2]
AT_WRITE_CPU_S = 0.003
"""A battle killed "at its write" dies within this much CPU time (seconds) after its log."""


class Runner:
    """The :mod:`tests.campaign.crash_runner` process: each trial is a child it forks."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        ready = self._answer()
        assert ready == {"ready": True}, ready

    def _answer(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the crash runner stopped (exit {self.process.wait()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def run(
        self,
        argv: list[str],
        cpu_s: float | None = None,
        after_file: Path | None = None,
        after_cpu_s: float = 0.0,
    ) -> dict[str, Any]:
        """``soloscope ARGV`` in a forked child, SIGKILLed after ``cpu_s`` seconds of CPU, or
        ``after_cpu_s`` seconds of CPU after ``after_file`` appeared: ``{"code", "cpu_s"}``
        (code None: killed)."""
        assert self.process.stdin is not None
        request = {
            "argv": argv,
            "cpu_s": cpu_s,
            "after_file": None if after_file is None else str(after_file),
            "after_cpu_s": after_cpu_s,
        }
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return self._answer()


@contextmanager
def crash_runner() -> Iterator[Runner]:
    """A running crash runner, stopped at the end."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.campaign.crash_runner"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        yield Runner(process)
    finally:
        assert process.stdin is not None
        process.stdin.close()
        code = process.wait()
        if process.stdout is not None:
            process.stdout.close()
        if code != 0:  # it ends when its input does
            raise RuntimeError(f"the crash runner failed (exit {process.returncode})")


def _command(step: str, db: Path, seed: int) -> list[str]:
    args = ["campaign", step, "--db", str(db)]
    if step == "next":
        return [*args, "--simulate", "--seed", str(seed)]
    return [*args, "--seed", str(seed), "--speech", "off"]


def _uncut_cpu_seconds(runner: Runner, step: str, db: Path, seed: int) -> float:
    answer = runner.run(_command(step, db, seed))
    assert answer["code"] == 0, f"an uncut campaign {step} failed (exit {answer['code']})"
    return float(answer["cpu_s"])


def _new_campaign(folder: Path, n: int) -> Path:
    loaded = load_campaign("wardens-road")
    db = folder / f"campaign-{n}.sqlite"
    CampaignStore.create(db, loaded.campaign, loaded.text, loaded.scenarios).close()
    return db


def _state(db: Path) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    with CampaignStore.open(db) as store:
        return campaign_json(store), table_dump(store), store.problems()


def crash_trials(folder: Path, trials: int, seed: int = 16) -> CrashReport:
    """Run ``trials`` killed steps on campaigns in ``folder``; the report's ``problems`` list
    every inconsistency found (empty when the store held)."""
    with crash_runner() as runner:
        return _trials(runner, folder, trials, seed)


def _trials(runner: Runner, folder: Path, trials: int, seed: int) -> CrashReport:
    rng = random.Random(seed)
    report = CrashReport()
    db = _new_campaign(folder, report.campaigns)
    # How much CPU each step takes uncut (then taken back, so the trials start afresh).
    seconds = {
        "next": _uncut_cpu_seconds(runner, "next", db, 1),
        "resolve": _uncut_cpu_seconds(runner, "resolve", db, 1),
    }
    with CampaignStore.open(db) as store:
        store.undo()
    for trial in range(trials):
        data, dump, problems = _state(db)
        if data["next"] is None and data["unresolved"] is None:
            report.campaigns += 1
            db = _new_campaign(folder, report.campaigns)
            data, dump, problems = _state(db)
        step = "resolve" if data["unresolved"] is not None else "next"
        step_seed = rng.randrange(1, 10_000)
        delay = rng.uniform(0.6, 1.15) * seconds[step]
        # Half the battles are killed just after their log is written, which is just before
        # the battle's transaction: the moment a torn write would show.
        log = (
            runs_root(db) / f"battle-{len(data['battles']) + 1}-{data['next_battle']}" / "log.jsonl"
        )
        at_write = step == "next" and rng.random() < 0.5
        log.unlink(missing_ok=True)
        if at_write:
            delay = rng.uniform(0.0, AT_WRITE_CPU_S)
            answer = runner.run(_command(step, db, step_seed), after_file=log, after_cpu_s=delay)
        else:
            answer = runner.run(_command(step, db, step_seed), cpu_s=delay)
        report.trials += 1
        after, after_dump, problems = _state(db)
        where = f"trial {trial} ({step}, seed {step_seed}, " + (
            f"killed after {answer['cpu_s']:.3f} s of CPU)"
            if answer["code"] is None
            else f"exit {answer['code']})"
        )
        report.problems += [f"{where}: {p}" for p in problems]
        battles, battles_after = len(data["battles"]), len(after["battles"])
        if step == "next":
            done = battles_after == battles + 1
            if not done and (battles_after != battles or after_dump != dump):
                report.problems.append(f"{where}: the campaign changed without its battle")
            if done:
                fought = after["battles"][-1]
                alive = [c for c in data["roster"] if c["status"] != "lost"]
                if len(fought["wounds"]) != len(alive) or fought["resolved"]:
                    report.problems.append(f"{where}: battle recorded without its wounds")
        else:
            done = after["unresolved"] is None
            if not done and after_dump != dump:
                report.problems.append(f"{where}: the campaign changed without its resolution")
            if done and not after["battles"][-1]["resolution"]:
                report.problems.append(f"{where}: resolved without the resolution's lines")
        if answer["code"] == 0 or done:
            report.written[step] += 1
        else:
            report.killed_before[step] += 1
            if step == "next" and log.exists():
                report.after_log += 1
        # The campaign carries on from wherever the kill left it.
        with CampaignStore.open(db) as store:
            if not done and step == "next":
                _, result = simulate_next(store, step_seed)
                store.record_battle(result)
            elif not done:
                resolve_last(store, dice_for("auto", step_seed, None))
            report.problems += [f"{where}, carried on: {p}" for p in store.problems()]
    return report

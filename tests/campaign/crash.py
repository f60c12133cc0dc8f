"""Crash trials for the campaign store (issue 16): ``campaign next --simulate`` and ``campaign
resolve`` run as real processes and are killed (SIGKILL) after a delay drawn from a seeded
RNG; after each kill the campaign must be consistent (a battle recorded with its wounds, or
not at all; a resolution written whole, or not at all) and the campaign must carry on.

Used by ``tests/campaign/test_crash.py`` (50 trials) and ``benchmarks/campaign_crash.py``
(50 and more). The kill delays are fractions of how long an uncut run of the same step takes
on this machine, or (half the battles) a few milliseconds after the battle's log is written,
just before its transaction; so they fall before, during and after the step's write. Nothing
here asserts anything about time.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
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


def _command(step: str, db: Path, seed: int) -> list[str]:
    args = [sys.executable, "-m", "assistant.cli", "campaign", step, "--db", str(db)]
    if step == "next":
        return [*args, "--simulate", "--seed", str(seed)]
    return [*args, "--seed", str(seed), "--speech", "off"]


def _uncut_seconds(step: str, db: Path, seed: int) -> float:
    start = time.monotonic()
    subprocess.run(_command(step, db, seed), capture_output=True, check=True)
    return time.monotonic() - start


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
    rng = random.Random(seed)
    report = CrashReport()
    db = _new_campaign(folder, report.campaigns)
    # How long each step takes uncut here (then taken back, so the trials start afresh).
    seconds = {"next": _uncut_seconds("next", db, 1), "resolve": _uncut_seconds("resolve", db, 1)}
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
            delay = rng.uniform(0.0, 0.03)
        process = subprocess.Popen(
            _command(step, db, step_seed), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        while at_write and process.poll() is None and not log.exists():
            time.sleep(0.001)
        try:
            process.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGKILL)
        process.wait()
        report.trials += 1
        after, after_dump, problems = _state(db)
        where = f"trial {trial} ({step}, seed {step_seed}, killed after {delay:.2f} s)"
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
        if process.returncode == 0 or done:
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

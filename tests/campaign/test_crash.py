"""Crash safety (issue 16): ``campaign next --simulate`` and ``campaign resolve`` killed with
SIGKILL at seeded random moments; every time the campaign is consistent and carries on.

The suite runs the issue's 50 trials (each a soloscope process forked from one that imported
soloscope once, killed after a seeded share of the step's CPU time: a few tenths of a second);
``benchmarks/campaign_crash.py`` runs 60 and prints how many were killed before and after the
transaction."""

from __future__ import annotations

from pathlib import Path

from tests.campaign.crash import crash_trials

TRIALS = 50


def test_killed_campaign_steps_leave_it_consistent(tmp_path: Path) -> None:
    report = crash_trials(tmp_path, trials=TRIALS, seed=16)
    assert report.problems == []
    assert report.trials == TRIALS
    assert sum(report.written.values()) + sum(report.killed_before.values()) == TRIALS
    # the seeded kill moments fall on both sides of the transaction
    assert sum(report.written.values()) and sum(report.killed_before.values())

"""Campaign crash benchmark (issue 16): ``campaign next --simulate`` and ``campaign resolve``
killed with SIGKILL at seeded random moments, 60 trials by default; after each kill the
campaign must be consistent (a battle recorded with its wounds or not at all) and carry on.

Run by ``make bench`` (the tests run 50):
``.venv/bin/python benchmarks/campaign_crash.py [--trials N] [--seed S]``. Exits non-zero
when any trial left the campaign inconsistent.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.campaign.crash import crash_trials  # noqa: E402


def main() -> int:
    """Run the trials and print the counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=60)
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        report = crash_trials(Path(folder), args.trials, args.seed)
    seconds = time.monotonic() - start
    print(
        f"{report.trials} SIGKILL trials over {report.campaigns} campaign(s) in {seconds:.0f} s: "
        f"next killed before its write {report.killed_before['next']}, written "
        f"{report.written['next']} (killed after its log, before its record: "
        f"{report.after_log}); resolve killed before its write "
        f"{report.killed_before['resolve']}, written {report.written['resolve']}; "
        f"inconsistencies: {len(report.problems)}"
    )
    for problem in report.problems:
        print(f"  {problem}")
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())

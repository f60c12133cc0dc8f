"""Start-up benchmark (issue 24): how long the quick commands take, as a player runs them.

Run by ``make bench``: ``.venv/bin/python benchmarks/startup.py [--runs N]``.

Each command is started as a fresh process ``--runs`` times (default 9), the commands taking
turns so that all of them see the same load, like hyperfine: the median and the fastest wall
time of each, beside ``python -c "import cv2, numpy"`` measured in the same run. ``soloscope
--help``, ``rules``, ``oracle``, ``secret`` and ``odds`` should return in 0.5 s on a quiet
2-core machine; for ``detect`` the time is to its first frame's line on standard output (target
1 s), on the bundled sample clip. The CPU seconds each used are given too: on a loaded machine
they say more than the wall time.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLIP = ROOT / "sample_footage" / "crossroads-seed3.mp4"


def _soloscope() -> list[str]:
    """The installed ``soloscope`` beside this interpreter, else ``python -m assistant.cli``."""
    script = Path(sys.executable).with_name("soloscope")
    if script.is_file():
        return [str(script)]
    found = shutil.which("soloscope")
    return [found] if found else [sys.executable, "-m", "assistant.cli"]


def _cpu_s() -> float:
    """CPU seconds (user + system) used by this process's finished children so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _run(argv: list[str], first_line: bool = False) -> tuple[float, float]:
    """Wall seconds from starting ``argv`` to its exit (or to its first line of output), and
    the CPU seconds it used (to its exit)."""
    cpu0 = _cpu_s()
    return _wall_s(argv, first_line), _cpu_s() - cpu0


def _wall_s(argv: list[str], first_line: bool = False) -> float:
    """Seconds from starting ``argv`` to its exit (or to its first line of output)."""
    t0 = time.perf_counter()
    with subprocess.Popen(
        argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    ) as proc:
        assert proc.stdout is not None
        if first_line:
            line = proc.stdout.readline()
            took = time.perf_counter() - t0
            proc.kill()
            if not line:
                raise RuntimeError(f"{' '.join(argv)} printed nothing")
            return took
        proc.communicate()
        took = time.perf_counter() - t0
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} exited with {proc.returncode}")
        return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="runs of each command")
    args = parser.parse_args()
    cli = _soloscope()
    cases: list[tuple[str, list[str], bool, float]] = [
        ('python -c "import cv2, numpy"', [sys.executable, "-c", "import cv2, numpy"], False, 0),
        ("soloscope --help", [*cli, "--help"], False, 0.5),
        ("soloscope rules", [*cli, "rules"], False, 0.5),
        ('soloscope oracle "Does it hold?"', [*cli, "oracle", "Does it hold?"], False, 0.5),
        ("soloscope secret", [*cli, "secret"], False, 0.5),
        (
            "soloscope odds narrative --attack 4 --defence 4",
            [*cli, "odds", "narrative", "--attack", "4", "--defence", "4"],
            False,
            0.5,
        ),
        (
            "soloscope detect CLIP --json (first frame)",
            [*cli, "detect", str(CLIP), "--json"],
            True,
            1.0,
        ),
    ]
    if not CLIP.is_file():
        cases = cases[:-1]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"{os.cpu_count()} cores, load average {load:.1f} at the start; {args.runs} runs each, "
        f"taking turns; command: {' '.join(cli)}\n"
    )
    times: dict[str, list[tuple[float, float]]] = {name: [] for name, *_ in cases}
    for _name, argv, first, _ in cases:  # one unmeasured run each: the files are cached
        _run(argv, first)
    for _ in range(args.runs):
        for name, argv, first, _ in cases:
            times[name].append(_run(argv, first))
    print("| command | median s | fastest s | median CPU s | target s |")
    print("|---|---|---|---|---|")
    for name, _, first, target in cases:
        wall = [w for w, _ in times[name]]
        cpu = statistics.median(c for _, c in times[name])
        goal = f"{target:g}" if target else "(reference)"
        cpu_text = f"{cpu:.3f}" + (" (to exit)" if first else "")
        print(f"| {name} | {statistics.median(wall):.3f} | {min(wall):.3f} | {cpu_text} | {goal} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

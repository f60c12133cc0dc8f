"""The engine's benchmarks at two commits in one run (issue 25): each ``benchmarks/*_bench.py``
that measures the engine is run from a ``git worktree`` of BASE and from this tree in turn, so
both meet the same load, and their figures (games per second, median decision milliseconds)
are printed side by side with the change in percent.

Run: ``.venv/bin/python benchmarks/compare_commits.py BASE [--head COMMIT] [--bench engine ...]
[--repeat 1] [--same-script] [--record benchmarks/engine_baseline.json]`` (without ``--head``,
this working tree is measured against BASE). Each tree runs its own copy of a bench script
(the imports it names are its own); with ``--same-script``, both run this tree's copy (the
same measuring code and printed precision; the script must import only what both trees
have). Both use this tree's Python. ``--record`` writes BASE's figures, its commit and the
machine's load to the file named. The best of ``--repeat`` runs counts (the most games per
second, the fewest milliseconds), since load only ever slows.

``dungeon_cells`` times the reading of rendered boards, so both trees must read the same
frames: this tree's bench script renders them once (``--save-frames``, with this tree's
renderer) and both trees' readers read them (``--frames``, this tree's script, as with
``--same-script``); the renderer's own changes stay out of the figure.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = ROOT / "benchmarks" / "engine_baseline.json"

#: The bench scripts that measure the engine (``benchmarks/NAME_bench.py``).
ENGINE_BENCHES = (
    "engine",
    "strike",
    "skirmish",
    "cards",
    "d20",
    "d20_generated",
    "dungeon",
    "dungeon_cells",
)

#: Benches fed the same rendered frames in both trees (see the module docstring).
SAME_FRAMES = ("dungeon_cells",)

#: Figure patterns: (regular expression with the number as group 1, unit, higher is better).
PATTERNS = (
    (re.compile(r"(?:games|battles) per second: ([\d.]+)"), "games/s", True),
    (re.compile(r"([\d.]+) games/s"), "games/s", True),
    (re.compile(r"median ([\d.]+) ms"), "median ms", False),
    (re.compile(r"([\d.]+) ms per frame"), "ms per frame", False),
)


def figures(output: str) -> dict[str, float]:
    """The figures a bench printed, named by the start of their line (before its first colon)
    and their unit, e.g. ``{"AI decision median ms": 0.52}``."""
    out: dict[str, float] = {}
    for line in output.splitlines():
        head = line.split(":", 1)[0].strip() if ":" in line else ""
        if head.startswith("aim"):
            continue  # the aims a bench restates are not figures
        for pattern, unit, _ in PATTERNS:
            for match in pattern.finditer(line):
                name = f"{head} {unit}".strip()
                if name not in out:
                    out[name] = float(match.group(1))
    return out


def higher_is_better(name: str) -> bool:
    """Whether a larger value of this figure is faster."""
    return next(better for _, unit, better in PATTERNS if name.endswith(unit))


def best(runs: list[dict[str, float]]) -> dict[str, float]:
    """The best value of each figure over repeated runs."""
    out: dict[str, float] = {}
    for run in runs:
        for name, value in run.items():
            pick = max if higher_is_better(name) else min
            out[name] = pick(out.get(name, value), value)
    return out


def run_bench(
    tree: Path, bench: str, same_script: bool = False, args: tuple[str, ...] = ()
) -> dict[str, float]:
    """Run ``benchmarks/BENCH_bench.py`` of ``tree`` with ``args`` (else its defaults) and read
    its figures; with ``same_script``, this tree's copy of the script, run in ``tree``."""
    script = tree / "benchmarks" / f"{bench}_bench.py"
    if same_script and tree != ROOT:
        script = tree / "benchmarks" / f"_compare_{bench}_bench.py"
        shutil.copyfile(ROOT / "benchmarks" / f"{bench}_bench.py", script)
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run(
        [sys.executable, str(script), *args], cwd=tree, env=env, capture_output=True, text=True
    )
    if done.returncode != 0 and not figures(done.stdout):
        raise SystemExit(f"{script} failed:\n{done.stdout}{done.stderr}")
    return figures(done.stdout)


def render_frames(bench: str, folder: Path) -> tuple[str, ...]:
    """Render a bench's frames once with this tree (``--save-frames``); the arguments that
    make each tree read them (``--frames``)."""
    script = ROOT / "benchmarks" / f"{bench}_bench.py"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, str(script), "--save-frames", str(folder)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0 and not figures(done.stdout):
        raise SystemExit(f"{script} failed to render its frames:\n{done.stdout}{done.stderr}")
    return ("--frames", str(folder))


def commit_of(ref: str, cwd: Path = ROOT) -> str:
    """The full commit id of ``ref``."""
    return subprocess.run(
        ["git", "rev-parse", ref], cwd=cwd, capture_output=True, text=True, check=True
    ).stdout.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "base",
        nargs="?",
        help="the commit to compare with (default: the one in benchmarks/engine_baseline.json)",
    )
    parser.add_argument("--head", help="a commit to measure instead of this working tree")
    parser.add_argument("--bench", action="append", choices=ENGINE_BENCHES, help="repeatable")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each tree; best counts")
    parser.add_argument(
        "--same-script", action="store_true", help="both trees run this tree's bench scripts"
    )
    parser.add_argument("--record", type=Path, help="write BASE's figures to this JSON file")
    args = parser.parse_args()
    benches = args.bench or list(ENGINE_BENCHES)
    if args.base is None:
        args.base = json.loads(BASELINE.read_text(encoding="utf-8"))["commit"]
    base = commit_of(args.base)
    load_before = os.getloadavg()
    results: dict[str, dict[str, dict[str, float]]] = {}
    head = commit_of(args.head) if args.head else None
    with tempfile.TemporaryDirectory(prefix="soloscope-compare-") as tmp:
        trees = {"base": Path(tmp) / "base", "head": Path(tmp) / "head" if head else ROOT}
        made = [side for side in ("base", "head") if trees[side] != ROOT]
        for side in made:
            commit = base if side == "base" else head
            subprocess.run(
                ["git", "worktree", "add", "--detach", str(trees[side]), str(commit)],
                cwd=ROOT,
                check=True,
                capture_output=True,
            )
        try:
            for bench in benches:
                runs: dict[str, list[dict[str, float]]] = {"base": [], "head": []}
                same, given = args.same_script, ()
                if bench in SAME_FRAMES:
                    same, given = True, render_frames(bench, Path(tmp) / f"{bench}-frames")
                for _ in range(args.repeat):
                    for side in ("base", "head"):
                        runs[side].append(run_bench(trees[side], bench, same, given))
                results[bench] = {side: best(r) for side, r in runs.items()}
                _print(bench, results[bench])
        finally:
            for side in made:
                subprocess.run(
                    ["git", "worktree", "remove", "--force", str(trees[side])],
                    cwd=ROOT,
                    check=False,
                )
    load_after = os.getloadavg()
    print(f"load average: {load_before[0]:.2f} before, {load_after[0]:.2f} after")
    if args.record:
        record = {
            "commit": base,
            "command": " ".join(["benchmarks/compare_commits.py", *sys.argv[1:]]),
            "machine": {
                "cpus": os.cpu_count(),
                "load_average_before": [round(x, 2) for x in load_before],
                "load_average_after": [round(x, 2) for x in load_after],
            },
            "note": "CPU-time figures of one core; the best of the repeats",
            "same_script": args.same_script,
            "same_frames": [b for b in benches if b in SAME_FRAMES],
            "figures": {bench: r["base"] for bench, r in results.items()},
            "same_run_head": {
                "commit": commit_of("HEAD"),
                "figures": {bench: r["head"] for bench, r in results.items()},
            },
        }
        args.record.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return 0


def _print(bench: str, result: dict[str, dict[str, float]]) -> None:
    print(f"== {bench}")
    for name, base in result["base"].items():
        head = result["head"].get(name)
        if head is None:
            print(f"  {name}: {base:g} at base, missing now")
            continue
        change = (head / base - 1) * 100 if base else 0.0
        faster = change if higher_is_better(name) else -change
        word = "faster" if faster >= 0 else "slower"
        print(f"  {name}: {base:g} at base, {head:g} now ({abs(faster):.1f} % {word})")
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())

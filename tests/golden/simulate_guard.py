"""The golden guard of ``soloscope simulate``: every bundled scenario's battle, seeds 1-20, must
stay byte-identical while the engine is reshaped (issue 25).

Full outputs would be megabytes, so ``tests/golden/simulate/index.json`` holds, per scenario and
seed, the sha256 and line count of ``soloscope simulate S --seed N --json``, and
``tests/golden/simulate/lines.json`` a 16-bit digest of each line (base64), enough to name the
first line that changed without keeping the text.

Used by ``benchmarks/golden_simulate.py`` (all 240 battles: ``make golden``) and by
``tests/golden/test_simulate_guard.py`` (a quick subset in ``make test``).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

from assistant.cli import main
from assistant.scenarios import bundled_scenarios

GOLDEN_DIR = Path(__file__).resolve().parent / "simulate"
INDEX = GOLDEN_DIR / "index.json"
LINES = GOLDEN_DIR / "lines.json"
SEEDS = range(1, 21)


@dataclass(frozen=True)
class Battle:
    """One battle's fingerprint: scenario, seed, sha256 of the whole output, its line count and
    a 16-bit digest per line (base64 of two bytes per line)."""

    scenario: str
    seed: int
    sha256: str
    lines: int
    line_digests: str

    @property
    def key(self) -> str:
        """The battle's name in the golden files: ``scenario/seed``."""
        return f"{self.scenario}/{self.seed}"


def scenario_names() -> list[str]:
    """The bundled scenarios' names, in the order ``soloscope scenarios`` lists them."""
    return [b.name for b in bundled_scenarios()]


def simulate(scenario: str, seed: int) -> str:
    """The text ``soloscope simulate SCENARIO --seed SEED --json`` prints, run in-process."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["simulate", scenario, "--seed", str(seed), "--json"])
    if code != 0:
        raise RuntimeError(f"simulate {scenario} --seed {seed} exited with {code}")
    return out.getvalue()


def _line_digests(text: str) -> str:
    raw = b"".join(hashlib.sha256(line.encode("utf-8")).digest()[:2] for line in text.splitlines())
    return base64.b64encode(raw).decode("ascii")


def fingerprint(scenario: str, seed: int, text: str) -> Battle:
    """The fingerprint of one battle's output."""
    return Battle(
        scenario,
        seed,
        hashlib.sha256(text.encode("utf-8")).hexdigest(),
        len(text.splitlines()),
        _line_digests(text),
    )


def load() -> dict[str, Battle]:
    """The recorded fingerprints, by ``scenario/seed``."""
    index = json.loads(INDEX.read_text(encoding="utf-8"))
    lines = json.loads(LINES.read_text(encoding="utf-8"))
    out = {}
    for row in index["battles"]:
        battle = Battle(
            row["scenario"],
            row["seed"],
            row["sha256"],
            row["lines"],
            lines[f"{row['scenario']}/{row['seed']}"],
        )
        out[battle.key] = battle
    return out


def first_difference(want: Battle, got: Battle) -> int:
    """The 1-based number of the first line whose digest differs (or where one output ends)."""
    a = base64.b64decode(want.line_digests)
    b = base64.b64decode(got.line_digests)
    for i in range(0, min(len(a), len(b)), 2):
        if a[i : i + 2] != b[i : i + 2]:
            return i // 2 + 1
    return min(len(a), len(b)) // 2 + 1


def check(want: Battle) -> str | None:
    """Replay one recorded battle; None when it is byte-identical, else one sentence naming the
    scenario, the seed and the first differing line."""
    got = fingerprint(want.scenario, want.seed, simulate(want.scenario, want.seed))
    if got.sha256 == want.sha256:
        return None
    line = first_difference(want, got)
    where = (
        f"first differing line {line}"
        if line <= max(got.lines, want.lines)
        else "every line's 16-bit digest agrees, so the line is unknown"
    )
    return (
        f"simulate {want.scenario} --seed {want.seed} --json changed: {where} "
        f"({got.lines} lines now, {want.lines} recorded)"
    )


def _commit() -> str:
    root = GOLDEN_DIR.parents[2]
    return subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()


def record(battles: list[Battle]) -> None:
    """Write the golden files for these battles (the index notes the commit they came from)."""
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    index = {
        "command": "soloscope simulate SCENARIO --seed SEED --json",
        "commit": _commit(),
        "battles": [
            {"scenario": b.scenario, "seed": b.seed, "sha256": b.sha256, "lines": b.lines}
            for b in battles
        ],
    }
    INDEX.write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    lines = {b.key: b.line_digests for b in battles}
    LINES.write_text(json.dumps(lines, indent=0) + "\n", encoding="utf-8")

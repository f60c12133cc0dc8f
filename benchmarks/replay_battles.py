"""The game read back from footage alone, against the battle played, for rendered battles.

    .venv/bin/python benchmarks/replay_battles.py [--cache DIR] [--only TEXT]
                                                  [--set training|evaluation|all]

Each battle is rendered with ``soloscope footage`` (dice in the tray; reused from ``--cache``)
and replayed with its scenario and no session log. Reported per battle: moves and removals
found (seen / inferred), missed and phantom (tests/replay/truth_check.py's tolerances); the
activations read against the battle's own (the renderer's engine run: each (round, unit) in
order, matched as the longest common subsequence) as precision and recall; rounds, models
fallen and the winner against the battle's. Part of ``make bench`` (with replay_bench.py, which
measures the replay's speed).

The battles come in two disjoint sets (issue 26): the training battles (:data:`BATTLES`, the
seven the replay was built on, seeds 2-5), which ``benchmarks/fit_replay.py`` may fit the
likelihood model's parameters on, and the evaluation battles (:data:`EVALUATION`, seeds
:data:`EVALUATION_SEEDS` of the same scenarios, a hovering hand and a bumped camera among
them), which no fit sees. Each set is reported under its own heading.

Every rule system has its battles too (issue 26 item 2, :data:`SYSTEM_SCENARIOS`): its bundled
scenario at training seeds 1-3 and evaluation seeds 101-103 (plain, a hovering hand, a bumped
camera), rendered at ``soloscope footage``'s defaults. Each set ends with one line per system
summing its battles: moves and removals (precision / recall against the renderer's truth),
activations (precision / recall against the battle's own engine run; "n/a" for a system whose
rules report no activation event, such as the Dungeon Crawl's and the card AI's turns), and how
many battles read the rounds, the fallen and the winner as played.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.cli import main as cli  # noqa: E402
from assistant.footage import (  # noqa: E402
    FOOTAGE_VERSION,
    BattleMoves,
    Interruptions,
    battle_moves,
    write_battle_footage,
)
from assistant.scenarios import load_game, scenario_path  # noqa: E402
from engine.actions import EventType  # noqa: E402
from tests.replay.truth_check import score  # noqa: E402
from vision.render.pipeline import RENDER_VERSION  # noqa: E402

# name: (scenario, seed, footage options)
BATTLES: dict[str, tuple[str, int, list[str]]] = {
    "crossroads-ambush seed 3 (the sample's battle)": ("crossroads-ambush", 3, []),
    "crossroads-ambush seed 4, hover": ("crossroads-ambush", 4, ["--hover-after", "5"]),
    "crossroads-ambush seed 2, camera nudged": ("crossroads-ambush", 2, ["--nudge-after", "6"]),
    "crossroads-ambush seed 5, camera nudged": ("crossroads-ambush", 5, ["--nudge-after", "6"]),
    "crossroads-cards seed 5, hover": ("crossroads-cards", 5, ["--hover-after", "4"]),
    "crossroads-cards seed 4, camera nudged": ("crossroads-cards", 4, ["--nudge-after", "6"]),
    "ford-at-dawn seed 5, 14 mm tags, camera nudged": ("ford-1080p", 5, ["--nudge-after", "10"]),
}
TRAINING_SEEDS = range(1, 11)
"""The seeds a fit may use (every training battle's seed is one of them)."""
EVALUATION_SEEDS = range(101, 111)
"""The seeds of the evaluation battles: disjoint from :data:`TRAINING_SEEDS`."""
EVALUATION: dict[str, tuple[str, int, list[str]]] = {
    "crossroads-ambush seed 101": ("crossroads-ambush", 101, []),
    "crossroads-ambush seed 102, hover": ("crossroads-ambush", 102, ["--hover-after", "5"]),
    "crossroads-ambush seed 103, camera nudged": ("crossroads-ambush", 103, ["--nudge-after", "6"]),
    "crossroads-cards seed 101": ("crossroads-cards", 101, []),
    "crossroads-cards seed 102, hover": ("crossroads-cards", 102, ["--hover-after", "4"]),
    "crossroads-cards seed 103, camera nudged": ("crossroads-cards", 103, ["--nudge-after", "6"]),
    "ford-at-dawn seed 101, 14 mm tags": ("ford-1080p", 101, []),
    "ford-at-dawn seed 102, 14 mm tags, hover": ("ford-1080p", 102, ["--hover-after", "5"]),
    "ford-at-dawn seed 103, 14 mm tags, camera nudged": (
        "ford-1080p",
        103,
        ["--nudge-after", "10"],
    ),
}
SYSTEM_SCENARIOS: dict[str, str] = {
    "strike": "strike-causeway",
    "skirmish2d6": "skirmish-cairns",
    "d20": "d20-grid-skirmish",
    "dungeon": "dungeon-crawl",
    "firefight-lite (card AI)": "bosworth-street",
}
"""Each rule system other than the narrative rules, by its bundled scenario."""
FILMED_4K = frozenset({"skirmish-cairns", "bosworth-street"})
"""The scenarios whose own tags a 1080p camera does not read over their table (skirmish-cairns'
14 mm tags span 14 px at the far edge of its 3 ft table; at 1080p the replay of
bosworth-street seed 101 never saw 17 of its 12 mm tags): filmed in 4K, as ``soloscope demo``
films them."""
_HOVER = ["--hover-after", "4"]
_NUDGE = ["--nudge-after", "6"]


def _system_battles(seeds: tuple[int, int, int]) -> dict[str, tuple[str, int, list[str]]]:
    """Three battles per system: plain, a hovering hand, a bumped camera."""
    out: dict[str, tuple[str, int, list[str]]] = {}
    for scenario in SYSTEM_SCENARIOS.values():
        camera = ["--resolution", "4k"] if scenario in FILMED_4K else []
        plain, hover, nudge = seeds
        out[f"{scenario} seed {plain}"] = (scenario, plain, camera)
        out[f"{scenario} seed {hover}, hover"] = (scenario, hover, [*_HOVER, *camera])
        out[f"{scenario} seed {nudge}, camera nudged"] = (scenario, nudge, [*_NUDGE, *camera])
    return out


SYSTEM_TRAINING = _system_battles((1, 2, 3))
SYSTEM_EVALUATION = _system_battles((101, 102, 103))
SETS = {
    "training": {**BATTLES, **SYSTEM_TRAINING},
    "evaluation": {**EVALUATION, **SYSTEM_EVALUATION},
}


def _scenario(name: str, folder: Path) -> str:
    """A bundled scenario, or ford-at-dawn printed with 14 mm tags for a 1080p camera."""
    if name != "ford-1080p":
        return name
    text = Path(scenario_path("ford-at-dawn")).read_text(encoding="utf-8")
    lines = []
    for line in text.splitlines():
        if line.startswith("tags = [{ id = ") and line.endswith(" }]") and "size_mm" not in line:
            line = line[:-3] + ", size_mm = 14 }]"
        lines.append(line)
    path = folder / "ford-at-dawn.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def lcs(a: list[Any], b: list[Any]) -> int:
    """Length of the longest common subsequence of ``a`` and ``b``."""
    row = [0] * (len(b) + 1)
    for x in a:
        prev = 0
        for j, y in enumerate(b):
            cur = row[j + 1]
            row[j + 1] = prev + 1 if x == y else max(row[j + 1], row[j])
            prev = cur
    return row[-1]


@dataclass(frozen=True)
class Replayed:
    """One battle rendered and replayed: the replay's timeline.json, the renderer's truth,
    the battle as the engine played it and the replay's wall-clock seconds."""

    doc: dict[str, Any]
    truth: dict[str, Any]
    played: BattleMoves
    took_s: float


CUT_FPS = 7.0
"""Frames a second of a cut (``replayed``'s ``cut``): as tests/replay/eval_cut.py films its cuts."""


def _render_cut(ref: str, seed: int, extra: list[str], folder: Path, cut: int) -> None:
    """Render the first ``cut`` actions of ``ref``'s battle at ``seed`` as tests/replay/eval_cut.py
    renders its cuts (:data:`CUT_FPS`, dice in the tray), with ``extra``'s footage options
    (``--resolution``, ``--hover-after``, ``--nudge-after``) as ``soloscope footage`` takes them."""
    options = dict(zip(extra[::2], extra[1::2], strict=True))
    unknown = set(options) - {"--resolution", "--hover-after", "--nudge-after"}
    if unknown:
        raise ValueError(f"a cut takes no footage option {sorted(unknown)}")
    hover, nudge = options.get("--hover-after"), options.get("--nudge-after")
    interruptions = None
    if hover is not None or nudge is not None:
        interruptions = Interruptions(
            int(hover) if hover else None, 4.0, int(nudge) if nudge else None
        )
    scenario, ruleset, state = load_game(ref)
    write_battle_footage(
        scenario,
        ref,
        ruleset,
        state,
        seed,
        folder,
        name="battle",
        resolution=options.get("--resolution", "1080p"),
        fps=CUT_FPS,
        extra=interruptions,
        dice="tray",
        max_actions=cut,
    )


def replayed(
    name: str,
    scenario: str,
    seed: int,
    extra: list[str],
    cache: Path,
    reuse: bool = False,
    cut: int | None = None,
) -> Replayed:
    """Render (or reuse) and replay one battle (``reuse``: take a replay already in the cache;
    ``cut``: only its first ``cut`` actions, filmed as :func:`_render_cut` films them)."""
    stem = "".join(c if c.isalnum() else "-" for c in name)[:60]
    if cut is not None:
        stem += f"-cut{cut}-r{RENDER_VERSION}f{FOOTAGE_VERSION}"
    folder = cache / stem
    folder.mkdir(parents=True, exist_ok=True)
    ref = _scenario(scenario, folder)
    video = folder / "battle.mp4"
    if cut is not None and not video.exists():
        t0 = time.perf_counter()
        _render_cut(ref, seed, extra, folder, cut)
        print(f"rendered {name}, cut {cut}, in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    if not video.exists():
        t0 = time.perf_counter()
        args = ["footage", ref, "--seed", str(seed), "--out", str(folder), "--name", "battle"]
        with contextlib.redirect_stdout(sys.stderr):
            cli([*args, "--fps", "10", "--dice", "tray", "--quiet", *extra])
        print(f"rendered {name} in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    out = folder / "replay"
    t0 = time.perf_counter()
    if not (reuse and (out / "timeline.json").exists()):
        with contextlib.redirect_stdout(sys.stderr):
            cli(["replay", str(video), "--scenario", ref, "--out", str(out), "--quiet"])
    took = time.perf_counter() - t0
    doc = json.loads((out / "timeline.json").read_text(encoding="utf-8"))
    truth = json.loads((folder / "battle.truth.json").read_text(encoding="utf-8"))
    sc, rs, st = load_game(ref)
    return Replayed(doc, truth, battle_moves(sc, rs, st, seed, cut), took)


@dataclass(frozen=True)
class Measured:
    """One battle's figures: its table row and the counts a system's summary sums."""

    row: list[str]
    moves: tuple[int, int, int]
    """Moves and removals (found, missed, phantom) against the renderer's truth."""
    activations: tuple[int, int, int] | None
    """Activations (common, read, played); None when the rules report none."""
    right: tuple[bool, bool, bool]
    """Rounds, fallen and winner read as played."""


def system_of(scenario: str) -> str:
    """The rule system a battle's scenario belongs to (the narrative rules for the rest)."""
    for system, name in SYSTEM_SCENARIOS.items():
        if name == scenario:
            return system
    return "narrative"


def battle_row(name: str, scenario: str, seed: int, extra: list[str], cache: Path) -> Measured:
    """Render (or reuse) and replay one battle; its row of the table and its counts."""
    r = replayed(name, scenario, seed, extra, cache)
    doc, truth, played, took = r.doc, r.truth, r.played, r.took_s
    true_acts: list[tuple[int, str]] = []
    rnd = 0
    for ev in played.events:
        if ev.type == EventType.ROUND_START:
            rnd = ev.round
        elif ev.type == EventType.ACTIVATION and ev.unit:
            true_acts.append((rnd, ev.unit))
    read = [(e["round"], e["unit"]) for e in doc["events"] if e["kind"] == "activation"]
    common = lcs(read, true_acts)
    game = doc["summary"]["game"]
    fallen = {u.id for u in played.final.units if not u.on_table}
    s = score(doc, truth)
    known = [g.get("known", "seen") for _, g in s.matched]
    footage_s = truth["frames"][-1]["t"]
    acts = "n/a (no activation events)"
    if true_acts:
        acts = f"{common / len(read) if read else 1.0:.2f} / {common / len(true_acts):.2f}"
    right = (
        game["rounds"] == played.final.round,
        set(game["fallen"]) == fallen,
        game["winner"] == played.final.winner,
    )
    row = [
        name,
        f"{len(s.matched)} ({known.count('seen')} seen, {known.count('inferred')} inferred)"
        f" of {len(s.matched) + len(s.missed)}",
        f"{len(s.missed)} / {len(s.phantoms)}",
        f"{s.precision:.2f} / {s.recall:.2f}",
        f"{game['activations']} / {len(true_acts) if true_acts else 'n/a'}",
        acts,
        f"{game['rounds']} / {played.final.round}",
        "same" if right[1] else f"{sorted(game['fallen'])} vs {sorted(fallen)}",
        f"{game['winner']} / {played.final.winner}",
        f"{footage_s / took:.1f}x",
    ]
    return Measured(
        row,
        (len(s.matched), len(s.missed), len(s.phantoms)),
        (common, len(read), len(true_acts)) if true_acts else None,
        right,
    )


def _ratio(k: int, n: int) -> str:
    return f"{k / n:.2f}" if n else "n/a"


def system_line(system: str, measured: list[Measured]) -> str:
    """One system's battles summed: moves and activations precision / recall, and how many
    battles read the rounds, the fallen and the winner as played."""
    found = sum(m.moves[0] for m in measured)
    missed = sum(m.moves[1] for m in measured)
    phantom = sum(m.moves[2] for m in measured)
    counted = [m.activations for m in measured if m.activations is not None]
    common = sum(a[0] for a in counted)
    acts = "n/a"
    if counted:
        read, played = sum(a[1] for a in counted), sum(a[2] for a in counted)
        acts = f"{_ratio(common, read)} / {_ratio(common, played)}"
    n = len(measured)
    rounds, fallen, winner = (sum(m.right[i] for m in measured) for i in range(3))
    return (
        f"{system}: {n} battles; moves and removals precision / recall "
        f"{_ratio(found, found + phantom)} / {_ratio(found, found + missed)}; activations "
        f"{acts}; rounds {rounds}/{n}, fallen {fallen}/{n}, winner {winner}/{n} as played"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, help="keep the rendered battles here (reused)")
    parser.add_argument("--only", help="only the battles whose name holds this text")
    parser.add_argument(
        "--set",
        choices=("training", "evaluation", "all"),
        default="all",
        help="which battles: those a fit may use, those it never sees, or both (default)",
    )
    args = parser.parse_args()
    cache = args.cache or Path(tempfile.mkdtemp(prefix="replay_battles_"))
    head = [
        "battle",
        "moves and removals found",
        "missed / phantom",
        "precision / recall (moves)",
        "activations read / played",
        "precision / recall (activations)",
        "rounds read / played",
        "fallen",
        "winner read / played",
        "replay speed (loaded machine)",
    ]
    for which, battles in SETS.items():
        if args.set not in ("all", which):
            continue
        print(f"\n{which} battles\n")
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        per_system: dict[str, list[Measured]] = {}
        for name, (scenario, seed, extra) in battles.items():
            if args.only and args.only not in name:
                continue
            measured = battle_row(name, scenario, seed, extra, cache)
            per_system.setdefault(system_of(scenario), []).append(measured)
            print("| " + " | ".join(measured.row) + " |", flush=True)
        print()
        for system, measured in per_system.items():
            print(f"{which}, {system_line(system, measured)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

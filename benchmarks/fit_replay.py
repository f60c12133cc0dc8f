"""Fit the replay's likelihood model by maximum likelihood on the training battles.

    .venv/bin/python benchmarks/fit_replay.py [--cache DIR] [--reuse] [--only TEXT] [--cut N]
                                              [--write]

Renders (or reuses, ``--cache``) and replays the training battles of
``benchmarks/replay_battles.py`` (never its evaluation battles): the narrative rules' and every
other rule system's (its ``SETS["training"]``; ``--only``: those whose name holds the text),
and estimates each free
parameter of :mod:`assistant.replay.engine_model` from what the renderer and the battle's own
engine run say really happened:

- ``misread``: the tracker's misreadings per reading: the moves and removals it missed or
  invented against the renderer's truth, over all of them (tests/replay/truth_check.py);
- ``pose_sigma_share``: the pose error's deviation over the camera's position tolerance: the
  maximum-likelihood deviation of a two-dimensional Gaussian, sqrt(mean(d^2) / 2), over the
  matched moves' set-down errors d (inches);
- ``unseen_step``: the battle's actions that moved no model, over all its actions;
- ``off_rules``: the moves the replay read against the rules (not the AI's order, or not
  legal), over the moves it checked: every move of a rendered battle is the rules' own, so
  each is a reading of the footage at odds with them;
- ``seen_step``: the tray's rolls that follow no move (rolled in an action that moved no
  model), over all the tray's rolls.

A Bernoulli parameter's estimate is (k + 1/2) / (n + 1) (the maximum-likelihood share with
half a count either way, so that none is 0 or 1: a story is never impossible). Prints the
estimates with their counts; ``--write`` writes them to the model's file
(``assistant/replay/replay_model.json``), the one place the replay reads them from.
``--reuse`` takes the replays already in the cache (from ``replay_battles.py --cache``).

``--cut N`` fits on training cuts: the first N actions of each training battle, filmed as
tests/replay/eval_cut.py films its cuts (7 frames a second, dice in the tray, the battle's own
resolution, hovering hand and bumped camera), so that one pass over every system's training
set takes well under an hour of CPU where the whole battles (100-560 s of footage each) take
several. The battle as played is the engine's run over the same N actions. A cut is a fair
sample for a parameter whose events happen at the same rate early in a battle as later:

- ``misread`` and ``pose_sigma_share``: every move is read by the same tracker on the same
  table, whenever in the battle it comes; a cut holds fewer removals than a whole battle (few
  models fall in the first actions), so the rate is mostly the moves', and a hovering hand or
  bumped camera (after the 4th or 6th move) weighs more in a cut than in a whole battle: if
  anything the estimate is high (a cautious replay);
- ``off_rules``: every move checked is the rules' own, early or late;
- ``seen_step``: the tray's rolls that follow no move (shooting or fighting where a model
  stands), over all rolls: fair where models shoot from the first round; it is NOT fair where
  fights come only once the sides have closed (the Dungeon Crawl's melee, the narrative
  rules' charges), which a cut barely reaches: there the estimate is low;
- ``unseen_step``: NOT a fair sample: early actions are mostly moves towards the enemy, while
  later ones often fight or shoot without moving, so a cut's share of actions that move no
  model is lower than a whole battle's.

Run on the 22 training battles' first 12 actions (``--cut 12``, renderer version 3), it gave
unseen_step 0.398, seen_step 0.102, off_rules 0.0817, misread 0.117, pose_sigma_share 0.325.
Those values read worse than the converted costs (the bundled sample: 5 rounds for 7; the
further battle of tests/replay: 7 rounds for 4), so the model's file keeps the converted costs:
``misread`` and ``seen_step`` here count other events than the model prices (a tracker's miss
per reading, not a story's misreading; rolls after no move, not a traceless step the dice
vouch for), and a tight pose deviation makes every reading within the camera's error dear.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from replay_battles import SETS, Replayed, replayed  # noqa: E402

from assistant.footage import PieceMove, TrayRoll  # noqa: E402
from assistant.replay import engine_model  # noqa: E402
from assistant.tables.base import Tolerances  # noqa: E402
from tests.replay.truth_check import score  # noqa: E402


def share(k: int, n: int) -> float:
    """A Bernoulli parameter from ``k`` of ``n`` (see the module docstring)."""
    return (k + 0.5) / (n + 1)


def counts(r: Replayed) -> dict[str, tuple[float, float]]:
    """Per parameter, (k, n) of one battle; for the pose, (sum of d^2, count)."""
    s = score(r.doc, r.truth)
    readings = len(s.matched) + len(s.missed) + len(s.phantoms)
    d2 = [
        math.dist(found["to"], true.to_in) ** 2
        for true, found in s.matched
        if true.to_in is not None and found.get("to") is not None
    ]
    # per action the battle shows the acting piece's move, its d6 rolls, then its removals
    rolled = rolled_still = 0
    shown = r.played.shown
    actions = len(r.played.actions)
    moves = sum(1 for x in shown if isinstance(x, PieceMove))
    for i, x in enumerate(shown):
        if isinstance(x, TrayRoll):
            rolled += 1
            before = shown[i - 1] if i else None
            if not isinstance(before, PieceMove | TrayRoll):
                rolled_still += 1
    moved = min(moves, actions)
    checks = [e for e in r.doc["events"] if e["kind"] in ("order_check", "legality")]
    against = sum(1 for e in checks if e.get("followed") is False or e.get("legal") is False)
    return {
        "misread": (len(s.missed) + len(s.phantoms), readings),
        "pose": (sum(d2), len(d2)),
        "unseen_step": (actions - moved, actions),
        "off_rules": (against, len(checks)),
        "seen_step": (rolled_still, rolled),
    }


def fit(battles: list[Replayed]) -> tuple[dict[str, float], dict[str, Any]]:
    """The parameters' estimates from ``battles``, and the counts they come from."""
    total: dict[str, list[float]] = {}
    for r in battles:
        for key, (k, n) in counts(r).items():
            acc = total.setdefault(key, [0.0, 0.0])
            acc[0] += k
            acc[1] += n
    tol_in = Tolerances().position_in
    d2, n_pose = total["pose"]
    sigma_in = math.sqrt(d2 / (2 * n_pose)) if n_pose else tol_in
    params = {
        "unseen_step": share(int(total["unseen_step"][0]), int(total["unseen_step"][1])),
        "seen_step": share(int(total["seen_step"][0]), int(total["seen_step"][1])),
        "off_rules": share(int(total["off_rules"][0]), int(total["off_rules"][1])),
        "misread": share(int(total["misread"][0]), int(total["misread"][1])),
        "pose_sigma_share": sigma_in / tol_in,
    }
    return params, {k: {"k": v[0], "n": v[1]} for k, v in total.items()}


def training_battles(only: str | None = None) -> dict[str, tuple[str, int, list[str]]]:
    """The battles the fit replays: every system's training battles (those whose name holds
    ``only``, when given)."""
    return {k: v for k, v in SETS["training"].items() if not only or only in k}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, help="keep the rendered battles here (reused)")
    parser.add_argument("--reuse", action="store_true", help="take replays already cached")
    parser.add_argument("--only", help="only the training battles whose name holds this text")
    parser.add_argument(
        "--cut", type=int, metavar="N", help="fit on the first N actions of each battle"
    )
    parser.add_argument("--write", action="store_true", help="write the model's file")
    args = parser.parse_args()
    cache = args.cache or Path(tempfile.mkdtemp(prefix="fit_replay_"))
    battles = []
    chosen = training_battles(args.only)
    if not chosen:
        print(f"No training battle's name holds {args.only!r}.", file=sys.stderr)
        return 2
    if args.cut is not None and args.cut < 1:
        print(f"--cut counts actions from 1, not {args.cut}.", file=sys.stderr)
        return 2
    for name, (scenario, seed, extra) in chosen.items():
        print(f"training battle: {name}", file=sys.stderr)
        battles.append(replayed(name, scenario, seed, extra, cache, args.reuse, args.cut))
    params, seen = fit(battles)
    print(json.dumps({"parameters": params, "counts": seen}, indent=2))
    if args.write:
        cut = "" if args.cut is None else f", first {args.cut} actions"
        doc = {
            **{k: float(f"{v:.4g}") for k, v in params.items()},
            "fitted": True,
            "command": " ".join(["benchmarks/fit_replay.py", *sys.argv[1:]]),
            "training_set": [name + cut for name in sorted(chosen)],
        }
        engine_model.PARAMETERS_FILE.write_text(json.dumps(doc, indent=2) + "\n", "utf-8")
        print(f"wrote {engine_model.PARAMETERS_FILE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Fit the replay's likelihood model by maximum likelihood on the training battles.

    .venv/bin/python benchmarks/fit_replay.py [--cache DIR] [--reuse] [--only TEXT] [--cut N]
                                              [--write]

Renders (or reuses, ``--cache``) and replays the training battles of
``benchmarks/replay_battles.py`` (never its evaluation battles): the narrative rules' and every
other rule system's (its ``SETS["training"]``; ``--only``: those whose name holds the text),
and estimates each free
parameter of :mod:`assistant.replay.engine_model` by maximum likelihood of the event the model
prices with it, counted against what the renderer (its truth) and the battle's own engine run
(replayed one action further at a time, so that each action's events and what the footage
shows of it are known) say really happened:

- ``unseen_step`` and ``seen_step``: the model prices each traceless-kind event of a story (an
  activation, a round begun, a pass) by what the footage shows of it: nothing
  (``unseen_step``), only dice the tray showed, all its dice (``seen_step``), or a move (its
  action's probability). Of the battle's traceless-kind events (a pass action counts as one
  where the engine logs none), the share the footage shows nothing of, and the share only the
  tray's dice vouch for (an activation or round begun whose action rolled d6s only and moved
  no model; a pass rolls none);
- ``off_rules``: a reading of a unit where no reading of the rules puts it: of the moves read
  or to be read (the truth's, and those the tracker invented), those it missed (the unit is
  seen where the rules moved it from), invented, or set down beyond the model's far reach
  (:func:`engine_model.error_reaches`) from where the rules put it;
- ``misread``: a reading the story must call wrong (a removal the rules keep, a fall the
  footage keeps, dice the tray showed that were not rolled): of the removals read or to be
  read and the tray's seen rolls, those invented or missed (removals) and those not rolled
  with those faces (rolls, aligned in order with the battle's);
- ``pose_sigma_share``: the model prices a reading r inches off its seen place at
  exp(-r^2 / 2 sigma^2), the chance that a two-dimensional Gaussian error is at least r
  (Rayleigh), at its two reaches only: sigma by maximum likelihood of how many matched
  set-downs are at least the near reach off, and of those, at least the far reach (the
  truth check matches a seen set-down within the camera's tolerance, so larger errors are
  counted under ``off_rules``).

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

- ``misread``, ``off_rules`` and ``pose_sigma_share``: every move, removal and roll is read
  by the same tracker on the same table, whenever in the battle it comes; a cut holds fewer
  removals than a whole battle (few models fall in the first actions), and a hovering hand or
  bumped camera (after the 4th or 6th move) weighs more in a cut than in a whole battle: if
  anything the estimates are high;
- ``seen_step`` and ``unseen_step``: NOT a fair sample: early actions are mostly moves
  towards the enemy, while later ones often fight or shoot without moving, so a cut's shares
  of activations that move no model are lower than a whole battle's.

On the 22 training battles' first 12 actions (``--cut 12``, renderer version 3) the
estimators above give unseen_step 0.186 (29 of 158), seen_step 0.104 (16 of 158), off_rules
0.116 (19 of 167), misread 0.0124 (2 of 200), pose_sigma_share 0.331 (8 of 148 set-downs at
least the near reach off, none of those the far one). With all five the bundled sample reads 5 rounds and 15
activations for 7 and 26 (``seen_step`` alone does that: a step the tray's dice vouch for
then costs more than one nothing shows), the Dungeon Crawl's retreat cut 1 round for 3, and a
reading at the near reach costs 2.9 nats (more than ``off_rules``' 2.2), so the model's file
keeps the converted costs.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from replay_battles import SETS, Replayed, replayed  # noqa: E402

from assistant.footage import BattleMoves, PieceMove, PieceRemoval, TrayRoll, battle_moves  # noqa: E402
from assistant.replay import engine_model  # noqa: E402
from assistant.scenarios import load_game  # noqa: E402
from assistant.tables.base import Tolerances  # noqa: E402
from engine.actions import EventType  # noqa: E402
from tests.replay.truth_check import score  # noqa: E402


@dataclass
class ActionStep:
    """One action of a battle: its engine events' types, what the footage shows of it, and
    whether it rolled dice the tray does not show (not d6s)."""

    events: list[str]
    kind: str
    """The action's kind ("pass": a pass, whether or not the engine logs an event for it)."""
    shown: list[PieceMove | PieceRemoval | TrayRoll]
    unshown: bool


def share(k: int, n: int) -> float:
    """A Bernoulli parameter from ``k`` of ``n`` (see the module docstring)."""
    return (k + 0.5) / (n + 1)


TRACELESS = {str(t) for t in engine_model.TRACELESS}
"""The engine's events of a step that may leave no trace (activation, round begun, pass)."""


def action_steps(played: BattleMoves, scenario: str, seed: int) -> list[ActionStep]:
    """Per action of ``played`` (the battle at ``seed`` on ``scenario``), its engine events,
    what the footage shows of it (the acting piece's move, its d6 rolls, removals) and whether
    it rolled dice the tray does not show: the engine's run replayed one action further each
    time (a battle of N actions costs N(N+1)/2 engine actions, no rendering)."""
    sc, rs, st = load_game("ford-at-dawn" if scenario == "ford-1080p" else scenario)
    out: list[ActionStep] = []
    events = shown = unshown = 0
    for n in range(1, len(played.actions) + 1):
        upto = battle_moves(sc, rs, st, seed, n)
        out.append(
            ActionStep(
                [str(e.type) for e in upto.events[events:]],
                played.actions[n - 1].kind,
                upto.shown[shown:],
                len(upto.unshown) > unshown,
            )
        )
        events, shown, unshown = len(upto.events), len(upto.shown), len(upto.unshown)
    if [kind for s in out for kind in s.events] != [str(e.type) for e in played.events]:
        raise RuntimeError(f"the engine's run of {scenario} seed {seed} is not repeatable")
    return out


def step_counts(steps: list[ActionStep]) -> dict[str, tuple[float, float]]:
    """``unseen_step`` and ``seen_step``: of the battle's traceless-kind events (activations,
    rounds begun, passes: a pass action counts as one where the engine logs none), those the
    footage shows nothing of, and those only the tray's dice vouch for (an activation or a
    round begun whose action rolled d6s only and moved no model; a pass rolls none)."""
    total = unseen = vouched = 0
    for step in steps:
        kinds = list(step.events)
        if step.kind == EventType.PASS and EventType.PASS not in kinds:
            kinds.append(EventType.PASS)
        moved = any(isinstance(x, PieceMove) for x in step.shown)
        rolled = any(isinstance(x, TrayRoll) for x in step.shown) and not step.unshown
        for kind in kinds:
            if kind not in TRACELESS:
                continue
            total += 1
            if kind != EventType.PASS and moved:
                continue  # its move shows it: priced as the move's action
            if kind != EventType.PASS and rolled:
                vouched += 1
            else:
                unseen += 1
    return {"unseen_step": (unseen, total), "seen_step": (vouched, total)}


def reach_counts(d_in: list[float], tol_in: float) -> tuple[int, int, int]:
    """Of set-down errors ``d_in`` (inches), how many fall short of the model's near reach,
    between it and the far reach, and beyond (:func:`engine_model.error_reaches`)."""
    (near_in, _), (far_in, _) = engine_model.error_reaches(tol_in)
    return (
        sum(1 for d in d_in if d < near_in),
        sum(1 for d in d_in if near_in <= d < far_in),
        sum(1 for d in d_in if d >= far_in),
    )


def tray_counts(doc: dict[str, Any], played: BattleMoves) -> tuple[int, int]:
    """Tray readings that are wrong (a roll read that was not rolled, or read with other
    faces), and all tray readings: the replay's read rolls aligned in order with the battle's."""
    read = [
        tuple(e["values"])
        for e in doc["events"]
        if e["kind"] == "roll" and e.get("source") == "tray" and e.get("known") == "seen"
    ]
    true = [x.values for x in played.shown if isinstance(x, TrayRoll)]
    same = sum(
        b.size for b in SequenceMatcher(None, read, true, autojunk=False).get_matching_blocks()
    )
    return len(read) - same, len(read)


def counts(r: Replayed, steps: list[ActionStep]) -> dict[str, tuple[float, float]]:
    """Per parameter, (k, n) of one battle (see the module docstring); for the pose, the
    matched set-downs' errors by the model's reaches."""
    s = score(r.doc, r.truth)
    tol_in = Tolerances().position_in
    d_in = [
        math.dist(found["to"], true.to_in)
        for true, found in s.matched
        if true.kind == "move" and true.to_in is not None and found.get("to") is not None
    ]
    near, between, beyond = reach_counts(d_in, tol_in)
    moves_true = sum(1 for t, _ in s.matched if t.kind == "move") + sum(
        1 for t in s.missed if t.kind == "move"
    )
    moves_missed = sum(1 for t in s.missed if t.kind == "move")
    moves_invented = sum(1 for f in s.phantoms if f["kind"] == "move")
    removals = sum(1 for t, _ in s.matched if t.kind == "removed")
    removals_wrong = sum(1 for t in s.missed if t.kind == "removed") + sum(
        1 for f in s.phantoms if f["kind"] == "removed"
    )
    tray_wrong, tray_read = tray_counts(r.doc, r.played)
    return {
        **step_counts(steps),
        "off_rules": (moves_missed + moves_invented + beyond, moves_true + moves_invented),
        "misread": (removals_wrong + tray_wrong, removals + removals_wrong + tray_read),
        "pose_near": (between + beyond, near + between + beyond),
        "pose_far": (beyond, between + beyond),
    }


def rayleigh_share(near: tuple[float, float], far: tuple[float, float], tol_in: float) -> float:
    """``pose_sigma_share`` by maximum likelihood of the reach counts ``near`` (errors at or
    beyond the near reach, of all) and ``far`` (at or beyond the far reach, of those at or
    beyond the near one): the model prices a reading r inches off at exp(-r^2 / 2 sigma^2),
    the chance that a two-dimensional Gaussian error is at least r (Rayleigh)."""
    (near_in, _), (far_in, _) = engine_model.error_reaches(tol_in)
    k1, n1 = near
    k2, n2 = far

    def loglik(share_: float) -> float:
        s2 = 2 * (share_ * tol_in) ** 2
        p1 = math.exp(-(near_in**2) / s2)
        p2 = math.exp(-(far_in**2 - near_in**2) / s2)
        eps = 1e-300
        return (
            k1 * math.log(p1 + eps)
            + (n1 - k1) * math.log(1 - p1 + eps)
            + k2 * math.log(p2 + eps)
            + (n2 - k2) * math.log(1 - p2 + eps)
        )

    grid = [0.05 * 1.01**i for i in range(700)]
    return max(grid, key=loglik)


def fit(
    battles: list[tuple[Replayed, list[ActionStep]]],
) -> tuple[dict[str, float], dict[str, Any]]:
    """The parameters' estimates from ``battles`` (each with its actions' steps), and the
    counts they come from."""
    total: dict[str, list[float]] = {}
    for r, steps in battles:
        for key, (k, n) in counts(r, steps).items():
            acc = total.setdefault(key, [0.0, 0.0])
            acc[0] += k
            acc[1] += n
    tol_in = Tolerances().position_in

    def est(key: str) -> float:
        return share(int(total[key][0]), int(total[key][1]))

    params = {
        "unseen_step": est("unseen_step"),
        "seen_step": est("seen_step"),
        "off_rules": est("off_rules"),
        "misread": est("misread"),
        "pose_sigma_share": rayleigh_share(
            (total["pose_near"][0], total["pose_near"][1] + 1),
            (total["pose_far"][0], total["pose_far"][1] + 1),
            tol_in,
        ),
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
        r = replayed(name, scenario, seed, extra, cache, args.reuse, args.cut)
        battles.append((r, action_steps(r.played, scenario, seed)))
    params, seen = fit(battles)
    print(json.dumps({"parameters": params, "counts": seen}, indent=2))
    if args.write:
        cut = "" if args.cut is None else f", first {args.cut} actions"
        doc = {
            **{k: float(f"{v:.3g}") for k, v in params.items()},
            "fitted": True,
            "command": " ".join(["benchmarks/fit_replay.py", *sys.argv[1:]]),
            "training_set": [name + cut for name in sorted(chosen)],
        }
        engine_model.PARAMETERS_FILE.write_text(json.dumps(doc, indent=2) + "\n", "utf-8")
        print(f"wrote {engine_model.PARAMETERS_FILE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

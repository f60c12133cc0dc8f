"""Replay speed on 1080p 30 fps footage, and moves found against the truth of every rendered battle.

    .venv/bin/python benchmarks/replay_bench.py [--clip PATH] [--fps 30] [--resolution 1080p]
                                                [--cache DIR] [--speed-only]

Speed: renders the scripted battle of ``tests/replay/rendered_clip.py`` (fresh sensor noise on
every frame, so decoding costs what a camera's footage costs) unless ``--clip`` is given, then
runs the whole replay (decode, change gate, detection, tracking, hand watch, timeline, key
frames, viewer) and reports footage seconds per wall-clock second ("x real time"; the aim is 6x
or more on 2 cores) and the cost of decoding alone.

Accuracy, from the footage alone (no session log), for every rendered battle: the bench's own
clip, the bundled sample battle (``sample_footage/``, with its scenario) and a scripted battle
with a long hover, a piece set down where its figure hides its tag and a camera nudge
(``tests/replay/test_hidden_pieces.py``, rendered here). Reports the precision and recall of
moves and removals (one to one, in time order, 0.25 in / 0.25 s where the tags were seen and
0.5 in / 0.5 s where found from the picture; see ``tests/replay/truth_check.py``), how many
were seen or inferred, and the worst errors. ``--cache DIR`` keeps the rendered clips there
and reuses them.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.replay.run import ReplayOptions, ReplayResult, run_replay  # noqa: E402
from assistant.replay.timeline import angle_diff_deg  # noqa: E402

SAMPLE = ROOT / "sample_footage" / "crossroads-seed3.mp4"
SAMPLE_TRUTH = ROOT / "sample_footage" / "crossroads-seed3.truth.json"
SAMPLE_META = ROOT / "sample_footage" / "crossroads-seed3.json"
CLIP_TOL_IN = 0.5
CLIP_TOL_S = 0.5
"""The bench clip's hand never stops (it lifts as it arrives): its moves are held to the
tolerances of tests/replay/test_rendered_battle.py."""


def decode_only_s(path: Path) -> tuple[float, int]:
    """Seconds to decode every frame (grab and convert), and the frame count."""
    cv2.setNumThreads(2)
    cap = cv2.VideoCapture(str(path))
    start = time.perf_counter()
    n = 0
    while True:
        ok, _ = cap.read()
        if not ok:
            break
        n += 1
    cap.release()
    return time.perf_counter() - start, n


def _doc(result: ReplayResult) -> dict[str, Any]:
    return json.loads((result.out_dir / "timeline.json").read_text())


def _known(known: list[str]) -> str:
    """'16 seen, 2 inferred' from the "known" of each event found."""
    order = ("seen", "inferred", "rules", "unknown")
    return ", ".join(f"{known.count(k)} {k}" for k in order if known.count(k)) or "none"


def bench_clip_row(result: ReplayResult, truth: list[dict[str, Any]]) -> list[str]:
    """The bench clip's moves (tag moves, from rendered_clip's truth) as one table row."""
    got = list(result.timeline.moves)
    used: set[int] = set()
    matched = []
    for want in truth:
        for i, m in enumerate(got):
            if i in used or m.tag_id != want["tag"]:
                continue
            if (
                math.dist(m.from_in, want["from"]) <= CLIP_TOL_IN
                and math.dist(m.to_in, want["to"]) <= CLIP_TOL_IN
                and abs(m.t_start - want["t_start"]) <= CLIP_TOL_S
                and abs(m.t_end - want["t_end"]) <= CLIP_TOL_S
            ):
                used.add(i)
                matched.append((want, m))
                break
    precision = len(matched) / len(got) if got else 1.0
    recall = len(matched) / len(truth) if truth else 1.0
    pos = max(
        (max(math.dist(m.from_in, w["from"]), math.dist(m.to_in, w["to"])) for w, m in matched),
        default=0.0,
    )
    dt = max(
        (max(abs(m.t_start - w["t_start"]), abs(m.t_end - w["t_end"])) for w, m in matched),
        default=0.0,
    )
    dh = max((angle_diff_deg(m.heading_to_deg, w["heading_to"]) for w, m in matched), default=0.0)
    return [
        "bench clip (hand never stops)",
        f"{len(truth)}",
        f"{len(matched)} ({_known([m.known for _, m in matched])})",
        f"{len(truth) - len(matched)}",
        f"{len(got) - len(matched)}",
        f"{precision:.2f} / {recall:.2f}",
        f"{pos:.2f} in, {dt:.2f} s, {dh:.1f} deg",
        "-",
        f"{_doc(result)['summary']['hidden']}",
        "no tray",
    ]


def rolls_cell(doc: dict[str, Any], meta: dict[str, Any] | None) -> str:
    """The rolls seen in the tray against the footage's own list (NAME.json "rolls"):
    'found F of T, V right values, M missed, P precision / R recall'."""
    from tests.replay.dice_seen_truth import roll_scores

    if meta is None or "rolls" not in meta:
        return "no tray"
    r = roll_scores(meta["rolls"], doc["events"])
    missed = r["true"] - r["matched"]
    return (
        f"{r['matched']:.0f} of {r['true']:.0f} ({r['found']:.0f} found), {r['right']:.0f} right "
        f"values, {missed:.0f} missed; {r['precision']:.2f} / {r['recall']:.2f}"
    )


def truth_row(
    name: str, result: ReplayResult, truth: dict[str, Any], meta: dict[str, Any] | None = None
) -> list[str]:
    """A battle with a truth.json (moves and removals) as one table row; ``meta``: the
    footage's NAME.json (its rolls in the tray)."""
    from tests.replay.truth_check import pieces_on_table_at_end, score

    doc = _doc(result)
    s = score(doc, truth)
    staying = {t for tags in pieces_on_table_at_end(truth) for t in tags}
    wrong_off = [
        e
        for e in doc["events"]
        if e["kind"] == "removed" and "source" not in e and set(e.get("tags", [])) & staying
    ]
    seen_pos, seen_t = s.worst("seen")
    inf_pos, inf_t = s.worst("inferred")
    return [
        name,
        f"{len(s.matched) + len(s.missed)}",
        f"{len(s.matched)} ({_known([g.get('known', 'seen') for _, g in s.matched])})",
        f"{len(s.missed)}",
        f"{len(s.phantoms)}",
        f"{s.precision:.2f} / {s.recall:.2f}",
        f"seen {seen_pos:.2f} in, {seen_t:.2f} s; inferred {inf_pos:.2f} in, {inf_t:.2f} s",
        f"{len(wrong_off)}",
        f"{doc['summary']['hidden']}",
        rolls_cell(doc, meta),
    ]


def hidden_battle(cache: Path) -> tuple[Path, dict[str, Any]]:
    """The scripted hover / hidden tag / nudge battle, rendered once into ``cache``."""
    video, truth = cache / "hover.mp4", cache / "hover.truth.json"
    if video.exists() and truth.exists():
        print(f"reusing {video}", file=sys.stderr)
        return video, json.loads(truth.read_text())
    from tests.replay.scripted_battle import render_scripted
    from tests.replay.test_hidden_pieces import SCRIPT

    t0 = time.perf_counter()
    out = render_scripted("ford-at-dawn", SCRIPT, cache, "hover")
    print(f"rendered {video} in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clip", type=Path, help="time this footage instead of rendering one")
    parser.add_argument("--fps", type=float, default=30.0, help="frame rate of the rendered clip")
    parser.add_argument("--resolution", default="1080p", help="1080p or 4k")
    parser.add_argument("--stride", type=int, default=None, help="replay's stride (default auto)")
    parser.add_argument("--video", action="store_true", help="also write the annotated MP4")
    parser.add_argument(
        "--keep",
        type=Path,
        help="keep the rendered bench clip at this path (reused when it exists)",
    )
    parser.add_argument("--cache", type=Path, help="keep every rendered clip here (reused)")
    parser.add_argument("--speed-only", action="store_true", help="no accuracy battles")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="replay_bench_"))
    cache = args.cache or work
    cache.mkdir(parents=True, exist_ok=True)
    truth: list[dict[str, Any]] | None = None
    if args.clip is None:
        from tests.replay.rendered_clip import battle_truth, render_battle, standard_battle

        clip = args.keep or cache / f"bench-{args.resolution}-{args.fps:g}fps.mp4"
        script = standard_battle(fps=args.fps, resolution=args.resolution)
        if clip.exists():
            truth = battle_truth(script)
            print(f"reusing {clip}", file=sys.stderr)
        else:
            t0 = time.perf_counter()
            truth, _ = render_battle(script, clip, fresh_noise=True)
            print(f"rendered {clip} in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    else:
        clip = args.clip

    decode_s, frames = decode_only_s(clip)
    cpu0 = time.process_time()
    result = run_replay(ReplayOptions(clip, work / "replay", stride=args.stride, video=args.video))
    cpu_s = time.process_time() - cpu0
    cap = cv2.VideoCapture(str(clip))
    fps = cap.get(cv2.CAP_PROP_FPS)
    size = (int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
    cap.release()
    footage_s = frames / fps

    print("## Replay speed\n")
    print(f"| footage | {size[0]}x{size[1]} @ {fps:.0f} fps, {footage_s:.1f} s, {frames} frames |")
    print("|---|---|")
    print(f"| replay wall time | {result.elapsed_s:.2f} s |")
    print(f"| speed | **{footage_s / result.elapsed_s:.1f}x real time** (aim: 6x on 2 cores) |")
    print(
        f"| CPU time | {cpu_s:.2f} s, all threads ({footage_s / cpu_s:.1f}x real time a core; "
        "the wall-clock speed depends on what else runs) |"
    )
    print(f"| decode alone | {decode_s:.2f} s ({1000 * decode_s / frames:.1f} ms/frame) |")
    print(
        f"| frames looked at | {result.frames_processed} of {result.frames_read} "
        f"(detector ran on {result.detections}) |"
    )
    for w in result.warnings:
        print(f"warning: {w}", file=sys.stderr)
    if args.speed_only:
        return 0

    rows = []
    if truth is not None:
        rows.append(bench_clip_row(result, truth))
    if SAMPLE.exists() and SAMPLE_TRUTH.exists():
        sample = run_replay(ReplayOptions(SAMPLE, work / "sample", scenario="crossroads-ambush"))
        rows.append(
            truth_row(
                "sample battle (crossroads-seed3)",
                sample,
                json.loads(SAMPLE_TRUTH.read_text()),
                json.loads(SAMPLE_META.read_text()) if SAMPLE_META.exists() else None,
            )
        )
    video, hover_truth = hidden_battle(cache)
    hover = run_replay(ReplayOptions(video, work / "hover", scenario="ford-at-dawn"))
    rows.append(truth_row("hover, hidden tag, nudge (ford-at-dawn)", hover, hover_truth))

    print("\n## Moves and removals from the footage alone, against the truth\n")
    head = [
        "battle",
        "true",
        "found (how known)",
        "missed",
        "phantom",
        "precision / recall",
        "worst error",
        "staying models reported removed",
        "hidden events",
        "rolls in the tray: matched (found), right values, missed; precision / recall",
    ]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print(
        "\nActivations, rounds, fallen and winner against the battle played: "
        "benchmarks/replay_battles.py."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

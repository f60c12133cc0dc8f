"""Replay speed and accuracy on rendered 1080p footage (or a clip you give).

    .venv/bin/python benchmarks/replay_bench.py [--clip PATH] [--fps 30] [--resolution 1080p]

Renders the scripted battle of ``tests/replay/rendered_clip.py`` (fresh sensor noise on every
frame, so decoding costs what a camera's footage costs) unless ``--clip`` is given, then runs
the whole replay (decode, change gate, detection, tracking, timeline, key frames, viewer) and
reports footage seconds per wall-clock second ("x real time"; the aim is 4x or more on 2 cores),
the cost of decoding alone, and for the rendered clip the move errors against ground truth.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.replay.run import ReplayOptions, run_replay  # noqa: E402
from assistant.replay.timeline import angle_diff_deg  # noqa: E402


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clip", type=Path, help="replay this footage instead of rendering")
    parser.add_argument("--fps", type=float, default=30.0, help="frame rate of the rendered clip")
    parser.add_argument("--resolution", default="1080p", help="1080p or 4k")
    parser.add_argument("--stride", type=int, default=None, help="replay's stride (default auto)")
    parser.add_argument("--video", action="store_true", help="also write the annotated MP4")
    parser.add_argument(
        "--keep", type=Path, help="keep the rendered clip at this path (reused when it exists)"
    )
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="replay_bench_"))
    truth: list[dict] | None = None
    if args.clip is None:
        from tests.replay.rendered_clip import battle_truth, render_battle, standard_battle

        clip = args.keep or work / "battle.mp4"
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
    result = run_replay(ReplayOptions(clip, work / "replay", stride=args.stride, video=args.video))
    cap = cv2.VideoCapture(str(clip))
    fps = cap.get(cv2.CAP_PROP_FPS)
    size = (int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
    cap.release()
    footage_s = frames / fps

    print(f"| footage | {size[0]}x{size[1]} @ {fps:.0f} fps, {footage_s:.1f} s, {frames} frames |")
    print("|---|---|")
    print(f"| replay wall time | {result.elapsed_s:.2f} s |")
    print(f"| speed | **{footage_s / result.elapsed_s:.1f}x real time** (aim: 4x) |")
    print(f"| decode alone | {decode_s:.2f} s ({1000 * decode_s / frames:.1f} ms/frame) |")
    print(
        f"| frames looked at | {result.frames_processed} of {result.frames_read} "
        f"(detector ran on {result.detections}) |"
    )
    print(f"| moves found | {len(result.timeline.moves)} |")
    if truth is not None:
        got = result.timeline.moves
        ok = [m.tag_id for m in got] == [t["tag"] for t in truth]
        print(f"| moves match the truth | {'yes' if ok else 'NO'} ({len(truth)} true moves) |")
        if ok:
            pos = max(
                max(math.dist(m.from_in, t["from"]), math.dist(m.to_in, t["to"]))
                for m, t in zip(got, truth, strict=True)
            )
            dt = max(
                max(abs(m.t_start - t["t_start"]), abs(m.t_end - t["t_end"]))
                for m, t in zip(got, truth, strict=True)
            )
            dh = max(
                angle_diff_deg(m.heading_to_deg, t["heading_to"])
                for m, t in zip(got, truth, strict=True)
            )
            print(f"| worst position error | {pos:.2f} in |")
            print(f"| worst time error | {dt:.2f} s |")
            print(f"| worst heading error | {dh:.1f} deg |")
    for w in result.warnings:
        print(f"warning: {w}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``soloscope replay FOOTAGE --out DIR``: a battle's timeline, offline viewer and video."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console

from assistant.errors import UserError
from assistant.progress import progress_bar
from assistant.replay.run import ReplayOptions, ReplayResult, run_replay

NAME = "replay"
HELP = "Build a replay (timeline, board states, events, HTML viewer) from recorded footage."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags of ``soloscope replay``."""
    parser.add_argument(
        "footage",
        type=Path,
        help="a video file, a folder of images, or what `soloscope play` recorded from a camera: "
        "its run folder (every recording folder of a resumed battle, as one) or one recording "
        "folder",
    )
    parser.add_argument("--out", type=Path, required=True, help="folder to write the replay in")
    parser.add_argument(
        "--scenario",
        help="scenario name or TOML file: names pieces, terrain (default: the one the session's "
        "event log names, else the one named by NAME.json beside the video NAME.mp4, as "
        "`soloscope footage` writes it)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="table profile JSON (default: fitted from the corner tags in the footage)",
    )
    parser.add_argument(
        "--kit",
        type=Path,
        help="the kit file written beside your kit's PDF (KIT.kit.json): the tag sizes and "
        "places the footage shows (default: the profile's, or the one the session was played "
        "with, else the scenario's own)",
    )
    parser.add_argument(
        "--events",
        type=Path,
        help="the session's event log when it does not lie beside the footage: the run folder "
        "of `soloscope play` (the logs of every recording folder of a resumed battle, in order), "
        "one of its recording folders, or an events.jsonl",
    )
    parser.add_argument("--video", action="store_true", help="also write an annotated replay.mp4")
    parser.add_argument(
        "--review",
        action="store_true",
        help="also write review.toml: the uncertain events (who moved, which model fell), "
        "for you to correct",
    )
    parser.add_argument(
        "--corrections",
        type=Path,
        help="a corrected review.toml: rebuild the replay with its names",
    )
    parser.add_argument(
        "--stride",
        type=int,
        default=None,
        help="look at every N-th frame (default: about 10 frames per second of footage)",
    )
    parser.add_argument(
        "--images-fps",
        type=float,
        default=1.0,
        help="for a folder of images: images per second of footage (default 1)",
    )
    parser.add_argument("--width", type=float, default=24.0, help="table width, inches")
    parser.add_argument("--depth", type=float, default=24.0, help="table depth, inches")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def _footage_done(done_s: float, total_s: float | None) -> str:
    return f"{done_s:.0f}/{total_s:.0f} s of footage" if total_s else f"{done_s:.0f} s"


def summary_line(result: ReplayResult) -> str:
    """One line: what the replay found, how each move, removal and hidden piece was known
    (seen, inferred, from the rules, unknown), the settled states and the speed."""
    s = result.summary
    known = s.get("known", {})
    how = ", ".join(
        f"{known.get(key, 0)} {word}"
        for key, word in (
            ("seen", "seen"),
            ("inferred", "inferred"),
            ("rules", "from the rules"),
            ("unknown", "unknown"),
        )
    )
    line = (
        f"replay of {result.footage_s:.1f} s of footage: {s.get('moves', 0)} moves, "
        f"{s.get('removed', 0)} removed, {s.get('hidden', 0)} hidden ({how}), "
        f"{len(result.timeline.states)} settled states; {result.speed:.1f}x real time"
    )
    game = s.get("game")
    if game:
        gk = game.get("known", {})
        winner = f"{game['winner']} win" if game.get("winner") else "no winner seen"
        line += (
            f"\ngame from the moves: {game.get('rounds', 0)} rounds, "
            f"{game.get('activations', 0)} activations, {len(game.get('fallen', []))} taken off, "
            f"{winner} ({gk.get('seen', 0)} seen, {gk.get('inferred', 0)} inferred, "
            f"{gk.get('rules', 0)} from the rules, {gk.get('unknown', 0)} unknown)"
        )
    return line


def run(args: argparse.Namespace) -> int:
    """Run the replay and print where it went."""
    if args.stride is not None and args.stride < 1:
        raise UserError(f"--stride must be 1 or more, got {args.stride}")
    if args.images_fps <= 0:
        raise UserError(f"--images-fps must be positive, got {args.images_fps}")
    if args.width <= 0 or args.depth <= 0:
        raise UserError(f"table size must be positive, got {args.width} x {args.depth} in")
    if args.out.exists() and not args.out.is_dir():
        raise UserError(f"--out {args.out} is a file; give a folder for the replay")
    options = ReplayOptions(
        footage=args.footage,
        out_dir=args.out,
        profile=args.profile,
        kit=args.kit,
        scenario=args.scenario,
        video=args.video,
        stride=args.stride,
        events=args.events,
        images_fps=args.images_fps,
        width_in=args.width,
        depth_in=args.depth,
        review=args.review,
        corrections=args.corrections,
    )
    console = Console(stderr=True)
    with progress_bar("replaying", _footage_done, quiet=args.quiet) as update:
        result = run_replay(options, update)
    for w in result.warnings:
        console.print(f"[yellow]warning:[/yellow] {w}", highlight=False)
    if args.scenario is None and result.scenario is not None:
        print(f"the pieces are named by scenario {result.scenario}")
    print(summary_line(result))
    print(f"open {(result.out_dir / 'index.html').resolve()}")
    if options.video:
        print(f"video {(result.out_dir / 'replay.mp4').resolve()}")
    if options.review:
        print(f"review {(result.out_dir / 'review.toml').resolve()}")
    if result.interrupted:
        print("stopped early: the replay covers what was read before Ctrl-C", file=sys.stderr)
        return 130
    return 0

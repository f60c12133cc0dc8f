"""``soloscope footage``: render a seeded battle as overhead footage (how sample_footage/ is made)."""

from __future__ import annotations

import argparse
from pathlib import Path

NAME = "footage"
HELP = "Render a seeded battle, carried out by a virtual hand on the synthetic table, as a video with ground truth."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Scenario, seed, output and video settings."""
    parser.add_argument("scenario", help="bundled scenario name or .toml path")
    parser.add_argument("--seed", type=int, default=1, help="dice seed of the battle")
    parser.add_argument(
        "--out",
        required=True,
        help="folder for NAME.mp4, NAME.truth.json, NAME.declarations.jsonl, NAME.json",
    )
    parser.add_argument("--name", default="battle", help="file name stem")
    parser.add_argument(
        "--resolution", default="1080p", choices=["720p", "1080p", "4k"], help="video size"
    )
    parser.add_argument("--fps", type=float, default=10.0, help="frames per second")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--hover-after",
        type=int,
        metavar="N",
        help="after the N-th move, a hand hovers over the board without touching anything",
    )
    parser.add_argument(
        "--hover-s", type=float, default=4.0, help="how long the hand hovers, seconds (default 4)"
    )
    parser.add_argument(
        "--nudge-after", type=int, metavar="N", help="after the N-th move, the camera is bumped"
    )
    parser.add_argument(
        "--dice",
        choices=["none", "tray"],
        default="none",
        help="tray: every roll is shown in a dice tray beside the table (default none)",
    )
    parser.add_argument(
        "--faults",
        default="none",
        metavar="LIST",
        help="webcam faults, comma-separated: blur, glare, shadow, vignette, distortion, "
        "exposure, noise, mjpeg, or webcam for all (default none; see vision/render/faults.py)",
    )


def run(args: argparse.Namespace) -> int:
    """Play the battle and render it, with a progress bar on a terminal."""
    from assistant.errors import UserError
    from assistant.footage import Interruptions, frames_rendered, write_battle_footage
    from assistant.progress import progress_bar
    from assistant.scenarios import load_game
    from vision.render.faults import parse_faults

    for option in ("hover_after", "nudge_after"):
        value = getattr(args, option)
        if value is not None and value < 1:
            raise UserError(f"--{option.replace('_', '-')} counts moves from 1, not {value}")
    if not 0 < args.hover_s <= 60:
        raise UserError(f"--hover-s must be between 0 and 60 seconds, not {args.hover_s}")
    if Path(args.out).exists() and not Path(args.out).is_dir():
        raise UserError(f"--out {args.out} is a file; give a folder for the footage")
    try:
        faults = parse_faults(args.faults)
    except ValueError as exc:
        raise UserError(f"--faults: {exc}") from exc
    extra = None
    if args.hover_after is not None or args.nudge_after is not None:
        extra = Interruptions(args.hover_after, args.hover_s, args.nudge_after)
    scenario, ruleset, state = load_game(args.scenario)
    with progress_bar("footage", frames_rendered, quiet=args.quiet, lines=True) as update:
        meta = write_battle_footage(
            scenario,
            args.scenario,
            ruleset,
            state,
            args.seed,
            Path(args.out),
            name=args.name,
            resolution=args.resolution,
            fps=args.fps,
            progress=update,
            extra=extra,
            dice=args.dice,
            faults=faults,
        )
    print(
        f"Wrote {meta['frames']} frames ({meta['frames'] / meta['fps']:.0f} s) of {meta['scenario']} "
        f"seed {meta['seed']} to {Path(args.out) / meta['video']}: {meta['moves']} moves, "
        f"{meta['rounds']} rounds, {meta['activations']} activations, winner {meta['winner']}"
        + (f", {len(meta['rolls'])} rolls in the tray." if "rolls" in meta else ".")
    )
    return 0

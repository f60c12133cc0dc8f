"""``soloscope demo``: the bundled battle footage, or any scenario's rendered battle, played as if
it were the camera."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from assistant.errors import UserError

NAME = "demo"
HELP = "Play the bundled sample footage end to end as if it were the camera, with speech (no camera needed)."

#: The clip the demo plays by default.
DEFAULT_CLIP = "crossroads-seed3"


def sample_footage_dir() -> Path:
    """The repository's sample_footage folder."""
    return Path(__file__).resolve().parents[2] / "sample_footage"


def _write_replay(video: Path, scenario: str, session: Path, kit: Path | None) -> Path | None:
    """The battle's replay from the footage and the session's event log (read with ``kit``,
    the kit the footage shows)."""
    from assistant.replay.run import ReplayOptions, run_replay

    out = session / "replay"
    print(f"Writing the battle's replay to {out} ...")
    try:
        run_replay(
            ReplayOptions(
                footage=video,
                out_dir=out,
                scenario=scenario,
                kit=kit,
                events=session / "recording" / "events.jsonl",
            )
        )
    except UserError as exc:
        print(f"The replay could not be written: {exc}")
        return None
    return out


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Where to write, and whether to serve the page."""
    parser.add_argument("--out", help="folder for the demo's files (default: runs/demo-DATE)")
    parser.add_argument(
        "--clip", default=DEFAULT_CLIP, help="clip name in sample_footage/ (default: %(default)s)"
    )
    parser.add_argument(
        "--footage",
        help="folder holding the clip (default: the repository's sample_footage/; with "
        "--scenario: where its rendered footage is kept, default ~/.cache/soloscope/footage)",
    )
    parser.add_argument(
        "--scenario",
        help="play this scenario's battle instead (a bundled name, see --list, or a .toml "
        "path): the battle 'soloscope simulate SCENARIO --seed N' plays, rendered into a cache "
        "folder on first use",
    )
    parser.add_argument(
        "--seed", type=int, help="with --scenario: the battle's dice seed (default 1)"
    )
    parser.add_argument(
        "--list",
        action="store_true",
        help="name the clips and scenarios the demo can play, and stop",
    )
    parser.add_argument(
        "--speech",
        default="on",
        help="on (speaks, or writes WAV files when there is no audio device), off, or wav:DIR",
    )
    parser.add_argument(
        "--serve",
        action="store_true",
        help="serve the table page while the demo runs (run from a terminal, the page stays "
        "open after the battle until Ctrl-C)",
    )
    parser.add_argument("--port", type=int, default=5000, help="port of the table page")


def list_lines(footage: Path) -> list[str]:
    """What ``demo --list`` prints: the clips in ``footage`` and every bundled scenario."""
    from assistant.scenarios import bundled_scenarios

    lines = [f"Clips in {footage} (soloscope demo --clip NAME):"]
    for meta_path in sorted(footage.glob("*.json")):
        meta = _listed_meta(meta_path)
        if meta is not None:
            lines.append(
                f"  {meta_path.stem:<20} {meta['scenario']}, seed {meta['seed']} (the default)"
                if meta_path.stem == DEFAULT_CLIP
                else f"  {meta_path.stem:<20} {meta['scenario']}, seed {meta['seed']}"
            )
    lines.append(
        "Scenarios (soloscope demo --scenario NAME [--seed N]; rendered once on first use):"
    )
    for b in bundled_scenarios():
        lines.append(f"  {b.name:<20} {b.ruleset:<15} {b.title}")
    return lines


def _listed_meta(path: Path) -> dict[str, Any] | None:
    """A clip's metadata for the list, or None when the file is not a clip's."""
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(meta, dict) and {"scenario", "seed", "video"} <= meta.keys():
        return meta
    return None


def run(args: argparse.Namespace) -> int:
    """Play the clip, then print the battle's summary and what was written."""
    from assistant.demo_clips import Clip, Outcome, outcome_line
    from assistant.footage import frames_rendered
    from assistant.progress import progress_bar
    from assistant.session.finish import damaged_source_text, hold_page, session_summary
    from assistant.session.start import run_session

    folder = Path(args.footage) if args.footage else sample_footage_dir()
    if args.list:
        for line in list_lines(sample_footage_dir()):
            print(line)
        return 0
    if args.seed is not None and not args.scenario:
        raise UserError("--seed goes with --scenario (the bundled clip has its own seed)")
    if args.scenario:  # rendered once into a cache folder, never into sample_footage/
        from assistant.demo_clips import demo_clip

        with progress_bar("rendering", frames_rendered, lines=True) as update:
            folder, args.clip = demo_clip(
                args.scenario,
                args.seed,
                Path(args.footage) if args.footage else None,
                progress=update,
            )
    clip = Clip.read(folder, args.clip)
    out = Path(args.out) if args.out else Path("runs") / f"demo-{time.strftime('%Y%m%d-%H%M%S')}"
    print(f"soloscope demo: {clip.scenario} (seed {clip.seed}) from {clip.video}")
    opts = clip.session_options(out, speech=args.speech, serve=args.serve, port=args.port)
    result = run_session(opts)
    try:
        print()
        for line in session_summary(result):
            print(line)
        replay_dir = _write_replay(clip.video, clip.scenario, result.folder, clip.kit)
        if replay_dir is not None:
            print(
                f"Replay: open {replay_dir / 'index.html'} in a browser (timeline: {replay_dir / 'timeline.json'})"
            )
        played = Outcome.of(result.game.state)
        print(outcome_line(clip.scenario, clip.seed, played, clip.simulated()))
        damaged = damaged_source_text(result, opts.source)
        if damaged is not None:
            print(f"soloscope demo: {damaged}", file=sys.stderr)
        hold_page(result)
    finally:
        result.close()
    return 0 if damaged is None else 2

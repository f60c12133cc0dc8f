"""``soloscope demo``: the bundled battle footage played as if it were the camera."""

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


def _write_replay(video: Path, scenario: str, session: Path) -> Path | None:
    """The battle's replay from the footage and the session's event log."""
    from assistant.replay.run import ReplayOptions, run_replay

    out = session / "replay"
    print(f"Writing the battle's replay to {out} ...")
    try:
        run_replay(
            ReplayOptions(
                footage=video,
                out_dir=out,
                scenario=scenario,
                events=session / "recording" / "events.jsonl",
            )
        )
    except UserError as exc:
        print(f"The replay could not be written: {exc}")
        return None
    return out


def _clip_meta(path: Path) -> dict[str, Any]:
    """A clip's metadata file (scenario, seed, video and declarations), or one sentence."""
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(meta, dict):
            raise ValueError("not a JSON object")
        for key in ("scenario", "video", "declarations"):
            if not isinstance(meta.get(key), str):
                raise ValueError(f"no {key!r} text")
        int(meta["seed"])
    except (OSError, UnicodeDecodeError, ValueError, RecursionError, KeyError, TypeError) as exc:
        raise UserError(f"the clip's metadata {path} is damaged ({exc})") from None
    return meta


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Where to write, and whether to serve the page."""
    parser.add_argument("--out", help="folder for the demo's files (default: runs/demo-DATE)")
    parser.add_argument(
        "--clip", default=DEFAULT_CLIP, help="clip name in sample_footage/ (default: %(default)s)"
    )
    parser.add_argument(
        "--footage", help="folder holding the clip (default: the repository's sample_footage/)"
    )
    parser.add_argument(
        "--scenario",
        help="play this grid scenario instead (e.g. dungeon-crawl): its footage is rendered "
        "into a cache folder on first use",
    )
    parser.add_argument("--seed", type=int, help="with --scenario: the battle's dice seed")
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


def run(args: argparse.Namespace) -> int:
    """Play the clip, then print the battle's summary and what was written."""
    from assistant.session.finish import damaged_source_text, hold_page, session_summary
    from assistant.session.start import SessionOptions, run_session

    folder = Path(args.footage) if args.footage else sample_footage_dir()
    if args.scenario:  # rendered once into a cache folder, never into sample_footage/
        from assistant.tables.dungeon_demo import demo_clip

        folder, args.clip = demo_clip(
            args.scenario, args.seed, Path(args.footage) if args.footage else None
        )
    meta_path = folder / f"{args.clip}.json"
    if not meta_path.is_file():
        raise UserError(f"no sample clip {args.clip!r} in {folder} (expected {meta_path.name})")
    meta = _clip_meta(meta_path)
    out = Path(args.out) if args.out else Path("runs") / f"demo-{time.strftime('%Y%m%d-%H%M%S')}"
    print(f"soloscope demo: {meta['scenario']} (seed {meta['seed']}) from {folder / meta['video']}")
    opts = SessionOptions(
        source=str(folder / meta["video"]),
        scenario=meta["scenario"],
        seed=int(meta["seed"]),
        speech=args.speech,
        serve=args.serve,
        port=args.port,
        out=out,
        declarations=folder / meta["declarations"],
    )
    result = run_session(opts)
    try:
        print()
        for line in session_summary(result):
            print(line)
        replay_dir = _write_replay(folder / meta["video"], meta["scenario"], result.folder)
        if replay_dir is not None:
            print(
                f"Replay: open {replay_dir / 'index.html'} in a browser (timeline: {replay_dir / 'timeline.json'})"
            )
        expected = meta.get("winner")
        if result.game.state.winner == expected:
            print(
                f"Same outcome as 'soloscope simulate {meta['scenario']} --seed {meta['seed']}': {expected} win."
            )
        else:
            print(
                f"Note: the simulated battle ended with {expected} winning; this run ended differently."
            )
        damaged = damaged_source_text(result, opts.source)
        if damaged is not None:
            print(f"soloscope demo: {damaged}", file=sys.stderr)
        hold_page(result)
    finally:
        result.close()
    return 0 if damaged is None else 2

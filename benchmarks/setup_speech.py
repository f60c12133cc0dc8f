"""What the set-up says, measured on rendered footage played through the camera path.

    .venv/bin/python benchmarks/setup_speech.py [--cache DIR] [--resolution 1080p]

The strike system's battle (``soloscope footage strike-causeway --seed 1``, reused from
``--cache``) is played by ``soloscope play`` twice, speech written as WAV files by the speech
engine (espeak-ng through pyttsx3): once with no player (nobody touches the page, so the table
goes on changing under the footage's hand and set-up never ends) and once with the footage's
declarations (the stand-in player, who takes the pieces the camera cannot see as set out).
Reported for each: the set-up announcements (up to "Let battle begin", or to the end), the
longest and the total spoken seconds (measured on the WAV files), whether any announcement
names more than one piece, whether the battle began, and its outcome against ``simulate``.
Figures are on the project's own renderer. Part of ``make bench``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.cli import main as cli  # noqa: E402
from assistant.scenarios import load_game  # noqa: E402
from assistant.speech import wav_duration_s  # noqa: E402

SCENARIO, SEED = "strike-causeway", 1
LONGEST_S = 8.0
"""The issue's bound on one set-up announcement, seconds."""


def footage(cache: Path, resolution: str) -> Path:
    """The rendered battle (rendered once into ``cache``)."""
    out = cache / f"{SCENARIO}-{SEED}-{resolution}"
    clip = out / "battle.mp4"
    if not clip.exists():
        args = ["footage", SCENARIO, "--seed", str(SEED), "--resolution", resolution]
        if cli([*args, "--out", str(out), "--name", "battle", "--quiet"]) != 0:
            raise SystemExit("rendering the footage failed")
    return clip


def play(clip: Path, out: Path, declarations: bool) -> dict[str, Any]:
    """Play the clip; the set-up speech and how the battle went."""
    args = ["play", "--source", str(clip), "--scenario", SCENARIO, "--seed", str(SEED)]
    args += ["--speech", f"wav:{out / 'wav'}", "--no-page", "--out", str(out)]
    if declarations:
        args += ["--declarations", str(clip.with_suffix(".declarations.jsonl"))]
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        cli(args)
    lines = (out / "recording" / "events.jsonl").read_text(encoding="utf-8").splitlines()
    said = [json.loads(line) for line in lines if '"announcement"' in line]
    setup: list[str] = []
    for event in said:
        if event["text"].startswith("The camera feed ended"):
            break
        setup.append(event["text"])
        if "Let battle begin" in event["text"]:
            break
    wavs = sorted((out / "wav").glob("*.wav"))[: len(setup)]
    seconds = [wav_duration_s(w) for w in wavs]
    names = [u.name for u in load_game(SCENARIO)[2].units]
    listed = [t for t in setup if sum(name in t for name in names) > 1]
    outcome = next(
        (line for line in printed.getvalue().splitlines() if "battle is over" in line), "not over"
    )
    return {
        "announcements": len(setup),
        "longest_s": max(seconds, default=0.0),
        "total_s": sum(seconds),
        "naming_several": len(listed),
        "begun": any("Let battle begin" in t for t in setup),
        "outcome": outcome,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cache", type=Path, default=Path(tempfile.gettempdir()) / "soloscope-bench"
    )
    parser.add_argument("--resolution", default="1080p", choices=("720p", "1080p", "4k"))
    args = parser.parse_args()
    clip = footage(args.cache, args.resolution)
    simulated = io.StringIO()
    with contextlib.redirect_stdout(simulated):
        cli(["simulate", SCENARIO, "--seed", str(SEED)])
    print(f"simulate {SCENARIO} --seed {SEED}: {simulated.getvalue().strip().splitlines()[-1]}")
    worst = 0.0
    for label, declarations in (("no player", False), ("stand-in player", True)):
        with tempfile.TemporaryDirectory() as tmp:
            got = play(clip, Path(tmp) / "run", declarations)
        worst = max(worst, got["longest_s"])
        print(
            f"{label:16} {got['announcements']:3} set-up announcements, longest "
            f"{got['longest_s']:.1f} s, total {got['total_s']:.0f} s of speech, "
            f"{got['naming_several']} naming several pieces; "
            f"{'begun' if got['begun'] else 'never begun'}; {got['outcome']}"
        )
    print(f"longest set-up announcement {worst:.1f} s (bound {LONGEST_S:g} s)")
    return 0 if worst <= LONGEST_S else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""``soloscope play``: the live assistant at the table (a camera, or footage standing in for one)."""

from __future__ import annotations

import argparse
import sys

NAME = "play"
HELP = "Play a battle at the table: the camera reads it, the AI gives its orders aloud and on a web page."


#: Shown under ``soloscope play --help``.
EPILOG = (
    "When the battle is over, the table page stays open with the final board, log and outcome "
    "until you press Ctrl-C, if you started play from a terminal; run without a terminal (a "
    "script, CI) or with --no-page, play ends with the battle. Footage (a video file) stands in "
    "for the camera; the player's declarations then come from the page or from --declarations "
    "FILE (the bundled footage has CLIP.declarations.jsonl beside it)."
)


def _token(text: str) -> str:
    from assistant.web.auth import access_token  # the web page's modules load only when used

    return access_token(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Source, scenario, dice, speech, page and records."""
    parser.epilog = EPILOG
    parser.add_argument(
        "--source", required=True, help="camera index (0), video file, image folder"
    )
    parser.add_argument("--scenario", help="bundled scenario name or .toml path")
    parser.add_argument(
        "--profile",
        help="table profile from 'soloscope calibrate' (default: fit from the corner tags)",
    )
    parser.add_argument(
        "--kit",
        help="the kit file written beside your kit's PDF (KIT.kit.json): the tag sizes and "
        "places the table is read with (default: the one the profile names, else the "
        "scenario's own)",
    )
    parser.add_argument(
        "--dice",
        choices=["auto", "physical", "camera"],
        default="auto",
        help="auto: soloscope rolls; physical: you roll and enter the results; camera: you "
        "roll into the dice tray and the camera reads them",
    )
    parser.add_argument(
        "--cards",
        choices=["auto", "physical"],
        default="auto",
        help="auto: soloscope shuffles and draws the game's cards; physical: you shuffle a real "
        "deck and enter each card you draw on the page",
    )
    parser.add_argument(
        "--seed", type=int, help="seed for auto dice (default: random, saved with the game)"
    )
    parser.add_argument(
        "--speech",
        default="on",
        help="on, off, or wav:DIR to write each announcement as a WAV file",
    )
    parser.add_argument("--port", type=int, default=5000, help="port of the table page")
    parser.add_argument("--no-page", action="store_true", help="do not serve the table page")
    parser.add_argument(
        "--listen-all",
        action="store_true",
        help="serve the page to other devices (a phone); requests then need a token",
    )
    parser.add_argument(
        "--token",
        type=_token,
        help="the token for --listen-all, 12 characters or more (default: a random one, shown "
        "with a QR code)",
    )
    parser.add_argument(
        "--out", help="folder for the session's files (default: runs/DATE-SCENARIO)"
    )
    parser.add_argument(
        "--declarations", help="JSON-lines file of the human side's actions (footage demos)"
    )
    parser.add_argument("--resume", help="carry on the saved game in this session folder")
    parser.add_argument(
        "--tolerance", type=float, default=0.25, help="how close a moved model must be, inches"
    )
    parser.add_argument(
        "--facing-tolerance", type=float, default=15.0, help="how close its facing must be, degrees"
    )


def run(args: argparse.Namespace) -> int:
    """Play, then print the summary."""
    from assistant.session.finish import damaged_source_text, hold_page, session_summary
    from assistant.session.options import options_from_args
    from assistant.session.start import run_session

    result = run_session(options_from_args(args))
    try:
        for line in session_summary(result):
            print(line)
        damaged = damaged_source_text(result, args.source)
        if damaged is not None:
            print(f"soloscope play: {damaged}", file=sys.stderr)
        hold_page(result)
    finally:
        result.close()
    return 0 if damaged is None else 2

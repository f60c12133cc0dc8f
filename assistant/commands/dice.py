"""``soloscope dice IMAGE_OR_SRC [--json]``: read the d6 dice in a picture, for diagnosing a set-up.

With ``--profile`` the dice are read in the profile's tray (or the tray its two tags name in the
picture); without, in the tray the tags name, or else in the whole picture. ``--json`` prints one
object per frame: ``{"dice": [{"value", "x", "y", "confidence"}], "unreadable": N}`` with centres
in image pixels. A die whose value is not read surely (confidence under 0.9) is not in
``dice``: it counts in ``unreadable``, and the words name it unsure with the value it looks
like, for the player to check.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import numpy.typing as npt

from assistant.errors import UserError
from calibration.profile import TableProfile, load_profile
from vision.dice import DiceRead, DiceView, find_tray, read_dice, tray_view
from vision.sources import CameraSource, ImageSource, open_source

NAME = "dice"
HELP = "Read the dice in a picture of the dice tray (or any picture of dice)."

CAMERA_WARMUP_FRAMES = 10
"""Frames a camera is given to settle its exposure before the dice are read."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags of ``soloscope dice``."""
    parser.add_argument("source", help="image file, image folder, video file or camera index")
    parser.add_argument("--json", action="store_true", help="one JSON object per frame")
    parser.add_argument(
        "--profile", type=Path, help="table profile: read the dice in its tray (see calibrate)"
    )
    parser.add_argument(
        "--max-frames",
        type=int,
        default=None,
        help="stop after this many frames (default: 1 for a camera, all for a video or folder)",
    )


def view_for(image: npt.NDArray[np.uint8], profile: TableProfile | None) -> DiceView | None:
    """The tray view for a frame: the profile's tray, or the tray its tags name through the
    profile's mapping; None without a profile (the reader then looks for itself)."""
    if profile is None:
        return None
    h, w = image.shape[:2]
    if (w, h) != tuple(profile.image_size_px):
        pw, ph = profile.image_size_px
        raise UserError(
            f"the picture is {w}x{h} px but the profile was made at {pw}x{ph}: calibrate at "
            "this resolution"
        )
    tray = profile.tray
    if tray is None:
        tray = find_tray(image, profile.mapping(), profile.width_in, profile.depth_in)
    return tray_view(profile.mapping(), tray, (w, h))


def describe(reading: DiceRead) -> list[str]:
    """The reading in words, one line each: the values, then each die not read."""
    values = sorted(reading.values, reverse=True)
    lines = [
        f"{len(values)} {'die' if len(values) == 1 else 'dice'} read: "
        f"{' '.join(map(str, values)) or '-'}" + (f" (total {sum(values)})" if values else "")
    ]
    for u in reading.unreadable:
        where = f"at x={u.x_px:.0f}, y={u.y_px:.0f} px"
        if u.guess is not None:
            lines.append(
                f"unsure {where}: it looks like a {u.guess} (confidence {u.confidence:.2f}); "
                "check it"
            )
        else:
            lines.append(f"not read ({u.reason.value}) {where}")
    return lines


def run(args: argparse.Namespace) -> int:
    """Read the dice frame by frame and print them."""
    if args.max_frames is not None and args.max_frames < 1:
        raise UserError(f"--max-frames must be 1 or more, got {args.max_frames}")
    profile = load_profile(args.profile) if args.profile is not None else None
    view: DiceView | None = None
    with open_source(args.source) as source:
        camera = isinstance(source, CameraSource)
        several = not camera and not isinstance(source, ImageSource)
        limit = args.max_frames if args.max_frames is not None else (1 if camera else None)
        read = 0
        for n, frame in enumerate(source):
            if camera and n < CAMERA_WARMUP_FRAMES:
                continue
            if limit is not None and read >= limit:
                break
            if view is None:
                view = view_for(frame.image, profile)
            reading = read_dice(frame.image, view)
            read += 1
            if args.json:
                print(json.dumps(reading.to_json()), flush=True)
            else:
                prefix = f"frame {frame.index}: " if several else ""
                for line in describe(reading):
                    print(prefix + line, flush=True)
        if read == 0:
            raise UserError(f"no picture could be read from {args.source}")
    return 0

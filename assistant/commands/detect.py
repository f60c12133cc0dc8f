"""``soloscope detect SRC [--dictionary NAME] --json``: raw tag sightings, for diagnosing a set-up.

One JSON object per frame: ``{"frame": i, "sightings": [{"id": 23, "corners": [[x, y] x4]}]}``,
corners in pixels in OpenCV's order (top-left, top-right, bottom-right, bottom-left as printed).
"""

from __future__ import annotations

import argparse
import json
import sys

from assistant.errors import UserError
from vision.detector import Detector, to_grey
from vision.sources import open_source

NAME = "detect"
HELP = "Print the raw tag sightings of every frame (pixels), for diagnosing a set-up."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags of ``soloscope detect``."""
    parser.add_argument("source", help="camera index, video file, image file or image folder")
    parser.add_argument(
        "--dictionary",
        default="DICT_4X4_50",
        help="ArUco dictionary name or a dictionary YAML file (default DICT_4X4_50)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per frame")
    parser.add_argument(
        "--max-frames", type=int, default=None, help="stop after this many frames (cameras)"
    )


def run(args: argparse.Namespace) -> int:
    """Detect tags frame by frame and print them."""
    if args.max_frames is not None and args.max_frames < 1:
        raise UserError(f"--max-frames must be 1 or more, got {args.max_frames}")
    detector = Detector(args.dictionary)
    with open_source(args.source) as source:
        for n, frame in enumerate(source):
            if args.max_frames is not None and n >= args.max_frames:
                break
            sightings = detector.detect(to_grey(frame.image))
            if args.json:
                record = {
                    "frame": frame.index,
                    "sightings": [
                        {
                            "id": int(s.tag_id),
                            "corners": [[round(x, 3), round(y, 3)] for x, y in s.corners_px],
                        }
                        for s in sightings
                    ],
                }
                print(json.dumps(record), flush=True)
            else:
                ids = " ".join(
                    str(int(s.tag_id)) for s in sorted(sightings, key=lambda s: s.tag_id)
                )
                print(f"frame {frame.index}: {len(sightings)} tags {ids}", flush=True)
        for w in source.warnings:
            print(f"soloscope detect: warning: {w}", file=sys.stderr)
    return 0

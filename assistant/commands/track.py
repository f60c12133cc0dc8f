"""``soloscope track SRC --profile PROFILE --json [--tag-height-mm 3]``: tag poses frame by frame.

One JSON object per processed frame: ``{"frame": i, "t": s, "settled": bool, "tags": [{"id",
"x", "y", "heading", "state"}]}``, tag centres in table inches (x right, y away from the player,
from the play area's left front corner) at the tags' plane height; corner tags excluded. Without
``--profile`` the table is mapped from the corner tags in the first frames (said on stderr) and
the set-up is judged as ``calibrate`` judges it, for the tags of ``--kit`` or ``--tag-mm``: from a camera,
what calibrate refuses (a moving camera, a camera tilted too far, tags too small to read...) is
refused with the same reasons and its warnings are printed on stderr; footage, which cannot be
filmed again, is tracked all the same, with what calibrate would refuse said on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.errors import UserError

if TYPE_CHECKING:  # the command line loads the heavy modules only when track runs
    from calibration.profile import TableProfile
    from vision.detector import Detector
    from vision.sources import FrameSource
    from vision.types import BoardSnapshot, Frame

NAME = "track"
HELP = "Print every tracked tag's pose in table inches, frame by frame."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags of ``soloscope track``."""
    parser.add_argument("source", help="camera index, video file, image file or image folder")
    parser.add_argument(
        "--profile", type=Path, help="table profile (default: fitted from the corner tags)"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per frame")
    parser.add_argument(
        "--tag-height-mm",
        type=float,
        default=None,
        help="height of the tags above the table, mm (default: the profile's, 3)",
    )
    parser.add_argument(
        "--ids",
        help="tag ids in use, e.g. 4-49 or 16,17,20-23 (default: the kit's, else all but "
        "corner tags)",
    )
    parser.add_argument(
        "--kit",
        type=Path,
        help="the kit file written beside your kit's PDF (KIT.kit.json): its tags only, each "
        "at its height (default: the one the profile names)",
    )
    parser.add_argument(
        "--width", type=float, default=24.0, help="table width, inches (no profile)"
    )
    parser.add_argument(
        "--depth", type=float, default=24.0, help="table depth, inches (no profile)"
    )
    parser.add_argument(
        "--tag-mm",
        type=float,
        default=None,
        help="side of the base tags, mm, when you have no kit file: without --profile the set-up "
        "is judged as calibrate judges it for this size (refused under 16 px)",
    )
    parser.add_argument("--dictionary", default=None, help="ArUco dictionary (default: profile's)")
    parser.add_argument(
        "--hold-s", type=float, default=1.0, help="seconds a hidden tag is held before lifted"
    )
    parser.add_argument("--max-frames", type=int, default=None, help="stop after N frames")
    parser.add_argument(
        "--full-search", action="store_true", help="search the whole frame every frame"
    )


def parse_ids(text: str) -> frozenset[int]:
    """Parse "4-49" or "16,17,20-23" into a set of ids."""
    out: set[int] = set()
    try:
        for part in text.split(","):
            part = part.strip()
            if not part:
                continue
            if "-" in part:
                a, b = (int(v) for v in part.split("-", 1))
                if b < a:
                    raise ValueError(part)
                out.update(range(a, b + 1))
            else:
                out.add(int(part))
    except ValueError as exc:
        raise UserError(f"--ids must look like 4-49 or 16,17,20-23, got {text!r}") from exc
    if not out:
        raise UserError(f"--ids names no tag: {text!r}")
    return frozenset(out)


def _limit(frames: Iterable[Frame], n: int | None) -> Iterator[Frame]:
    for i, f in enumerate(frames):
        if n is not None and i >= n:
            return
        yield f


def snapshot_record(snapshot: BoardSnapshot) -> dict[str, object]:
    """The JSON object of one frame (tag centres inches, heading degrees)."""
    return {
        "frame": snapshot.frame_index,
        "t": round(snapshot.t, 4),
        "settled": snapshot.settled,
        "tags": [
            {
                "id": int(p.tag_id),
                "x": round(p.x_in, 4),
                "y": round(p.y_in, 4),
                "heading": round(p.heading_deg, 2),
                "state": p.state.value,
            }
            for p in snapshot.tags
        ],
    }


def _fit_profile(source: FrameSource, args: argparse.Namespace, detector: Detector) -> TableProfile:
    """The table mapped from the source's first frames, judged as calibrate judges it."""
    from assistant.kit_files import kit_in_use, kit_tag_sizes
    from assistant.table_fit import checked_profile
    from vision.sources import CameraSource

    kit = kit_in_use(args.kit)
    profile, gathered, warnings = checked_profile(
        source,
        detector,
        args.width,
        args.depth,
        source=args.source,
        tag_mm=args.tag_mm,
        tags=() if kit is None else kit_tag_sizes(kit.kit),
        live=isinstance(source, CameraSource),
        max_frames=150,
    )
    print(
        f"soloscope track: no --profile: table mapped from corner tags "
        f"{sorted(gathered.corners_px)} in {gathered.frames_used} frame(s) of {args.source}",
        file=sys.stderr,
    )
    for w in warnings:
        print(f"soloscope track: warning: {w}", file=sys.stderr)
    return profile


def _with_kit(
    args: argparse.Namespace, profile: TableProfile, ids: frozenset[int] | None
) -> tuple[TableProfile, frozenset[int] | None]:
    """The profile with the kit's terrain tags at their heights, and the ids to track: the
    kit's (with the button tags), unless --ids was given."""
    from assistant.kit_files import kit_in_use, kit_words
    from calibration.kit_ids import BUTTON_IDS

    used = kit_in_use(args.kit, args.profile, profile if args.profile is not None else None)
    if used is None:
        return profile, ids
    kit = used.kit
    print(f"soloscope track: {kit_words(used)}", file=sys.stderr)
    heights = {t.tag_id: t.height_mm for t in kit.tags if t.kind == "terrain"}
    profile = replace(profile, tag_heights_mm={**profile.tag_heights_mm, **heights})
    if ids is None:
        ids = frozenset(kit.ids) | frozenset(BUTTON_IDS.values())
    return profile, ids


def run(args: argparse.Namespace) -> int:
    """Track the source and print one line per frame."""
    if args.max_frames is not None and args.max_frames < 1:
        raise UserError(f"--max-frames must be 1 or more, got {args.max_frames}")
    if args.hold_s < 0:
        raise UserError(f"--hold-s must be 0 or more, got {args.hold_s}")
    if args.tag_mm is not None and args.tag_mm <= 0:
        raise UserError(f"--tag-mm must be positive, got {args.tag_mm}")
    if args.tag_mm is not None and args.kit is not None:
        raise UserError("give --kit or --tag-mm, not both: the kit gives every tag's size")
    from calibration.profile import load_profile
    from calibration.table import CORNER_IDS
    from vision.detector import Detector
    from vision.sources import CameraSource, open_source
    from vision.tracker import TablePipeline, Tracker

    ids = parse_ids(args.ids) if args.ids else None
    if ids is not None and ids & set(CORNER_IDS):
        raise UserError(f"--ids must not include the corner tags {list(CORNER_IDS)}")
    profile = load_profile(args.profile) if args.profile is not None else None
    dictionary = args.dictionary or (profile.dictionary if profile else "DICT_4X4_50")
    detector = Detector(dictionary)
    controls = dict((profile.camera_settings.get("v4l2_controls") or {}) if profile else {})
    source = open_source(args.source, controls=controls or None)
    for item in source.report.get("not_set") or []:
        print(f"soloscope track: camera would not take: {item}", file=sys.stderr)
    try:
        if profile is None:
            profile = _fit_profile(source, args, detector)
            if not isinstance(source, CameraSource):
                source.close()
                source = open_source(args.source)
        if args.tag_height_mm is not None:
            if args.tag_height_mm < 0:
                raise UserError(f"--tag-height-mm must be 0 or more, got {args.tag_height_mm}")
            profile = replace(profile, default_tag_height_mm=args.tag_height_mm)
        profile, ids = _with_kit(args, profile, ids)
        tracker = Tracker(profile, ids, hold_s=args.hold_s)
        pipeline = TablePipeline(detector, tracker, region_search=not args.full_search)
        for frame in _limit(source, args.max_frames):
            snapshot = pipeline.process(frame)
            if args.json:
                print(json.dumps(snapshot_record(snapshot)), flush=True)
            else:
                tags = ", ".join(
                    f"{p.tag_id}@({p.x_in:.2f},{p.y_in:.2f}) {p.heading_deg:.0f}deg {p.state.value}"
                    for p in snapshot.tags
                )
                flag = "settled" if snapshot.settled else "moving"
                print(
                    f"frame {snapshot.frame_index} t={snapshot.t:.2f}s {flag}: {tags}", flush=True
                )
            for w in snapshot.warnings:
                print(f"soloscope track: frame {snapshot.frame_index}: {w}", file=sys.stderr)
        for w in source.warnings:
            print(f"soloscope track: warning: {w}", file=sys.stderr)
    finally:
        source.close()
    return 0

"""``soloscope calibrate --source SRC --save PROFILE [--width IN --depth IN]``: map the table from
its four corner tags, print a quality report with the detection margin of the player's tags
(``--kit FILE``: every tag of the kit at its height; ``--tag-mm``: one base tag size), and save
the profile unless tracking with it would be hopeless (tags under the reliable size are saved
with a warning). With no tag size the report says the smallest tag this camera reads, and the
kit is made for the profile afterwards (``soloscope markers --profile``). The saved profile
names the kit (``--kit``, or the one the profile being replaced named).

With ``--lens`` it runs lens calibration instead (assistant.lens_cli, when installed).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from assistant.errors import UserError
from calibration.errors import CalibrationError
from calibration.intrinsics import Intrinsics
from calibration.profile import TableProfile, build_profile, load_intrinsics, save_profile
from calibration.quality import QualityReport, TagSize, assess
from calibration.table import CORNER_IDS
from vision.detector import Detector, to_grey
from vision.sources import CameraSource, open_source
from vision.types import Frame

if TYPE_CHECKING:
    from assistant.kit_files import KitInUse

NAME = "calibrate"
HELP = "Map the table from its four corner tags, report the set-up's quality and save a profile."

CAMERA_WARMUP_FRAMES = 10


@dataclass(frozen=True)
class CornerFrames:
    """Corner tags gathered over the first frames of a source."""

    corners_px: dict[int, npt.NDArray[np.float64]]
    """Per corner id, the median of its four pixel corners over the frames used."""
    image: npt.NDArray[np.uint8]
    """The last frame used (for the quality checks)."""
    image_size_px: tuple[int, int]
    frames_used: int
    frames_missing: int
    """Frames looked at that lacked some corner tag."""


def gather_corners(
    frames: Iterable[Frame], detector: Detector, *, max_frames: int = 90, wanted: int = 5
) -> CornerFrames:
    """Corner tags from the first frames that show all four (up to ``wanted`` of them, the
    pixels combined by median); frames with fewer are used only if no frame shows all four."""
    complete: list[tuple[dict[int, npt.NDArray[np.float64]], Frame]] = []
    partial: list[tuple[dict[int, npt.NDArray[np.float64]], Frame]] = []
    missing = 0
    for n, frame in enumerate(frames):
        if n >= max_frames:
            break
        found: dict[int, npt.NDArray[np.float64]] = {}
        twice: set[int] = set()
        for s in detector.detect(to_grey(frame.image)):
            if s.tag_id in CORNER_IDS:
                if s.tag_id in found:
                    twice.add(int(s.tag_id))
                found[int(s.tag_id)] = np.array(s.corners_px, dtype=np.float64)
        for i in twice:
            del found[i]
        if len(found) == len(CORNER_IDS):
            complete.append((found, frame))
            if len(complete) >= wanted:
                break
        else:
            missing += 1
            if found:
                partial.append((found, frame))
    chosen = complete
    if not chosen and partial:
        most = max(len(f) for f, _ in partial)
        chosen = [p for p in partial if len(p[0]) == most][:wanted]
    if not chosen:
        raise CalibrationError(
            f"no corner tags (ids {list(CORNER_IDS)}) found in {missing} frames: put the four "
            "40 mm corner tags at the play area's corners, in view"
        )
    ids = sorted(chosen[0][0])
    corners = {i: np.median(np.stack([f[i] for f, _ in chosen if i in f]), axis=0) for i in ids}
    last = chosen[-1][1].image
    return CornerFrames(
        corners_px=corners,
        image=last,
        image_size_px=(int(last.shape[1]), int(last.shape[0])),
        frames_used=len(chosen),
        frames_missing=missing,
    )


def profile_from_frames(
    frames: Iterable[Frame],
    detector: Detector,
    width_in: float,
    depth_in: float,
    *,
    max_frames: int = 90,
) -> tuple[TableProfile, CornerFrames]:
    """A table profile (no lens intrinsics) from the corner tags in the first frames, and what
    was gathered to make it."""
    gathered = gather_corners(frames, detector, max_frames=max_frames)
    profile = build_profile(
        gathered.corners_px,
        gathered.image_size_px,
        width_in,
        depth_in,
        dictionary=detector.dictionary_name,
    )
    return profile, gathered


def calibrate_from_source(
    spec: str,
    width_in: float,
    depth_in: float,
    *,
    dictionary: str = "DICT_4X4_50",
    intrinsics: Intrinsics | None = None,
    tag_mm: float | None = None,
    tags: Sequence[TagSize] = (),
    tag_height_mm: float = 3.0,
    camera_size_px: tuple[int, int] | None = None,
) -> tuple[TableProfile, QualityReport]:
    """Open a source, gather its corner tags, fit the profile and judge it."""
    detector = Detector(dictionary)
    w, h = camera_size_px or (None, None)
    with open_source(spec, width_px=w, height_px=h) as source:
        if isinstance(source, CameraSource):
            # let auto-exposure and focus settle, then pin them for tracking
            for n, _ in enumerate(source.frames()):
                if n + 1 >= CAMERA_WARMUP_FRAMES:
                    break
            source.fix_controls()
        gathered = gather_corners(source.frames(), detector)
        settings: dict[str, Any] = {"source": spec, **source.report}
    profile = build_profile(
        gathered.corners_px,
        gathered.image_size_px,
        width_in,
        depth_in,
        intrinsics=intrinsics,
        dictionary=dictionary,
        camera_settings=settings,
        default_tag_height_mm=tag_height_mm,
    )
    profile = _with_tray(profile, gathered.image)
    report = assess(
        profile,
        gathered.image,
        {i: [tuple(p) for p in c] for i, c in gathered.corners_px.items()},
        tag_mm=tag_mm,
        tags=tags,
        frames_missing_corners=gathered.frames_missing if gathered.frames_used > 1 else 0,
        frames_used=gathered.frames_used,
    )
    return profile, report


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags of ``soloscope calibrate`` (and the lens-calibration flags when available)."""
    parser.add_argument(
        "--source", help="camera index, video file, image file or image folder showing the table"
    )
    parser.add_argument("--save", type=Path, help="profile JSON to write")
    parser.add_argument("--width", type=float, default=24.0, help="play area width, inches")
    parser.add_argument("--depth", type=float, default=24.0, help="play area depth, inches")
    parser.add_argument("--dictionary", default="DICT_4X4_50", help="ArUco dictionary name")
    parser.add_argument(
        "--kit",
        type=Path,
        help="the kit file written beside your kit's PDF (KIT.kit.json): every tag is checked "
        "against this camera, and the profile names the kit for play, track and replay",
    )
    parser.add_argument(
        "--tag-mm",
        type=float,
        default=None,
        help="side of the base tags you will use, mm, when you have no kit file: the report "
        "gives its detection margin (reliable from 24 px; refused under 16 px)",
    )
    parser.add_argument(
        "--tag-height-mm",
        type=float,
        default=3.0,
        help="height of base-top tags above the table, mm (default 3)",
    )
    parser.add_argument(
        "--intrinsics",
        type=Path,
        help="a profile or lens file holding lens intrinsics (default: those already in --save)",
    )
    parser.add_argument(
        "--resolution",
        default=None,
        help="camera resolution to ask for, WIDTHxHEIGHT (e.g. 3840x2160)",
    )
    if importlib.util.find_spec("assistant.lens_cli") is not None:
        lens_cli = importlib.import_module("assistant.lens_cli")
        try:
            lens_cli.add_lens_arguments(parser)
            return
        except argparse.ArgumentError:
            pass
    if "--lens" not in parser._option_string_actions:
        parser.add_argument(
            "--lens", action="store_true", help="lens calibration (not available in this install)"
        )


def _resolution(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError as exc:
        raise UserError(f"--resolution must look like 1920x1080, got {text!r}") from exc
    if w <= 0 or h <= 0:
        raise UserError(f"--resolution must be positive, got {text!r}")
    return w, h


def _with_tray(profile: TableProfile, image: npt.NDArray[np.uint8]) -> TableProfile:
    """The profile with the dice tray its two tags name in the image, if they are in view."""
    from vision.dice import find_tray

    try:
        return profile.with_tray(
            find_tray(image, profile.mapping(), profile.width_in, profile.depth_in)
        )
    except CalibrationError:
        return profile


def run(args: argparse.Namespace) -> int:
    """Calibrate, report, and save unless the set-up could not track at all."""
    if getattr(args, "lens", False):
        if importlib.util.find_spec("assistant.lens_cli") is None:
            raise UserError("lens calibration is not available in this install")
        lens_cli = importlib.import_module("assistant.lens_cli")
        return int(lens_cli.run_lens(args))
    if not args.source:
        raise UserError("give --source (camera index, video, image or folder)")
    if args.width <= 0 or args.depth <= 0:
        raise UserError(f"table size must be positive, got {args.width} x {args.depth} in")
    if args.tag_mm is not None and args.tag_mm <= 0:
        raise UserError(f"--tag-mm must be positive, got {args.tag_mm}")
    if args.tag_mm is not None and args.kit is not None:
        raise UserError("give --kit or --tag-mm, not both: the kit gives every tag's size")
    from assistant.kit_files import kit_tag_sizes, kit_words

    kit_used = _kit_for(args)
    intrinsics = None
    if args.intrinsics is not None:
        intrinsics = load_intrinsics(args.intrinsics)
        if intrinsics is None:
            raise UserError(f"{args.intrinsics} holds no lens intrinsics")
    elif args.save is not None and args.save.is_file():
        try:
            intrinsics = load_intrinsics(args.save)
        except CalibrationError:
            intrinsics = None
        if intrinsics is not None:
            print(f"using the lens intrinsics already in {args.save} ({intrinsics.source})")
    profile, report = calibrate_from_source(
        args.source,
        args.width,
        args.depth,
        dictionary=args.dictionary,
        intrinsics=intrinsics,
        tag_mm=args.tag_mm,
        tags=() if kit_used is None else kit_tag_sizes(kit_used.kit),
        tag_height_mm=args.tag_height_mm,
        camera_size_px=_resolution(args.resolution),
    )
    for line in report.lines():
        print(line)
    if profile.tray is not None:
        tray = profile.tray
        print(f"dice tray: {tray.width_mm:.0f} x {tray.depth_mm:.0f} mm, tags {tray.tag_ids}")
    for item in profile.camera_settings.get("not_set") or []:
        print(f"camera would not take: {item}")
    if profile.camera_settings.get("v4l2_controls"):
        print(f"camera controls kept for tracking: {profile.camera_settings['v4l2_controls']}")
    if not report.ok:
        raise UserError(
            "profile not saved: this set-up would not track reliably: " + "; ".join(report.refusals)
        )
    if kit_used is not None:
        print(kit_words(kit_used))
    elif args.tag_mm is None:
        print(
            "next: size your tags for this camera with soloscope markers --scenario NAME "
            f"--profile {args.save or 'PROFILE'} --out kit.pdf"
        )
    if args.save is None:
        print("the set-up is good; give --save PROFILE to keep it")
        return 0
    save_profile(
        profile.with_kit(None if kit_used is None else kit_used.path, args.save), args.save
    )
    print(f"saved {args.save}")
    return 0


def _kit_for(args: argparse.Namespace) -> KitInUse | None:
    """The kit to check: --kit, else the one the profile about to be replaced named."""
    from assistant.kit_files import kit_in_use

    if args.kit is not None:
        return kit_in_use(args.kit)
    if args.save is None or not args.save.is_file() or args.tag_mm is not None:
        return None
    try:
        used = kit_in_use(None, args.save)
    except (CalibrationError, UserError):
        return None
    if used is not None:
        print(f"using the kit {used.path} that {args.save} names")
    return used

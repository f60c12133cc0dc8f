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
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.errors import UserError

if TYPE_CHECKING:  # the command line loads the heavy modules only when calibrate runs
    import numpy as np
    import numpy.typing as npt

    from assistant.kit_files import KitInUse
    from calibration.intrinsics import Intrinsics
    from calibration.profile import TableProfile
    from calibration.quality import QualityReport, TagSize

NAME = "calibrate"
HELP = "Map the table from its four corner tags, report the set-up's quality and save a profile."

CAMERA_WARMUP_FRAMES = 10


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
    from assistant.table_fit import gather_corners, judge
    from calibration.profile import build_profile
    from vision.detector import Detector
    from vision.sources import CameraSource, open_source

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
    return profile, judge(profile, gathered, tag_mm, tags)


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
    from calibration.errors import CalibrationError
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
    from calibration.errors import CalibrationError
    from calibration.profile import load_intrinsics, save_profile

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
    from calibration.errors import CalibrationError

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

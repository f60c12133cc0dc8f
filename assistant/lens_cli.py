"""``soloscope calibrate --lens --source SRC [--board charuco|chessboard ...] [--save PROFILE]``.

Lens calibration from a live camera (guided: it says where in the view it still needs the
board), a video or a folder of images; prints a report and saves the intrinsics into the profile
JSON (an existing profile keeps everything else; otherwise a lens-only profile is written).
The calibrate command calls :func:`add_lens_arguments` and :func:`run_lens`.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from assistant.errors import UserError
from calibration.errors import CalibrationError
from calibration.intrinsics import Intrinsics
from calibration.lens import (
    KIT_CHARUCO,
    MODELS,
    BoardView,
    CharucoSpec,
    LensResult,
    calibrate_views,
    coverage_grid,
    find_charuco,
    find_chessboard,
)
from calibration.safe_files import write_json_atomic
from vision.camera_controls import fix_controls
from vision.errors import VisionError
from vision.sources import CameraSource, FolderSource, ImageSource, open_source
from vision.types import Frame

PROFILE_VERSION = 1
CAMERA_SETTLE_FRAMES = 15
"""Frames a live camera runs with its automatic modes before they are fixed."""
MAX_VIEWS = 40
"""Views kept from a camera or a video (more add time, not accuracy)."""
NOVELTY = 0.05
"""A camera/video view is kept only if some corner of the board's seen part lies this far (a
fraction of the image's width or height) from where it was in every kept view."""


@dataclass(frozen=True)
class BoardChoice:
    """Which board to look for: a ChArUco spec, or a chessboard pattern and square size."""

    charuco: CharucoSpec | None
    pattern: tuple[int, int] = (0, 0)
    """Chessboard (columns, rows) of inner corners."""
    square_mm: float = 0.0

    def find(self, image: np.ndarray) -> BoardView | None:
        """The board's corners in one image, or None."""
        if self.charuco is not None:
            return find_charuco(image, self.charuco)
        return find_chessboard(image, self.pattern, self.square_mm)

    def describe(self) -> str:
        """The board in words."""
        if self.charuco is not None:
            c = self.charuco
            return (
                f"ChArUco {c.squares[0]}x{c.squares[1]} squares of {c.square_mm:g} mm, markers "
                f"{c.marker_mm:g} mm, {c.dictionary}"
            )
        cols, rows = self.pattern
        return f"chessboard {cols}x{rows} inner corners, {self.square_mm:g} mm squares"


def _has(parser: argparse.ArgumentParser, flag: str) -> bool:
    return flag in parser._option_string_actions


def add_lens_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--lens`` and the lens-calibration flags (and ``--source``/``--save`` if the parser
    lacks them)."""
    group = parser.add_argument_group("lens calibration (with --lens)")
    group.add_argument(
        "--lens", action="store_true", help="calibrate the camera's lens instead of the table"
    )
    if not _has(parser, "--source"):
        group.add_argument("--source", help="camera index, video file or folder of images")
    if not _has(parser, "--save"):
        group.add_argument("--save", type=Path, help="profile JSON to store the intrinsics in")
    group.add_argument(
        "--board",
        choices=["charuco", "chessboard"],
        default="charuco",
        help="calibration target (default: the kit's ChArUco board)",
    )
    group.add_argument(
        "--board-dictionary",
        default=KIT_CHARUCO.dictionary,
        help=f"ChArUco marker dictionary (default {KIT_CHARUCO.dictionary}, as printed)",
    )
    group.add_argument(
        "--squares",
        default=f"{KIT_CHARUCO.squares[0]}x{KIT_CHARUCO.squares[1]}",
        help="ChArUco squares COLSxROWS (default as printed)",
    )
    group.add_argument(
        "--pattern", default="9x6", help="chessboard inner corners COLSxROWS (default 9x6)"
    )
    group.add_argument(
        "--square-mm",
        type=float,
        default=None,
        help=f"square side, mm (default {KIT_CHARUCO.square_mm:g} for the kit's ChArUco board, "
        "25 for a chessboard)",
    )
    group.add_argument(
        "--marker-mm",
        type=float,
        default=None,
        help=f"ChArUco marker side, mm (default {KIT_CHARUCO.marker_mm:g})",
    )
    group.add_argument(
        "--lens-model",
        choices=MODELS,
        default="auto",
        help="distortion model (default auto: square pixels under 8 views)",
    )
    group.add_argument(
        "--views", type=int, default=15, help="views to collect from a live camera (default 15)"
    )
    group.add_argument(
        "--max-seconds",
        type=float,
        default=180.0,
        help="give up collecting camera views after this long (default 180)",
    )


def _pair(text: str, flag: str) -> tuple[int, int]:
    try:
        a, b = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UserError(f"{flag} must look like 5x7, got {text!r}") from None
    if a < 2 or b < 2:
        raise UserError(f"{flag} needs at least 2x2, got {text!r}")
    return a, b


def board_from_args(args: argparse.Namespace) -> BoardChoice:
    """The board the flags describe."""
    if args.board == "chessboard":
        square = 25.0 if args.square_mm is None else args.square_mm
        if square <= 0:
            raise UserError(f"--square-mm must be positive, got {square}")
        return BoardChoice(None, _pair(args.pattern, "--pattern"), square)
    square = KIT_CHARUCO.square_mm if args.square_mm is None else args.square_mm
    marker = KIT_CHARUCO.marker_mm if args.marker_mm is None else args.marker_mm
    if not 0 < marker < square:
        raise UserError(f"--marker-mm ({marker}) must be positive and below --square-mm ({square})")
    spec = CharucoSpec(args.board_dictionary, _pair(args.squares, "--squares"), square, marker)
    try:
        spec.board()
    except CalibrationError as exc:
        raise UserError(str(exc)) from None
    return BoardChoice(spec)


def _signature(view: BoardView, size: tuple[int, int]) -> np.ndarray:
    """Where the corners of the board's seen part land, as fractions of the image: differs when
    the board moves, grows or tilts."""
    w, h = size
    obj = view.object_points_mm[:, :2]
    lo, hi = obj.min(axis=0), obj.max(axis=0)
    box = np.array([[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]])
    homography, _ = cv2.findHomography(obj, view.image_points_px)
    if homography is None:
        return np.zeros(8)
    pts = cv2.perspectiveTransform(box.reshape(-1, 1, 2), homography).reshape(-1, 2)
    return np.asarray(pts / np.array([w, h]), dtype=np.float64).ravel()


@dataclass
class ViewCollector:
    """Keeps the views that show the board somewhere new (place or apparent size)."""

    board: BoardChoice
    keep_all: bool
    views: list[BoardView | None]
    """Kept views; with ``keep_all``, None for an image without the board (for the report)."""
    size: tuple[int, int] | None = None
    seen: int = 0

    def offer(self, image: np.ndarray) -> bool:
        """Look for the board; True if this image's view was kept."""
        h, w = image.shape[:2]
        if self.size is None:
            self.size = (w, h)
        elif self.size != (w, h):
            raise UserError(
                f"frame {self.seen} is {w}x{h} px, earlier ones {self.size[0]}x{self.size[1]}: "
                "calibrate one camera at one resolution"
            )
        self.seen += 1
        view = self.board.find(image)
        if view is None:
            if self.keep_all:
                self.views.append(None)
            return False
        if not self.keep_all:
            if len(self.found) >= MAX_VIEWS:
                return False
            sig = _signature(view, self.size)
            if any(np.abs(sig - _signature(v, self.size)).max() < NOVELTY for v in self.found):
                return False
        self.views.append(view)
        return True

    @property
    def found(self) -> list[BoardView]:
        """The kept views that show the board."""
        return [v for v in self.views if v is not None]

    def missing_cells(self) -> list[str]:
        """Parts of the image where no kept view had board corners."""
        if self.size is None or not self.found:
            return ["everywhere"]
        names = ["top left", "top", "top right", "left", "centre", "right"]
        names += ["bottom left", "bottom", "bottom right"]
        grid = coverage_grid(self.found, self.size)
        return [names[r * 3 + c] for r, row in enumerate(grid) for c, n in enumerate(row) if n == 0]


def _fix_camera(source: CameraSource) -> dict[str, int]:
    """Let the camera settle, then fix focus, exposure and white balance where they are."""
    not_set = source.report.get("not_set", [])
    if not_set:
        print("camera: could not set " + ", ".join(str(v) for v in not_set))
    for n, _frame in enumerate(source):
        if n + 1 >= CAMERA_SETTLE_FRAMES:
            break
    settings, failed = fix_controls(source.index)
    if settings:
        print("camera: fixed " + ", ".join(f"{k}={v}" for k, v in settings.items()))
    if failed:
        print("camera: could not set " + "; ".join(failed))
    return settings


def _collect_camera(
    source: CameraSource, collector: ViewCollector, args: argparse.Namespace
) -> None:
    print(
        f"hold the {collector.board.describe()} in front of the camera; move it to every part "
        "of the view, near and far, tilted; Ctrl-C to finish early"
    )
    start = last_say = time.monotonic()
    try:
        for frame in source:
            now = time.monotonic()
            if now - start > args.max_seconds:
                print(f"stopped after {args.max_seconds:g} s")
                break
            if collector.offer(frame.image):
                missing = collector.missing_cells()
                print(
                    f"view {len(collector.found)}/{args.views} kept; "
                    + (f"still needed: {', '.join(missing)}" if missing else "every part covered")
                )
                last_say = now
                if len(collector.found) >= args.views and not missing:
                    break
            elif now - last_say > 4.0:
                missing = collector.missing_cells()
                print(
                    "board not seen or not new; show it "
                    + (f"at: {', '.join(missing)}" if missing else "tilted or nearer/farther")
                )
                last_say = now
    except KeyboardInterrupt:
        print("finishing with the views so far")


def _frames_every(frames: Iterable[Frame], stride: int) -> Iterable[Frame]:
    for frame in frames:
        if frame.index % stride == 0:
            yield frame


def _resolution(text: str | None) -> tuple[int | None, int | None]:
    if not text:
        return None, None
    w, h = _pair(text, "--resolution")
    return w, h


def collect_views(
    args: argparse.Namespace, board: BoardChoice
) -> tuple[ViewCollector, dict[str, int]]:
    """Open ``args.source`` and gather board views (guided when it is a live camera); also the
    camera controls fixed for the calibration (empty for files)."""
    width, height = _resolution(getattr(args, "resolution", None))
    try:
        source = open_source(str(args.source), width_px=width, height_px=height)
    except VisionError as exc:
        raise UserError(str(exc)) from None
    keep_all = isinstance(source, FolderSource | ImageSource)
    collector = ViewCollector(board, keep_all, [])
    controls: dict[str, int] = {}
    with source:
        if isinstance(source, CameraSource):
            controls = _fix_camera(source)
            _collect_camera(source, collector, args)
        else:
            fps = float(getattr(source, "fps", 30.0))
            stride = 1 if keep_all else max(1, round(fps / 3))
            for frame in _frames_every(source, stride):
                collector.offer(frame.image)
    return collector, controls


def save_intrinsics(
    path: Path, intrinsics: Intrinsics, camera_controls: dict[str, int] | None = None
) -> str:
    """Store ``intrinsics`` in the profile at ``path``: an existing profile keeps its other
    entries, otherwise a lens-only profile is written. ``camera_controls`` (V4L2 settings fixed
    during the calibration) go to ``camera_settings["v4l2_controls"]``, to be restored with
    ``vision.camera_controls.apply_controls`` before tracking. Returns what was done, in words."""
    data: dict[str, Any] = {"version": PROFILE_VERSION}
    existed = path.is_file()
    if existed:
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise UserError(
                f"{path} exists but is not a readable profile ({exc}); not changed"
            ) from None
        if not isinstance(loaded, dict):
            raise UserError(f"{path} exists but does not hold a JSON object; not changed")
        data = loaded
        data.setdefault("version", PROFILE_VERSION)
    data["intrinsics"] = intrinsics.to_dict()
    if camera_controls:
        settings = data.get("camera_settings")
        settings = dict(settings) if isinstance(settings, dict) else {}
        settings["v4l2_controls"] = dict(camera_controls)
        data["camera_settings"] = settings
    try:
        write_json_atomic(path, data, indent=2)
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror}") from None
    return f"updated the intrinsics in {path}" if existed else f"wrote lens-only profile {path}"


def run_lens(args: argparse.Namespace) -> int:
    """Collect views, calibrate, report, save; returns the exit code."""
    if not getattr(args, "source", None):
        raise UserError("give --source (camera index, video file or folder of images)")
    if args.views < 3:
        raise UserError(f"--views must be at least 3, got {args.views}")
    board = board_from_args(args)
    collector, controls = collect_views(args, board)
    if collector.size is None:
        raise UserError(f"{args.source} gave no frames")
    print(f"board: {board.describe()}; looked at {collector.seen} images")
    try:
        result: LensResult = calibrate_views(
            collector.views, collector.size, model=args.lens_model, source=board.describe()
        )
    except CalibrationError as exc:
        raise UserError(f"{exc} (is the board as described: {board.describe()}?)") from None
    for line in result.report_lines():
        print(line)
    if args.save is not None:
        print(save_intrinsics(Path(args.save), result.intrinsics, controls))
    else:
        print("not saved (give --save PROFILE to keep these intrinsics)")
    return 0

"""Lens calibration: camera intrinsics from views of a ChArUco board or a chessboard.

Pixels for everything in the image (reprojection errors, principal point, focal lengths);
millimetres for the board. Board corners are found the way OpenCV's own ChArUco tutorial does:
``cv2.aruco.CharucoDetector`` with its default parameters (markers found, each chessboard corner
predicted from its two neighbouring markers, then refined by ``cornerSubPix`` in a window kept
clear of the marker corners), ``matchImagePoints`` for the object points, then
``cv2.calibrateCamera``. The distortion model is chosen by the number of views (``model``):

- ``"radial"``: k1, k2 with fx, fy, cx, cy free; no tangential terms, no k3. Webcam lenses have
  negligible decentring, and k3 only matters for wide-angle lenses; leaving them free lets the
  fit trade them against the focal length and the principal point.
- ``"radial-square"``: the same with square pixels (fx = fy), for few views (fewer than
  ``FEW_VIEWS``): with three ChArUco views the full 5-term model lands 3.3 % off in fx and
  16 px off in cy, this one 0.6 % in fx and 11 px in cy (see
  tests/calibration/test_lens_realdata.py, which also shows why cy cannot be pinned down there).
- ``"full"``: OpenCV's k1, k2, p1, p2, k3 with everything free, for many well spread views.
- ``"auto"`` (default): ``"radial-square"`` under ``FEW_VIEWS`` views, else ``"radial"``.

Every result carries OpenCV's standard deviation of fx, fy, cx, cy, so a caller can say when the
views do not pin a parameter down, and a coverage grid of where board corners were seen.
``reprojection_rms_px`` says how well given intrinsics (a saved profile, a reference) explain
board views: when it is as low as a fresh fit's, the views cannot tell the two apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from calibration.errors import CalibrationError
from calibration.intrinsics import Intrinsics, from_arrays
from calibration.kit_ids import (
    CHARUCO_DICTIONARY,
    CHARUCO_MARKER_MM,
    CHARUCO_SQUARE_MM,
    CHARUCO_SQUARES,
)

F64 = npt.NDArray[np.float64]
Image = npt.NDArray[np.uint8]

FEW_VIEWS = 8
"""Below this many usable views, ``model="auto"`` fixes the aspect ratio (square pixels)."""
MIN_CHARUCO_CORNERS = 6
"""A ChArUco view with fewer interpolated corners is not used."""
COVERAGE_GRID = (3, 3)
"""(columns, rows) of the image cells the coverage report counts corners in."""
MODELS = ("auto", "radial", "radial-square", "full")

_MODEL_FLAGS = {
    "radial": cv2.CALIB_ZERO_TANGENT_DIST | cv2.CALIB_FIX_K3,
    "radial-square": cv2.CALIB_ZERO_TANGENT_DIST | cv2.CALIB_FIX_K3 | cv2.CALIB_FIX_ASPECT_RATIO,
    "full": 0,
}
_CELL_NAMES = {
    (0, 0): "top left",
    (1, 0): "top",
    (2, 0): "top right",
    (0, 1): "left",
    (1, 1): "centre",
    (2, 1): "right",
    (0, 2): "bottom left",
    (1, 2): "bottom",
    (2, 2): "bottom right",
}


@dataclass(frozen=True)
class CharucoSpec:
    """A ChArUco board: dictionary, size in squares and printed sizes in millimetres."""

    dictionary: str
    """``cv2.aruco`` predefined dictionary name, e.g. "DICT_5X5_100"."""
    squares: tuple[int, int]
    """(columns, rows) of chessboard squares."""
    square_mm: float
    """Side of one chessboard square, millimetres."""
    marker_mm: float
    """Side of one marker's black square, millimetres."""
    legacy_pattern: bool = False
    """True for boards printed by OpenCV < 4.6 with an even number of rows. Only an even row
    count differs (the old layout starts with a white square there); with an odd one, such as
    the 5x7 tutorial board, both settings give the same markers and corners."""

    def board(self) -> cv2.aruco.CharucoBoard:
        """The OpenCV board object (object points in millimetres)."""
        try:
            d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, self.dictionary))
        except AttributeError:
            raise CalibrationError(f"unknown ArUco dictionary {self.dictionary!r}") from None
        if self.marker_mm >= self.square_mm or min(self.squares) < 2:
            raise CalibrationError(
                f"ChArUco board {self.squares} with markers {self.marker_mm} mm in squares "
                f"{self.square_mm} mm: markers must be smaller than squares, at least 2x2 squares"
            )
        board = cv2.aruco.CharucoBoard(self.squares, self.square_mm, self.marker_mm, d)
        board.setLegacyPattern(self.legacy_pattern)
        return board


KIT_CHARUCO = CharucoSpec(CHARUCO_DICTIONARY, CHARUCO_SQUARES, CHARUCO_SQUARE_MM, CHARUCO_MARKER_MM)
"""The board printed on the kit's lens calibration page (``soloscope markers``)."""


@dataclass(frozen=True)
class BoardView:
    """Board corners found in one image."""

    image_points_px: F64
    """(N, 2) pixel positions of the board corners."""
    object_points_mm: F64
    """(N, 3) the same corners on the board, millimetres (z = 0)."""


@dataclass(frozen=True)
class LensResult:
    """The outcome of a lens calibration."""

    intrinsics: Intrinsics
    rms_px: float
    """Root-mean-square reprojection error over every corner of every view used, pixels."""
    views_used: tuple[int, ...]
    """Indices (in the input order) of the images whose board was used."""
    views_skipped: tuple[int, ...]
    """Indices of images with no usable board."""
    per_view_rms_px: tuple[float, ...]
    """Reprojection RMS of each used view, pixels, in the order of ``views_used``."""
    coverage: tuple[tuple[int, ...], ...]
    """Board corners seen in each cell of a ``COVERAGE_GRID`` over the image, rows top to
    bottom, columns left to right."""
    model: str
    """Distortion model used (one of ``MODELS`` except "auto")."""
    std_px: tuple[float, float, float, float]
    """OpenCV's standard deviation of (fx, fy, cx, cy), pixels: how well the views pin them down
    (with square pixels fx is fy, and so is its deviation). A linear estimate: with few views
    the real spread can be larger."""

    def empty_cells(self) -> list[str]:
        """Names ("top left", "centre", ...) of image cells where no board corner was seen."""
        return [
            _CELL_NAMES.get((c, r), f"cell {c},{r}")
            for r, row in enumerate(self.coverage)
            for c, n in enumerate(row)
            if n == 0
        ]

    def report_lines(self) -> list[str]:
        """A plain-language report: views, error, parameters with uncertainty, gaps."""
        k = self.intrinsics
        w, h = k.image_size_px
        lines = [
            f"views used: {len(self.views_used)} of {len(self.views_used) + len(self.views_skipped)}"
            + (f" (no usable board in {len(self.views_skipped)})" if self.views_skipped else ""),
            f"reprojection error: {self.rms_px:.3f} px RMS "
            f"(worst view {max(self.per_view_rms_px):.3f} px); model {self.model}",
            f"image {w}x{h} px: fx {k.fx_px:.1f} fy {k.fy_px:.1f} cx {k.cx_px:.1f} "
            f"cy {k.cy_px:.1f} px (+- {self.std_px[0]:.1f}, {self.std_px[1]:.1f}, "
            f"{self.std_px[2]:.1f}, {self.std_px[3]:.1f})",
            "distortion: " + ", ".join(f"{v:.4f}" for v in k.dist_coeffs),
        ]
        empty = self.empty_cells()
        if empty:
            lines.append("no board seen in these parts of the image: " + ", ".join(empty))
        if max(self.std_px[2:]) > 4.0:
            lines.append(
                "the principal point is uncertain (more than 4 px): add views with the board "
                "near the image edges and tilted"
            )
        return lines


def _dictionary(name: str) -> cv2.aruco.Dictionary:
    try:
        return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))
    except AttributeError:
        raise CalibrationError(f"unknown ArUco dictionary {name!r}") from None


def _grey(image: Image) -> Image:
    if image.ndim == 3:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    return image


def find_charuco(image: Image, spec: CharucoSpec) -> BoardView | None:
    """The ChArUco corners in one image (grey or BGR), or None with fewer than
    ``MIN_CHARUCO_CORNERS``."""
    board = spec.board()
    detector = cv2.aruco.CharucoDetector(board)
    corners, ids, _marker_corners, _marker_ids = detector.detectBoard(_grey(image))
    if ids is None or len(ids) < MIN_CHARUCO_CORNERS:
        return None
    # OpenCV's stub types detectedCorners as a list; the ChArUco form takes one (N, 1, 2) array.
    obj, img = board.matchImagePoints(corners, ids)  # type: ignore[call-overload]
    return BoardView(
        np.asarray(img, dtype=np.float64).reshape(-1, 2),
        np.asarray(obj, dtype=np.float64).reshape(-1, 3),
    )


def find_chessboard(image: Image, pattern: tuple[int, int], square_mm: float) -> BoardView | None:
    """The inner corners of a chessboard of ``pattern`` = (columns, rows) inner corners and
    ``square_mm`` squares in one image (grey or BGR), or None if not all are found."""
    grey = _grey(image)
    cols, rows = pattern
    # The sector-based detector is accurate (0.19 px RMS on the real test set); the classic one
    # with sub-pixel refinement is the fallback; the exhaustive search is slow, so it is last.
    found, corners = cv2.findChessboardCornersSB(grey, (cols, rows))
    if not found:
        found, corners = cv2.findChessboardCorners(grey, (cols, rows))
        if found:
            criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 50, 1e-3)
            corners = cv2.cornerSubPix(grey, corners, (5, 5), (-1, -1), criteria)
    if not found:
        flags = cv2.CALIB_CB_EXHAUSTIVE | cv2.CALIB_CB_ACCURACY
        found, corners = cv2.findChessboardCornersSB(grey, (cols, rows), flags=flags)
    if not found:
        return None
    obj = np.zeros((cols * rows, 3), np.float64)
    obj[:, :2] = np.mgrid[0:cols, 0:rows].T.reshape(-1, 2) * square_mm
    return BoardView(np.asarray(corners, dtype=np.float64).reshape(-1, 2), obj)


def coverage_grid(
    views: Iterable[BoardView],
    image_size_px: tuple[int, int],
    grid: tuple[int, int] = COVERAGE_GRID,
) -> tuple[tuple[int, ...], ...]:
    """How many board corners fell in each cell of a (columns, rows) grid over the image."""
    w, h = image_size_px
    cols, rows = grid
    counts = np.zeros((rows, cols), dtype=int)
    for view in views:
        xs = np.clip((view.image_points_px[:, 0] / w * cols).astype(int), 0, cols - 1)
        ys = np.clip((view.image_points_px[:, 1] / h * rows).astype(int), 0, rows - 1)
        np.add.at(counts, (ys, xs), 1)
    return tuple(tuple(int(v) for v in row) for row in counts)


def calibrate_views(
    views: Sequence[BoardView | None],
    image_size_px: tuple[int, int],
    *,
    model: str = "auto",
    source: str = "lens calibration",
) -> LensResult:
    """Fit intrinsics to board views (None = an image without a usable board)."""
    if model not in MODELS:
        raise CalibrationError(f"lens model {model!r} unknown; use one of {', '.join(MODELS)}")
    used = [i for i, v in enumerate(views) if v is not None]
    skipped = tuple(i for i, v in enumerate(views) if v is None)
    if len(used) < 3:
        raise CalibrationError(
            f"lens calibration needs the board in at least 3 views, found it in {len(used)} "
            f"of {len(views)}"
        )
    good = [v for v in views if v is not None]
    chosen = model if model != "auto" else ("radial-square" if len(good) < FEW_VIEWS else "radial")
    obj = [v.object_points_mm.astype(np.float32) for v in good]
    img = [v.image_points_px.astype(np.float32).reshape(-1, 1, 2) for v in good]
    try:
        rms, matrix, dist, _r, _t, std_in, _std_ex, per_view = cv2.calibrateCameraExtended(
            obj, img, image_size_px, np.eye(3), np.zeros(5), flags=_MODEL_FLAGS[chosen]
        )
    except cv2.error as exc:
        raise CalibrationError(f"lens calibration failed on {len(good)} views: {exc.err}") from None
    dist = np.asarray(dist, dtype=np.float64).ravel()
    if chosen != "full":
        dist = dist[:5]
    std = np.asarray(std_in, dtype=np.float64).ravel()
    if chosen == "radial-square":
        # OpenCV reports 0 for fx when the aspect ratio is fixed: fx moves with fy.
        std[0] = std[1] * matrix[0, 0] / matrix[1, 1]
    intrinsics = from_arrays(
        matrix,
        dist,
        image_size_px,
        f"{source}: {len(good)} views, model {chosen}, rms {rms:.3f} px",
    )
    return LensResult(
        intrinsics=intrinsics,
        rms_px=float(rms),
        views_used=tuple(used),
        views_skipped=skipped,
        per_view_rms_px=tuple(float(e) for e in np.asarray(per_view).ravel()),
        coverage=coverage_grid(good, image_size_px),
        model=chosen,
        std_px=(float(std[0]), float(std[1]), float(std[2]), float(std[3])),
    )


def reprojection_rms_px(views: Sequence[BoardView], intrinsics: Intrinsics) -> float:
    """RMS reprojection error, pixels, of board views under fixed ``intrinsics`` (at the views'
    resolution), each view's board pose fitted: how well those intrinsics explain the views."""
    if not views:
        raise CalibrationError("reprojection error asked for no board views")
    matrix, dist = intrinsics.matrix(), intrinsics.distortion()
    squared = 0.0
    count = 0
    for i, view in enumerate(views):
        obj = view.object_points_mm.astype(np.float64).reshape(-1, 1, 3)
        img = view.image_points_px.astype(np.float64).reshape(-1, 1, 2)
        ok, rvec, tvec = cv2.solvePnP(obj, img, matrix, dist, flags=cv2.SOLVEPNP_IPPE)
        if not ok:
            raise CalibrationError(f"board view {i}: no pose fits its {len(obj)} corners")
        rvec, tvec = cv2.solvePnPRefineLM(obj, img, matrix, dist, rvec, tvec)
        projected, _ = cv2.projectPoints(obj, rvec, tvec, matrix, dist)
        squared += float(np.sum((projected - img) ** 2))
        count += len(obj)
    return float(np.sqrt(squared / count))


def _image_size(images: Sequence[Image]) -> tuple[int, int]:
    if not images:
        raise CalibrationError("lens calibration got no images")
    h, w = images[0].shape[:2]
    for i, image in enumerate(images):
        if image.shape[:2] != (h, w):
            raise CalibrationError(
                f"image {i} is {image.shape[1]}x{image.shape[0]} px, image 0 is {w}x{h}: "
                "every view must come from the same camera at the same resolution"
            )
    return int(w), int(h)


def calibrate_charuco(
    images: Sequence[Image], board: CharucoSpec = KIT_CHARUCO, *, model: str = "auto"
) -> LensResult:
    """Intrinsics from images (grey or BGR, one size) of a ChArUco board."""
    size = _image_size(images)
    views = [find_charuco(image, board) for image in images]
    cols, rows = board.squares
    return calibrate_views(
        views, size, model=model, source=f"charuco {board.dictionary} {cols}x{rows}"
    )


def calibrate_chessboard(
    images: Sequence[Image],
    pattern: tuple[int, int],
    square_mm: float,
    *,
    model: str = "auto",
) -> LensResult:
    """Intrinsics from images (grey or BGR, one size) of a chessboard with ``pattern`` =
    (columns, rows) inner corners and squares of ``square_mm`` millimetres."""
    size = _image_size(images)
    if min(pattern) < 2 or square_mm <= 0:
        raise CalibrationError(
            f"chessboard pattern {pattern} with {square_mm} mm squares: need at least 2x2 "
            "inner corners and a positive square size"
        )
    views = [find_chessboard(image, pattern, square_mm) for image in images]
    return calibrate_views(
        views, size, model=model, source=f"chessboard {pattern[0]}x{pattern[1]} inner corners"
    )

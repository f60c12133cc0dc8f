"""The kit's printed ChArUco board is the board ``--board charuco`` looks for: views of the
rendered PDF page through a known lens (pinhole + radial distortion) give that lens back."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from calibration.kit import build_kit_pdf
from calibration.kit_layout import KitSpec
from calibration.lens import KIT_CHARUCO, calibrate_charuco

pdfium = pytest.importorskip("pypdfium2", reason="pypdfium2 (test extra) renders the PDF")

SIZE = (1280, 720)
K_TRUE = np.array([[1000.0, 0.0, 652.0], [0.0, 1000.0, 351.0], [0.0, 0.0, 1.0]])
DIST_TRUE = np.array([-0.12, 0.08, 0.0, 0.0, 0.0])
PAGE_DPI = 200.0
Pose = tuple[tuple[float, float, float], tuple[float, float], float]
"""(rx, ry, rz) degrees, (x, y) millimetres of the board centre, distance millimetres."""
POSES: list[Pose] = [
    ((0, 0, 0), (0, 0), 330),
    ((20, 0, 5), (-150, -80), 360),
    ((-20, 0, -5), (150, 80), 360),
    ((0, 25, 90), (-160, 70), 380),
    ((0, -25, 90), (160, -70), 380),
    ((15, 15, 10), (-170, 90), 400),
    ((-15, -15, -10), (170, -90), 400),
    ((25, -10, 0), (0, 110), 420),
    ((-25, 10, 0), (0, -110), 420),
    ((10, -20, 80), (180, 90), 420),
    ((-10, 20, 80), (-180, -90), 420),
    ((0, 0, 45), (0, 0), 500),
]


def _board_page() -> tuple[npt.NDArray[np.uint8], float, float]:
    data, pages = build_kit_pdf(KitSpec())
    (k,) = [i for i, p in enumerate(pages) if p.charuco is not None]
    placement = pages[k].charuco
    assert placement is not None
    doc = pdfium.PdfDocument(data)
    image = doc[k].render(scale=PAGE_DPI / 72.0, grayscale=True).to_numpy()
    doc.close()
    if image.ndim == 3:
        image = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    # The views see about 3 px per mm: blur the 7.9 px/mm page so resampling does not alias.
    image = cv2.GaussianBlur(image, (0, 0), 1.2)
    return image, placement.x_mm, placement.y_mm


def _view(
    page: npt.NDArray[np.uint8],
    origin_mm: tuple[float, float],
    undistorted: npt.NDArray[np.float64],
    pose: Pose,
) -> npt.NDArray[np.uint8]:
    """One camera image of the board page: each pixel looks up the board point its ray hits."""
    (rx, ry, rz), (x, y), z = pose
    rot, _ = cv2.Rodrigues(np.radians([rx, ry, rz]).reshape(3, 1))
    cols, rows = KIT_CHARUCO.squares
    centre = np.array([cols, rows, 0.0]) * KIT_CHARUCO.square_mm / 2
    t = np.array([x, y, z]) - rot @ centre
    homography = K_TRUE @ np.column_stack([rot[:, 0], rot[:, 1], t])
    board_mm = cv2.perspectiveTransform(undistorted, np.linalg.inv(homography)).reshape(
        SIZE[1], SIZE[0], 2
    )
    px_per_mm = PAGE_DPI / 25.4
    map_x = ((board_mm[..., 0] + origin_mm[0]) * px_per_mm - 0.5).astype(np.float32)
    map_y = ((board_mm[..., 1] + origin_mm[1]) * px_per_mm - 0.5).astype(np.float32)
    image = cv2.remap(page, map_x, map_y, cv2.INTER_LINEAR, borderValue=255)
    return np.asarray(image, dtype=np.uint8)


def test_kit_board_views_give_the_lens_back() -> None:
    page, ox, oy = _board_page()
    w, h = SIZE
    pixels = np.stack(np.meshgrid(np.arange(w), np.arange(h)), axis=-1).reshape(-1, 1, 2)
    # Where each (distorted) image pixel's ray goes, in undistorted pixels.
    undistorted = cv2.undistortPoints(pixels.astype(np.float64), K_TRUE, DIST_TRUE, P=K_TRUE)
    images = [_view(page, (ox, oy), undistorted, pose) for pose in POSES]
    result = calibrate_charuco(images)
    assert result.views_used == tuple(range(len(POSES)))
    assert result.model == "radial"
    k = result.intrinsics
    # ChArUco corners on these renders are off by about 0.2 px RMS, which leaves OpenCV's
    # standard deviation of cx, cy at 1.5-2 px with 12 views: hold them to 6 px.
    assert abs(k.fx_px / K_TRUE[0, 0] - 1) < 0.01
    assert abs(k.fy_px / K_TRUE[1, 1] - 1) < 0.01
    assert abs(k.cx_px - K_TRUE[0, 2]) < 6.0
    assert abs(k.cy_px - K_TRUE[1, 2]) < 6.0
    assert max(result.std_px[2:]) < 3.0
    assert abs(k.dist_coeffs[0] - DIST_TRUE[0]) < 0.02
    assert result.rms_px < 0.3
    assert result.empty_cells() == []

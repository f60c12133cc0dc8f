"""The detector finds every tag plain ``cv2.aruco.ArucoDetector`` (default parameters) finds:
on every real photograph in ../shared/realdata (each folder with its own dictionary; the table's
DICT_4X4_50 on the folders without markers) and on renders washed out by strong light.

Before the 23 px threshold window came back, the detector missed three of the 372 markers plain
OpenCV finds on the real photos (one 30 px AprilTag on asphalt, two 14-15 px tags of a blurred
clipboard frame) and most tags of a washed-out render.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from vision.detector import Detector, dictionary_by_name, to_grey
from vision.types import TagSighting

REALDATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "realdata"

#: (folder, file pattern, dictionary): every folder of ../shared/realdata that holds photos.
REAL_SETS = [
    ("apriltag", "*.jpg", "DICT_APRILTAG_36h11"),
    ("swatbotics_apriltag/clipboard", "*.png", "DICT_APRILTAG_36h11"),
    ("swatbotics_apriltag/mapping", "*.JPG", "DICT_APRILTAG_36h11"),
    ("swatbotics_apriltag/calibration", "*.JPG", "DICT_4X4_50"),
    ("opencv_contrib/calib", "*.jpg", "DICT_6X6_250"),
    ("opencv_contrib/legacy_png", "*.png", "opencv_contrib/support/tutorial_dict.yml"),
    ("dice", "*.jpg", "DICT_4X4_50"),
]

#: Centres of one marker found by both detectors agree within this (pixels): plain OpenCV
#: refines no corners, ours refines them on the contour and moves each edge 0.5 px outward.
SAME_PLACE_PX = 2.0


def _centres(corners: npt.ArrayLike) -> npt.NDArray[np.float64]:
    return np.asarray(corners, dtype=np.float64).reshape(-1, 4, 2).mean(axis=1)


def missed_by_detector(
    grey: npt.NDArray[np.uint8], detector: Detector, plain: cv2.aruco.ArucoDetector
) -> list[tuple[int, tuple[float, float]]]:
    """The markers (id, centre px) plain OpenCV finds in ``grey`` that ``detector`` does not."""
    corners, ids, _ = plain.detectMarkers(grey)
    if ids is None:
        return []
    ours: list[TagSighting] = detector.detect(grey)
    ours_at = {int(s.tag_id): [] for s in ours}
    for s in ours:
        ours_at[int(s.tag_id)].append(_centres(s.corners_px)[0])
    missed = []
    for tag_id, centre in zip(np.asarray(ids).ravel().tolist(), _centres(corners), strict=True):
        near = [c for c in ours_at.get(int(tag_id), []) if np.hypot(*(c - centre)) < SAME_PLACE_PX]
        if not near:
            missed.append((int(tag_id), (round(float(centre[0])), round(float(centre[1])))))
    return missed


def _dictionary(name: str) -> str:
    return str(REALDATA / name) if name.endswith(".yml") else name


@pytest.mark.parametrize(("folder", "pattern", "dictionary"), REAL_SETS)
def test_every_marker_plain_opencv_finds_in_real_photos(folder, pattern, dictionary):
    photos = sorted((REALDATA / folder).glob(pattern))
    if not photos:
        pytest.skip(f"real test photos {REALDATA / folder} are absent (../shared/realdata)")
    name = _dictionary(dictionary)
    detector = Detector(name)
    plain = cv2.aruco.ArucoDetector(dictionary_by_name(name))
    missed = {}
    for photo in photos:
        image = cv2.imread(str(photo))
        assert image is not None, photo
        lost = missed_by_detector(to_grey(image), detector, plain)
        if lost:
            missed[photo.name] = lost
    assert missed == {}


def test_the_real_photos_hold_markers_plain_opencv_finds():
    """The comparison above means something: plain OpenCV finds hundreds of markers there."""
    found = 0
    for folder, pattern, dictionary in REAL_SETS:
        plain = cv2.aruco.ArucoDetector(dictionary_by_name(_dictionary(dictionary)))
        for photo in sorted((REALDATA / folder).glob(pattern)):
            ids = plain.detectMarkers(to_grey(cv2.imread(str(photo))))[1]
            found += 0 if ids is None else len(ids)
    if found == 0 and not REALDATA.is_dir():
        pytest.skip(f"real test photos {REALDATA} are absent (../shared/realdata)")
    assert found >= 350


@pytest.fixture(scope="session")
def bright_render() -> npt.NDArray[np.uint8]:
    """A 1080p render of 30 tagged 50 mm bases (25 mm tags, about 60 px) from 0.6 m, grey."""
    from vision.render import Camera, random_scene, render_frame

    cam = Camera.overhead("1080p", height_mm=600)
    scene = random_scene(seed=21, n_pieces=30, tag_size_mm=25.0, base_diameter_mm=50.0)
    image, _truth = render_frame(scene, cam, rng=np.random.default_rng(0))
    return to_grey(image)


def washed_out(
    grey: npt.NDArray[np.uint8], contrast: float, blur_px: float
) -> npt.NDArray[np.uint8]:
    """``grey`` under light so strong that black reaches only ``1 - contrast`` of the way from
    white (contrast 0.25: black prints at grey 191), defocused by ``blur_px`` (Gaussian sigma,
    pixels), with the sensor noise of a webcam (sigma 1.5 grey levels)."""
    out = 255.0 - (255.0 - grey.astype(np.float32)) * contrast
    if blur_px > 0:
        out = cv2.GaussianBlur(out, (0, 0), blur_px)
    out += np.random.default_rng(1).normal(0.0, 1.5, out.shape).astype(np.float32)
    return np.asarray(np.clip(out, 0, 255), dtype=np.uint8)


@pytest.mark.parametrize(("contrast", "blur_px"), [(0.35, 2.0), (0.25, 0.0), (0.25, 1.0)])
def test_every_tag_plain_opencv_finds_under_washed_out_light(bright_render, contrast, blur_px):
    grey = washed_out(bright_render, contrast, blur_px)
    plain = cv2.aruco.ArucoDetector(dictionary_by_name("DICT_4X4_50"))
    ids = plain.detectMarkers(grey)[1]
    assert ids is not None and len(ids) >= 12  # the light leaves plain OpenCV something to find
    assert missed_by_detector(grey, Detector(), plain) == []

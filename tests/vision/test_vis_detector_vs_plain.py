"""The detector finds every tag plain ``cv2.aruco.ArucoDetector`` (default parameters) finds:
on every real photograph in ../shared/realdata (each folder with its own dictionary; the table's
DICT_4X4_50 on the folders without markers) and on renders washed out by strong light.

Before the 23 px threshold window came back, the detector missed three of the 372 markers plain
OpenCV finds on the real photos (one 30 px AprilTag on asphalt, two 14-15 px tags of a blurred
clipboard frame) and most tags of a washed-out render.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt
import pytest
from plain_compare import REAL_SETS, REALDATA, dictionary_of, missed_by_detector, plain_markers

from vision.detector import Detector, dictionary_by_name, to_grey


@pytest.mark.parametrize(("folder", "pattern", "dictionary"), REAL_SETS)
def test_every_marker_plain_opencv_finds_in_real_photos(folder, pattern, dictionary):
    photos = sorted((REALDATA / folder).glob(pattern))
    if not photos:
        pytest.skip(f"real test photos {REALDATA / folder} are absent (../shared/realdata)")
    name = dictionary_of(dictionary)
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
    if not REALDATA.is_dir():
        pytest.skip(f"real test photos {REALDATA} are absent (../shared/realdata)")
    found = 0
    for folder, pattern, dictionary in REAL_SETS:
        plain = cv2.aruco.ArucoDetector(dictionary_by_name(dictionary_of(dictionary)))
        for photo in sorted((REALDATA / folder).glob(pattern)):
            found += len(plain_markers(to_grey(cv2.imread(str(photo))), plain))
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
    # the light leaves plain OpenCV something to find
    assert len(plain_markers(grey, plain)) >= 12
    assert missed_by_detector(grey, Detector(), plain) == []

"""Our detector against plain ``cv2.aruco.ArucoDetector`` (default parameters): the real photo
sets of ../shared/realdata with their dictionaries, and the markers plain OpenCV finds that
ours does not. Used by the tests and by ``benchmarks/vision_bench.py``."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.detector import Detector

REALDATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "realdata"

#: (folder, file pattern, dictionary): every folder of ../shared/realdata that holds photos,
#: each with its markers' dictionary, or the table's DICT_4X4_50 where it holds none.
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


def dictionary_of(name: str) -> str:
    """A REAL_SETS dictionary as the detector takes it (a YAML file under ../shared/realdata)."""
    return str(REALDATA / name) if name.endswith(".yml") else name


def _centres(corners: npt.ArrayLike) -> npt.NDArray[np.float64]:
    return np.asarray(corners, dtype=np.float64).reshape(-1, 4, 2).mean(axis=1)


def plain_markers(
    grey: npt.NDArray[np.uint8], plain: cv2.aruco.ArucoDetector
) -> list[tuple[int, npt.NDArray[np.float64]]]:
    """The markers plain OpenCV finds in ``grey``: (id, centre px)."""
    corners, ids, _ = plain.detectMarkers(grey)
    if ids is None:
        return []
    return list(zip(np.asarray(ids).ravel().tolist(), _centres(corners), strict=True))


def missed_by_detector(
    grey: npt.NDArray[np.uint8], detector: Detector, plain: cv2.aruco.ArucoDetector
) -> list[tuple[int, tuple[int, int]]]:
    """The markers (id, centre px) plain OpenCV finds in ``grey`` that ``detector`` does not."""
    ours: dict[int, list[npt.NDArray[np.float64]]] = {}
    for s in detector.detect(grey):
        ours.setdefault(int(s.tag_id), []).append(_centres(s.corners_px)[0])
    missed = []
    for tag_id, centre in plain_markers(grey, plain):
        if not any(np.hypot(*(c - centre)) < SAME_PLACE_PX for c in ours.get(tag_id, [])):
            missed.append((tag_id, (round(float(centre[0])), round(float(centre[1])))))
    return missed

"""A search window that cuts through a tag must not read the cut part as another tag.

In rendered footage of ford-at-dawn, a changed-region window whose edge ran through the copse's
25 mm tag (id 12) read its inner cells as id 17, a figure taken off forty seconds earlier; the
replay then brought that figure back eleven inches away.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detector import Detector, Region


def _scene(tag_id: int, side_px: int) -> np.ndarray:
    img = np.full((300, 300), 200, np.uint8)
    dic = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    img[130 : 130 + side_px, 130 : 130 + side_px] = cv2.aruco.generateImageMarker(
        dic, tag_id, side_px
    )
    return np.asarray(cv2.GaussianBlur(img, (3, 3), 0), dtype=np.uint8)


@pytest.mark.parametrize("tag_id", [12, 38, 43])
@pytest.mark.parametrize("side_px", [30, 36, 42])
def test_a_window_edge_through_a_tag_reads_no_other_id(tag_id: int, side_px: int) -> None:
    """Every cut, from each side: ids 12, 38 and 43 cut this way read as other ids unless a
    sighting touching a window's inner edge is dropped."""
    detector = Detector()
    img = _scene(tag_id, side_px)
    wrong = []
    for cut in range(131, 130 + side_px):
        for window in (
            Region(cut, 60, 260, 260),
            Region(40, 40, cut, 260),
            Region(60, cut, 260, 260),
            Region(40, 40, 260, cut),
        ):
            wrong += [
                (window, s.tag_id) for s in detector.detect(img, [window]) if s.tag_id != tag_id
            ]
    assert wrong == []


def test_a_whole_tag_inside_a_window_is_still_found() -> None:
    """The check drops only cut sightings: a tag with a quiet margin in its window is read."""
    detector = Detector()
    img = _scene(12, 36)
    assert [s.tag_id for s in detector.detect(img, [Region(124, 124, 172, 172)])] == [12]

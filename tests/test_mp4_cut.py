"""tests/mp4_cut.py: parts cut from an MP4 without re-encoding show the original's frames."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.mp4_cut import cut_mp4, key_frames


def _frames(path: Path) -> list[np.ndarray]:
    cap = cv2.VideoCapture(str(path))
    out = []
    while True:
        ok, image = cap.read()
        if not ok:
            break
        out.append(image)
    cap.release()
    return out


@pytest.fixture
def clip(tmp_path: Path) -> Path:
    """40 frames of 96x64 pixels at 10 fps, each unlike the others, from OpenCV's mp4v writer."""
    path = tmp_path / "clip.mp4"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 10.0, (96, 64))
    rng = np.random.default_rng(1)
    for i in range(40):
        image = np.full((64, 96, 3), 40 + 4 * i, dtype=np.uint8)
        image[8:56, 8:88] = rng.integers(0, 255, (48, 80, 3), dtype=np.uint8)
        writer.write(image)
    writer.release()
    return path


def test_the_parts_hold_the_original_frames_bit_for_bit(clip: Path, tmp_path: Path) -> None:
    keys = key_frames(clip)
    at = next(k for k in keys if k > 0)
    a, b = tmp_path / "a.mp4", tmp_path / "b.mp4"
    cut_mp4(clip, [(a, 0, at), (b, at, None)])
    whole, first, second = _frames(clip), _frames(a), _frames(b)
    assert len(whole) == 40 and len(first) == at and len(second) == 40 - at
    assert all(np.array_equal(x, y) for x, y in zip(first + second, whole, strict=True))
    for part, frames in ((a, at), (b, 40 - at)):
        cap = cv2.VideoCapture(str(part))
        assert cap.get(cv2.CAP_PROP_FPS) == pytest.approx(10.0)
        assert cap.get(cv2.CAP_PROP_FRAME_COUNT) == frames
        cap.release()


def test_a_part_that_does_not_start_on_a_key_frame_is_refused(clip: Path, tmp_path: Path) -> None:
    start = next(i for i in range(1, 40) if i not in key_frames(clip))
    with pytest.raises(ValueError, match=f"frame {start} of .* is not a key frame"):
        cut_mp4(clip, [(tmp_path / "b.mp4", start, None)])

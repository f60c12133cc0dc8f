"""The suite's own set-up: each pytest-xdist worker runs OpenCV on one thread (tests/conftest.py)."""

from __future__ import annotations

import os

import cv2
import pytest


@pytest.mark.skipif(
    not os.environ.get("PYTEST_XDIST_WORKER"), reason="only pytest-xdist workers are set so"
)
def test_an_xdist_worker_runs_opencv_on_one_thread() -> None:
    """``make test`` runs a worker per core; OpenCV's pool of a thread per core beside it only
    made the workers' threads take turns."""
    assert cv2.getNumThreads() == 1

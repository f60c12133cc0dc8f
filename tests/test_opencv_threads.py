"""The suite's own set-up: each pytest-xdist worker runs OpenCV on one thread (tests/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import cv2
import pytest


@pytest.mark.skipif(
    not os.environ.get("PYTEST_XDIST_WORKER"), reason="only pytest-xdist workers are set so"
)
def test_an_xdist_worker_runs_opencv_on_one_thread() -> None:
    """``make test`` runs a worker per core; OpenCV's pool of a thread per core beside it only
    made the workers' threads take turns."""
    assert cv2.getNumThreads() == 1


@pytest.mark.skipif(
    not os.environ.get("PYTEST_XDIST_WORKER"), reason="only pytest-xdist workers are set so"
)
def test_a_command_a_worker_starts_runs_opencv_on_one_thread() -> None:
    """A test's child process (``soloscope play`` in a terminal) would otherwise start
    OpenCV's pool of a thread per core beside the two workers."""
    child = subprocess.run(
        [sys.executable, "-c", "import cv2; print(cv2.getNumThreads())"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert child.stdout.strip() == "1"

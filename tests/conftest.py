"""Fixtures for the whole suite: work made once per test run and shared by the xdist workers
(tests/run_once.py)."""

from __future__ import annotations

import os

import cv2
import pytest

from tests.resumed_sample import ResumedRun, play_resumed
from tests.run_once import once_per_run


def pytest_configure(config: pytest.Config) -> None:
    """An xdist worker runs OpenCV on one thread: ``make test`` runs one worker per core
    already, and OpenCV's own pool of a thread per core only made the two workers' threads
    take turns on the two cores (its threads wait for work spinning). Every result is the
    same on one thread as on several (the sample replay's timeline is identical).

    The commands a test runs as a child process (``soloscope play`` in a terminal, the
    campaign's crash tests) inherit ``OPENCV_FOR_THREADS_NUM=1``: one thread there too."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        cv2.setNumThreads(1)
        os.environ["OPENCV_FOR_THREADS_NUM"] = "1"


@pytest.fixture(scope="session")
def resumed_sample_run(tmp_path_factory: pytest.TempPathFactory) -> ResumedRun:
    """The sample battle played by ``play``, stopped mid-battle and finished by ``play
    --resume`` (tests/resumed_sample.py). Tests read it; none may change it."""
    return once_per_run(tmp_path_factory, "resumed-sample-run", play_resumed)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Files with a test marked ``slow`` run first, each file's tests in their own order.

    ``make test`` (``pytest -n 2 --dist loadfile --no-loadscope-reorder``) hands whole files to
    the workers in collection order (xdist's default order puts the files with most tests
    first); with the long files handed out first, the many quick ones even out the two
    workers' ends instead of one long file running alone at the end."""
    slow = {item.path for item in items if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: item.path not in slow)

"""Work made once per test run and shared by every pytest-xdist worker (a rendered clip, a
replay, a played battle): the DESIGN's "render each seeded clip once per run".

``pytest -n 2`` starts one Python process per worker, and a session fixture runs once in each
worker that needs it. :func:`once_per_run` makes the thing in a folder of the run's shared
temporary directory under a file lock: the first worker to ask makes it, a worker that asks
meanwhile waits for the lock (no polling, no deadline of its own: the per-test timeout still
holds), and every later ask reads the pickled result. Nothing outlives the run: a new run has a
new temporary directory, so a change to the renderer or the replay is always seen.
"""

from __future__ import annotations

import fcntl
import os
import pickle
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

T = TypeVar("T")


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary directory every worker of this run shares (the base temp without xdist)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def once_per_run(
    tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], T]
) -> T:
    """``make(folder)`` called once per run for ``name`` (a fresh, empty ``folder`` it may fill
    and whose paths it may return); every caller gets the same result, unpickled.

    A ``make`` that fails (or skips) leaves nothing behind: the next caller tries again and
    fails the same way, so each test that needs it reports the failure."""
    shared = run_folder(tmp_path_factory)
    done = shared / f"once-{name}.pickle"
    with open(shared / f"once-{name}.lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if done.exists():
            result: T = pickle.loads(done.read_bytes())
            return result
        result = make(Path(tempfile.mkdtemp(prefix=f"once-{name}-", dir=shared)))
        partial = done.with_suffix(".partial")
        partial.write_bytes(pickle.dumps(result))
        partial.replace(done)
        return result

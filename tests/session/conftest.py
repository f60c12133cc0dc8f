"""Fixtures shared by the session tests: the short clip is cut once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.session.clips import short_clip_folder


@pytest.fixture(scope="session")
def clips(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with short.mp4 (80 frames of the sample), short.json, short.declarations.jsonl."""
    return short_clip_folder(tmp_path_factory.mktemp("clips"))

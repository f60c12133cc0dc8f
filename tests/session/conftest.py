"""Fixtures shared by the session tests: the short clip is cut once per test session, and
runs made as if nobody sat at a terminal."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tests.session.clips import short_clip_folder


@pytest.fixture(scope="session")
def clips(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with short.mp4 (80 frames of the sample), short.json, short.declarations.jsonl."""
    return short_clip_folder(tmp_path_factory.mktemp("clips"))


@pytest.fixture
def no_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs that are not interactive, even under ``pytest -s`` from a terminal: the page is
    not held after the battle."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))


def soloscope(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    """``soloscope ARGV`` run in this process: exit code, standard output, standard error."""
    from assistant.cli import main

    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err

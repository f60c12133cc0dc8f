"""The session recorder survives a kill mid-write; its reader stitches the segments."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from assistant.recorder import (
    SessionRecorder,
    iter_recorded_frames,
    read_event_log,
    read_recording_info,
)

REPO = Path(__file__).resolve().parents[2]

_CHILD = textwrap.dedent(
    """
    import sys, time
    import numpy as np
    from assistant.recorder import SessionRecorder
    rec = SessionRecorder(sys.argv[1], segment_s=0.5, fps=30.0, fsync_interval_s=0.2)
    rng = np.random.default_rng(0)
    i = 0
    while True:
        image = np.full((120, 160, 3), i % 256, np.uint8)
        image[:8, :8] = rng.integers(0, 255, (8, 8, 3), dtype=np.uint8)
        rec.write_frame(image, i / 30.0)
        if i % 5 == 0:
            rec.log_event({"kind": "tick", "frame": i, "pad": "x" * 200}, i / 30.0)
        i += 1
        time.sleep(0.002)
    """
)


def test_recorder_survives_sigkill_mid_write(tmp_path: Path) -> None:
    out = tmp_path / "rec"
    child = subprocess.Popen([sys.executable, "-c", _CHILD, str(out)], cwd=REPO)
    try:
        deadline = time.monotonic() + 60
        while len(list(out.glob("segment_*.sfr"))) < 5:
            assert child.poll() is None, "the recording process died on its own"
            assert time.monotonic() < deadline, "recording too slow to reach 5 segments"
            time.sleep(0.02)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    info = read_recording_info(out)
    assert not info.closed
    problems: list[str] = []
    frames = list(iter_recorded_frames(out, problems=problems))
    indices = [f.index for f in frames]
    assert indices == list(range(len(frames))), "frames lost or out of order"
    # Every segment before the last boundary is complete: 0.5 s at 30 fps = 15 frames each.
    complete = len(info.segments) - 1
    assert len(frames) >= 15 * complete
    for f in frames:
        assert int(f.image[60, 100, 0]) == pytest.approx(f.index % 256, abs=3)
    events = read_event_log(out)
    assert events, "no event survived"
    assert [e["frame"] for e in events] == list(range(0, 5 * len(events), 5))


def test_reader_stops_at_torn_tail(tmp_path: Path) -> None:
    out = tmp_path / "rec"
    rec = SessionRecorder(out, segment_s=1.0, fps=10.0)
    for i in range(25):
        rec.write_frame(np.full((60, 80, 3), 10 * i, np.uint8), i / 10.0)
        rec.log_event({"kind": "tick", "frame": i}, i / 10.0)
    rec.close()
    assert read_recording_info(out).closed
    segments = sorted(out.glob("segment_*.sfr"))
    assert len(segments) == 3
    # Tear the last record of the last segment and the last line of the log, as a crash would.
    data = segments[-1].read_bytes()
    segments[-1].write_bytes(data[:-7])
    with open(out / "events.jsonl", "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"kind": "tick", "frame": 25})[:12])
    problems: list[str] = []
    frames = list(iter_recorded_frames(out, problems=problems))
    assert [f.index for f in frames] == list(range(24))
    assert frames[10].t == pytest.approx(1.0)
    events = read_event_log(out, problems)
    assert [e["frame"] for e in events] == list(range(25))
    assert any("cut short" in p for p in problems)
    assert any("incomplete" in p for p in problems)


def test_recorder_refuses_a_folder_with_a_recording(tmp_path: Path) -> None:
    with SessionRecorder(tmp_path / "r") as rec:
        rec.log_event({"kind": "start"})
    with pytest.raises(Exception, match="already holds a recording"):
        SessionRecorder(tmp_path / "r")


def test_recorder_thins_frames_to_a_minimum_interval(tmp_path: Path) -> None:
    rec = SessionRecorder(tmp_path / "r", segment_s=5.0, min_interval_s=0.06)
    kept = [rec.write_frame(np.zeros((20, 20, 3), np.uint8), i / 30.0) for i in range(30)]
    rec.close()
    assert kept == [i % 2 == 0 for i in range(30)]
    frames = list(iter_recorded_frames(tmp_path / "r"))
    assert [round(f.t * 30) for f in frames] == list(range(0, 30, 2))

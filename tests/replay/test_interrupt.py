"""Ctrl-C during a replay stops it cleanly and keeps what was read."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.replay.rendered_clip import BattleScript

REPO = Path(__file__).resolve().parents[2]


def test_ctrl_c_keeps_a_partial_replay(
    clip_and_truth: tuple[BattleScript, Path, list[dict]], tmp_path: Path
) -> None:
    _, clip, _ = clip_and_truth
    out = tmp_path / "out"
    # stride 1 and the annotated video make the replay slow enough to interrupt midway
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "assistant.cli",
            "replay",
            str(clip),
            "--out",
            str(out),
            "--stride",
            "1",
            "--video",
            "--quiet",
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Ctrl-C as at a terminal, even when the tests run as a background job (whose shell
        # ignores SIGINT, which the child would inherit)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 600  # a guard against a hang, not a speed check
    while len(list((out / "frames").glob("*.jpg"))) < 3:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=600)
    assert proc.returncode == 130, (stdout, stderr)
    assert "Traceback" not in stderr
    assert "stopped early" in stderr
    doc = json.loads((out / "timeline.json").read_text())
    assert any("stopped by the user" in w for w in doc["warnings"])
    assert (out / "index.html").is_file()
    assert (out / "replay.mp4").stat().st_size > 0

"""``soloscope render X.mp4`` and ``soloscope footage`` show a progress bar with the time left on
standard error when it is a terminal (as ``replay`` does, with the same helper); ``--quiet`` and
a standard error that is not a terminal get none. Before, both printed nothing until the end.

The commands run in a pseudo-terminal, as a player's shell would run them."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.progress import counted

ROOT = Path(__file__).resolve().parents[2]
CLIP_SCENE = {
    "camera": {"resolution": "720p"},
    "random": {"n_pieces": 3},
    "script": [{"action": "wait", "seconds": 2.0}],
}
FPS = ["--fps", "10"]
"""A 2 s clip: 21 frames at 10 frames per second."""

DUEL = """
version = 1

[scenario]
name = "duel"
title = "Two models a few inches apart"
ruleset = "narrative"
ai_controller = "narrative-ai"
human_controller = "autopilot"

[[sides]]
name = "Wardens"
role = "human"
edge = "front"

[[sides]]
name = "Goblins"
role = "ai"
edge = "back"

[[units]]
id = "warden"
name = "Warden"
side = "Wardens"
x = 12.0
y = 10.0
base_diameter_in = 1.25
tags = [{ id = 16, size_mm = 14 }]
card = { move_in = 6, attack = 3, defence = 0, wound_slots = 0 }

[[units]]
id = "goblin"
name = "Goblin"
side = "Goblins"
x = 12.0
y = 13.0
heading = 180
base_diameter_in = 1.25
tags = [{ id = 17, size_mm = 14 }]
card = { move_in = 6, attack = 3, defence = 0, wound_slots = 0 }
"""
"""A short battle, so that its footage renders in seconds."""


def run_in_terminal(args: list[str]) -> tuple[int, str]:
    """Run ``soloscope ARGS`` with a pseudo-terminal as its standard output and error; returns
    the exit code and everything it wrote (terminal escapes included)."""
    leader, follower = pty.openpty()
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "160"}
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "assistant.cli", *args],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=follower,
        close_fds=True,
    )
    os.close(follower)
    out = bytearray()
    try:
        while True:
            ready, _, _ = select.select([leader], [], [], 600)
            if not ready:  # a hang, not a slow machine: nothing written for 10 minutes
                proc.kill()
                break
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            out += chunk
    finally:
        os.close(leader)
    return proc.wait(), out.decode("utf-8", "replace")


def _scene(tmp_path: Path) -> Path:
    path = tmp_path / "scene.json"
    path.write_text(json.dumps(CLIP_SCENE), encoding="utf-8")
    return path


def test_render_shows_a_progress_bar_with_the_time_left(tmp_path: Path) -> None:
    out = tmp_path / "clip.mp4"
    code, text = run_in_terminal(["render", str(_scene(tmp_path)), "--out", str(out), *FPS])
    assert code == 0, text
    assert "rendering" in text and "21/21 frames" in text and "100%" in text
    assert "elapsed · ETA" in text
    assert "wrote 21 frames" in text and out.is_file()


def test_render_quiet_or_not_on_a_terminal_shows_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scene = _scene(tmp_path)
    code, text = run_in_terminal(
        ["render", str(scene), "--out", str(tmp_path / "q.mp4"), "--quiet", *FPS]
    )
    assert code == 0, text
    assert "frames ·" not in text and "ETA" not in text and "wrote 21 frames" in text
    assert main(["render", str(scene), "--out", str(tmp_path / "p.mp4"), *FPS]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "wrote 21 frames" in captured.out


def test_footage_shows_a_progress_bar_and_quiet_hides_it(tmp_path: Path) -> None:
    scenario = tmp_path / "duel.toml"
    scenario.write_text(DUEL, encoding="utf-8")
    common = ["footage", str(scenario), "--seed", "1", "--fps", "2", "--resolution", "720p"]
    code, text = run_in_terminal([*common, "--out", str(tmp_path / "shown")])
    assert code == 0, text
    frames = json.loads((tmp_path / "shown" / "battle.json").read_text())["frames"]
    assert f"{frames}/{frames} frames rendered" in text and "100%" in text
    assert "elapsed · ETA" in text
    code, text = run_in_terminal([*common, "--out", str(tmp_path / "quiet"), "--quiet"])
    assert code == 0, text
    assert "frames rendered" not in text and "ETA" not in text and "Wrote" in text


def test_counted_reports_after_each_item() -> None:
    heard: list[tuple[float, float | None]] = []
    items = list(counted(iter("abc"), 3, lambda done, total: heard.append((done, total))))
    assert items == ["a", "b", "c"]
    assert heard == [(0, 3), (1, 3), (2, 3), (3, 3)]

"""A defect inside the live loop costs the player nothing: one sentence, the game saved up to its
last step, the details in the session folder's error.log, and ``--resume`` carries on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.session.game import LiveGame

pytestmark = pytest.mark.usefixtures("no_terminal")


def test_a_defect_in_the_loop_is_one_sentence_and_the_game_is_kept(
    clips: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    video = clips / "short.mp4"
    real_observe = LiveGame.observe
    seen: list[int] = []

    def observe_then_break(self: LiveGame, obs: object) -> None:
        real_observe(self, obs)  # type: ignore[arg-type]
        seen.append(len(self.steps))
        if self.steps:  # after the initiative roll: a defect strikes
            raise ZeroDivisionError("a defect for the test")

    monkeypatch.setattr(LiveGame, "observe", observe_then_break)
    out = tmp_path / "run"
    argv = ["play", "--source", str(video), "--scenario", "crossroads-ambush", "--seed", "3"]
    code = main([*argv, "--speech", "off", "--no-page", "--out", str(out)])
    _, err = capsys.readouterr()
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert "internal error" in lines[0] and f"--resume {out}" in lines[0]
    assert "ZeroDivisionError" in (out / "error.log").read_text(encoding="utf-8")
    saved = json.loads((out / "game.json").read_text(encoding="utf-8"))
    assert len(saved["steps"]) >= 1

    monkeypatch.setattr(LiveGame, "observe", real_observe)
    code = main(["play", "--resume", str(out), "--source", str(video), "--speech", "off"])
    capsys.readouterr()
    assert code == 0
    resumed = json.loads((out / "game.json").read_text(encoding="utf-8"))
    assert resumed["steps"][: len(saved["steps"])] == saved["steps"]

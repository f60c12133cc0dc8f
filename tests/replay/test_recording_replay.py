"""Replaying a recording made by the session recorder, with its logged events."""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from assistant.recorder import SessionRecorder
from assistant.replay.reconstruct import activations, events_from_log, tidy_logged
from assistant.replay.run import ReplayOptions, ReplayResult, run_replay
from tests.replay.rendered_clip import BattleScript


def _record(clip_path: Path, folder: Path, stop_after_s: float | None = None) -> None:
    """Copy a clip into a recording, logging a session's events as `soloscope play` does."""
    cap = cv2.VideoCapture(str(clip_path))
    fps = cap.get(cv2.CAP_PROP_FPS)
    rec = SessionRecorder(folder, segment_s=4.0, fps=fps)
    rec.log_event({"type": "session", "scenario": "test"}, 0.0)
    i = 0
    while True:
        ok, image = cap.read()
        if not ok:
            break
        t = i / fps
        if stop_after_s is not None and t > stop_after_s:
            return  # a crash: the recorder is never closed
        rec.write_frame(image, t)
        i += 1
    cap.release()
    for t, unit in ((1.9, "p16"), (6.5, "p18"), (13.1, "p19")):
        rec.log_event({"type": "activation", "round": 1, "unit": unit, "text": f"{unit} acts"}, t)
        rec.log_event({"type": "roll", "round": 1, "dice": [4, 2], "text": "rolled 4 and 2"}, t)
    # the battle's last moment, as the engine tells it: the fall, then the outcome it decides
    rec.log_event({"type": "fall", "round": 1, "unit": "p19", "text": "p19 falls."}, 15.0)
    rec.log_event({"type": "end", "round": 1, "text": "Blue win the battle."}, 15.0)
    rec.close()


def test_replay_of_a_recording_uses_its_logged_events(
    clip_and_truth: tuple[BattleScript, Path, list[dict]], tmp_path: Path
) -> None:
    _, path, truth = clip_and_truth
    _record(path, tmp_path / "recording")
    result: ReplayResult = run_replay(ReplayOptions(tmp_path / "recording", tmp_path / "out"))
    assert [m.tag_id for m in result.timeline.moves] == [t["tag"] for t in truth]
    doc = json.loads((tmp_path / "out" / "timeline.json").read_text())
    logged = [e for e in doc["events"] if e.get("source") == "log"]
    assert [e["text"] for e in logged if e["kind"] == "roll"] == ["rolled 4 and 2"] * 3
    # the viewer steps through the logged activations, not through the tag moves
    assert [a["label"] for a in doc["activations"]] == ["p16 acts", "p18 acts", "p19 acts"]
    assert doc["source"]["kind"] == "recording"
    # one moment's events in the order they happened (once sorted by kind: the win came first)
    last = [e["text"] for e in doc["events"] if e["t"] == 15.0]
    assert last == ["p19 falls.", "Blue win the battle."]
    assert [e["seq"] for e in doc["events"]] == list(range(len(doc["events"])))


def test_replay_of_a_crashed_recording_keeps_what_was_written(
    clip_and_truth: tuple[BattleScript, Path, list[dict]], tmp_path: Path
) -> None:
    _, path, truth = clip_and_truth
    _record(path, tmp_path / "recording", stop_after_s=11.0)
    result = run_replay(ReplayOptions(tmp_path / "recording", tmp_path / "out"))
    assert any("not closed" in w for w in result.warnings)
    assert 10.0 < result.footage_s <= 11.2
    assert [m.tag_id for m in result.timeline.moves] == [
        t["tag"] for t in truth if t["t_end"] + 2.5 < 11.0
    ]


def test_logged_events_are_tidied_as_the_live_session_writes_them() -> None:
    records = [
        {"type": "step", "action": {"kind": "initiative"}, "t": 0.4},
        {"type": "initiative", "round": 1, "roll": 4, "text": "Initiative roll 4.", "t": 0.4},
        {"type": "announcement", "text": "Initiative roll 4.", "t": 0.4},
        {"type": "announcement", "text": "Your turn: move a character.", "t": 0.4},
        {"type": "activation", "round": 1, "unit": "crossbow", "text": "Ivy activates.", "t": 5.7},
        {"type": "roll", "round": 1, "dice": [4], "t": 5.7},
    ]
    events = tidy_logged(events_from_log(records))
    assert [(e["kind"], e["text"]) for e in events] == [
        ("initiative", "Initiative roll 4."),
        ("announcement", "Your turn: move a character."),
        ("activation", "Ivy activates."),
        ("roll", "roll: round=1, dice=[4]"),
    ]
    assert activations([], [], events)[0]["label"] == "Ivy activates."

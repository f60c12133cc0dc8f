"""A battle interrupted and resumed (``play`` then ``play --resume``) replays as one battle.

The run is real (tests/resumed_sample.py, played once per test run): the bundled sample footage
is cut in two at a settled moment in the middle, ``soloscope play`` plays the first part and
stops mid-battle, ``soloscope play --resume`` plays the second to the end. The run folder then
holds ``recording/`` and ``recording-2/``, each with its own clock starting at 0.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import cv2
import pytest

from assistant.cli import main
from assistant.errors import UserError
from assistant.recorder import SessionRecorder, read_event_log
from assistant.replay.reconstruct import read_session_events
from assistant.replay.run import ReplayOptions, ReplayResult, run_replay
from assistant.session.store import load_saved
from tests.replay.conftest import SAMPLE_TRUTH, SAMPLE_VIDEO
from tests.replay.rendered_clip import BattleScript
from tests.replay.viewer_page import chromium, event_list, open_viewer, scrub
from tests.resumed_sample import ResumedRun

pytestmark = pytest.mark.slow

NOT_GAME = ("announcement", "step", "session", "session_end")
"""Logged kinds that are not the engine's events of the battle."""


@pytest.fixture(scope="module")
def resumed(
    resumed_sample_run: ResumedRun, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """The interrupted-and-resumed run of the sample battle, and its replay."""
    played = resumed_sample_run
    if not SAMPLE_TRUTH.exists():
        pytest.skip("sample_footage/crossroads-seed3.* is not there (see sample_footage/README)")
    for code, _, err in (played.first, played.resumed):
        assert code == 0, err
    run = played.run
    assert (run / "recording").is_dir() and (run / "recording-2").is_dir()
    out = tmp_path_factory.mktemp("resumed") / "replay"
    # Every second frame: what is checked here comes from the two sessions' logs (the picture's
    # moves are the sample replay's, test_sample_footage.py), and the replay reads the same
    # log events, in the same order and at the same times, at 5 frames a second as at 10.
    result = run_replay(ReplayOptions(SAMPLE_VIDEO, out, events=run, stride=2))
    return {
        "meta": played.meta,
        "run": run,
        "cut_s": played.cut_s,
        "part_a": played.part_a,
        "result": result,
        "doc": json.loads((out / "timeline.json").read_text()),
        "out": out,
    }


def _game_events(run: Path) -> list[tuple[str, int, str]]:
    """The battle's events as the saved game holds them: its steps replayed by the engine."""
    game, _, _ = load_saved(run / "game.json", lambda text: None)
    return [
        (str(e.type), e.round, e.text) for snap in game.history.snapshots() for e in snap.events
    ]


def test_a_resumed_battle_replays_as_one_with_every_event_once(resumed: dict[str, Any]) -> None:
    """Once, `replay --events RUN` read no log at all (the engine guessed the game from the
    moves), and `--events RUN/recording` read only the first session's."""
    doc, run = resumed["doc"], resumed["run"]
    logged = [e for e in doc["events"] if e.get("source") == "log"]
    game = [(e["kind"], e["text"]) for e in logged if e["kind"] not in NOT_GAME]
    want = _game_events(run)
    assert len(want) > 50
    # every event of the battle, from both sessions, exactly once and in order
    assert game == [(kind, text) for kind, _, text in want]
    assert not [e for e in doc["events"] if e.get("source") == "engine"]  # the log, not a guess
    # every activation of both sessions is a step of the viewer
    activations = [e for e in want if e[0] == "activation"]
    assert [a["label"] for a in doc["activations"]] == [text for _, _, text in activations]
    # one clock: the resumed session starts where the first part of the footage ended
    resumed_at = [e["t"] for e in logged if e["kind"] == "session"]
    assert len(resumed_at) == 2 and resumed_at[0] == 0.0
    assert abs(resumed_at[1] - resumed["cut_s"]) < 0.05, (resumed_at, resumed["cut_s"])
    times = [e["t"] for e in logged]
    assert times == sorted(times)
    assert times[-1] <= doc["duration_s"] + 0.5
    # the scenario came from the session's log: the pieces have their names
    assert doc["roster"] and doc["roster"]["title"]
    # the right outcome, told last
    winner = resumed["meta"]["winner"]
    ends = [e for e in logged if e["kind"] == "end"]
    assert len(ends) == 1 and ends[0]["text"].startswith(f"{winner} win"), ends
    assert game[-1][0] == "end"


def test_events_at_one_time_keep_the_order_they_happened_in(resumed: dict[str, Any]) -> None:
    """Once, events of one time were sorted by kind: "Goblins win" came before the fall that
    decided it."""
    doc, run = resumed["doc"], resumed["run"]
    records = [
        r
        for folder in ("recording", "recording-2")
        for r in read_event_log(run / folder)
        if r.get("type") not in NOT_GAME
    ]
    logged = [
        (e["kind"], e["text"])
        for e in doc["events"]
        if e.get("source") == "log" and e["kind"] not in NOT_GAME
    ]
    assert logged == [(r["type"], r["text"]) for r in records]
    seqs = [e["seq"] for e in doc["events"]]
    assert seqs == list(range(len(seqs)))
    last_fall = max(i for i, e in enumerate(doc["events"]) if e["kind"] == "fall")
    end = next(i for i, e in enumerate(doc["events"]) if e["kind"] == "end")
    assert doc["events"][last_fall]["t"] == doc["events"][end]["t"]  # one moment...
    assert last_fall < end  # ...told in the order it happened


@pytest.mark.parametrize(
    "where", ["run", "run/recording", "run/recording-2", "run/recording/events.jsonl"]
)
def test_any_folder_of_the_run_names_the_whole_battle(resumed: dict[str, Any], where: str) -> None:
    run = resumed["run"]
    log = run.parent / where
    events = read_session_events(SAMPLE_VIDEO, log=log)
    assert events == read_session_events(SAMPLE_VIDEO, log=run)
    kinds = [e["kind"] for e in events]
    assert kinds.count("session") == 2 and kinds.count("end") == 1


def test_a_folder_without_a_log_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="holds no session event log"):
        read_session_events(SAMPLE_VIDEO, log=tmp_path)


def test_replaying_a_run_that_played_from_files_names_them(
    resumed: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A session that played from a video records no frames: the replay says where they are."""
    code = main(["replay", str(resumed["run"]), "--out", str(tmp_path / "r"), "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert str(resumed["part_a"]) in err[0] and f"--events {resumed['run']}" in err[0]


@pytest.mark.browser
def test_the_viewer_lists_the_resumed_battle_in_order(resumed: dict[str, Any]) -> None:
    doc = resumed["doc"]
    with chromium() as browser, open_viewer(browser, resumed["out"] / "index.html") as page:
        shown = event_list(page)
        assert [e["text"] for e in shown] == [e["text"] for e in doc["events"]]
        end = next(i for i, e in enumerate(shown) if e["kind"] == "end")
        scrub(page, shown[end]["t"])
        shown = event_list(page)
        current = next(i for i, e in enumerate(shown) if e["current"])
        assert shown[current]["visible"]
        # the last event of that moment is current; the fall before the win is already past
        assert current >= end and shown[current]["t"] == shown[end]["t"]


def _record_in_two(clip: Path, run: Path, at_s: float) -> None:
    """A camera session recorded as `play` then `play --resume` record it: recording/ up to
    ``at_s`` seconds, recording-2/ after it, each on its own clock from 0."""
    cap = cv2.VideoCapture(str(clip))
    fps = cap.get(cv2.CAP_PROP_FPS)
    recorders = [SessionRecorder(run / "recording", segment_s=4.0, fps=fps)]
    recorders[0].log_event({"type": "session", "source": "0"}, 0.0)
    i, t0 = 0, 0.0
    last = 0.0
    while True:
        ok, image = cap.read()
        if not ok:
            break
        t = i / fps
        if t >= at_s and len(recorders) == 1:
            recorders[0].log_event({"type": "session_end", "frames": i}, last)
            recorders[0].close()
            recorders.append(SessionRecorder(run / "recording-2", segment_s=4.0, fps=fps))
            recorders[1].log_event({"type": "session", "source": "0"}, 0.0)
            t0 = t
        recorders[-1].write_frame(image, t - t0)
        last = t - t0
        i += 1
    cap.release()
    recorders[-1].close()


def test_a_resumed_camera_recording_replays_as_one_clip(
    clip_and_truth: tuple[BattleScript, Path, list[dict]], replay: ReplayResult, tmp_path: Path
) -> None:
    """`replay RUN` stitches the frames of every recording folder on one clock: the same moves,
    at the same times, as the uncut clip."""
    _, path, truth = clip_and_truth
    run = tmp_path / "run"
    _record_in_two(path, run, 10.0)  # between the second and the third move
    result = run_replay(ReplayOptions(run, tmp_path / "out"))
    moves = result.timeline.moves
    assert [m.tag_id for m in moves] == [t["tag"] for t in truth]
    for move, whole in zip(moves, replay.timeline.moves, strict=True):
        assert abs(move.t_end - whole.t_end) < 0.2 and abs(move.t_start - whole.t_start) < 0.2
        assert math.dist(move.to_in, whole.to_in) < 0.1
    assert abs(result.footage_s - replay.footage_s) < 0.2
    assert not any("not closed" in w or "abruptly" in w for w in result.warnings)

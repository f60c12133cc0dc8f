"""Latency from the board settling to the start of the spoken announcement, measured on footage.

For every moment the ground truth says the board settles (the hand has left and nothing moves),
this finds the first announcement the live assistant makes in response, and measures

    settle -> start of speech = (time of the frame on which it spoke - true settle time)
                                    # the camera and tracker's lag, in footage time
                              + wall-clock time to process that frame   # detection, tracking, AI
                              + text -> start of speech                  # the speaker

which is the delay a player at the table would notice, apart from the camera's own exposure
latency (35-130 ms for webcams) and the sound device's (a few tens of ms).

"Text -> start of speech" is measured with the real speaker (espeak-ng, warm, made when the
session starts) saying each of the footage's announcements in turn, once the previous one is
done, while a thread keeps reading frames at the camera's rate as the live loop does: from
``say`` until the audio device was started on its first sentence. The audio device is a stand-in
(a program that holds each sentence for its length divided by ``--speedup``), so no sound is
played and the run stays short; the sentences after the first are made while it plays.

Everything is measured twice: on the machine as it is, and with ``--hogs`` CPU-bound processes
running beside it (default 1). Run:

    .venv/bin/python benchmarks/live_latency.py [--clip sample_footage/crossroads-seed3.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.scenarios import load_game  # noqa: E402
from assistant.session.dice import AutoDice  # noqa: E402
from assistant.session.game import LiveGame, Stage  # noqa: E402
from assistant.session.reader import TableReader  # noqa: E402
from assistant.session.start import fit_profile, read_declarations  # noqa: E402
from assistant.speech import Speaker  # noqa: E402
from engine.protocols import find_controller  # noqa: E402
from vision.sources import open_source  # noqa: E402
from vision.types import Frame  # noqa: E402

HOG = "while True: pass"
CAMERA_FPS = 10.0
CACHED_FRAMES = 5


def settle_times(truth: dict[str, Any]) -> list[float]:
    """Seconds at which the true board goes from unsettled to settled."""
    out, before = [], True
    for frame in truth["frames"]:
        if frame["settled"] and not before:
            out.append(float(frame["t"]))
        before = frame["settled"]
    return out


def stand_in_player(speedup: float) -> list[str]:
    """A command that "plays" a WAV file: reads it and takes its length / ``speedup`` seconds."""
    code = (
        "import sys, time, wave; w = wave.open(sys.argv[1]); "
        f"time.sleep(w.getnframes() / w.getframerate() / {speedup})"
    )
    return [sys.executable, "-S", "-c", code]


@dataclass
class Footage:
    """What the live game did on the footage."""

    said: list[tuple[float, str]]  # (frame time s, text), in order
    frame_ms: dict[float, float]  # frame time s -> wall-clock ms to process it
    frames: list[Frame]  # a few frames, for the camera thread beside the speaker
    reader: TableReader


def play_footage(meta: dict[str, Any], folder: Path) -> Footage:
    """Run the footage through the live game as fast as it goes, timing every frame."""
    video = str(folder / meta["video"])
    scenario, ruleset, state = load_game(meta["scenario"])
    game = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller(scenario.scenario.ai_controller),
        dice=AutoDice(int(meta["seed"])),
        say=lambda text: None,
        initial=state,
        human_plan=read_declarations(folder / meta["declarations"]),
        confirm_hidden=True,
    )
    reader = TableReader(
        scenario, fit_profile(video, scenario.table.width_in, scenario.table.depth_in)
    )
    said: list[tuple[float, str]] = []
    frame_ms: dict[float, float] = {}
    frames: list[Frame] = []
    with open_source(video) as source:
        for frame in source:
            started = time.perf_counter()
            before = len(game.announcements)
            game.observe(reader.read(frame))
            frame_ms[frame.t] = (time.perf_counter() - started) * 1000.0
            said.extend((frame.t, a.text) for a in game.announcements[before:])
            if len(frames) < CACHED_FRAMES:
                frames.append(frame)
            if game.stage is Stage.OVER:
                break
    return Footage(said, frame_ms, frames, TableReader(scenario, reader.profile))


def speech_starts_ms(footage: Footage, speedup: float) -> list[float]:
    """say -> start of speech (ms) for each announcement, said once the one before is done,
    with a camera thread reading frames beside it."""
    stop = threading.Event()

    def camera() -> None:
        i = 0
        while not stop.is_set():
            started = time.monotonic()
            footage.reader.read(footage.frames[i % len(footage.frames)])
            i += 1
            stop.wait(max(0.0, 1.0 / CAMERA_FPS - (time.monotonic() - started)))

    thread = threading.Thread(target=camera, daemon=True)
    thread.start()
    speaker = Speaker("on", echo=None, player=stand_in_player(speedup), on_notice=print)
    try:
        time.sleep(1.0)  # a session starts its speaker well before the first announcement
        for _, text in footage.said:
            speaker.say(text)
            speaker.wait_idle(120.0)
    finally:
        speaker.close(120.0)
        stop.set()
        thread.join()
    return [(a.ready_at_s - a.queued_at_s) * 1000.0 for a in speaker.announcements]


@dataclass
class Figures:
    """The latencies of one run, in milliseconds."""

    settles: int  # settles in the ground truth
    lag: list[float]  # settle -> announcement text, per answered settle
    speech: list[float]  # text -> start of speech, per announcement
    total: list[float]  # settle -> start of speech, per answered settle
    frame: list[float]  # processing time per frame


def measure(meta: dict[str, Any], folder: Path, truth: dict[str, Any], speedup: float) -> Figures:
    """The latencies of one run over the footage."""
    footage = play_footage(meta, folder)
    starts = speech_starts_ms(footage, speedup)
    lags: list[float] = []
    settle_to_speech: list[float] = []
    settles = settle_times(truth)
    for i, t_settle in enumerate(settles):
        next_move = settles[i + 1] if i + 1 < len(settles) else float("inf")
        answers = [k for k, (t, _) in enumerate(footage.said) if t_settle <= t < next_move]
        if answers:
            t_say = footage.said[answers[0]][0]
            lag = (t_say - t_settle) * 1000.0 + footage.frame_ms[t_say]
            lags.append(lag)
            settle_to_speech.append(lag + starts[answers[0]])
    return Figures(len(settles), lags, starts, settle_to_speech, list(footage.frame_ms.values()))


def _line(label: str, values: list[float], digits: int = 0) -> str:
    return (
        f"  {label}: median {statistics.median(values):.{digits}f} ms, "
        f"worst {max(values):.{digits}f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clip", default=str(ROOT / "sample_footage" / "crossroads-seed3.json"))
    parser.add_argument(
        "--hogs", type=int, default=1, help="CPU-bound processes beside the second run"
    )
    parser.add_argument(
        "--speedup", type=float, default=50.0, help="how much faster the stand-in device plays"
    )
    args = parser.parse_args()
    meta_path = Path(args.clip)
    meta = json.loads(meta_path.read_text())
    folder = meta_path.parent
    truth = json.loads((folder / meta["truth"]).read_text())
    print(f"Footage: {folder / meta['video']} ({meta['fps']} fps)")
    for hogs in (0, args.hogs):
        beside = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(hogs)]
        try:
            figures = measure(meta, folder, truth, args.speedup)
        finally:
            for hog in beside:
                hog.kill()
                hog.wait()
        if not figures.total:
            print("No announcement followed a settle: nothing to measure.")
            return 1
        title = "as it is" if hogs == 0 else f"with {hogs} CPU-bound process(es) beside"
        print(f"\nThis machine {title}:")
        print(f"  Settles answered by an announcement: {len(figures.total)} of {figures.settles}")
        print(_line("Settle -> announcement text", figures.lag))
        print(_line(f"Text -> start of speech ({len(figures.speech)} said)", figures.speech))
        print(_line("Settle -> start of speech", figures.total))
        print(_line("Processing per frame", figures.frame, 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

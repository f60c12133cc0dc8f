"""The live loop: frames in, observations to the game, speech and the page out.

One thread reads frames and drives the game; speech and the web server run on their own
threads and never hold it up. A video file plays the part of the camera (the demo and the
tests); a camera's footage is recorded in crash-safe segments beside the event log.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from assistant.live_hub import LiveHub
from assistant.recorder import SessionRecorder
from assistant.session.game import LiveGame, Stage
from assistant.session.observation import Observation
from assistant.session.view import build_view
from vision.types import Frame

#: Seconds between page updates of the live picture.
FRAME_PUBLISH_S = 0.5


@dataclass
class LoopStats:
    """What one run of the loop did, for the summary and the latency benchmark."""

    frames: int = 0
    seconds_of_footage: float = 0.0
    ended_early: bool = False


class Reader(Protocol):
    """Turns frames into observations (``assistant.session.reader.TableReader``)."""

    def read(self, frame: Frame) -> Observation:
        """The table as this frame shows it."""
        ...

    def topdown_jpeg(self, frame: Frame) -> bytes | None:
        """The frame rectified to a top-down view of the table, as JPEG bytes."""
        ...


def run_loop(
    frames: Iterable[Frame],
    reader: Reader,
    game: LiveGame,
    *,
    hub: LiveHub | None = None,
    recorder: SessionRecorder | None = None,
    log_event: Callable[[dict[str, Any], float], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> LoopStats:
    """Play the game on the frames until the battle ends or the frames run out."""
    stats = LoopStats()
    last_publish = -1e9
    seen_version = (-1, -1, "")
    steps_logged = len(game.steps)
    said_logged = len(game.announcements)
    for frame in frames:
        if stop is not None and stop():
            stats.ended_early = True
            break
        stats.frames += 1
        stats.seconds_of_footage = frame.t
        obs = reader.read(frame)
        if recorder is not None:
            recorder.write_frame(frame.image, frame.t)
        game.observe(obs)
        if hub is not None:
            while (command := hub.next_command(0.0)) is not None:
                game.command(command)
        if log_event is not None:
            steps_logged, said_logged = _log_new(
                game, log_event, steps_logged, said_logged, frame.t
            )
        if hub is not None:
            version = (len(game.announcements), len(game.steps), game.stage.value)
            if version != seen_version:
                hub.publish(build_view(game))
                seen_version = version
            if frame.t - last_publish >= FRAME_PUBLISH_S:
                jpeg = reader.topdown_jpeg(frame)
                if jpeg is not None:
                    hub.publish_frame(jpeg)
                last_publish = frame.t
        if game.stage is Stage.OVER:
            break
    return stats


def _log_new(
    game: LiveGame,
    log_event: Callable[[dict[str, Any], float], None],
    steps_logged: int,
    said_logged: int,
    t: float,
) -> tuple[int, int]:
    snapshots = game.history.snapshots()
    for index in range(steps_logged, len(game.steps)):
        snapshot = snapshots[index + 1]
        log_event({"type": "step", "action": game.steps[index].action.to_json()}, t)
        for ev in snapshot.events:
            log_event(ev.to_json(), t)
    for said in game.announcements[said_logged:]:
        log_event({"type": "announcement", "text": said.text}, said.t)
    return len(game.steps), len(game.announcements)


def session_dir(base: Path | None, scenario_name: str) -> Path:
    """A fresh folder for a session's files."""
    root = base if base is not None else Path("runs")
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folder = root / f"{stamp}-{scenario_name}"
    n = 1
    while folder.exists():
        n += 1
        folder = root / f"{stamp}-{scenario_name}-{n}"
    folder.mkdir(parents=True)
    return folder

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
    status: str | None = None
    """What the session was waiting for at the last frame (see ``run_loop``'s ``status``)."""


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
    logged: tuple[int, int] | None = None,
    status: Callable[[LiveGame], str | None] | None = None,
    echo: Callable[[str], None] | None = None,
) -> LoopStats:
    """Play the game on the frames until the battle ends or the frames run out.

    ``logged`` is (steps, announcements) already in the event log (default: everything the game
    holds now); what the game adds after that is logged at the time of the frame that caused it.
    ``status`` says what the session is waiting for that the game does not announce (shown on
    the page, and given to ``echo`` once each time it changes).
    """
    stats = LoopStats()
    last_publish = -1e9
    seen_version: tuple[int, int, str, str | None, int, int] = (-1, -1, "", None, -1, -1)
    steps_logged, said_logged = (
        logged if logged is not None else (len(game.steps), len(game.announcements))
    )
    said_status: str | None = None
    undos_logged = game.undos
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
                game, log_event, steps_logged, said_logged, frame.t, undos_logged
            )
            undos_logged = game.undos
        note = status(game) if status is not None else None
        if note is not None and note != said_status and echo is not None:
            echo(note)
        said_status = note
        stats.status = note
        if hub is not None:
            version = (
                len(game.announcements),
                len(game.steps),
                game.stage.value,
                note,
                game.placements.version,
                game.setup_watch.version,
            )
            if version != seen_version:
                hub.publish(build_view(game, (note,) if note else ()))
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
    undos_logged: int,
) -> tuple[int, int]:
    """Log the steps and announcements the game made since the last call. Steps taken back
    since then are logged first as ``{"type": "undo", "steps": N}``: the log's steps after the
    first N no longer count."""
    snapshots = game.history.snapshots()
    if game.undos > undos_logged:
        steps_logged = max(0, steps_logged - (game.undos - undos_logged))
        log_event({"type": "undo", "steps": steps_logged}, t)
    for index in range(steps_logged, len(game.steps)):
        snapshot = snapshots[index + 1]
        log_event(
            {"type": "step", "number": index + 1, "action": game.steps[index].action.to_json()}, t
        )
        for ev in snapshot.events:
            log_event(ev.to_json(), t)
    for said in game.announcements[said_logged:]:
        log_event({"type": "announcement", "text": said.text}, said.t)
    return len(game.steps), len(game.announcements)


def session_dir(base: Path | None, scenario_name: str) -> Path:
    """A fresh folder for a session's files, made by this process (two sessions started in
    the same second get two folders)."""
    root = base if base is not None else Path("runs")
    stamp = time.strftime("%Y%m%d-%H%M%S")
    root.mkdir(parents=True, exist_ok=True)
    for n in range(1, 10_000):
        folder = root / (f"{stamp}-{scenario_name}" + (f"-{n}" if n > 1 else ""))
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        return folder
    raise FileExistsError(f"no free session folder name in {root}")

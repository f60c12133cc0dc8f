"""How a live session ends: its result, the closing summary, and the page kept after the battle.

A run folder holds ``game.json`` and one recording folder per part of the battle:
``recording/`` for the first, ``recording-2/``, ``recording-3/`` ... for each ``--resume``.
Each recording's ``events.jsonl`` starts with a ``session`` event (source, scenario, seed,
``part``, and ``steps_before`` / ``announcements_before``: what earlier parts already logged),
logs only what happened in that part (times are seconds of that part's footage), and ends with
``session_end``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from assistant.live_hub import LiveHub
from assistant.session.game import LiveGame, Stage
from assistant.session.live import LoopStats
from assistant.speech import Speaker
from assistant.web.server import ServerHandle
from calibration.safe_files import FileLock


@dataclass
class SessionResult:
    """What a session left behind."""

    folder: Path
    game: LiveGame
    stats: LoopStats
    speaker: Speaker
    url: str | None
    page: ServerHandle | None = None
    """The page, still served after the battle (see ``hold_page``); None once it is stopped."""
    hub: LiveHub | None = None
    damaged: tuple[str, ...] = ()
    """What went wrong with the frames' source (a video cut short or corrupt, images skipped,
    a camera that stopped): the run then ends non-zero, after the game is saved."""
    lock: FileLock | None = None
    """The session folder's lock, held until the result is closed."""

    def close(self) -> None:
        """Stop the page if it is still served, and let the session's folder go."""
        if self.page is not None:
            self.page.stop()
            self.page = None
        if self.hub is not None:
            self.hub.close()
            self.hub = None
        if self.lock is not None:
            self.lock.release()
            self.lock = None


def hold_page(
    result: SessionResult,
    echo: Callable[[str], None] = print,
    stop: threading.Event | None = None,
) -> None:
    """Keep the page of a finished battle until Ctrl-C (or ``stop`` is set), then stop it."""
    page = result.page
    if page is None:
        return
    try:
        url = page.login_url if page.token else page.url
        echo(f"{outcome_line(result.game)} The page stays at {url} — press Ctrl-C to stop.")
        waiting = stop if stop is not None else threading.Event()
        try:
            while not waiting.wait(1.0):
                pass
        except KeyboardInterrupt:
            echo("Stopped; the page is closed.")
    finally:
        result.close()


def outcome_words(game: LiveGame) -> str:
    """ "Goblins win", or "a draw"."""
    winner = game.state.winner
    return "a draw" if winner in (None, "draw") else f"{winner} win"


def outcome_line(game: LiveGame) -> str:
    """ "The battle is over: Goblins win." (or "...: a draw.")"""
    return f"The battle is over: {outcome_words(game)}."


def damaged_source_text(result: SessionResult, source: str) -> str | None:
    """The one sentence a run ends with when its footage or camera failed (None: it did not)."""
    if not result.damaged:
        return None
    what = f"the camera {source} failed" if source.isdigit() else f"the footage {source} is damaged"
    saved = f"the game is saved in {result.folder}" if result.game.steps else "nothing was played"
    return f"{what} ({'; '.join(result.damaged)}); {saved}."


def recording_folders(folder: Path) -> list[Path]:
    """The run's recording folders in the order they were made: recording/, recording-2/, ..."""
    found = [p for p in folder.glob("recording*") if p.is_dir() and part_number(p) is not None]
    return sorted(found, key=lambda p: part_number(p) or 0)


def part_number(path: Path) -> int | None:
    if path.name == "recording":
        return 1
    head, _, number = path.name.partition("-")
    return int(number) if head == "recording" and number.isdigit() else None


def session_summary(result: SessionResult) -> list[str]:
    """The closing lines printed after a session."""
    game, stats = result.game, result.stats
    state = game.state
    lines = [
        f"Played {stats.frames} frames ({stats.seconds_of_footage:.0f} s of footage), "
        f"{len(game.steps)} steps, round {state.round}.",
    ]
    if game.stage is Stage.OVER:
        lines.append(game.announcements[-1].text if game.announcements else "The battle is over.")
    else:
        lines.append(
            f"The battle is not over; resume with: soloscope play --resume {result.folder} --source SOURCE"
        )
    for side in state.sides:
        standing = ", ".join(u.name for u in state.units_of(side.name)) or "nobody"
        lines.append(f"  {side.name}: {standing} on the table.")
    if result.stats.status is not None and game.stage is not Stage.OVER:
        lines.append(f"The footage ended before the declaration came. {result.stats.status}")
    lines.append(f"Saved game: {result.folder / 'game.json'}")
    logs = [str(f / "events.jsonl") for f in recording_folders(result.folder)]
    if len(logs) == 1:
        lines.append(f"Event log: {logs[0]}")
    elif logs:
        lines.append(f"Event logs, one per part of the battle, in order: {', '.join(logs)}")
    wavs = [a.wav_path for a in result.speaker.announcements if getattr(a, "wav_path", None)]
    if wavs:
        lines.append(f"Speech: {len(wavs)} WAV files in {Path(str(wavs[0])).parent}")
    return lines

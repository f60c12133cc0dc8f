"""A session's run folder replayed as one battle: its recording folders in order, on one clock.

``soloscope play`` writes ``RUN/recording/``; every ``--resume`` writes the next folder,
``RUN/recording-2/``, ``RUN/recording-3/`` ... Each folder's times (its frames and its events,
seconds) start at 0 when its own session started. A resumed battle is replayed as one: the
folders are taken in order and each one's clock starts where the one before it ended, so its
frames and events follow on, none lost and none counted twice.

Where a folder ended: its last recorded frame, or the ``session_end`` record the session logs
when its footage runs out (with the number of frames it read, which gives the frame spacing),
or, for a session that was killed, its last logged event (said in ``warnings``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.recorder import (
    EVENTS_NAME,
    is_recording,
    read_event_log,
    read_recording_info,
    segment_span,
)

_FOLDER = re.compile(r"^recording(?:-([1-9][0-9]*))?$")

SESSION_KINDS = ("session", "session_end")
"""Records the session writes about itself, not about the game."""


def _part_number(folder: Path) -> int | None:
    match = _FOLDER.match(folder.name)
    if match is None:
        return None
    return int(match.group(1) or 1)


def _recordings_in(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    found = [
        (n, child)
        for child in folder.iterdir()
        if (n := _part_number(child)) is not None and is_recording(child)
    ]
    return [child for _, child in sorted(found)]


def run_recordings(path: Path | str) -> tuple[Path, ...]:
    """The recording folders of the battle that ``path`` names, in the order they were made.

    ``path`` may be a run folder (holding ``recording/``, ``recording-2/`` ...), one of its
    recording folders or the ``events.jsonl`` inside one: all of them name the whole battle.
    A recording folder on its own is a battle of one part. () when ``path`` is none of these.
    """
    p = Path(path)
    if p.is_file() and p.name == EVENTS_NAME and is_recording(p.parent):
        p = p.parent
    if is_recording(p):
        if _part_number(p) is not None:
            siblings = _recordings_in(p.parent)
            if p in siblings:
                return tuple(siblings)
        return (p,)
    return tuple(_recordings_in(p))


@dataclass(frozen=True)
class RunPart:
    """One recording folder of a battle, placed on the battle's clock."""

    path: Path
    offset_s: float
    """Seconds added to this folder's times."""
    frame_offset: int
    """Added to this folder's frame indexes."""
    frames: int
    """Complete frame records in its segments (0 when the session played from a file)."""
    records: tuple[dict[str, Any], ...]
    """Its event log, times still on its own clock."""
    end_s: float
    """Where it ended on its own clock, seconds."""


def _float(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def _end_of(
    records: list[dict[str, Any]], spans: list[tuple[int, float | None, float | None]]
) -> tuple[float, float, bool]:
    """(end, frame spacing, known) of one recording on its own clock, in seconds."""
    count = sum(n for n, _, _ in spans)
    times = [t for _, a, b in spans for t in (a, b) if t is not None]
    end = max(times, default=0.0)
    spacing = (max(times) - min(times)) / (count - 1) if count > 1 and times else 0.0
    known = count > 0
    for record in records:
        t = _float(record.get("t"))
        if t is None:
            continue
        end = max(end, t)
        if record.get("type") == "session_end":
            known = True
            frames = record.get("frames")
            if not spacing and isinstance(frames, int) and frames > 1 and t > 0:
                spacing = t / (frames - 1)
    return end, spacing, known


def plan_run(
    recordings: tuple[Path, ...], problems: list[str] | None = None
) -> tuple[RunPart, ...]:
    """The recordings placed one after the other on one clock (see the module docstring)."""
    parts: list[RunPart] = []
    offset = 0.0
    frame_offset = 0
    for i, folder in enumerate(recordings):
        info = read_recording_info(folder)
        spans = [segment_span(seg) for seg in info.segments]
        records = read_event_log(folder, problems)
        end, spacing, known = _end_of(records, spans)
        frames = sum(n for n, _, _ in spans)
        parts.append(RunPart(folder, offset, frame_offset, frames, tuple(records), end))
        if not known and i + 1 < len(recordings) and problems is not None:
            problems.append(
                f"{folder.name}: the session stopped abruptly, so where its footage ended is "
                f"not known; {recordings[i + 1].name} is placed after its last event"
            )
        offset += end + spacing
        frame_offset += frames
    return tuple(parts)


def run_records(parts: tuple[RunPart, ...]) -> list[dict[str, Any]]:
    """Every part's event records in order, times on the battle's clock (seconds).

    A ``session`` record of a later part is marked ``"resumed": true``.
    """
    out: list[dict[str, Any]] = []
    for i, part in enumerate(parts):
        for record in part.records:
            item = dict(record)
            for key in ("t", "time_s"):
                t = _float(item.get(key))
                if t is not None:
                    item[key] = t + part.offset_s
            if item.get("type") == "session" and i > 0:
                item["resumed"] = True
            out.append(item)
    return out


def run_sources(parts: tuple[RunPart, ...]) -> list[str]:
    """The sources the run's sessions played from, as their ``session`` records name them."""
    found: list[str] = []
    for part in parts:
        for record in part.records:
            source = record.get("source")
            if record.get("type") == "session" and isinstance(source, str):
                found += [] if source in found else [source]
    return found

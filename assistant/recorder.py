"""Crash-safe recording of a live session: footage in short segments plus an event log.

A recording is a folder::

    recording.json        manifest {"version": 1, "kind": "soloscope-recording", ...}
    segment_000000.sfr    frames of the first ``segment_s`` seconds
    segment_000001.sfr    ...
    events.jsonl          one JSON object per line, append-only, fsync'd line by line

A segment is a small header then one record per frame: a fixed header (magic, frame index,
time in seconds, JPEG length, CRC-32 of the JPEG) and the JPEG bytes. Every record is handed to
the operating system as soon as it is written and fsync'd at least once a second and at every
segment boundary, so a process killed mid-game loses at most the record being written; a
reader stops at the first incomplete or damaged record and keeps everything before it.
"""

from __future__ import annotations

import json
import os
import struct
import time
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import cv2
import numpy as np
import numpy.typing as npt

from assistant.errors import UserError
from calibration.safe_files import write_json_atomic
from vision.types import Frame

MANIFEST_NAME = "recording.json"
EVENTS_NAME = "events.jsonl"
SEGMENT_GLOB = "segment_*.sfr"
_SEGMENT_MAGIC = b"SOLOSCOPE-FRAMES 1\n"
_RECORD_MAGIC = b"FR"
_RECORD = struct.Struct("<2sQdII")  # magic, frame index, t seconds, jpeg length, crc32


class RecordingError(UserError):
    """A recording folder that cannot be read (names the folder and the reason)."""


@dataclass(frozen=True)
class RecordingInfo:
    """What a recording folder holds."""

    path: Path
    version: int
    segment_s: float
    """Seconds of footage per segment file."""
    fps: float | None
    """Nominal frames per second, when the recorder was told."""
    closed: bool
    """False when the recorder never closed it (the process died): the tail may be short."""
    segments: tuple[Path, ...]


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class SessionRecorder:
    """Records frames and events of a live session into ``out_dir`` as they happen.

    ``write_frame(image_bgr, t_s)`` JPEG-encodes a frame into the current segment; a new segment
    starts every ``segment_s`` seconds of footage; ``min_interval_s`` (seconds) thins the frames
    recorded (0: every frame). ``log_event(event, t_s)`` appends one JSON
    line and fsyncs it. ``close()`` (or leaving a ``with`` block) marks the recording complete.
    Not thread-safe: call it from one thread.
    """

    def __init__(
        self,
        out_dir: Path | str,
        *,
        segment_s: float = 10.0,
        fps: float | None = None,
        jpeg_quality: int = 85,
        fsync_interval_s: float = 1.0,
        min_interval_s: float = 0.0,
    ) -> None:
        if segment_s <= 0:
            raise ValueError(f"segment_s must be > 0 seconds, got {segment_s}")
        if min_interval_s < 0:
            raise ValueError(f"min_interval_s must be >= 0 seconds, got {min_interval_s}")
        if not 1 <= jpeg_quality <= 100:
            raise ValueError(f"jpeg_quality must be in 1..100, got {jpeg_quality}")
        self.path = Path(out_dir)
        self.path.mkdir(parents=True, exist_ok=True)
        if any(self.path.glob(SEGMENT_GLOB)) or (self.path / EVENTS_NAME).exists():
            raise RecordingError(f"{self.path} already holds a recording; choose an empty folder")
        self.segment_s = segment_s
        self.fps = fps
        self._quality = jpeg_quality
        self._fsync_interval_s = fsync_interval_s
        self._min_interval_s = min_interval_s
        self._last_t: float | None = None
        self._segment: IO[bytes] | None = None
        self._segment_index = -1
        self._segment_t0 = 0.0
        self._frame_index = 0
        self._last_sync = time.monotonic()
        self._manifest: dict[str, Any] = {
            "version": 1,
            "kind": "soloscope-recording",
            "format": "jpeg-records-1",
            "segment_s": segment_s,
            "fps": fps,
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "closed": False,
        }
        write_json_atomic(self.path / MANIFEST_NAME, self._manifest)
        self._events = open(self.path / EVENTS_NAME, "a", encoding="utf-8")  # noqa: SIM115
        _fsync_dir(self.path)

    @property
    def frames_written(self) -> int:
        """Number of frames recorded so far."""
        return self._frame_index

    def write_frame(self, image: npt.NDArray[np.uint8], t_s: float) -> bool:
        """Record one frame (BGR or grey) taken ``t_s`` seconds after the session started.

        Returns False when the frame was skipped because it came less than ``min_interval_s``
        after the last recorded one (a 1080p JPEG costs about 9 ms to encode: recording every
        other frame of a 30 fps camera halves that load).
        """
        if self._last_t is not None and t_s - self._last_t < self._min_interval_s:
            return False
        self._last_t = t_s
        if self._segment is None or t_s - self._segment_t0 >= self.segment_s:
            self._start_segment(t_s)
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, self._quality])
        if not ok:
            raise RecordingError(f"could not encode frame {self._frame_index} as JPEG")
        data = buf.tobytes()
        header = _RECORD.pack(
            _RECORD_MAGIC, self._frame_index, float(t_s), len(data), zlib.crc32(data)
        )
        assert self._segment is not None
        self._segment.write(header + data)
        self._segment.flush()
        self._frame_index += 1
        now = time.monotonic()
        if now - self._last_sync >= self._fsync_interval_s:
            os.fsync(self._segment.fileno())
            self._last_sync = now
        return True

    def log_event(self, event: Mapping[str, Any], t_s: float | None = None) -> None:
        """Append one event (a JSON-serialisable mapping) to the log, with its time in seconds."""
        record = dict(event)
        if t_s is not None:
            record["t"] = float(t_s)
        self._events.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._events.flush()
        os.fsync(self._events.fileno())

    def close(self) -> None:
        """Flush everything and mark the recording complete."""
        self._close_segment()
        if not self._events.closed:
            self._events.close()
        self._manifest["closed"] = True
        self._manifest["frames"] = self._frame_index
        write_json_atomic(self.path / MANIFEST_NAME, self._manifest)

    def __enter__(self) -> SessionRecorder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start_segment(self, t_s: float) -> None:
        self._close_segment()
        self._segment_index += 1
        self._segment_t0 = t_s
        path = self.path / f"segment_{self._segment_index:06d}.sfr"
        self._segment = open(path, "wb")  # noqa: SIM115
        self._segment.write(_SEGMENT_MAGIC)
        self._segment.flush()
        os.fsync(self._segment.fileno())
        _fsync_dir(self.path)

    def _close_segment(self) -> None:
        if self._segment is not None and not self._segment.closed:
            self._segment.flush()
            os.fsync(self._segment.fileno())
            self._segment.close()


# -- reading ------------------------------------------------------------------------------------


def is_recording(path: Path | str) -> bool:
    """True when ``path`` is a folder written by :class:`SessionRecorder`."""
    return (Path(path) / MANIFEST_NAME).is_file()


def read_recording_info(path: Path | str) -> RecordingInfo:
    """The manifest and segment list of a recording folder."""
    folder = Path(path)
    try:
        manifest = json.loads((folder / MANIFEST_NAME).read_text(encoding="utf-8"))
    except OSError as exc:
        raise RecordingError(f"{folder}: cannot read {MANIFEST_NAME} ({exc.strerror})") from None
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise RecordingError(f"{folder}: {MANIFEST_NAME} is not JSON ({exc})") from None
    version = manifest.get("version") if isinstance(manifest, dict) else None
    if version != 1:
        raise RecordingError(f"{folder}: recording version {version!r} is not supported (1)")
    return _info_v1(folder, manifest)


def _info_v1(folder: Path, manifest: Mapping[str, Any]) -> RecordingInfo:
    try:
        segment_s = float(manifest.get("segment_s", 10.0))
        fps = manifest.get("fps")
        fps = None if fps is None else float(fps)
        if not (0 < segment_s < 1e6 and (fps is None or 0 < fps < 1e4)):
            raise ValueError("segment_s or fps out of range")
    except (TypeError, ValueError, OverflowError) as exc:
        raise RecordingError(f"{folder}: {MANIFEST_NAME} is damaged ({exc})") from None
    return RecordingInfo(
        path=folder,
        version=1,
        segment_s=segment_s,
        fps=fps,
        closed=bool(manifest.get("closed", False)),
        segments=tuple(sorted(folder.glob(SEGMENT_GLOB))),
    )


@dataclass(frozen=True)
class SegmentRecord:
    """One recorded frame, still JPEG-compressed."""

    frame_index: int
    t: float
    """Seconds from the start of the session."""
    jpeg: bytes


def iter_segment(path: Path, problems: list[str] | None = None) -> Iterator[SegmentRecord]:
    """The complete records of one segment file, stopping at the first damaged one.

    A short or damaged tail is described in ``problems`` (when given) instead of raising.
    """
    with open(path, "rb") as fh:
        if fh.read(len(_SEGMENT_MAGIC)) != _SEGMENT_MAGIC:
            if problems is not None:
                problems.append(f"{path.name}: not a soloscope segment, skipped")
            return
        while True:
            head = fh.read(_RECORD.size)
            if not head:
                return
            if len(head) < _RECORD.size:
                if problems is not None:
                    problems.append(f"{path.name}: ends inside a record header (cut short)")
                return
            magic, index, t, length, crc = _RECORD.unpack(head)
            if magic != _RECORD_MAGIC:
                if problems is not None:
                    problems.append(f"{path.name}: damaged record after frame {index}")
                return
            data = fh.read(length)
            if len(data) < length or zlib.crc32(data) != crc:
                if problems is not None:
                    problems.append(f"{path.name}: frame {index} is incomplete (cut short)")
                return
            yield SegmentRecord(index, t, data)


def segment_span(path: Path) -> tuple[int, float | None, float | None]:
    """(complete records, first time, last time in seconds) of a segment, from headers only."""
    n = 0
    first: float | None = None
    last: float | None = None
    with open(path, "rb") as fh:
        if fh.read(len(_SEGMENT_MAGIC)) != _SEGMENT_MAGIC:
            return 0, None, None
        size = os.fstat(fh.fileno()).st_size
        while True:
            head = fh.read(_RECORD.size)
            if len(head) < _RECORD.size:
                break
            magic, _, t, length, _ = _RECORD.unpack(head)
            if magic != _RECORD_MAGIC or fh.tell() + length > size:
                break
            fh.seek(length, os.SEEK_CUR)
            n += 1
            first = t if first is None else first
            last = t
    return n, first, last


def iter_recorded_frames(
    path: Path | str, *, grey: bool = False, problems: list[str] | None = None
) -> Iterator[Frame]:
    """Every readable frame of a recording, segments stitched in order (BGR, or grey)."""
    info = read_recording_info(path)
    flag = cv2.IMREAD_GRAYSCALE if grey else cv2.IMREAD_COLOR
    for segment in info.segments:
        for record in iter_segment(segment, problems):
            image = cv2.imdecode(np.frombuffer(record.jpeg, np.uint8), flag)
            if image is None:
                if problems is not None:
                    problems.append(f"{segment.name}: frame {record.frame_index} does not decode")
                continue
            yield Frame(record.frame_index, record.t, np.asarray(image, dtype=np.uint8))


def read_event_log(path: Path | str, problems: list[str] | None = None) -> list[dict[str, Any]]:
    """The events of a recording (or an ``events.jsonl`` file) up to the last complete line."""
    p = Path(path)
    log = p / EVENTS_NAME if p.is_dir() else p
    if not log.exists():
        return []
    events: list[dict[str, Any]] = []
    with open(log, encoding="utf-8", errors="replace") as fh:
        for number, line in enumerate(fh, 1):
            if not line.endswith("\n"):
                if problems is not None:
                    problems.append(f"{log.name}: last line {number} is incomplete, ignored")
                break
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError:
                if problems is not None:
                    problems.append(f"{log.name}: line {number} is not JSON, ignored")
                continue
            if isinstance(item, dict):
                events.append(item)
    return events

"""Reading footage for a replay: a video file, a recording folder or a folder of images.

Frames are decoded only when asked for: ``FootageReader.frames(stride)`` grabs every frame (the
decoder needs them all) but converts only every ``stride``-th to an image, which is what makes
replay faster than real time. A video is decoded on a thread of its own, a few frames ahead of
the caller (OpenCV lets go of Python's lock while it decodes, so decoding and detection share
two cores). Damage is reported, never raised: a truncated or corrupt video yields what could be
read and leaves a plain sentence in ``warnings``.
"""

from __future__ import annotations

import os

# FFmpeg's own messages ("header damaged", ...) would clutter the terminal: damage is reported
# once, in plain words, through FootageReader.warnings instead.
os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")

import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np
import numpy.typing as npt

from assistant.errors import UserError
from assistant.recorder import iter_recorded_frames, read_recording_info, segment_span
from assistant.replay.runs import RunPart, plan_run, run_recordings, run_sources
from vision.types import Frame

T = TypeVar("T")

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mov", ".mkv", ".m4v", ".webm", ".mjpeg", ".mjpg")


class FootageError(UserError):
    """Footage that cannot be read at all (names the path and the reason)."""


@dataclass
class FootageReader:
    """One piece of footage; iterate ``frames(stride)`` once per pass."""

    path: Path
    kind: str
    """"video", "recording" or "images"."""
    fps: float
    """Frames per second (nominal for a recording, 1 for images without timing)."""
    frame_count: int | None
    """Frames the container claims to hold (complete records of a recording), when known."""
    size_px: tuple[int, int]
    """(width, height) of the first frame in pixels."""
    warnings: list[str] = field(default_factory=list)
    frames_read: int = 0
    """Frames grabbed during the last pass."""
    parts: tuple[RunPart, ...] = ()
    """For a resumed session's run: its recording folders, on one clock."""

    @property
    def duration_s(self) -> float | None:
        """Length in seconds, when known."""
        if self.frame_count is None or self.fps <= 0:
            return None
        return self.frame_count / self.fps

    def frames(self, stride: int = 1, grey: bool = False) -> Iterator[Frame]:
        """Every ``stride``-th frame (from frame 0), BGR or grey; damage goes to warnings."""
        if stride < 1:
            raise ValueError(f"stride must be >= 1, got {stride}")
        self.frames_read = 0
        if self.kind == "video":
            yield from _ahead(lambda: self._video_frames(stride, grey))
        elif self.kind == "recording":
            for part in self.parts or plan_run((self.path,)):
                problems: list[str] = []
                for frame in iter_recorded_frames(part.path, grey=grey, problems=problems):
                    self.frames_read += 1
                    index = frame.index + part.frame_offset
                    if index % stride == 0:
                        yield Frame(index, frame.t + part.offset_s, frame.image)
                for p in problems:
                    self._warn(f"{part.path}: {p}; the replay covers what was recorded before it")
        else:
            files = _image_files(self.path)
            flag = cv2.IMREAD_GRAYSCALE if grey else cv2.IMREAD_COLOR
            for i, f in enumerate(files):
                self.frames_read += 1
                if i % stride:
                    continue
                image = cv2.imread(str(f), flag)
                if image is None:
                    self._warn(f"{f.name} is not a readable image, skipped")
                    continue
                yield Frame(i, i / self.fps, np.asarray(image, dtype=np.uint8))

    def frames_and_grey(self, stride: int = 1) -> Iterator[tuple[Frame, npt.NDArray[np.uint8]]]:
        """Like :meth:`frames` (BGR), each with its grey image, made on the decoding thread."""
        if self.kind == "video":
            self.frames_read = 0
            return _ahead(lambda: _with_grey(self._video_frames(stride, False)))
        return _with_grey(self.frames(stride))

    def _warn(self, text: str) -> None:
        if text not in self.warnings:
            self.warnings.append(text)

    def _video_frames(self, stride: int, grey: bool) -> Iterator[Frame]:
        cap = cv2.VideoCapture(str(self.path))
        if not cap.isOpened():
            raise FootageError(f"cannot open video {self.path}")
        index = 0
        try:
            while True:
                if not cap.grab():
                    resumed = self._skip_damage(cap, index)
                    if resumed is None:
                        break
                    index = resumed
                self.frames_read += 1
                if index % stride == 0:
                    ok, image = cap.retrieve()
                    if ok and image is not None:
                        if grey and image.ndim == 3:
                            image = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
                        yield Frame(index, index / self.fps, np.asarray(image, dtype=np.uint8))
                index += 1
        finally:
            cap.release()
        if self.frame_count and index < self.frame_count - 2:
            self._warn(
                f"{self.path.name}: the video stops after {index} of {self.frame_count} frames "
                f"(truncated or corrupt); the replay covers the first {index / self.fps:.1f} s"
            )

    def _skip_damage(self, cap: cv2.VideoCapture, index: int) -> int | None:
        """After a failed grab inside the video, jump past the damage; the new frame's index."""
        if not self.frame_count or index >= self.frame_count - 2:
            return None
        for jump_s in (1.0, 2.0, 5.0, 10.0):
            target = index + max(1, round(jump_s * self.fps))
            if target >= self.frame_count:
                return None
            cap.set(cv2.CAP_PROP_POS_FRAMES, target)
            if cap.grab():
                resumed = max(target, int(cap.get(cv2.CAP_PROP_POS_FRAMES)) - 1)
                self._warn(
                    f"{self.path.name}: frames {index}-{resumed - 1} "
                    f"({index / self.fps:.1f}-{resumed / self.fps:.1f} s) are damaged and were "
                    "skipped"
                )
                return resumed
        return None


_DONE = object()


def _with_grey(
    frames: Iterator[Frame],
) -> Iterator[tuple[Frame, npt.NDArray[np.uint8]]]:
    for frame in frames:
        image = frame.image
        grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        yield frame, np.asarray(grey, dtype=np.uint8)


def _ahead(make: Callable[[], Iterator[T]], depth: int = 4) -> Iterator[T]:
    """The frames of ``make()``, produced on a thread up to ``depth`` frames ahead; an error
    there is raised here, and stopping early (a break, Ctrl-C) stops the thread."""
    out: queue.Queue[object] = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def put(item: object) -> bool:
        while not stop.is_set():
            try:
                out.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def work() -> None:
        try:
            for frame in make():
                if not put(frame):
                    return
            put(_DONE)
        except BaseException as exc:  # handed to the reading thread, raised there
            put(exc)

    thread = threading.Thread(target=work, name="footage-decoder", daemon=True)
    thread.start()
    try:
        while True:
            item = out.get()
            if item is _DONE:
                return
            if isinstance(item, BaseException):
                raise item
            yield item  # type: ignore[misc]
    finally:
        stop.set()
        thread.join(timeout=5.0)


def _image_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)


def _open_run(path: Path, recordings: tuple[Path, ...]) -> FootageReader:
    """The recorded frames of a session, or of every session of a resumed run, on one clock."""
    parts = plan_run(recordings)  # what its logs lack is said once, with the events
    with_frames = [part for part in parts if part.frames]
    if not with_frames:
        sources = run_sources(parts)
        if sources:
            names = ", ".join(sources)
            raise FootageError(
                f"{path} holds no recorded footage (the session played from {names}): replay "
                f"that footage with --events {path}"
            )
        raise FootageError(f"recording {path} holds no footage segments")
    first = next(iter_recorded_frames(with_frames[0].path), None)
    if first is None:
        raise FootageError(f"recording {path} holds no readable frame")
    h, w = first.image.shape[:2]
    count = sum(part.frames for part in parts)
    times = []
    for part in with_frames:
        for seg in read_recording_info(part.path).segments:
            _, a, b = segment_span(seg)
            times += [t + part.offset_s for t in (a, b) if t is not None]
    fps = read_recording_info(with_frames[0].path).fps or 30.0
    if count > 1 and times and max(times) > min(times):
        fps = (count - 1) / (max(times) - min(times))  # as recorded (it may be thinned)
    reader = FootageReader(path, "recording", fps, count, (w, h), parts=parts)
    for part in parts:
        if not read_recording_info(part.path).closed:
            reader.warnings.append(
                f"{part.path.name}: the recording was not closed (the session stopped abruptly)"
            )
    return reader


def open_footage(path: Path | str, *, images_fps: float = 1.0) -> FootageReader:
    """Open FOOTAGE: a video file, a recording folder or a folder of images (1 image = 1/fps s)."""
    p = Path(path)
    if not p.exists():
        raise FootageError(f"footage {p} does not exist")
    if p.is_dir():
        recordings = run_recordings(p)
        if recordings:
            return _open_run(p, recordings)
        files = _image_files(p)
        if not files:
            raise FootageError(f"{p} holds no video, recording or images")
        image = cv2.imread(str(files[0]), cv2.IMREAD_COLOR)
        if image is None:
            raise FootageError(f"{files[0]} is not a readable image")
        return FootageReader(p, "images", images_fps, len(files), (image.shape[1], image.shape[0]))
    cap = cv2.VideoCapture(str(p))
    try:
        if not cap.isOpened():
            raise FootageError(f"cannot read video {p}: not a video, or damaged beyond repair")
        fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
        count = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        ok, image = cap.read()
        if not ok or image is None:
            raise FootageError(f"cannot read any frame from video {p}: damaged or empty")
    finally:
        cap.release()
    if not 1.0 <= fps <= 240.0:
        fps = 30.0
    return FootageReader(
        p, "video", fps, count if count > 0 else None, (int(image.shape[1]), int(image.shape[0]))
    )

"""Frame sources: a camera index, a video file, an image file or a folder of images, each
yielding :class:`vision.types.Frame` until the end of the stream.

``open_source(spec)`` picks the kind from the spec. A source that cannot be opened raises a
VisionError naming it; a video that stops early (truncated or corrupt) ends with a warning in
``source.warnings`` instead of an exception. Cameras are asked for MJPEG, a buffer of one frame
and the requested resolution; focus, exposure and white balance are fixed at calibration
(:meth:`CameraSource.fix_controls`, through vision.camera_controls on V4L2) and restored from the
profile when tracking; ``source.report`` says what the camera would not take.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import ModuleType, TracebackType
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import VisionError
from vision.types import Frame

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class FrameSource:
    """Base class: iterate for frames; ``close()`` (or ``with``) releases the device or file."""

    name: str = ""
    warnings: list[str]
    report: dict[str, Any]
    """What was asked of the source and what it gave (cameras: settings and failures)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.warnings = []
        self.report = {}

    def __iter__(self) -> Iterator[Frame]:
        return self.frames()

    def frames(self) -> Iterator[Frame]:
        """Frames from the start (or from now, for a camera) to the end of the stream."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the device or file."""

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _read_image(path: Path) -> npt.NDArray[np.uint8]:
    data = np.fromfile(str(path), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise VisionError(f"cannot read image {path}: not an image or damaged")
    return np.asarray(image, dtype=np.uint8)


class ImageSource(FrameSource):
    """One image file, as a single frame at t = 0."""

    def __init__(self, path: Path) -> None:
        super().__init__(str(path))
        self._image = _read_image(path)

    def frames(self) -> Iterator[Frame]:
        yield Frame(0, 0.0, self._image)


class FolderSource(FrameSource):
    """Image files of a folder in name order, one frame each, ``fps`` frames per second."""

    def __init__(self, path: Path, fps: float = 30.0) -> None:
        super().__init__(str(path))
        self.paths = sorted(
            p for p in path.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES
        )
        if not self.paths:
            raise VisionError(f"folder {path} holds no images ({', '.join(IMAGE_SUFFIXES)})")
        self.fps = fps

    def frames(self) -> Iterator[Frame]:
        for i, p in enumerate(self.paths):
            try:
                image = _read_image(p)
            except VisionError as exc:
                self.warnings.append(f"skipped {p.name}: {exc}")
                continue
            yield Frame(i, i / self.fps, image)


class VideoSource(FrameSource):
    """A video file; a stream that ends before its announced length ends with a warning."""

    def __init__(self, path: Path) -> None:
        super().__init__(str(path))
        if not path.is_file():
            raise VisionError(f"video {path} does not exist")
        self._cap = cv2.VideoCapture(str(path))
        if not self._cap.isOpened():
            raise VisionError(f"cannot open video {path}: not a video or damaged")
        ok, first = self._cap.read()
        if not ok or first is None:
            self._cap.release()
            raise VisionError(f"cannot read video {path}: no decodable frame")
        self._first: npt.NDArray[np.uint8] | None = first
        fps = self._cap.get(cv2.CAP_PROP_FPS)
        self.fps = float(fps) if fps and fps > 0 and np.isfinite(fps) else 30.0
        count = self._cap.get(cv2.CAP_PROP_FRAME_COUNT)
        self.frame_count = int(count) if count and count > 0 else None
        self.report = {"fps": self.fps, "frame_count": self.frame_count}

    def frames(self) -> Iterator[Frame]:
        index = 0
        while True:
            if self._first is not None:
                image, self._first = self._first, None
            else:
                try:
                    ok, image = self._cap.read()
                except cv2.error as exc:
                    self.warnings.append(f"video {self.name} stopped at frame {index}: {exc}")
                    return
                if not ok or image is None:
                    break
            yield Frame(index, index / self.fps, np.asarray(image, dtype=np.uint8))
            index += 1
        if self.frame_count is not None and index < self.frame_count - 1:
            self.warnings.append(
                f"video {self.name} ended at frame {index} of {self.frame_count}: "
                "truncated or damaged"
            )

    def close(self) -> None:
        self._cap.release()


#: Asked of a camera through OpenCV when vision.camera_controls (V4L2) is not available:
#: (CAP_PROP name, value, what it means).
CAMERA_REQUESTS: tuple[tuple[str, float, str], ...] = (
    ("CAP_PROP_AUTOFOCUS", 0, "fixed focus"),
    ("CAP_PROP_AUTO_EXPOSURE", 1, "fixed exposure (V4L2 manual mode)"),
    ("CAP_PROP_AUTO_WB", 0, "fixed white balance"),
)


def _camera_controls() -> ModuleType | None:
    try:
        from vision import camera_controls
    except ImportError:
        return None
    return camera_controls


class CameraSource(FrameSource):
    """A camera by index: MJPEG, a buffer of one frame, the requested size; ``controls`` (V4L2
    focus/exposure/white-balance values saved in a profile) are restored at once, and
    :meth:`fix_controls` pins the current ones. ``report["not_set"]`` lists what the camera
    refused."""

    def __init__(
        self,
        index: int,
        width_px: int | None = None,
        height_px: int | None = None,
        fps: float | None = None,
        controls: Mapping[str, int] | None = None,
    ) -> None:
        super().__init__(f"camera {index}")
        self.index = index
        level = cv2.utils.logging.getLogLevel()
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
        try:
            self._cap = cv2.VideoCapture(index)
        finally:
            cv2.utils.logging.setLogLevel(level)
        if not self._cap.isOpened():
            raise VisionError(
                f"cannot open camera {index}: no such camera, or it is in use by another program"
            )
        not_set: list[str] = []
        if not self._cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG")):
            not_set.append("MJPEG format")
        if not self._cap.set(cv2.CAP_PROP_BUFFERSIZE, 1):
            not_set.append("a buffer of one frame")
        if width_px and height_px:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, width_px)
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height_px)
        if fps:
            self._cap.set(cv2.CAP_PROP_FPS, fps)
        got_w = int(self._cap.get(cv2.CAP_PROP_FRAME_WIDTH))
        got_h = int(self._cap.get(cv2.CAP_PROP_FRAME_HEIGHT))
        if width_px and height_px and (got_w, got_h) != (width_px, height_px):
            not_set.append(f"resolution {width_px}x{height_px} (got {got_w}x{got_h})")
        self.controls: dict[str, int] = dict(controls or {})
        cc = _camera_controls()
        if controls:
            if cc is None:
                not_set.append("saved focus/exposure/white balance (no V4L2 control module)")
            else:
                not_set.extend(cc.apply_controls(index, controls))
        self.report = {
            "resolution_px": [got_w, got_h],
            "fps": float(self._cap.get(cv2.CAP_PROP_FPS)),
            "backend": self._cap.getBackendName(),
            "not_set": not_set,
            "v4l2_controls": dict(self.controls),
        }
        self._t0 = time.monotonic()

    def fix_controls(self) -> list[str]:
        """Pin focus, exposure and white balance where the camera has settled (call after a few
        frames); the values go to ``report["v4l2_controls"]``; returns what could not be set."""
        cc = _camera_controls()
        failed: list[str] = []
        if cc is not None:
            settings, failed = cc.fix_controls(self.index)
            self.controls = dict(settings)
        else:
            for prop, value, meaning in CAMERA_REQUESTS:
                code = getattr(cv2, prop)
                if not self._cap.set(code, value) or self._cap.get(code) != value:
                    failed.append(meaning)
        self.report["v4l2_controls"] = dict(self.controls)
        self.report["not_set"] = [*self.report["not_set"], *failed]
        return list(failed)

    def frames(self) -> Iterator[Frame]:
        index = 0
        failures = 0
        while True:
            ok, image = self._cap.read()
            if not ok or image is None:
                failures += 1
                if failures >= 10:
                    self.warnings.append(f"camera {self.index} stopped giving frames")
                    return
                continue
            failures = 0
            yield Frame(index, time.monotonic() - self._t0, np.asarray(image, dtype=np.uint8))
            index += 1

    def close(self) -> None:
        self._cap.release()


def open_source(
    spec: str,
    *,
    width_px: int | None = None,
    height_px: int | None = None,
    fps: float | None = None,
    controls: Mapping[str, int] | None = None,
) -> FrameSource:
    """Open ``spec``: a camera index ("0"), a folder of images, an image file or a video file.
    ``width_px``/``height_px``/``fps``/``controls`` apply to cameras only."""
    if spec.isdigit():
        return CameraSource(int(spec), width_px, height_px, fps, controls)
    path = Path(spec).expanduser()
    if path.is_dir():
        return FolderSource(path, fps or 30.0)
    if not path.exists():
        raise VisionError(
            f"source {spec} does not exist (give a camera index, video, image or folder)"
        )
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return ImageSource(path)
    return VideoSource(path)

"""The annotated replay video: the footage with tag labels and arrows for the moves.

Frames are drawn at most ``max_width_px`` wide and written with OpenCV's 'mp4v' encoder (the
one the headless OpenCV wheel can write). Labels sit at each tag's place mapped back to
pixels; a move's arrow (from -> to) stays on screen for ``arrow_s`` seconds after it ends.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from assistant.errors import UserError
from assistant.replay.reconstruct import Roster
from assistant.replay.timeline import TimelineBuilder
from calibration.profile import TableProfile
from calibration.safe_files import atomic_path
from vision.types import BoardSnapshot, TagState

_COLOURS = {TagState.SEEN: (90, 200, 90), TagState.HELD: (60, 200, 230)}


class AnnotatedVideo:
    """Writes annotated frames to an MP4 (``write`` per processed frame, then ``close``)."""

    def __init__(
        self,
        path: Path,
        fps: float,
        profile: TableProfile,
        roster: Roster | None = None,
        *,
        max_width_px: int = 1280,
        arrow_s: float = 6.0,
    ) -> None:
        self.path = path
        self._fps = max(1.0, fps)
        self._profile = profile
        self._mapping = profile.mapping()
        self._roster = roster
        self._max_width = max_width_px
        self._arrow_s = arrow_s
        self._writer: cv2.VideoWriter | None = None
        self._finish = contextlib.ExitStack()
        """Releases the writer, then renames the finished file into place."""
        self._scale = 1.0
        self.frames_written = 0

    def _label(self, tag_id: int) -> str:
        if self._roster is not None:
            found = self._roster.piece_of_tag(tag_id)
            if found is not None:
                return found[0].name
        return f"#{tag_id}"

    def _px(self, x_in: float, y_in: float, tag_id: int) -> tuple[int, int]:
        p = self._mapping.to_pixels([(x_in, y_in)], self._profile.tag_height_mm(tag_id))[0]
        return round(float(p[0]) * self._scale), round(float(p[1]) * self._scale)

    def write(
        self, image: npt.NDArray[np.uint8], snapshot: BoardSnapshot, builder: TimelineBuilder
    ) -> None:
        """Draw one frame's annotations and append it to the video."""
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)  # type: ignore[assignment]
        h, w = image.shape[:2]
        if self._writer is None:
            self._scale = min(1.0, self._max_width / w)
            size = (round(w * self._scale) // 2 * 2, round(h * self._scale) // 2 * 2)
            self._size = size
            tmp = self._finish.enter_context(atomic_path(self.path))
            self._writer = cv2.VideoWriter(
                str(tmp), cv2.VideoWriter.fourcc(*"mp4v"), self._fps, size
            )
            self._finish.callback(self._writer.release)
            if not self._writer.isOpened():
                raise UserError(f"cannot write the annotated video {self.path}")
        out = cv2.resize(image, self._size, interpolation=cv2.INTER_LINEAR)
        font = cv2.FONT_HERSHEY_SIMPLEX
        for move in builder.moves:
            if move.t_end <= snapshot.t <= move.t_end + self._arrow_s:
                a = self._px(*move.from_in, move.tag_id)
                b = self._px(*move.to_in, move.tag_id)
                cv2.arrowedLine(out, a, b, (0, 0, 0), 6, cv2.LINE_AA, tipLength=0.12)
                cv2.arrowedLine(out, a, b, (80, 180, 255), 3, cv2.LINE_AA, tipLength=0.12)
        for pose in snapshot.tags:
            colour = _COLOURS.get(pose.state)
            if colour is None:
                continue
            c = self._px(pose.x_in, pose.y_in, int(pose.tag_id))
            cv2.circle(out, c, 14, colour, 2, cv2.LINE_AA)
            text = self._label(int(pose.tag_id))
            org = (c[0] + 16, c[1] - 10)
            cv2.putText(out, text, org, font, 0.55, (0, 0, 0), 4, cv2.LINE_AA)
            cv2.putText(out, text, org, font, 0.55, (255, 255, 255), 1, cv2.LINE_AA)
        status = "settled" if snapshot.settled else "hand over the table / moving"
        banner = f"{snapshot.t:7.1f} s   {status}   moves so far: {len(builder.moves)}"
        cv2.rectangle(out, (0, 0), (out.shape[1], 34), (30, 30, 30), -1)
        cv2.putText(out, banner, (12, 24), font, 0.7, (240, 240, 240), 1, cv2.LINE_AA)
        self._writer.write(out)
        self.frames_written += 1

    def close(self) -> None:
        """Finish the MP4 file (written to a temporary file, renamed into place now)."""
        self._writer = None
        self._finish.close()

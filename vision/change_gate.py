"""Where the picture changed since the tags were last searched for, from a small thumbnail.

A :class:`ChangeGate` keeps a small blurred grey thumbnail of the last frame searched (its
reference) and compares each new frame with it: a thumbnail pixel has changed when its grey
level moved by more than ``level`` (0-255). The replay searches only the changed windows
(``changed_regions``); the live pipeline does not search a frame that changed nowhere
(``unchanged``), since the detector would read the same picture again.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.detector import Region

GreyImage = npt.NDArray[np.uint8]


@dataclass
class ChangeGate:
    """Where the picture changed since the reference (see the module docstring).

    ``width_px``: the thumbnail's width in pixels; ``level``: grey levels a thumbnail pixel must
    move by to count as changed; ``pad_px``: full-resolution pixels added around each changed
    window.
    """

    width_px: int = 160
    level: int = 18
    pad_px: int = 48
    _reference: GreyImage | None = None
    _scale: float = 1.0

    def thumbnail(self, grey: GreyImage) -> GreyImage:
        """A small blurred copy (``width_px`` wide) used for all comparisons."""
        h, w = grey.shape[:2]
        step = max(1, w // (self.width_px * 4))
        coarse = grey[::step, ::step]
        small = cv2.resize(
            coarse,
            (self.width_px, max(1, round(h * self.width_px / w))),
            interpolation=cv2.INTER_AREA,
        )
        self._scale = w / self.width_px
        return cv2.GaussianBlur(small, (3, 3), 0)  # type: ignore[return-value]

    def changed_regions(
        self, thumb: GreyImage, image_size_px: tuple[int, int]
    ) -> list[Region] | None:
        """Changed windows (pixels) since the reference, [] when nothing changed, None when the
        whole frame should be searched (no reference yet). ``thumb`` becomes the reference."""
        ref, self._reference = self._reference, thumb
        if ref is None or ref.shape != thumb.shape:
            return None
        mask = (cv2.absdiff(thumb, ref) > self.level).astype(np.uint8)
        if not mask.any():
            return []
        mask = np.asarray(cv2.dilate(mask, np.ones((3, 3), np.uint8)), dtype=np.uint8)
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        w, h = image_size_px
        regions = []
        for i in range(1, n):
            x, y, bw, bh = (int(v) for v in stats[i, :4])
            regions.append(
                Region(
                    round(x * self._scale) - self.pad_px,
                    round(y * self._scale) - self.pad_px,
                    round((x + bw) * self._scale) + self.pad_px,
                    round((y + bh) * self._scale) + self.pad_px,
                ).clipped(w, h)
            )
        return regions

    def unchanged(self, grey: GreyImage) -> bool:
        """Whether ``grey`` shows the reference's picture (no thumbnail pixel moved by more than
        ``level``). A changed frame becomes the reference; an unchanged one does not, so a slow
        change (light drifting) is caught once it adds up to ``level``."""
        thumb = self.thumbnail(grey)
        ref = self._reference
        if (
            ref is not None
            and ref.shape == thumb.shape
            and float(cv2.minMaxLoc(cv2.absdiff(thumb, ref))[1]) <= self.level
        ):
            return True
        self._reference = thumb
        return False

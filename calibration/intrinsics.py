"""Camera intrinsics: the pinhole matrix and lens distortion of one camera at one resolution.

Pixels throughout: ``camera_matrix`` holds fx, fy, cx, cy in pixels; ``image_size_px`` is the
(width, height) the intrinsics were measured at. ``dist_coeffs`` are OpenCV's (k1, k2, p1, p2[, k3,
...]) and have no unit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from calibration.errors import CalibrationError


@dataclass(frozen=True)
class Intrinsics:
    """A camera's pinhole matrix (pixels) and distortion coefficients, for one image size."""

    camera_matrix: tuple[tuple[float, float, float], ...]
    """3x3 matrix [[fx, 0, cx], [0, fy, cy], [0, 0, 1]] in pixels."""
    dist_coeffs: tuple[float, ...]
    """OpenCV distortion coefficients (k1, k2, p1, p2[, k3, ...]); empty for none."""
    image_size_px: tuple[int, int]
    """(width, height) in pixels of the images these intrinsics describe."""
    source: str = "unknown"
    """Where they came from, e.g. "charuco: 12 views", "chessboard", "renderer truth"."""

    @property
    def fx_px(self) -> float:
        """Focal length along x, pixels."""
        return self.camera_matrix[0][0]

    @property
    def fy_px(self) -> float:
        """Focal length along y, pixels."""
        return self.camera_matrix[1][1]

    @property
    def cx_px(self) -> float:
        """Principal point x, pixels."""
        return self.camera_matrix[0][2]

    @property
    def cy_px(self) -> float:
        """Principal point y, pixels."""
        return self.camera_matrix[1][2]

    def matrix(self) -> npt.NDArray[np.float64]:
        """The camera matrix as a 3x3 float64 array (pixels)."""
        return np.array(self.camera_matrix, dtype=np.float64)

    def distortion(self) -> npt.NDArray[np.float64]:
        """The distortion coefficients as a float64 row (OpenCV's layout)."""
        return np.array(self.dist_coeffs, dtype=np.float64).reshape(1, -1)

    def scaled_to(self, image_size_px: tuple[int, int]) -> Intrinsics:
        """The same lens at another resolution of the same aspect (pixels scale linearly)."""
        w0, h0 = self.image_size_px
        w1, h1 = image_size_px
        if (w0, h0) == (w1, h1):
            return self
        if abs(w1 / w0 - h1 / h0) > 1e-3:
            raise CalibrationError(
                f"intrinsics measured at {w0}x{h0} cannot be used at {w1}x{h1}: "
                "the aspect ratio differs; calibrate the lens at this resolution"
            )
        s = w1 / w0
        m = self.matrix()
        m[0, :] *= s
        m[1, :] *= s
        return from_arrays(m, self.distortion(), (w1, h1), f"{self.source} (scaled)")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict with the keys ``camera_matrix``, ``dist_coeffs``,
        ``image_size_px`` and ``source``."""
        return {
            "camera_matrix": [list(row) for row in self.camera_matrix],
            "dist_coeffs": list(self.dist_coeffs),
            "image_size_px": list(self.image_size_px),
            "source": self.source,
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Intrinsics:
        """Read the dict written by :meth:`to_dict`; raises CalibrationError naming a bad field."""
        try:
            m = np.array(data["camera_matrix"], dtype=np.float64)
            d = np.array(data.get("dist_coeffs", []), dtype=np.float64).ravel()
            size = data["image_size_px"]
            w, h = int(size[0]), int(size[1])
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise CalibrationError(f"intrinsics: missing or malformed field ({exc})") from exc
        if m.shape != (3, 3) or not np.all(np.isfinite(m)) or m[0, 0] <= 0 or m[1, 1] <= 0:
            raise CalibrationError(f"intrinsics: camera_matrix must be 3x3 with fx, fy > 0: {m}")
        if d.size not in (0, 4, 5, 8, 12, 14):
            raise CalibrationError(
                f"intrinsics: dist_coeffs must have 0, 4, 5, 8, 12 or 14 values, got {d.size}"
            )
        return from_arrays(m, d, (w, h), str(data.get("source", "unknown")))


def from_arrays(
    camera_matrix: npt.ArrayLike,
    dist_coeffs: npt.ArrayLike,
    image_size_px: Sequence[int],
    source: str = "unknown",
) -> Intrinsics:
    """Build Intrinsics from OpenCV arrays (3x3 matrix in pixels, distortion row)."""
    m = np.asarray(camera_matrix, dtype=np.float64).reshape(3, 3)
    d = np.asarray(dist_coeffs, dtype=np.float64).ravel()
    rows = tuple((float(r[0]), float(r[1]), float(r[2])) for r in m)
    return Intrinsics(
        camera_matrix=rows,
        dist_coeffs=tuple(float(v) for v in d),
        image_size_px=(int(image_size_px[0]), int(image_size_px[1])),
        source=source,
    )

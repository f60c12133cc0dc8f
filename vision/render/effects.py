"""What the sensor and the room do to a rendered image: light falloff, blur, noise, JPEG."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class Effects:
    """Image degradations, applied after the lens in this order: light, blur, noise, JPEG."""

    vignette: float = 0.25
    """Fractional darkening at the image corners (0: none)."""
    light_gradient: float = 0.12
    """Fractional brightness change across the image along ``light_angle_deg``."""
    light_angle_deg: float = 30.0
    """Direction of increasing light in the image, degrees from the image's +x toward +y."""
    blur_sigma_px: float = 0.6
    """Gaussian blur (focus and optics), pixels; 0 for none."""
    motion_blur_px: float = 0.0
    """Length of a linear motion blur, pixels; 0 for none."""
    motion_angle_deg: float = 0.0
    """Direction of the motion blur in the image, degrees from +x."""
    noise_sigma: float = 2.0
    """Gaussian sensor noise, grey levels (0-255 scale)."""
    jpeg_quality: int | None = 90
    """JPEG round trip at this quality (MJPEG webcams); None for none."""

    @classmethod
    def clean(cls) -> Effects:
        """No degradation at all: the exact rendering."""
        return cls(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, None)


def apply_effects(image: Image, effects: Effects, rng: np.random.Generator) -> Image:
    """The degraded copy of ``image`` (BGR uint8); ``rng`` drives the noise."""
    return apply_sensor(apply_optics(image, effects), effects, rng)


def optics_reach_px(effects: Effects) -> int:
    """How far, in pixels, the optics carry a pixel's light to its neighbours: a region
    padded by this much gives its inner part exactly as the whole image would."""
    reach = 0
    if effects.blur_sigma_px > 0:
        reach += math.ceil(4.0 * effects.blur_sigma_px) + 1
    if effects.motion_blur_px >= 1.0:
        reach += math.ceil(effects.motion_blur_px) + 1
    return reach


def apply_optics(
    image: Image,
    effects: Effects,
    *,
    offset: tuple[int, int] = (0, 0),
    frame_size: tuple[int, int] | None = None,
) -> Image:
    """What the lens and the room's light do (light falloff, blur, motion blur): the same for
    every frame of a still picture, so a still layer goes through them once.

    ``image`` may be a region of a frame of ``frame_size`` (width, height) pixels whose
    top-left pixel is ``offset`` (x, y); its inner part, :func:`optics_reach_px` in from the
    region's edges that are not the frame's, is then what the whole frame would give."""
    out = image
    w, h = frame_size if frame_size is not None else (image.shape[1], image.shape[0])
    if effects.vignette > 0 or effects.light_gradient != 0:
        gain = _gain_map(w, h, effects.vignette, effects.light_gradient, effects.light_angle_deg)
        x0, y0 = offset
        gain = gain[y0 : y0 + image.shape[0], x0 : x0 + image.shape[1]]
        out = cv2.multiply(out, gain, scale=1.0 / 128.0, dtype=cv2.CV_8U)
    if effects.blur_sigma_px > 0:
        out = cv2.GaussianBlur(out, (0, 0), effects.blur_sigma_px)
    if effects.motion_blur_px >= 1.0:
        out = cv2.filter2D(
            out, -1, _motion_kernel(effects.motion_blur_px, effects.motion_angle_deg)
        )
    return out if out is not image else image.copy()


def apply_sensor(image: Image, effects: Effects, rng: np.random.Generator) -> Image:
    """What the sensor and the video link do to one frame (noise, JPEG); ``rng`` drives the
    noise. Returns a new image."""
    return apply_jpeg(add_noise(image, effects, rng), effects)


def add_noise(
    image: Image,
    effects: Effects,
    rng: np.random.Generator,
    *,
    offset: tuple[int, int] = (0, 0),
    frame_size: tuple[int, int] | None = None,
) -> Image:
    """``image`` with the sensor's noise (a new image); like :func:`apply_optics`, ``image``
    may be a region at ``offset`` of a frame of ``frame_size`` (width, height) pixels: it gets
    the noise the whole frame would get there. ``rng`` picks the frame's noise."""
    if effects.noise_sigma <= 0:
        return image.copy()
    w, h = frame_size if frame_size is not None else (image.shape[1], image.shape[0])
    bank = _noise_bank((h, w, *image.shape[2:]), effects.noise_sigma)
    dy, dx = (int(v) for v in rng.integers(0, _NOISE_SLACK, size=2))
    y0, x0 = dy + offset[1], dx + offset[0]
    window = bank[y0 : y0 + image.shape[0], x0 : x0 + image.shape[1]]
    return cv2.add(image, window, dtype=cv2.CV_8U)


def apply_jpeg(image: Image, effects: Effects) -> Image:
    """``image`` through the link's JPEG at ``effects.jpeg_quality`` (a copy when None)."""
    if effects.jpeg_quality is None:
        return image.copy()
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(effects.jpeg_quality)])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else image.copy()


_NOISE_SLACK = 97


@lru_cache(maxsize=2)
def _noise_bank(shape: tuple[int, ...], sigma: float) -> npt.NDArray[np.int16]:
    """Gaussian noise a little larger than an image; each frame takes a random window of it."""
    bank = np.empty((shape[0] + _NOISE_SLACK, shape[1] + _NOISE_SLACK, *shape[2:]), np.int16)
    cv2.setRNGSeed(int(sigma * 1000) + 1)
    channels = shape[2] if len(shape) > 2 else 1
    cv2.randn(bank, (0.0,) * channels, (sigma,) * channels)  # a scalar would fill channel 0 only
    return bank


@lru_cache(maxsize=4)
def _gain_map(w: int, h: int, vignette: float, gradient: float, angle_deg: float) -> Image:
    """Per-pixel brightness gain x 128 (uint8, 3 channels): cos^4-like falloff and a ramp."""
    xs = (np.arange(w, dtype=np.float32) - (w - 1) / 2) / ((w - 1) / 2)
    ys = (np.arange(h, dtype=np.float32) - (h - 1) / 2) / ((h - 1) / 2)
    gx, gy = np.meshgrid(xs * (w / max(w, h)), ys * (h / max(w, h)))
    r2 = (gx**2 + gy**2) / max(float((gx**2 + gy**2).max()), 1e-9)
    fall = 1.0 - vignette * r2**1.2
    a = math.radians(angle_deg)
    ramp = 1.0 + 0.5 * gradient * (gx * math.cos(a) + gy * math.sin(a))
    gain = np.clip(fall * ramp * 128.0, 0, 255).astype(np.uint8)
    return cv2.merge([gain, gain, gain])


def _motion_kernel(length_px: float, angle_deg: float) -> npt.NDArray[np.float32]:
    n = math.ceil(length_px) | 1
    k = np.zeros((n, n), np.float32)
    c = n // 2
    a = math.radians(angle_deg)
    dx, dy = math.cos(a) * length_px / 2, math.sin(a) * length_px / 2
    cv2.line(k, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1)
    return k / max(float(k.sum()), 1e-9)

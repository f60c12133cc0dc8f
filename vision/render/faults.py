"""Webcam faults for the synthetic camera: each a named option, each as strong as a real webcam's.

``soloscope render --faults mjpeg,noise`` and ``soloscope footage --faults webcam`` (every
fault) render with them; :func:`parse_faults` reads the option. Most faults are stages of the
renderer's per-frame post-processing (:class:`~vision.render.pipeline.PostProcess`); three
change what the picture is made from and cost nothing per frame: ``vignette`` (the optics,
applied once per board state), ``distortion`` (the camera's lens) and ``shadow`` (the light
the hand's shadow is drawn under). No fault costs anything when it is off. Every random draw
is seeded by the render's seed and the frame's index: a seed gives the same clip every time.

Where each strength comes from (figures of typical 1080p/4K USB webcams; the renderer's camera
is ``Camera.overhead``: 50 deg vertical field, 79 deg horizontal, 44 deg from the axis to a
corner):

- ``mjpeg``: the link's JPEG at quality :data:`MJPEG_QUALITY` (75) instead of 90. UVC webcams
  send 1080p30 as MJPEG at quality about 70-85 (the range issue 24 gives). USB 2.0 carries
  about 35 MB/s, and a frame of the rendered table at quality 75 is 0.11 MB at 1080p (3.2 MB/s
  at 30 fps; 0.37 MB at 4K), so the link does not force it lower.
- ``noise``: fresh sensor noise in every frame, by the photon transfer curve: sigma^2 =
  gain x signal + read^2 grey levels, with :data:`NOISE_GAIN_DN_PER_E` (0.43 grey levels per
  electron: full white is about 600 photo-electrons, what a 1.4-2 um webcam pixel collects in
  1/30 s in a dim room of about 50 lux) and :data:`READ_NOISE_DN` (2 grey levels): 7.6 grey
  levels at mid grey, 4 on a tag's black, 10 on white (no ISP denoising assumed).
- ``blur``: motion blur of the hand (and what it carries) over a :data:`EXPOSURE_S` (1/30 s)
  exposure, the whole frame time, which is what auto exposure picks in a dim room: a hand at
  the renderer's 450 mm/s moves 15 mm in it, 21 px at 1080p and 41 px at 4K over a 2 ft table.
- ``exposure``: auto exposure breathing by +-:data:`EXPOSURE_DRIFT_EV` (0.4 EV) over a
  :data:`EXPOSURE_PERIOD_S` (7 s) cycle, and stepping down by :data:`HAND_EXPOSURE_EV` (0.3 EV)
  with a :data:`EXPOSURE_LAG_S` (0.4 s) lag while the bright hand is over the table (webcam
  AE loops settle in 10-30 frames); applied to the gamma-encoded picture (x 2^(EV/2.2)),
  highlights clipping at white.
- ``vignette``: corners at :data:`VIGNETTE` (45 %) darker than the centre: cos^4 falloff at the
  corner's 44 deg is 73 %, and webcam lens-shading correction leaves 30-50 % of it.
- ``distortion``: barrel distortion :data:`FAULT_DISTORTION` (k1 -0.18, k2 0.04, and 1e-3
  tangential terms from a decentred lens), about three times the renderer's default: the order
  of OpenCV calibrations of 78-90 deg webcams; the tracker is given the lens calibration
  (calibrate's lens step), as with the default lens.
- ``shadow``: a hard shadow from a desk lamp (:data:`DESK_LAMP`): lamp about 0.9 m up and
  0.65 m to the side (the shadow falls 0.72 mm per mm of height), a 20 mm bulb (an edge blur of
  2 % of the hand's height: 3 mm at 150 mm) and 60 % of the table's light from the lamp.
- ``glare``: the specular highlight of a ceiling light on glossy (satin-laminated) tags: the
  lamp :data:`GLARE_LAMP_MM` above the table, the highlight where the mirror ray reaches the
  camera (:func:`glare_spot_mm`), on the tags' stickers only (the mat is matt). Two parts: the
  lamp's mirror image, a 60 mm shade 1.4 m up seen in the table from 0.8 m is 22 mm across,
  blurred by the satin finish to :data:`GLARE_CORE_SIGMA_MM` (12 mm) and adding
  :data:`GLARE_CORE_DN` (90 grey levels) at its centre; and the satin sheen around it,
  :data:`GLARE_SHEEN_DN` (50) over :data:`GLARE_SHEEN_SIGMA_MM` (80 mm, a lobe of about
  +-6 deg seen from 0.8 m). At the centre a tag's black reads about 170, its white 255. How
  bright a highlight is depends on the lamp and the finish more than on the webcam; this is
  the brightest at which the kit's tag at the spot is still found, by our detector and by
  plain OpenCV alike, at 1080p and 4K (measured on the renderer: with a core of 110 neither
  finds it; such a highlight needs matt stickers).

A full mirror highlight (gloss laminate under a bare bulb) saturates a tag whole: no detector
reads it, and the kit's advice is matt stickers; ``glare`` models the satin case.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.render.camera import MM_PER_INCH, Camera
from vision.render.draw import ImageCanvas
from vision.render.effects import Effects, _motion_kernel
from vision.render.frame import FrameTruth
from vision.render.hand import ROOM_LIGHT, HandPose, ShadowLight, draw_hand
from vision.render.pipeline import FramePipeline, Instant, JpegLink, PostProcess, Shot
from vision.render.scene import Scene

Image = npt.NDArray[np.uint8]

FAULTS = ("blur", "glare", "shadow", "vignette", "distortion", "exposure", "noise", "mjpeg")
"""Every fault, in the order the picture meets them (the scene, the lens, the sensor, the
link)."""
PRESETS = {"webcam": FAULTS}
"""Names for sets of faults: ``webcam`` is all of them."""

MJPEG_QUALITY = 75
NOISE_GAIN_DN_PER_E = 0.43
READ_NOISE_DN = 2.0
EXPOSURE_S = 1.0 / 30.0
EXPOSURE_DRIFT_EV = 0.4
EXPOSURE_PERIOD_S = 7.0
HAND_EXPOSURE_EV = -0.3
EXPOSURE_LAG_S = 0.4
VIGNETTE = 0.45
FAULT_DISTORTION: tuple[float, float, float, float, float] = (-0.18, 0.04, 0.001, -0.001, 0.0)
DESK_LAMP = ShadowLight(shift=(0.6, 0.4), strength=0.6, softness=0.02, min_blur_px=0.7)
GLARE_LAMP_MM = (250.0, 150.0, 1400.0)
"""The ceiling light, millimetres from the point under the camera (right, away, up)."""
GLARE_CORE_DN = 90.0
GLARE_CORE_SIGMA_MM = 12.0
GLARE_SHEEN_DN = 50.0
GLARE_SHEEN_SIGMA_MM = 80.0
GLARE_STICKER = 1.3
"""A tag's sticker (the square and its white margin) is this many times its black square."""
_NOISE_UNIT = 32.0
"""The noise bank's sigma, grey levels: a frame's noise is the bank scaled per pixel."""


@dataclass(frozen=True)
class CameraFaults:
    """A set of webcam faults (names of :data:`FAULTS`, in that order; empty: none)."""

    names: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.names)

    def __contains__(self, name: object) -> bool:
        return name in self.names

    def key(self) -> str:
        """The faults as one word for cache keys and file metadata ("none" for none)."""
        return "+".join(self.names) or "none"

    def camera(self, camera: Camera) -> Camera:
        """``camera`` with the faulty lens when ``distortion`` is on (idempotent)."""
        return replace(camera, dist=FAULT_DISTORTION) if "distortion" in self else camera

    def effects(self, effects: Effects) -> Effects:
        """``effects`` with the webcam's vignetting when ``vignette`` is on."""
        return replace(effects, vignette=VIGNETTE) if "vignette" in self else effects

    def shadow(self) -> ShadowLight:
        """The light the hand's shadow is cast by: the desk lamp when ``shadow`` is on."""
        return DESK_LAMP if "shadow" in self else ROOM_LIGHT

    def post(self, effects: Effects, seed: int) -> tuple[PostProcess, ...]:
        """The per-frame stages for these faults after ``effects``' own (its link's JPEG, or
        the webcam's MJPEG in its place), fresh for one clip."""
        stages: list[PostProcess] = []
        if "blur" in self:
            stages.append(HandMotionBlur())
        if "glare" in self:
            stages.append(TagGlare())
        if "exposure" in self:
            stages.append(ExposureDrift())
        if "noise" in self:
            stages.append(LowLightNoise(seed))
        quality = MJPEG_QUALITY if "mjpeg" in self else effects.jpeg_quality
        if quality is not None:
            stages.append(JpegLink(quality))
        return tuple(stages)


NO_FAULTS = CameraFaults()


def parse_faults(text: str | None) -> CameraFaults:
    """The faults a comma-separated list names (fault names of :data:`FAULTS`, preset names
    of :data:`PRESETS`, or "none"); ``ValueError`` naming the first unknown one."""
    wanted: set[str] = set()
    for word in (text or "").split(","):
        name = word.strip().lower()
        if not name or name == "none":
            continue
        if name in PRESETS:
            wanted.update(PRESETS[name])
        elif name in FAULTS:
            wanted.add(name)
        else:
            known = ", ".join([*FAULTS, *PRESETS, "none"])
            raise ValueError(f"unknown camera fault {word.strip()!r} (known: {known})")
    return CameraFaults(tuple(f for f in FAULTS if f in wanted))


def render_still(
    scene: Scene,
    camera: Camera,
    faults: CameraFaults,
    *,
    effects: Effects | None = None,
    seed: int = 0,
    dictionary: str = "DICT_4X4_50",
) -> tuple[Image, FrameTruth]:
    """One frame of ``scene`` with no hand, through ``faults.camera(camera)`` with
    ``faults`` (what :func:`~vision.render.frame.render_frame` draws, faults added)."""
    effects = faults.effects(Effects() if effects is None else effects)
    pipeline = FramePipeline(
        scene.table,
        effects=effects,
        seed=seed,
        dictionary=dictionary,
        post=faults.post(effects, seed),
        shadow=faults.shadow(),
    )
    return pipeline.frame(Instant(scene, faults.camera(camera), None), 0, 0.0)


@dataclass
class HandMotionBlur:
    """The hand smeared along its motion over one exposure of :data:`EXPOSURE_S`: the hand's
    layer is blurred along the palm's image velocity and laid over the board it passes."""

    exposure_s: float = EXPOSURE_S
    per_frame: bool = False
    """True after a blurred frame: the next is made again even if it shows the same (a hand
    that stops is sharp in the frame after)."""
    _last: tuple[int, float, HandPose] | None = field(default=None, repr=False)

    def __call__(self, image: Image, shot: Shot) -> Image:
        hand, box = shot.now.hand, shot.picture.box
        index, t = shot.truth.frame, shot.truth.t
        last, self._last = self._last, (index, t, hand) if hand is not None else None
        self.per_frame = False
        if hand is None or box is None or last is None or index <= last[0]:
            return image
        i0, t0, before = last
        # the hand stood still in repeated frames: it moved within the last frame's time
        frame_s = (t - t0) / (index - i0)
        cam = shot.now.camera
        a, b = (
            cam.project(np.array([[p.x_in * MM_PER_INCH, p.y_in * MM_PER_INCH, p.height_mm]]))[0]
            for p in (before, hand)
        )
        dx, dy = (b - a) * (self.exposure_s / max(frame_s, 1e-9))
        length = math.hypot(dx, dy)
        self.per_frame = length >= 1.0
        if not self.per_frame:
            return image
        return _smear(image, shot, hand, box, length, math.degrees(math.atan2(dy, dx)))


def _smear(
    image: Image,
    shot: Shot,
    hand: HandPose,
    box: tuple[int, int, int, int],
    length: float,
    angle_deg: float,
) -> Image:
    """``image`` with the hand in ``box`` blurred ``length`` pixels along ``angle_deg``."""
    h, w = image.shape[:2]
    reach = math.ceil(length) + 1
    x0, y0 = max(box[0] - reach, 0), max(box[1] - reach, 0)
    x1, y1 = min(box[2] + reach, w), min(box[3] + reach, h)
    region = image[y0:y1, x0:x1]
    # the hand's coverage (alpha): drawn over black and over white, it differs where it is not
    dark = np.zeros_like(region)
    light = np.full_like(region, 255)
    for canvas in (dark, light):
        draw_hand(ImageCanvas.over(shot.now.camera, canvas, (x0, y0)), hand)
    alpha = 1.0 - (light[..., 1].astype(np.float32) - dark[..., 1]) / 255.0
    a3 = cv2.merge([alpha] * 3)
    board = shot.picture.base[y0:y1, x0:x1].astype(np.float32)
    seen = region.astype(np.float32)
    under = seen * (1.0 - a3) + board * a3  # what the hand hides: the board as it was
    kernel = _motion_kernel(length, angle_deg)
    layer = cv2.filter2D(seen * a3, -1, kernel, borderType=cv2.BORDER_REPLICATE)
    cover = cv2.filter2D(a3, -1, kernel, borderType=cv2.BORDER_REPLICATE)
    out = image.copy()
    out[y0:y1, x0:x1] = np.clip(layer + under * (1.0 - cover) + 0.5, 0, 255).astype(np.uint8)
    return out


@dataclass
class TagGlare:
    """A ceiling light's highlight on the tags' glossy stickers (see the module docstring)."""

    per_frame: bool = False
    _lobe: tuple[Camera, Image, tuple[int, int, int, int]] | None = field(default=None, repr=False)

    def __call__(self, image: Image, shot: Shot) -> Image:
        lobe, (x0, y0, x1, y1) = self._lobe_for(shot.now.camera)
        if x1 <= x0 or y1 <= y0:  # the highlight falls outside the picture
            return image
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        for tag in shot.truth.tags:
            if tag.covered_fraction > 0.0:
                continue
            quad = np.asarray(tag.corners_px, np.float64)
            c = quad.mean(axis=0)
            sticker = (quad - c) * GLARE_STICKER + c - (x0, y0)
            if (sticker.max(axis=0) < 0).any() or (sticker.min(axis=0) > (x1 - x0, y1 - y0)).any():
                continue
            cv2.fillConvexPoly(mask, np.round(sticker * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
        if not mask.any():
            return image
        add = cv2.multiply(lobe, cv2.merge([mask] * 3), scale=1.0 / 255.0)
        out = image.copy()
        out[y0:y1, x0:x1] = cv2.add(image[y0:y1, x0:x1], add)
        return out

    def _lobe_for(self, camera: Camera) -> tuple[Image, tuple[int, int, int, int]]:
        if self._lobe is None or self._lobe[0] != camera:
            self._lobe = (camera, *_glare_lobe(camera))
        return self._lobe[1], self._lobe[2]


def glare_spot_mm(camera: Camera) -> tuple[float, float]:
    """Where on the table (x, y millimetres) the camera sees the ceiling light's mirror
    image: the camera's ray to the lamp's reflection below the table crosses it there."""
    cx, cy, cz = camera.position_mm
    lx, ly, lz = cx + GLARE_LAMP_MM[0], cy + GLARE_LAMP_MM[1], GLARE_LAMP_MM[2]
    s = cz / (cz + lz)
    return cx + s * (lx - cx), cy + s * (ly - cy)


def _glare_lobe(camera: Camera) -> tuple[Image, tuple[int, int, int, int]]:
    """The highlight's brightness (grey levels added, 3 channels) over its box (x0, y0, x1,
    y1) of the picture, around :func:`glare_spot_mm`."""
    u, v = camera.project(np.array([[*glare_spot_mm(camera), 0.0]]))[0]
    px_per_mm = camera.px_per_mm_at_table()
    sheen_px, core_px = GLARE_SHEEN_SIGMA_MM * px_per_mm, GLARE_CORE_SIGMA_MM * px_per_mm
    r = 3.0 * sheen_px
    w, h = camera.width_px, camera.height_px
    x0, y0 = max(int(u - r), 0), max(int(v - r), 0)
    x1, y1 = min(int(u + r) + 1, w), min(int(v + r) + 1, h)
    xs = np.arange(x0, x1, dtype=np.float32) - u
    ys = np.arange(y0, y1, dtype=np.float32) - v
    d2 = xs[None, :] ** 2 + ys[:, None] ** 2
    light = GLARE_SHEEN_DN * np.exp(-d2 / (2 * sheen_px**2))
    light += GLARE_CORE_DN * np.exp(-d2 / (2 * core_px**2))
    lobe = np.clip(light + 0.5, 0, 255).astype(np.uint8)
    return cv2.merge([lobe] * 3), (x0, y0, x1, y1)


@dataclass
class ExposureDrift:
    """Auto exposure breathing slowly and stepping down while the hand is over the table
    (see the module docstring); a lookup table per frame."""

    per_frame: bool = True
    _state: tuple[float, float] | None = field(default=None, repr=False)
    """The last frame's time (seconds) and the hand's step reached then (EV)."""

    def __call__(self, image: Image, shot: Shot) -> Image:
        t = shot.truth.t
        target = HAND_EXPOSURE_EV if shot.truth.hand_over_table else 0.0
        if self._state is None:
            step = target
        else:
            t0, step0 = self._state
            step = target + (step0 - target) * math.exp(-max(t - t0, 0.0) / EXPOSURE_LAG_S)
        self._state = (t, step)
        ev = EXPOSURE_DRIFT_EV * math.sin(2.0 * math.pi * t / EXPOSURE_PERIOD_S) + step
        gain = 2.0 ** (ev / 2.2)
        lut = np.clip(np.arange(256, dtype=np.float32) * gain + 0.5, 0, 255).astype(np.uint8)
        return cv2.LUT(image, lut)


@dataclass
class LowLightNoise:
    """Fresh sensor noise in every frame, as strong as the photon transfer curve gives for
    each pixel's brightness (see the module docstring); seeded by ``seed`` and the frame."""

    seed: int
    per_frame: bool = True

    def __call__(self, image: Image, shot: Shot) -> Image:
        h, w = image.shape[:2]
        bank = _unit_noise((h, w, *image.shape[2:]))
        rng = np.random.default_rng((self.seed, shot.truth.frame, 24))
        dy, dx = (int(v) for v in rng.integers(0, _SLACK, size=2))
        unit = bank[dy : dy + h, dx : dx + w]
        scale = cv2.LUT(image, _SIGMA_X16).astype(np.int16)  # sigma x 16
        noise = cv2.multiply(unit, scale, scale=1.0 / (16.0 * _NOISE_UNIT), dtype=cv2.CV_16S)
        return cv2.add(image, noise, dtype=cv2.CV_8U)


def noise_sigma_dn(level: float) -> float:
    """The low-light noise's sigma at a pixel of ``level`` grey levels (0-255)."""
    return math.sqrt(NOISE_GAIN_DN_PER_E * level + READ_NOISE_DN**2)


_SLACK = 127
"""How much larger than a frame the noise bank is, pixels each way: a frame's noise is the
window at a random offset (127^2 different noises)."""


@lru_cache(maxsize=2)
def _unit_noise(shape: tuple[int, ...]) -> npt.NDArray[np.int16]:
    """Gaussian noise of sigma :data:`_NOISE_UNIT` in every channel, a little larger than
    a frame of ``shape``."""
    bank = np.empty((shape[0] + _SLACK, shape[1] + _SLACK, *shape[2:]), np.int16)
    channels = shape[2] if len(shape) > 2 else 1
    cv2.setRNGSeed(24)
    cv2.randn(bank, (0.0,) * channels, (_NOISE_UNIT,) * channels)
    return bank


_SIGMA_X16 = np.array([round(16 * noise_sigma_dn(v)) for v in range(256)], np.uint8)
"""The noise's sigma x 16 for each grey level."""

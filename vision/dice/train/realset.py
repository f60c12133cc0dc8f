"""The hand-labelled real photographs of dice kept outside the project
(``../shared/realdata/dice``): loading them and scoring a reading against their labels.

The set is a development and test set, never copied into the repository. Its ``labels.json``
lists every die of every photo: the top face's value (1-6, or None where it cannot be told for
certain) and the approximate pixel centre of the top face. A die read is matched to the
labelled die nearest to it, within half the distance from that die to its nearest labelled
neighbour (at most :data:`MATCH_PX`); a reading matched to no labelled die is a phantom.

The photos are split by photo into a *tuning* half (what the reader's thresholds were chosen
on) and a *held-out* half (never looked at while tuning): :data:`HELD_OUT` names the held-out
photos, taken in turn from each source so that both halves hold every source.
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice.types import DiceRead

REALDATA = Path(__file__).resolve().parents[3] / ".." / "shared" / "realdata" / "dice"
"""Where the set lives beside the project checkout (may be absent)."""
MATCH_PX = 60.0
"""Largest distance, image pixels, between a reading and the labelled die it is matched to."""
HELD_OUT = frozenset(
    {
        "nellbyler-2.jpg",
        "nellbyler-4.jpg",
        "nellbyler-6.jpg",
        "nellbyler-8.jpg",
        "rune55-2.jpg",
        "rune55-5.jpg",
        "rune55-7.jpg",
        "rune55-9.jpg",
        "rune55-11.jpg",
        "rune55-13.jpg",
        "matteop65-2.jpg",
        "matteop65-4.jpg",
        "matteop65-6.jpg",
        "matteop65-8.jpg",
        "matteop65-10.jpg",
    }
)
"""Photos kept out of tuning (every second photo of each source)."""


@dataclass(frozen=True)
class LabelledDie:
    """One die of a photo as labelled: its value (None: present, value uncertain), centre
    (image pixels)."""

    value: int | None
    x: float
    y: float


@dataclass(frozen=True)
class Photo:
    """One labelled photo."""

    file: str
    source: str
    """Short name of the source (the file name's prefix: nellbyler, rune55, matteop65)."""
    dice: tuple[LabelledDie, ...]
    held_out: bool

    def image(self, root: Path = REALDATA) -> npt.NDArray[np.uint8]:
        """The photo (BGR). FileNotFoundError when it cannot be read."""
        image = cv2.imread(str(root / self.file), cv2.IMREAD_COLOR)
        if image is None:
            raise FileNotFoundError(root / self.file)
        return np.asarray(image, dtype=np.uint8)


def load_photos(root: Path = REALDATA) -> list[Photo]:
    """Every labelled photo of the set at ``root``. FileNotFoundError without ``labels.json``."""
    data = json.loads((root / "labels.json").read_text())
    photos = []
    for entry in data["images"]:
        name = str(entry["file"])
        dice = tuple(
            LabelledDie(
                None if d["value"] is None else int(d["value"]), float(d["x"]), float(d["y"])
            )
            for d in entry["dice"]
        )
        photos.append(Photo(name, name.split("-")[0], dice, name in HELD_OUT))
    return photos


@dataclass
class RealScore:
    """Counts of a reader's results on labelled photos (dice with a certain value only, except
    phantoms: readings where no die lies)."""

    right: int = 0
    wrong: int = 0
    unread: int = 0
    """Seen and reported not read (unsure, cocked, ...)."""
    missed: int = 0
    """Not reported at all."""
    phantoms: int = 0
    per_value: dict[int, Counter[str]] = field(default_factory=dict)
    confidences: list[tuple[float, bool]] = field(default_factory=list)
    """Each value read: its confidence and whether it was right."""
    wrong_cases: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        """Dice with a certain value scored."""
        return self.right + self.wrong + self.unread + self.missed

    @property
    def right_share(self) -> float:
        """Share of the certain dice read right."""
        return self.right / self.total if self.total else 0.0

    def add(self, photo: Photo, reading: DiceRead) -> None:
        """Score one photo's reading."""
        matched, phantoms = match(photo, reading)
        self.phantoms += phantoms
        for die, got in zip(photo.dice, matched, strict=True):
            if die.value is None:
                continue
            tally = self.per_value.setdefault(die.value, Counter())
            if got is None:
                self.missed += 1
                tally["missed"] += 1
            elif got[0] is None:
                self.unread += 1
                tally["unread"] += 1
            elif got[0] == die.value:
                self.right += 1
                tally["right"] += 1
                self.confidences.append((got[1], True))
            else:
                self.wrong += 1
                tally["wrong"] += 1
                self.confidences.append((got[1], False))
                self.wrong_cases.append(
                    f"{photo.file} ({die.x:.0f}, {die.y:.0f}): {die.value} read as {got[0]} "
                    f"(confidence {got[1]:.2f})"
                )

    def merge(self, other: RealScore) -> None:
        """Add another score's counts to this one."""
        self.right += other.right
        self.wrong += other.wrong
        self.unread += other.unread
        self.missed += other.missed
        self.phantoms += other.phantoms
        for v, c in other.per_value.items():
            self.per_value.setdefault(v, Counter()).update(c)
        self.confidences.extend(other.confidences)
        self.wrong_cases.extend(other.wrong_cases)

    def line(self) -> str:
        """One line of counts."""
        share = 100.0 * self.right_share
        return (
            f"right {self.right}/{self.total} ({share:.1f} %), wrong {self.wrong}, "
            f"unsure/unread {self.unread}, missed {self.missed}, phantoms {self.phantoms}"
        )

    def reliability(
        self, edges: tuple[float, ...] = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 1.01)
    ) -> list[str]:
        """The reliability table: per confidence band, values given and the share right."""
        rows = []
        for lo, hi in itertools.pairwise(edges):
            band = [ok for c, ok in self.confidences if lo <= c < hi]
            if band:
                rows.append(
                    f"  confidence {lo:.2f}-{min(hi, 1.0):.2f}: {len(band):3d} read, "
                    f"{sum(band):3d} right ({100.0 * sum(band) / len(band):.1f} %)"
                )
            else:
                rows.append(f"  confidence {lo:.2f}-{min(hi, 1.0):.2f}:   0 read")
        return rows


def match(photo: Photo, reading: DiceRead) -> tuple[list[tuple[int | None, float] | None], int]:
    """For each labelled die, the reading matched to it: (value, confidence) for a die read,
    (None, confidence) for a die reported not read or unsure, None when nothing was reported
    there; and the count of readings matched to no die (phantoms)."""
    reads: list[tuple[int | None, float]] = [(d.value, d.confidence) for d in reading.dice] + [
        (None, u.confidence) for u in reading.unreadable
    ]
    points = [(d.x_px, d.y_px) for d in reading.dice] + [
        (u.x_px, u.y_px) for u in reading.unreadable
    ]
    label_of = match_points(photo, points)
    out: list[tuple[int | None, float] | None] = [None] * len(photo.dice)
    for i, j in enumerate(label_of):
        if j is not None:
            out[j] = reads[i]
    return out, sum(1 for j in label_of if j is None)


def match_points(photo: Photo, points: list[tuple[float, float]]) -> list[int | None]:
    """For each point (image pixels) the index of the labelled die it is matched to, or None:
    nearest pairs first, each die and each point matched once, within half the distance from
    the die to its nearest labelled neighbour (at most :data:`MATCH_PX`)."""
    labels = np.array([[d.x, d.y] for d in photo.dice], dtype=np.float64).reshape(-1, 2)
    reach = np.full(len(labels), MATCH_PX)
    if len(labels) > 1:
        gaps = np.linalg.norm(labels[:, None] - labels[None, :], axis=2)
        np.fill_diagonal(gaps, np.inf)
        reach = np.minimum(reach, 0.5 * gaps.min(axis=1))
    pairs = []
    for i, (x, y) in enumerate(points):
        for j, (lx, ly) in enumerate(labels):
            dist = math.hypot(x - lx, y - ly)
            if dist <= max(reach[j], 8.0):
                pairs.append((dist, i, j))
    pairs.sort()
    out: list[int | None] = [None] * len(points)
    taken: set[int] = set()
    for _, i, j in pairs:
        if out[i] is not None or j in taken:
            continue
        out[i] = j
        taken.add(j)
    return out

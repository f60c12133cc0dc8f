"""Frames to observations for the live game: the project's detector and tracker, the
scenario's pieces and terrain, button tags, and unknown tags worth mentioning.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import cv2
import numpy as np

from assistant.pieces import terrain_kits, unit_specs
from assistant.session.observation import Observation, PieceSeen
from calibration.kit_ids import BUTTON_IDS
from calibration.profile import TableProfile
from calibration.table import CORNER_IDS
from engine.scenario import Scenario
from vision.detector import Detector
from vision.tracker import TablePipeline, Tracker
from vision.types import Frame, TagState

#: An unknown tag must be sighted this many times (full-frame searches come every 15 frames)
#: before it is mentioned.
UNKNOWN_SIGHTINGS = 3
#: Covering a button tag for at least this long (seconds) presses it.
BUTTON_PRESS_S = 0.6
#: ...and at most this long (longer is a hand resting there, or the tag taken away).
BUTTON_MAX_S = 4.0
#: Width of the rectified top-down picture for the page, pixels.
TOPDOWN_WIDTH_PX = 900


@dataclass
class ButtonWatcher:
    """A button tag covered by a finger for about a second, then seen again, is a press."""

    ids: dict[int, str]
    _hidden_since: dict[int, float] = field(default_factory=dict)
    _seen_once: set[int] = field(default_factory=set)

    def update(self, t: float, visible: set[int]) -> tuple[str, ...]:
        """Button presses completed at time ``t`` (seconds)."""
        pressed = []
        for tag_id, name in self.ids.items():
            if tag_id in visible:
                since = self._hidden_since.pop(tag_id, None)
                if (
                    since is not None
                    and tag_id in self._seen_once
                    and BUTTON_PRESS_S <= t - since <= BUTTON_MAX_S
                ):
                    pressed.append(name)
                self._seen_once.add(tag_id)
            elif tag_id in self._seen_once and tag_id not in self._hidden_since:
                self._hidden_since[tag_id] = t
        return tuple(pressed)


class TableReader:
    """Reads the scenario's pieces off each frame."""

    def __init__(
        self, scenario: Scenario, profile: TableProfile, *, region_search: bool = True
    ) -> None:
        self.profile = profile
        self.units = {spec.name for spec in unit_specs(scenario)}
        self.terrain = {kit.spec.name: kit.title for kit in terrain_kits(scenario)}
        specs = [*unit_specs(scenario), *(kit.spec for kit in terrain_kits(scenario))]
        self.piece_ids = {int(m.tag_id) for spec in specs for m in spec.tags}
        self.buttons = ButtonWatcher({int(i): name for name, i in BUTTON_IDS.items()})
        in_use = self.piece_ids | set(self.buttons.ids)
        self.detector = Detector(profile.dictionary)
        self.tracker = Tracker(profile, in_use, pieces=specs)
        self.pipeline = TablePipeline(self.detector, self.tracker, region_search=region_search)
        self._unknown: Counter[int] = Counter()
        self._topdown: tuple[np.ndarray, tuple[int, int]] | None = None

    def read(self, frame: Frame) -> Observation:
        """The table as this frame shows it."""
        snap, sightings = self.pipeline.read(frame)
        pieces: dict[str, PieceSeen] = {}
        terrain_seen: set[str] = set()
        terrain: dict[str, PieceSeen] = {}
        for pose in snap.pieces:
            if pose.state is TagState.LIFTED:
                continue
            if pose.name in self.units:
                pieces[pose.name] = PieceSeen(
                    pose.x_in, pose.y_in, pose.heading_deg, visible=pose.state is TagState.SEEN
                )
            elif pose.name in self.terrain:
                terrain_seen.add(pose.name)
                terrain[pose.name] = PieceSeen(
                    pose.x_in, pose.y_in, pose.heading_deg, visible=pose.state is TagState.SEEN
                )
        missing = tuple(title for name, title in self.terrain.items() if name not in terrain_seen)
        unknown = []
        for s in sightings:
            tag = int(s.tag_id)
            if tag in self.piece_ids or tag in self.buttons.ids or tag in CORNER_IDS:
                continue
            if self._inside_table(s.corners_px):
                self._unknown[tag] += 1
                if self._unknown[tag] >= UNKNOWN_SIGHTINGS:
                    unknown.append(tag)
        visible = {int(p.tag_id) for p in snap.tags if p.state is TagState.SEEN}
        return Observation(
            t=frame.t,
            settled=snap.settled,
            pieces=pieces,
            unknown_tags=tuple(sorted(set(unknown))),
            duplicate_tags=tuple(int(d) for d in snap.duplicates),
            missing_terrain=missing,
            terrain=terrain,
            buttons=self.buttons.update(frame.t, visible),
            warnings=snap.warnings,
        )

    def _inside_table(self, corners_px: tuple[tuple[float, float], ...]) -> bool:
        centre = np.mean(np.asarray(corners_px, dtype=np.float64), axis=0)
        x, y = self.tracker.mapping.to_table_in(centre[None, :])[0]
        return bool(0.0 <= x <= self.profile.width_in and 0.0 <= y <= self.profile.depth_in)

    def topdown_jpeg(self, frame: Frame) -> bytes | None:
        """The frame rectified to a top-down view of the play area (north up), JPEG bytes."""
        w_in, d_in = self.profile.width_in, self.profile.depth_in
        width = TOPDOWN_WIDTH_PX
        height = max(1, round(width * d_in / w_in))
        table_px = np.array([[0, 0], [w_in, 0], [w_in, d_in], [0, d_in]], dtype=np.float64)
        image_px = self.tracker.mapping.to_pixels(table_px)
        out_px = np.array([[0, height], [width, height], [width, 0], [0, 0]], dtype=np.float32)
        matrix = cv2.getPerspectiveTransform(np.asarray(image_px, dtype=np.float32), out_px)
        top = cv2.warpPerspective(frame.image, matrix, (width, height))
        ok, buf = cv2.imencode(".jpg", top, [cv2.IMWRITE_JPEG_QUALITY, 70])
        return buf.tobytes() if ok else None

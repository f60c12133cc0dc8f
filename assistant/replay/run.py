"""The replay job: footage in, timeline.json, index.html (and an annotated MP4) out.

``run_replay(options, progress)`` reads the footage once, every ``stride``-th frame, reports
its progress through a callback (the command draws a progress bar with the time left from it),
and writes its outputs even when stopped early (Ctrl-C) or when the footage
is damaged: what was read is replayed and the reason is in the warnings.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from assistant.errors import UserError
from assistant.kit_files import KitInUse, kit_in_use
from assistant.replay.dice_seen import TrayWatch
from assistant.replay.document import timeline_document
from assistant.replay.engine_replay import GameReplayer
from assistant.replay.footage import FootageReader, open_footage
from assistant.replay.observe import (
    FrameObserver,
    NoCornerTagsError,
    SightingDetector,
    fit_profile_from_footage,
    gather_footage_corners,
    make_detector,
)
from assistant.replay.reconstruct import (
    Roster,
    events_from_log,
    read_session_records,
    roster_from_scenario,
    tidy_logged,
)
from assistant.replay.review import load_corrections, write_review
from assistant.replay.timeline import Timeline, TimelineBuilder, TimelineSettings
from assistant.table_fit import judge, refusals_as_warnings, seen_tag_mm, smallest_tag_mm
from calibration.profile import TableProfile, build_profile, load_profile
from calibration.quality import MAX_REPROJECTION_MM
from calibration.safe_files import write_atomic, write_json_atomic

FRAMES_DIR = "frames"


@dataclass(frozen=True)
class ReplayOptions:
    """What to replay and where to write it."""

    footage: Path
    out_dir: Path
    profile: Path | None = None
    kit: Path | None = None
    """The kit file whose tag sizes and places the footage shows (default: the one the profile
    names, else the one the session's log names, else the scenario's own)."""
    scenario: str | None = None
    video: bool = False
    stride: int | None = None
    """Look at every stride-th frame; None: about 10 frames per second of footage."""
    images_fps: float = 1.0
    """For a folder of images: how many images make one second of footage."""
    width_in: float = 24.0
    """Table width when fitting the profile from the footage without a scenario."""
    depth_in: float = 24.0
    events: Path | None = None
    """A session's event log (events.jsonl or its recording folder); default: found beside
    the footage."""
    review: bool = False
    """Also write review.toml: the uncertain events, for the player to correct."""
    corrections: Path | None = None
    """A corrected review file: the replay is rebuilt with its names."""
    keyframe_width_px: int = 480
    keyframe_every_s: float = 2.0


@dataclass
class ReplayResult:
    """What a replay found and wrote."""

    timeline: Timeline
    out_dir: Path
    warnings: list[str] = field(default_factory=list)
    footage_s: float = 0.0
    """Seconds of footage covered."""
    elapsed_s: float = 0.0
    """Wall-clock seconds the replay took."""
    frames_read: int = 0
    frames_processed: int = 0
    detections: int = 0
    interrupted: bool = False
    summary: dict[str, Any] = field(default_factory=dict)
    """timeline.json's "summary": moves, removed, hidden and how each was known."""
    scenario: str | None = None
    """The scenario that named the pieces: --scenario, else the session log's, else the one
    the footage's metadata file names; None: pieces are shown by their tags."""

    @property
    def speed(self) -> float:
        """Footage seconds per wall-clock second (4.0 = four times real time)."""
        return self.footage_s / self.elapsed_s if self.elapsed_s > 0 else 0.0


ProgressFn = Callable[[float, float | None], None]
"""Called with (seconds of footage done, total seconds or None)."""


CAMERA_MOVE_GAP_S = 2.0
"""Re-fits of the table this close together (seconds) are one camera move (it settles)."""


def _keyframe(image: npt.NDArray[np.uint8], width_px: int) -> bytes:
    h, w = image.shape[:2]
    small = image
    if w > width_px:
        size = (width_px, round(h * width_px / w))
        small = np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), dtype=np.uint8)
    ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 72])
    return buf.tobytes() if ok else b""


def _profile_for(
    options: ReplayOptions, reader: FootageReader, roster: Roster | None, warnings: list[str]
) -> TableProfile:
    """The --profile (checked against the footage), or the table mapped from the footage's
    corner tags and judged as ``calibrate`` judges a set-up: what calibrate would refuse goes
    into ``warnings`` (the footage is filmed already; the replay goes ahead)."""
    detector = make_detector()
    if options.profile is not None:
        profile = load_profile(options.profile)
        _check_profile(options, profile, reader, roster, detector)
        return profile
    width, depth = (
        (roster.width_in, roster.depth_in) if roster else (options.width_in, options.depth_in)
    )
    gathered = gather_footage_corners(reader, detector)
    profile = build_profile(gathered.corners_px, reader.size_px, width, depth)
    # the scenario's smallest base tag, else the smallest tag seen (not judged when none is)
    pieces = roster.pieces if roster is not None else ()
    base_tags = [t.size_mm for p in pieces if p.base_diameter_mm > 0 for t in p.tags]
    tag_mm = (
        smallest_tag_mm(base_tags)
        if base_tags
        else seen_tag_mm(profile, detector.detect(gathered.image))
    )
    report = judge(profile, gathered, tag_mm)
    warnings.extend(refusals_as_warnings(report, str(options.footage)))
    return profile


def _check_profile(
    options: ReplayOptions,
    profile: TableProfile,
    reader: FootageReader,
    roster: Roster | None,
    detector: SightingDetector,
) -> None:
    """Refuse a --profile made for another camera picture or another table (one sentence)."""
    leave_out = "leave out --profile to fit one from the footage's corner tags"
    if tuple(profile.image_size_px) != tuple(reader.size_px):
        raise UserError(
            f"profile {options.profile} was made at {profile.image_size_px[0]}x"
            f"{profile.image_size_px[1]} px but {options.footage} is {reader.size_px[0]}x"
            f"{reader.size_px[1]}: {leave_out}"
        )
    size = f"{profile.width_in:g} x {profile.depth_in:g} in"
    if roster is not None and (profile.width_in, profile.depth_in) != (
        roster.width_in,
        roster.depth_in,
    ):
        raise UserError(
            f"profile {options.profile} is for a {size} table, but the scenario needs "
            f"{roster.width_in:g} x {roster.depth_in:g} in: {leave_out}"
        )
    try:
        fitted = fit_profile_from_footage(reader, detector, profile.width_in, profile.depth_in)
    except NoCornerTagsError:
        return  # nothing to check it against: the profile is all there is
    fit = fitted.fit
    if fit.reprojection_rms_mm > MAX_REPROJECTION_MM or fit.inliers < 4 * len(fit.corner_ids):
        raise UserError(
            f"profile {options.profile} is for a {size} table, but the corner tags in "
            f"{options.footage} fit a table of that size only to {fit.reprojection_rms_mm:.1f} "
            f"mm (another table?): {leave_out}"
        )


def _kit_for(
    options: ReplayOptions, records: list[dict[str, Any]], warnings: list[str]
) -> KitInUse | None:
    """The kit the footage shows: --kit, the profile's, or the one the session was played
    with (when its file is still there)."""
    used = kit_in_use(options.kit, options.profile)
    if used is not None:
        return used
    logged = next(
        (r["kit"] for r in records if r.get("type") == "session" and isinstance(r.get("kit"), str)),
        None,
    )
    if not logged:
        return None
    if not Path(logged).is_file():
        warnings.append(
            f"the session was played with the kit {logged}, which is not here: tags are placed "
            "as the scenario says; give --kit FILE"
        )
        return None
    return kit_in_use(Path(logged))


def _session_roster(
    records: list[dict[str, Any]], warnings: list[str], kit: KitInUse | None = None
) -> tuple[str | None, Roster | None]:
    """The scenario the session's log names, when no --scenario was given and it loads here."""
    name = next(
        (
            r["scenario"]
            for r in records
            if r.get("type") == "session" and isinstance(r.get("scenario"), str)
        ),
        None,
    )
    return _named_roster(name, "the session's scenario", warnings, kit)


def _named_roster(
    name: str | None, named_by: str, warnings: list[str], kit: KitInUse | None
) -> tuple[str | None, Roster | None]:
    """Scenario ``name`` and its roster (its tags sized by ``kit``) when it loads here; else a
    warning (``named_by`` says where the name came from) and no roster: the pieces are shown
    by their tags."""
    if not name:
        return None, None
    try:
        return name, roster_from_scenario(name, kit, warnings.append)
    except UserError as exc:
        warnings.append(
            f"{named_by} {name} cannot be loaded here ({exc}): pieces are shown by their tags; "
            "give --scenario to name them"
        )
        return None, None


def footage_scenario(footage: Path) -> str | None:
    """The scenario named by the metadata file beside a video (``NAME.json`` beside
    ``NAME.mp4``, as ``soloscope footage`` writes it: ``{"version": 1, "scenario", "video",
    ...}``), or None when there is none or it names another video. A scenario given as a
    relative path is taken from the metadata file's folder."""
    meta = footage.with_suffix(".json")
    if footage.is_dir() or not meta.is_file():
        return None
    try:
        data = json.loads(meta.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("video", footage.name) != footage.name:
        return None
    name = data.get("scenario")
    if not isinstance(name, str) or not name.strip():
        return None
    if name.endswith(".toml") and not Path(name).is_absolute():
        return str(meta.parent / name)
    return name


def _footage_roster(
    footage: Path, warnings: list[str], kit: KitInUse | None = None
) -> tuple[str | None, Roster | None]:
    """The scenario the footage's metadata file names, when no --scenario was given, the
    session's log names none, and it loads here."""
    named_by = f"the scenario named by {footage.with_suffix('.json').name}"
    return _named_roster(footage_scenario(footage), named_by, warnings, kit)


def run_replay(options: ReplayOptions, progress: ProgressFn | None = None) -> ReplayResult:
    """Replay the footage into ``options.out_dir``; see the module docstring."""
    from assistant.replay.viewer import write_viewer

    cv2.setNumThreads(min(2, cv2.getNumThreads()))  # at most 2; fewer where the caller set so
    started = time.monotonic()
    reader = open_footage(options.footage, images_fps=options.images_fps)
    warnings: list[str] = []
    log_problems: list[str] = []
    if options.events is not None and not options.events.exists():
        raise UserError(f"event log {options.events} does not exist")
    records = read_session_records(options.footage, log_problems, options.events)
    logged = tidy_logged(events_from_log(records)) if records else []
    warnings.extend(log_problems)
    scenario = options.scenario
    kit = _kit_for(options, records, warnings)
    roster = roster_from_scenario(scenario, kit, warnings.append) if scenario else None
    if scenario is None:
        scenario, roster = _session_roster(records, warnings, kit)
    if scenario is None:
        scenario, roster = _footage_roster(options.footage, warnings, kit)
    profile = _profile_for(options, reader, roster, warnings)
    out = options.out_dir
    out.mkdir(parents=True, exist_ok=True)
    frames_dir = out / FRAMES_DIR
    if frames_dir.exists():
        shutil.rmtree(frames_dir)
    frames_dir.mkdir()

    # With a scenario and no session log, the engine reconstructs the game from the moves.
    engine = GameReplayer(scenario) if scenario and not logged else None
    corrections = None
    if options.corrections is not None:
        if roster is None:
            raise UserError("--corrections needs the scenario (--scenario) to name the models")
        corrections = load_corrections(options.corrections, [p.name for p in roster.pieces])
    ids = roster.tag_ids() if roster else None
    pieces = roster.pieces if roster else ()
    observer = FrameObserver(profile, make_detector(), ids, pieces)
    tray = TrayWatch(profile)
    stride = options.stride or (1 if reader.kind == "images" else max(1, round(reader.fps / 10)))
    lag_s = (observer.confirm_frames - 1) * stride / reader.fps
    builder = TimelineBuilder(
        TimelineSettings(confirm_lag_s=lag_s), pieces=pieces, watch=observer.watch
    )
    video = None
    if options.video:
        from assistant.replay.video import AnnotatedVideo

        video = AnnotatedVideo(out / "replay.mp4", reader.fps / stride, profile, roster)
    keyframes: list[dict[str, Any]] = []
    total = reader.duration_s
    every = max(options.keyframe_every_s, (total or 0.0) / 400.0)
    next_key = 0.0
    was_settled = False
    reported = len(reader.warnings)
    last_t = 0.0
    last_checkpoint = time.monotonic()
    source = {
        "footage": str(options.footage),
        "scenario": scenario,
        "kind": reader.kind,
        "fps": reader.fps,
        "size_px": list(reader.size_px),
        "stride": stride,
    }
    result = ReplayResult(Timeline((), (), (), 0.0), out)

    def document(final: bool = False) -> dict[str, Any]:
        # the game from the moves (a search over unseen steps) is read once, at the end; a
        # checkpoint keeps what the footage showed so far
        return timeline_document(
            builder.timeline(),
            profile=profile,
            roster=roster,
            logged=logged,
            keyframes=keyframes,
            warnings=warnings + reader.warnings,
            source=source,
            engine=engine if final else None,
            corrections=corrections,
            seen_rolls=tray.rolls,
        )

    try:
        size_px = tuple(profile.image_size_px)
        for frame, grey in reader.frames_and_grey(stride):
            if (frame.image.shape[1], frame.image.shape[0]) != size_px:
                text = (
                    f"frame {frame.index} is {frame.image.shape[1]}x{frame.image.shape[0]} px, "
                    f"not {size_px[0]}x{size_px[1]} like the rest: skipped"
                )
                warnings.append(text)
                builder.warn(frame.t, text)
                continue
            moved = len(observer.camera_moves)
            snap = observer.observe(frame.t, frame.index, frame.image, grey)
            if len(observer.camera_moves) > moved and (
                moved == 0 or frame.t - observer.camera_moves[moved - 1] > CAMERA_MOVE_GAP_S
            ):
                text = (
                    f"The camera moved at {frame.t:.1f} s: the table was mapped again from its "
                    "corner tags."
                )
                builder.warn(frame.t, text)
            builder.add(snap)
            tray.look(frame.t, frame.image, observer.last_sightings, observer.tracker.mapping)
            while reported < len(reader.warnings):
                builder.warn(frame.t, reader.warnings[reported])
                reported += 1
            last_t = frame.t
            if frame.t >= next_key or (snap.settled and not was_settled):
                name = f"kf_{frame.index:07d}.jpg"
                write_atomic(frames_dir / name, _keyframe(frame.image, options.keyframe_width_px))
                keyframes.append({"t": round(frame.t, 3), "src": f"{FRAMES_DIR}/{name}"})
                if frame.t >= next_key:
                    next_key = frame.t + every
            was_settled = snap.settled
            if video is not None:
                video.write(frame.image, snap, builder)
            if progress is not None:
                progress(frame.t, total)
            if time.monotonic() - last_checkpoint > 20.0:
                write_json_atomic(out / "timeline.json", document(), indent=None)
                last_checkpoint = time.monotonic()
    except KeyboardInterrupt:
        result.interrupted = True
        warnings.append(f"stopped by the user after {last_t:.1f} s of footage")
    finally:
        if video is not None:
            video.close()
    if observer.frames == 0:
        raise UserError(f"no frame of {options.footage} could be read")
    judge = observer.tracker.settle_judge
    if judge is not None and not result.interrupted:
        builder.end_still(judge.still_since_t)
    doc = document(final=True)
    write_json_atomic(out / "timeline.json", doc, indent=None)
    write_viewer(out / "index.html", doc)
    if options.review:
        write_review(doc, out)
    result.timeline = builder.timeline()
    result.scenario = scenario
    result.warnings = doc["warnings"]
    result.summary = doc["summary"]
    result.footage_s = last_t + stride / reader.fps
    result.elapsed_s = time.monotonic() - started
    result.frames_read = reader.frames_read
    result.frames_processed = observer.frames
    result.detections = observer.detections
    return result

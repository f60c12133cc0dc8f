"""Vision benchmark: accuracy and speed of the camera-to-board pipeline against ground truth.

Run by ``make bench`` (not by the tests): ``.venv/bin/python benchmarks/vision_bench.py``.

For rendered sets of 48 tags (44 base tags + 4 corner tags; 1080p with 16 mm tags on 40 mm bases
and 4K with 10 mm tags on 25 mm bases, camera 0.8 m up, lens distortion, webcam effects) and for
every clip in ``sample_footage/`` that has a ground-truth file beside it, prints: recall (of the
tags the renderer says are visible), false ids, centre RMS (mm), heading RMS (deg), median ms per
frame of the pipeline (grey image to poses; with region search and with full-frame search),
frames per second, our detector alone on the whole frame and plain ``cv2.aruco.ArucoDetector``
with default parameters (taking turns on the same frames), the ratios of the pipeline and of the
detector to plain, and the median cost of decoding the frame (JPEG for renders, the video for
clips).
Per webcam fault of the synthetic camera (issue 24, ``vision/render/faults.py``), at the tag
sizes the kit asks for under a 1080p and a 4K webcam: recall, false ids, centre and heading
RMS over a clip of a table at rest, a hand sweeping over it and rest again, and what the fault
costs per frame (post-processing, CPU ms) — measured on the project's own renderer
(``--faults-only``: just this table).
Also, on every real photo set of ``../shared/realdata``, the markers plain OpenCV finds and how
many of them our detector misses (issue 24), and the height-correction figures of issue 4 (3 mm
tags, tilted camera with distortion): corrected and uncorrected centre errors.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from calibration.intrinsics import from_arrays  # noqa: E402
from calibration.profile import build_profile  # noqa: E402
from vision.detector import Detector, dictionary_by_name, to_grey  # noqa: E402
from vision.render import Camera, random_scene, render_frame  # noqa: E402
from vision.render.sequence import HandLeave, Hover, Wait, render_sequence  # noqa: E402
from vision.tracker import TablePipeline, Tracker  # noqa: E402
from vision.types import Frame  # noqa: E402

MM = 25.4


def lens_of(cam: Camera):
    """The renderer's true lens as Intrinsics (stands in for a lens calibration)."""
    k = np.array([[cam.fx, 0, cam.cx], [0, cam.fy, cam.cy], [0, 0, 1.0]])
    return from_arrays(k, cam.dist, (cam.width_px, cam.height_px), "renderer truth")


def _profile(image: np.ndarray, cam: Camera | None, width_in=24.0, depth_in=24.0):
    s = Detector().detect(to_grey(image))
    corners = {x.tag_id: x.corners_px for x in s if x.tag_id < 4}
    intr = lens_of(cam) if cam is not None else None
    size = (image.shape[1], image.shape[0])
    return build_profile(corners, size, width_in, depth_in, intrinsics=intr)


def _score(snapshots, truths):
    """Recall, false ids, centre and heading errors over frames after confirmation."""
    from tests.vision.fault_clips import score_snapshots

    s = score_snapshots(snapshots, truths, first_frame=5)
    return s.recall, s.false_ids, s.centre_rms_mm, s.heading_rms_deg


def _time_pipeline(frames, profile, region_search: bool, pieces=()):
    tracker = Tracker(profile, pieces=pieces)  # pieces give terrain tags their heights
    pipe = TablePipeline(Detector(profile.dictionary), tracker, region_search=region_search)
    snaps, ms, cpu = [], [], []
    for f in frames:
        t0 = time.perf_counter()
        c0 = time.process_time()
        snaps.append(pipe.process(f))
        ms.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return snaps, statistics.median(ms[3:]), statistics.median(cpu[3:])


def _time_detectors(frames, dictionary: str = "DICT_4X4_50") -> tuple[float, float]:
    """Median ms per frame of our detector on the whole frame and of plain
    ``cv2.aruco.ArucoDetector`` (default parameters), taking turns on each grey frame so that
    both see the same load."""
    plain = cv2.aruco.ArucoDetector(dictionary_by_name(dictionary))
    ours = Detector(dictionary)
    ours_ms, plain_ms = [], []
    for f in frames:
        grey = to_grey(f.image)
        for _ in range(3):
            t0 = time.perf_counter()
            plain.detectMarkers(grey)
            t1 = time.perf_counter()
            ours.detect(grey)
            t2 = time.perf_counter()
            plain_ms.append((t1 - t0) * 1000)
            ours_ms.append((t2 - t1) * 1000)
    return statistics.median(ours_ms), statistics.median(plain_ms)


def _time_jpeg_decode(frames) -> float:
    ms = []
    for f in frames[:10]:
        _ok, buf = cv2.imencode(".jpg", f.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        t0 = time.perf_counter()
        cv2.imdecode(buf, cv2.IMREAD_COLOR)
        ms.append((time.perf_counter() - t0) * 1000)
    return statistics.median(ms)


def _row(name, frames, truths, profile, decode_ms, pieces=()):
    snaps, roi_ms, roi_cpu = _time_pipeline(frames, profile, True, pieces)
    _, full_ms, _ = _time_pipeline(frames, profile, False, pieces)
    detector_ms, plain_ms = _time_detectors(frames, profile.dictionary)
    recall, false_ids, rms, hrms = _score(snaps, truths)
    print(
        f"| {name} | {len(frames)} | {recall:.3f} | {false_ids} | {rms:.3f} | {hrms:.2f} | "
        f"{roi_ms:.1f} | {roi_cpu:.1f} | {1000 / roi_ms:.0f} | {full_ms:.1f} | {detector_ms:.1f} | "
        f"{plain_ms:.1f} | {roi_ms / plain_ms:.2f} | {detector_ms / plain_ms:.2f} | "
        f"{decode_ms:.1f} |",
        flush=True,
    )


HEADER = (
    "| set | frames | recall | false ids | centre RMS mm | heading RMS deg | pipeline ms "
    "(region search) | its CPU ms | fps | pipeline ms (full frame) | detector ms (full frame) | "
    "plain ArUco ms | pipeline / plain | detector / plain | decode ms |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
)


def rendered_set(
    resolution: str, tag_mm: float, base_mm: float, n_frames: int, hand: bool = False
) -> None:
    """A still board of 48 tags, or (``hand``) the same with a hand sweeping over it."""
    cam = Camera.overhead(resolution, height_mm=800)
    scene = random_scene(seed=21, n_pieces=44, tag_size_mm=tag_mm, base_diameter_mm=base_mm)
    if hand:
        path = ((3.0, 3.0), (12.0, 20.0), (21.0, 4.0))
        script: tuple[object, ...] = (Wait(0.2), Hover(path, seconds=2.0), HandLeave(), Wait(0.3))
    else:
        script = (Wait(n_frames / 30),)
    pairs = list(render_sequence(scene, cam, script, fps=30, seed=1))  # type: ignore[arg-type]
    frames = [f for f, _ in pairs]
    truths = [t for _, t in pairs]
    profile = _profile(frames[0].image, cam)
    name = f"rendered {resolution}, 48 tags, {tag_mm:g} mm{', hand sweeping' if hand else ''}"
    _row(name, frames, truths, profile, _time_jpeg_decode(frames))


def footage(path: Path, max_frames: int) -> None:
    truth_path = next(
        (
            p
            for p in (
                path.with_suffix(".truth.json"),
                path.with_suffix(".truth.json.gz"),
                path.with_suffix(".json"),
                path.with_suffix(".json.gz"),
            )
            if p.is_file()
        ),
        None,
    )
    if truth_path is None:
        print(f"| {path.name}: no ground truth beside it, skipped |")
        return
    from vision.render.clip import load_truth

    truth = load_truth(truth_path)
    cap = cv2.VideoCapture(str(path))
    frames, decode = [], []
    while len(frames) < max_frames:
        t0 = time.perf_counter()
        ok, image = cap.read()
        decode.append((time.perf_counter() - t0) * 1000)
        if not ok:
            break
        frames.append(Frame(len(frames), len(frames) / truth.fps, image))
    cap.release()
    truths = list(truth.frames[: len(frames)])
    profile = _profile(frames[0].image, truth.camera, truth.table.width_in, truth.table.depth_in)
    _row(
        f"footage {path.name}",
        frames,
        truths,
        profile,
        statistics.median(decode),
        list(truth.pieces),
    )


def camera_faults(fps: float) -> None:
    """Issue 24: tracking accuracy under each webcam fault (and all of them: ``webcam``) at
    the kit's tag sizes for 1080p and 4K; the post-processing's CPU ms per frame made."""
    from tests.vision.fault_clips import (
        RENDERED,
        kit_tag_mm,
        processed,
        record,
        track,
    )
    from vision.render.faults import FAULTS, PRESETS, CameraFaults

    print(
        f"\nWebcam faults (project's own renderer; {fps:g} fps clips: rest, a hand sweeping, "
        "rest; tags the kit sizes for the camera; post ms: CPU per frame made, JPEG included)"
    )
    print(
        "| fault | camera | tag mm | frames | recall | false ids | centre RMS mm | "
        "heading RMS deg | post ms |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    cases = [CameraFaults()] + [CameraFaults((f,)) for f in FAULTS]
    cases.append(CameraFaults(tuple(f for f in PRESETS["webcam"] if f != "glare")))
    cases.append(CameraFaults(PRESETS["webcam"]))
    for resolution in ("1080p", "4k"):
        renders: dict[tuple[str, ...], list] = {}
        for faults in cases:
            rendered = tuple(n for n in faults.names if n in RENDERED)
            if rendered not in renders:
                renders = {rendered: record(resolution, CameraFaults(rendered), fps, seed=1)}
            frames = renders[rendered]
            c0 = time.process_time()
            made = list(processed(frames, faults, seed=1))
            post_ms = (time.process_time() - c0) * 1000 / len(made)
            s = track(made)
            name = faults.key()
            if len(faults.names) >= len(FAULTS) - 1:
                name = "webcam (all)" if "glare" in faults else "webcam but glare"
            print(
                f"| {name} | {resolution} | {kit_tag_mm(resolution):g} | {s.frames} | "
                f"{s.recall:.3f} | {s.false_ids} | {s.centre_rms_mm:.3f} | "
                f"{s.heading_rms_deg:.2f} | {post_ms:.1f} |",
                flush=True,
            )


def real_photos() -> None:
    """Issue 24: on every real photo set of ../shared/realdata, the markers plain OpenCV finds,
    how many of them our detector misses, and both detectors' median ms per photo."""
    from tests.vision.plain_compare import (
        REAL_SETS,
        REALDATA,
        dictionary_of,
        missed_by_detector,
        plain_markers,
    )

    print("\nReal photos (../shared/realdata): markers plain OpenCV finds, and ours misses")
    if not REALDATA.is_dir():
        print(f"  {REALDATA} is absent: skipped")
        return
    print("| folder | photos | plain finds | ours misses | detector ms | plain ms |")
    print("|---|---|---|---|---|---|")
    for folder, pattern, dictionary in REAL_SETS:
        name = dictionary_of(dictionary)
        plain = cv2.aruco.ArucoDetector(dictionary_by_name(name))
        ours = Detector(name)
        photos = sorted((REALDATA / folder).glob(pattern))
        frames = [Frame(i, 0.0, cv2.imread(str(p))) for i, p in enumerate(photos)]
        found = sum(len(plain_markers(to_grey(f.image), plain)) for f in frames)
        missed = sum(len(missed_by_detector(to_grey(f.image), ours, plain)) for f in frames)
        ours_ms, plain_ms = _time_detectors(frames, name)
        print(f"| {folder} | {len(frames)} | {found} | {missed} | {ours_ms:.2f} | {plain_ms:.2f} |")


def height_correction() -> None:
    """Issue 4: 3 mm tags seen by a tilted camera with lens distortion, with and without the
    height correction, with and without lens intrinsics."""
    print(
        "\nHeight correction (3 mm tags, 1080p, camera 0.9 m, tilted 6 deg, distortion k1 -0.06):"
    )
    cam = Camera.overhead("1080p", height_mm=900, tilt_deg=6.0)
    cam = replace(cam, position_mm=(304.8, 304.8 - 900 * math.tan(math.radians(6.0)), 900.0))
    scene = random_scene(seed=4, n_pieces=20, tag_size_mm=16.0, base_diameter_mm=40.0)
    corners = ((1.0, 1.0, 45.0), (23.0, 1.0, 315.0), (23.0, 23.0, 225.0), (1.0, 23.0, 135.0))
    for piece, (x, y, h) in zip(scene.pieces[:4], corners, strict=True):
        scene = scene.with_piece_at(piece.name, x, y, h)  # pieces at the play area's corners
    image, truth = render_frame(scene, cam, rng=np.random.default_rng(0))
    seen = {s.tag_id: np.asarray(s.corners_px) for s in Detector().detect(image)}
    for label, lens in (("with lens intrinsics", cam), ("without intrinsics", None)):
        m = _profile(image, lens).mapping()
        for height_label, use_height in (("corrected", True), ("uncorrected", False)):
            errs = []
            for t in truth.tags:
                if t.tag_id < 4 or not t.visible or t.tag_id not in seen:
                    continue
                c = m.to_table_in(seen[t.tag_id], t.height_mm if use_height else 0.0).mean(axis=0)
                errs.append(math.hypot(c[0] - t.x_in, c[1] - t.y_in) * MM)
            print(
                f"  {label}, {height_label}: centre RMS "
                f"{math.sqrt(np.mean(np.square(errs))):.3f} mm,"
                f" max {max(errs):.3f} mm over {len(errs)} tags"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=30, help="frames per rendered set")
    parser.add_argument("--footage-frames", type=int, default=300, help="frames per clip")
    parser.add_argument("--fault-fps", type=float, default=10.0, help="fault clips' frame rate")
    parser.add_argument(
        "--faults-only", action="store_true", help="only the table of webcam faults"
    )
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"OpenCV {cv2.__version__}, {cv2.getNumThreads()} threads, {os.cpu_count()} cores, "
        f"load average {load:.1f} at the start (times are wall clock, medians)\n"
    )
    if args.faults_only:
        camera_faults(args.fault_fps)
        return 0
    print(HEADER)
    rendered_set("1080p", 16.0, 40.0, args.frames)
    rendered_set("4k", 10.0, 25.0, args.frames)
    rendered_set("1080p", 16.0, 40.0, args.frames, hand=True)
    rendered_set("4k", 10.0, 25.0, args.frames, hand=True)
    clips = sorted((ROOT / "sample_footage").glob("*.mp4"))
    for clip in clips:
        footage(clip, args.footage_frames)
    if not clips:
        print("| sample_footage/: no clips yet |")
    camera_faults(args.fault_fps)
    real_photos()
    height_correction()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``soloscope render``: draw a synthetic table (a still or a scripted clip) from a scene file.

For diagnosing a set-up on paper and for the docs: what the camera would see, and the ground
truth of every tag (position, heading, and whether a figure or the hand hides it). A clip shows
a progress bar with the time left on standard error (a terminal only; ``--quiet``: none).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from assistant.errors import UserError
from assistant.progress import counted, progress_bar
from calibration.safe_files import atomic_path, write_json_atomic
from vision.render import Camera, Effects, Sequence, random_scene, render_frame, render_sequence
from vision.render.clip import frame_truth_to_dict, pieces_to_list, table_to_dict, write_clip
from vision.render.faults import FAULTS, CameraFaults, parse_faults, render_still
from vision.render.scenefile import SceneFile, load_scene_file

NAME = "render"
HELP = "Render the synthetic table (a still image or a scripted clip) with its ground truth."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's options."""
    parser.add_argument(
        "scene",
        nargs="?",
        help="scene file (.toml or .json; see vision/render/scenefile.py); "
        "without one, a random 24-piece table",
    )
    parser.add_argument(
        "--out",
        required=True,
        help="output: an image (.png/.jpg) for a still, or .mp4 for the scene's script",
    )
    parser.add_argument(
        "--truth", help="ground-truth JSON path (default: the output path with .json)"
    )
    parser.add_argument(
        "--resolution", choices=["720p", "1080p", "4k"], help="override the scene's camera"
    )
    parser.add_argument("--height-mm", type=float, help="override the camera height, mm")
    parser.add_argument("--fps", type=float, default=30.0, help="clip frame rate (default 30)")
    parser.add_argument("--seed", type=int, default=0, help="noise and random-scene seed")
    parser.add_argument("--clean", action="store_true", help="no blur, noise, vignette or JPEG")
    parser.add_argument("--quiet", action="store_true", help="no progress bar for a clip")
    parser.add_argument(
        "--faults",
        default="none",
        metavar="LIST",
        help=f"webcam faults, comma-separated: {', '.join(FAULTS)}, or webcam for all "
        "(default none; see vision/render/faults.py)",
    )


def _load(args: argparse.Namespace) -> SceneFile:
    if args.scene:
        if not Path(args.scene).is_file():
            raise UserError(f"scene file {args.scene} does not exist")
        sf = load_scene_file(args.scene)
    else:
        sf = SceneFile(random_scene(args.seed), Camera.overhead("1080p"), Effects(), ())
    camera = sf.camera
    if args.resolution or args.height_mm:
        camera = Camera.overhead(
            args.resolution or _resolution_of(camera),
            table_width_in=sf.scene.table.width_in,
            table_depth_in=sf.scene.table.depth_in,
            height_mm=args.height_mm or camera.position_mm[2],
            tilt_deg=camera.tilt_deg,
            yaw_deg=camera.yaw_deg,
            roll_deg=camera.roll_deg,
            dist=camera.dist,
        )
    effects = Effects.clean() if args.clean else sf.effects
    return SceneFile(sf.scene, _faults(args).camera(camera), effects, sf.script)


def _faults(args: argparse.Namespace) -> CameraFaults:
    try:
        return parse_faults(args.faults)
    except ValueError as exc:
        raise UserError(f"--faults: {exc}") from exc


def _resolution_of(camera: Camera) -> str:
    return {720: "720p", 1080: "1080p", 2160: "4k"}.get(camera.height_px, "1080p")


def _frames_done(done: float, total: float | None) -> str:
    return f"{done:.0f}/{total:.0f} frames" if total else f"{done:.0f} frames"


def run(args: argparse.Namespace) -> int:
    """Render and write the still or clip and its truth; prints a one-line summary."""
    sf = _load(args)
    faults = _faults(args)
    out = Path(args.out)
    truth_path = Path(args.truth) if args.truth else out.with_suffix(".json")
    if not out.parent.is_dir():
        raise UserError(f"output folder {out.parent} does not exist")
    suffix = out.suffix.lower()
    if suffix == ".mp4":
        if not sf.script:
            raise UserError(f"{out}: a clip needs a [[script]] in the scene file")
        seq = Sequence(sf.scene, sf.camera, sf.script)
        total = seq.n_frames(args.fps)
        with progress_bar("rendering", _frames_done, quiet=args.quiet) as update:
            frames = render_sequence(
                sf.scene,
                sf.camera,
                seq,
                args.fps,
                effects=sf.effects,
                seed=args.seed,
                faults=faults,
            )
            n = write_clip(
                out,
                truth_path,
                counted(frames, total, update),
                fps=args.fps,
                scene=sf.scene,
                camera=sf.camera,
            )
        with_faults = f" with camera faults {faults.key()}" if faults else ""
        print(f"wrote {n} frames{with_faults} to {out} and ground truth to {truth_path}")
        return 0
    if suffix not in (".png", ".jpg", ".jpeg"):
        raise UserError(f"{out}: the output must end in .png, .jpg or .mp4")
    if faults:
        image, truth = render_still(sf.scene, sf.camera, faults, effects=sf.effects, seed=args.seed)
    else:
        image, truth = render_frame(
            sf.scene, sf.camera, effects=sf.effects, rng=np.random.default_rng(args.seed)
        )
    with atomic_path(out) as tmp:
        if not cv2.imwrite(str(tmp), image):
            raise UserError(f"cannot write image {out}")
    doc = {
        "version": 1,
        "camera": sf.camera.to_dict(),
        "table": table_to_dict(sf.scene.table),
        "fps": 0.0,
        "pieces": pieces_to_list(sf.scene),
        "frames": [frame_truth_to_dict(truth, sf.camera)],
        "faults": list(faults.names),
    }
    write_json_atomic(truth_path, doc, indent=None)
    hidden = [t.tag_id for t in truth.tags if not t.visible]
    print(
        f"wrote {out} ({sf.camera.width_px}x{sf.camera.height_px}) and {truth_path}: "
        f"{len(truth.tags)} tags, {len(hidden)} hidden {hidden}"
    )
    return 0

"""The synthetic table renderer: the project's virtual camera for tests, benchmarks and footage.

A still::

    from vision.render import Camera, Scene, random_scene, render_frame
    scene = random_scene(seed=1)                       # 24 based miniatures on a 2 ft table
    camera = Camera.overhead("4k", height_mm=800)      # pinhole + lens distortion, 800 mm up
    image_bgr, truth = render_frame(scene, camera)     # truth.tags[i].visible, .corners_px ...

A clip::

    script = moves_script([PieceMove("p03", 12.0, 10.0, 90.0), PieceRemoval("p07")])
    for frame, truth in render_sequence(scene, camera, script, fps=30): ...
    render_clip("clip.mp4", "clip.json", scene, camera, script, fps=30)

World frame: millimetres (poses in inches), origin at the play area's left front corner,
+x right, +y away from the player (top of the image), z up; headings clockwise from +y.
"""

from vision.render.camera import (
    MM_PER_INCH,
    NO_DISTORTION,
    RESOLUTIONS,
    WEBCAM_DISTORTION,
    Camera,
)
from vision.render.clip import ClipTruth, load_truth, render_clip, write_clip
from vision.render.effects import Effects
from vision.render.frame import FrameTruth, PieceTruth, TagTruth, render_frame
from vision.render.hand import HandPose, hand_over_table
from vision.render.scene import (
    CORNER_TAG_IDS,
    Figure,
    PlacedPiece,
    Scene,
    TableSpec,
    Terrain,
    front_rear_tags,
    front_tag,
    random_scene,
    scene_tags,
)
from vision.render.sequence import (
    Action,
    Carry,
    Fetch,
    HandLeave,
    HandTo,
    Hover,
    Lift,
    NudgeCamera,
    PieceMove,
    PieceRemoval,
    Place,
    Remove,
    Sequence,
    Wait,
    moves_script,
    render_sequence,
)

__all__ = [
    "CORNER_TAG_IDS",
    "MM_PER_INCH",
    "NO_DISTORTION",
    "RESOLUTIONS",
    "WEBCAM_DISTORTION",
    "Action",
    "Camera",
    "Carry",
    "ClipTruth",
    "Effects",
    "Fetch",
    "Figure",
    "FrameTruth",
    "HandLeave",
    "HandPose",
    "HandTo",
    "Hover",
    "Lift",
    "NudgeCamera",
    "PieceMove",
    "PieceRemoval",
    "PieceTruth",
    "Place",
    "PlacedPiece",
    "Remove",
    "Scene",
    "Sequence",
    "TableSpec",
    "TagTruth",
    "Terrain",
    "Wait",
    "front_rear_tags",
    "front_tag",
    "hand_over_table",
    "load_truth",
    "moves_script",
    "random_scene",
    "render_clip",
    "render_frame",
    "render_sequence",
    "scene_tags",
    "write_clip",
]

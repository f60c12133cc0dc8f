"""The synthetic table renderer: the project's virtual camera for tests, benchmarks and footage.

A still::

    from vision.render import Camera, Scene, random_scene, render_frame
    scene = random_scene(seed=1)                       # 24 based miniatures on a 2 ft table
    camera = Camera.overhead("4k", height_mm=800)      # pinhole + lens distortion, 800 mm up
    image_bgr, truth = render_frame(scene, camera)     # truth.tags[i].visible, .corners_px ...

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

__all__ = [
    "CORNER_TAG_IDS",
    "MM_PER_INCH",
    "NO_DISTORTION",
    "RESOLUTIONS",
    "WEBCAM_DISTORTION",
    "Camera",
    "Effects",
    "Figure",
    "FrameTruth",
    "HandPose",
    "PieceTruth",
    "PlacedPiece",
    "Scene",
    "TableSpec",
    "TagTruth",
    "Terrain",
    "front_rear_tags",
    "front_tag",
    "hand_over_table",
    "random_scene",
    "render_frame",
    "scene_tags",
]

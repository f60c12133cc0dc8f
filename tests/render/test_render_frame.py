"""The still-frame renderer against the project's real ArUco detector."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detector import Detector
from vision.render import (
    NO_DISTORTION,
    Camera,
    Effects,
    Figure,
    PlacedPiece,
    Scene,
    TableSpec,
    Terrain,
    front_tag,
    random_scene,
    render_frame,
)
from vision.types import PieceSpec, TagId, TagMount


def _detect(image: np.ndarray) -> dict[int, np.ndarray]:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return {int(s.tag_id): np.asarray(s.corners_px) for s in Detector().detect(grey)}


@pytest.mark.parametrize(
    ("resolution", "base_mm", "tag_mm"),
    [("1080p", 32.0, 16.0), ("4k", 25.0, 10.0)],
)
def test_every_visible_tag_is_found_at_its_id(resolution: str, base_mm: float, tag_mm: float):
    scene = random_scene(3, n_pieces=12, base_diameter_mm=base_mm, tag_size_mm=tag_mm)
    camera = Camera.overhead(resolution)
    image, truth = render_frame(scene, camera, rng=np.random.default_rng(3))
    assert image.shape == (camera.height_px, camera.width_px, 3)
    found = _detect(image)
    visible = {t.tag_id for t in truth.tags if t.visible}
    assert {0, 1, 2, 3} <= visible
    assert len(visible) >= 8, "a sparse scene keeps most of its tags in view"
    assert visible <= set(found), f"missed visible tags {sorted(visible - set(found))}"
    assert set(found) <= set(scene.tag_ids()), "the detector read an id that is not on the table"


def test_truth_centres_match_the_detector_within_a_pixel():
    scene = random_scene(5, n_pieces=10, base_diameter_mm=32.0, tag_size_mm=16.0)
    camera = Camera.overhead("1080p", dist=NO_DISTORTION, tilt_deg=2.0, yaw_deg=1.5)
    image, truth = render_frame(scene, camera, effects=Effects.clean())
    found = _detect(image)
    errors = [
        float(np.linalg.norm(found[t.tag_id].mean(axis=0) - np.asarray(t.center_px)))
        for t in truth.tags
        if t.visible
    ]
    assert len(errors) >= 8
    assert max(errors) <= 1.0
    assert float(np.median(errors)) <= 0.3


def test_distorted_truth_matches_the_detector():
    scene = random_scene(6, n_pieces=6, base_diameter_mm=32.0, tag_size_mm=16.0)
    camera = Camera.overhead("1080p", dist=(-0.12, 0.05, 0.001, -0.001, 0.0))
    image, truth = render_frame(scene, camera)
    found = _detect(image)
    for t in truth.tags:
        if t.visible:
            # Centres to a pixel; corners to two (CORNER_REFINE_CONTOUR shrinks a square
            # by about half a pixel a side, the same on real images).
            centre_err = np.linalg.norm(found[t.tag_id].mean(axis=0) - np.asarray(t.center_px))
            assert centre_err <= 1.0, f"tag {t.tag_id} centre off by {centre_err:.2f} px"
            err = np.linalg.norm(found[t.tag_id] - np.asarray(t.corners_px), axis=1)
            assert err.max() <= 2.0, f"tag {t.tag_id} corners off by {err.max():.2f} px"


def _lone_piece(x_in: float, heading_deg: float) -> Scene:
    piece = PlacedPiece(
        spec=PieceSpec("scout", (front_tag(7, 16.0, forward_mm=6.0),), base_diameter_mm=32.0),
        x_in=x_in,
        y_in=12.0,
        heading_deg=heading_deg,
        figure=Figure(height_mm=32.0, forward_mm=-9.5),
    )
    return Scene(table=TableSpec(), pieces=(piece,))


def test_a_figure_near_the_edge_hides_its_own_tag():
    camera = Camera.overhead("1080p")
    # Right of centre, facing right: the tag lies beyond the figure, which leans over it.
    hidden_image, hidden = render_frame(_lone_piece(22.5, 90.0), camera)
    assert not hidden.tag(7).visible
    assert hidden.tag(7).covered_fraction > 0.2
    assert 7 not in _detect(hidden_image)
    # Facing the centre instead, the figure leans away from the tag.
    shown_image, shown = render_frame(_lone_piece(22.5, 270.0), camera)
    assert shown.tag(7).visible
    assert 7 in _detect(shown_image)


def test_a_terrain_tag_is_drawn_at_its_own_height():
    tower = Terrain(
        spec=PieceSpec("tower", (TagMount(TagId(30), 0.0, 0.0, 25.0, 0.0, 50.0),), 0.0),
        x_in=3.0,
        y_in=20.0,
        heading_deg=20.0,
        footprint_mm=((-30.0, -30.0), (30.0, -30.0), (30.0, 30.0), (-30.0, 30.0)),
        height_mm=50.0,
    )
    camera = Camera.overhead("1080p", dist=NO_DISTORTION)
    image, truth = render_frame(Scene(terrain=(tower,)), camera, effects=Effects.clean())
    tag = truth.tag(30)
    assert tag.visible and tag.height_mm == 50.0
    centre = np.asarray(tag.center_px)
    assert np.linalg.norm(_detect(image)[30].mean(axis=0) - centre) <= 1.0
    flat = camera.project([[3.0 * 25.4, 20.0 * 25.4, 0.0]])[0]
    assert np.linalg.norm(flat - centre) > 15.0, "a 50 mm high tag must appear displaced"
    assert truth.pieces[0].kind == "terrain"

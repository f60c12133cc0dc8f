"""Tracker rules on exact sightings made through a known mapping (no images): confirmation,
ids in use, the table area, duplicates, held and lifted, moves, lost corner tags, pieces."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from calibration.profile import TableProfile, build_profile
from calibration.table import corner_layout
from vision.errors import VisionError
from vision.pieces import fit_piece, tag_place_in
from vision.tracker import Tracker
from vision.types import PieceSpec, TagId, TagMount, TagSighting, TagState

MM = 25.4
K = np.array([[1400.0, 0, 960], [0, 1400.0, 540], [0, 0, 1]])
R = np.array([[1.0, 0, 0], [0, -1, 0], [0, 0, -1]])
RVEC, _ = cv2.Rodrigues(R)
TVEC = -R @ np.array([304.8, 304.8, 950.0])


def project(points_mm: np.ndarray) -> np.ndarray:
    p, _ = cv2.projectPoints(np.asarray(points_mm, dtype=np.float64), RVEC, TVEC, K, None)
    return p.reshape(-1, 2)


def tag_sighting(
    tag_id: int,
    x_in: float,
    y_in: float,
    heading: float = 0.0,
    size_mm: float = 10.0,
    h_mm: float = 3.0,
) -> TagSighting:
    hr = math.radians(heading)
    up = np.array([math.sin(hr), math.cos(hr)])
    right = np.array([math.cos(hr), -math.sin(hr)])
    c = np.array([x_in, y_in]) * MM
    s = size_mm / 2
    pts = [
        c - right * s + up * s,
        c + right * s + up * s,
        c + right * s - up * s,
        c - right * s - up * s,
    ]
    px = project(np.array([[p[0], p[1], h_mm] for p in pts]))
    return TagSighting(TagId(tag_id), tuple((float(x), float(y)) for x, y in px))


def corner_sightings() -> list[TagSighting]:
    out = []
    for i, c in corner_layout(24, 24).items():
        px = project(np.array([[x * MM, y * MM, 0.0] for x, y in c]))
        out.append(TagSighting(TagId(i), tuple((float(x), float(y)) for x, y in px)))
    return out


@pytest.fixture(scope="module")
def profile() -> TableProfile:
    return build_profile({s.tag_id: s.corners_px for s in corner_sightings()}, (1920, 1080))


def run(tracker: Tracker, frames: list[list[TagSighting]], fps: float = 30.0, corners: bool = True):
    snaps = []
    for i, sightings in enumerate(frames):
        extra = corner_sightings() if corners else []
        snaps.append(tracker.update(i / fps, i, sightings + extra))
    return snaps


def test_new_tag_is_confirmed_over_frames_and_mapped(profile):
    tr = Tracker(profile, confirm_frames=3)
    snaps = run(tr, [[tag_sighting(20, 6.0, 18.0, 30.0)]] * 4)
    assert [len(s.tags) for s in snaps] == [0, 0, 1, 1]
    p = snaps[-1].tags[0]
    assert (p.tag_id, p.state) == (20, TagState.SEEN)
    # 0.02 mm: no intrinsics, so the camera height comes from an assumed focal length
    assert math.hypot(p.x_in - 6.0, p.y_in - 18.0) * MM < 0.05
    assert abs(p.heading_deg - 30.0) < 0.01


def test_a_flicker_is_never_confirmed_but_a_marginal_tag_is(profile):
    tr = Tracker(profile, confirm_frames=3)
    s = [tag_sighting(21, 3.0, 3.0)]
    gap: list[list[TagSighting]] = [[], [], []]
    snaps = run(tr, [s, *gap, s, *gap, s, *gap])
    assert all(not snap.tags for snap in snaps)
    tr = Tracker(profile, confirm_frames=3)
    snaps = run(tr, [s, [], s, [], s])
    assert len(snaps[-1].tags) == 1


def test_only_ids_in_use_inside_the_table(profile):
    tr = Tracker(profile, ids_in_use=[16, 17])
    frame = [tag_sighting(16, 5, 5), tag_sighting(18, 6, 6), tag_sighting(17, 26.0, 5)]
    snaps = run(tr, [frame] * 3)
    assert [p.tag_id for p in snaps[-1].tags] == [16]


def test_corner_ids_are_never_tracked(profile):
    tr = Tracker(profile)
    snaps = run(tr, [[]] * 3)
    assert snaps[-1].tags == ()


def test_duplicates_are_reported_and_not_trusted(profile):
    tr = Tracker(profile)
    one = [tag_sighting(30, 10.0, 10.0)]
    two = [tag_sighting(30, 10.0, 10.0), tag_sighting(30, 15.0, 4.0)]
    snaps = run(tr, [one] * 3 + [two] * 3)
    assert snaps[-1].duplicates == (30,)
    assert any("seen twice" in w for w in snaps[-1].warnings)
    p = snaps[-1].tags[0]
    assert p.state == TagState.HELD and math.hypot(p.x_in - 10, p.y_in - 10) < 1e-3


def test_hidden_tag_is_held_then_lifted_then_reconfirmed(profile):
    tr = Tracker(profile, hold_s=0.5, confirm_frames=3)
    s = [tag_sighting(22, 8.0, 8.0)]
    moved = [tag_sighting(22, 12.0, 9.0, 90.0)]
    snaps = run(tr, [s] * 3 + [[]] * 20 + [moved] * 3)
    states = [snap.tags[0].state for snap in snaps[3:]]
    assert states[0] == TagState.HELD
    assert states[14] == TagState.HELD  # 0.5 s at 30 fps
    assert states[16] == TagState.LIFTED
    assert states[-2] == TagState.LIFTED  # back, but not yet confirmed again
    last = snaps[-1].tags[0]
    assert last.state == TagState.SEEN and abs(last.x_in - 12.0) < 1e-3


def test_a_real_move_is_reported_at_once(profile):
    tr = Tracker(profile)
    snaps = run(tr, [[tag_sighting(23, 8.0, 8.0)]] * 4 + [[tag_sighting(23, 8.2, 8.0)]])
    assert abs(snaps[-1].tags[0].x_in - 8.2) < 1e-3


def test_corner_tags_missing_keeps_mapping_and_warns_once(profile):
    tr = Tracker(profile)
    s = [tag_sighting(24, 4.0, 20.0)]
    snaps = run(tr, [s] * 3)
    for i in range(3, 6):
        snaps.append(tr.update(i / 30, i, s))
    said = [w for snap in snaps for w in snap.warnings]
    assert said == ["corner tags not in view: keeping the last table mapping"]
    assert abs(snaps[-1].tags[0].x_in - 4.0) < 1e-3


def test_bad_arguments_name_themselves(profile):
    with pytest.raises(VisionError, match="confirm_frames"):
        Tracker(profile, confirm_frames=0)
    with pytest.raises(VisionError, match="hold_s"):
        Tracker(profile, hold_s=-1)


def test_piece_fitted_from_either_tag_and_both(profile):
    spec = PieceSpec(
        "orc",
        (
            TagMount(TagId(40), forward_mm=8.0, size_mm=8.0),
            TagMount(TagId(41), forward_mm=-8.0, size_mm=8.0, rotation_deg=180.0),
        ),
    )
    x, y, h = 10.0, 14.0, 65.0
    places = {m.tag_id: tag_place_in(m, x, y, h) for m in spec.tags}
    sight = {i: tag_sighting(i, px, py, ph, 8.0) for i, (px, py, ph) in places.items()}
    for visible in ([40], [41], [40, 41]):
        tr = Tracker(profile, pieces=[spec])
        snaps = run(tr, [[sight[i] for i in visible]] * 3)
        (piece,) = snaps[-1].pieces
        assert math.hypot(piece.x_in - x, piece.y_in - y) * MM < 0.05, visible
        assert abs((piece.heading_deg - h + 180) % 360 - 180) < 0.1
        assert piece.state == TagState.SEEN and list(piece.tags_seen) == visible


def test_a_piece_whose_tags_did_not_move_is_not_fitted_again(profile, monkeypatch):
    """A hidden tag held where it was leaves its piece's fit as it was (each piece was fitted
    again in every frame: about 5 % of the CPU of the README's play of the sample footage); a
    move fits it again."""
    spec = PieceSpec("orc", (TagMount(TagId(40), size_mm=8.0),))
    calls = []

    def counted(spec_, observed):
        calls.append(dict(observed))
        return fit_piece(spec_, observed)

    monkeypatch.setattr("vision.tracker.fit_piece", counted)
    tr = Tracker(profile, pieces=[spec], confirm_frames=1)
    snaps = run(tr, [[tag_sighting(40, 10.0, 14.0, 65.0, 8.0)], [], []])
    assert [s.pieces[0].state for s in snaps] == [TagState.SEEN, TagState.HELD, TagState.HELD]
    assert len(calls) == 1
    first, held = snaps[0].pieces[0], snaps[2].pieces[0]
    assert (held.x_in, held.y_in, held.heading_deg) == (first.x_in, first.y_in, first.heading_deg)
    moved = tr.update(0.2, 3, [tag_sighting(40, 12.0, 14.0, 65.0, 8.0), *corner_sightings()])
    assert len(calls) == 2 and abs(moved.pieces[0].x_in - first.x_in - 2.0) < 0.01


def test_fit_piece_least_squares_blends_noisy_tags():
    spec = PieceSpec("wall", (TagMount(TagId(8), 0, -50), TagMount(TagId(9), 0, 50)), 0.0)
    x, y, h = 6.0, 6.0, 10.0
    obs = {}
    for m, dx in zip(spec.tags, (0.2, -0.2), strict=True):
        px, py, ph = tag_place_in(m, x, y, h)
        obs[m.tag_id] = (px + dx / MM, py, ph + 2.0)  # 0.2 mm and 2 deg of error on each
    fit = fit_piece(spec, obs)
    assert fit is not None
    assert math.hypot(fit.x_in - x, fit.y_in - y) * MM < 0.01
    # 100 mm apart the centres fix the angle far better than 2 deg tag headings
    assert abs(fit.heading_deg - h) < 0.5
    assert fit_piece(spec, {}) is None

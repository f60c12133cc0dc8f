"""Choosing tag sizes: what a base carries, the nominal webcams (the renderer's camera), the
reliable side at each resolution, what the player is told to change, and the kit file."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from assistant.cli import main
from assistant.errors import UserError
from assistant.footage import overhead_camera
from assistant.kit_files import KitInUse, scenario_plan, with_kit
from assistant.pieces import KitMismatchError, apply_kit, kit_for, on_board, scenario_kit
from assistant.scenarios import bundled_scenarios, load_scenario
from calibration.errors import CalibrationError
from calibration.kit_file import Kit, KitCamera, KitTag, load_kit, save_kit
from calibration.kit_layout import base_tag_offset_mm
from calibration.kit_sizes import TagNeed, carried_mm, place_mm, reliable_mm
from calibration.kit_view import NOMINAL_DISTORTION, nominal_height_mm, nominal_view
from calibration.quality import DETECTOR_MIN_PERIMETER_RATE, reliable_tag_px
from vision.detector import MIN_PERIMETER_RATE
from vision.render import WEBCAM_DISTORTION, Camera

MM = 25.4


def base(diameter_mm: float, placement: str = "front", own_mm: float = 0.0) -> TagNeed:
    return TagNeed(16, "u", "U", "base", own_mm, 5.0, base_mm=diameter_mm, placement=placement)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("diameter_mm", "placement", "carried"),
    [
        (25.0, "front", 10.0),  # DESIGN §1: a 10 mm tag on a 25 mm base
        (1.25 * MM, "front", 15.0),
        (32.0, "front", 16.0),  # DESIGN §1: 14-16 mm on 32 mm or more
        (40.0, "front", 22.0),
        (0.9 * MM, "centre", 14.0),  # a flat marker: the tag may fill the disc
    ],
)
def test_what_a_base_carries(diameter_mm: float, placement: str, carried: float) -> None:
    assert carried_mm(base(diameter_mm, placement)) == carried


def test_a_tag_goes_to_the_front_rim_and_a_flat_markers_in_the_middle() -> None:
    assert place_mm(base(25.0), 10.0) == (5.0, 0.0)  # DESIGN §1: 5 mm ahead of the centre
    assert place_mm(base(1.25 * MM), 10.0) == (base_tag_offset_mm(1.25 * MM, 10.0), 0.0)
    assert place_mm(base(0.9 * MM, "centre"), 12.0) == (0.0, 0.0)


def test_a_scenarios_own_tag_fits_its_base() -> None:
    """Bosworth's 12 mm tags 5 mm ahead on 1 in bases: more than the rule gives, kept."""
    assert carried_mm(base(MM)) == 10.0
    own = base(MM, own_mm=12.0)
    assert carried_mm(own) == 12.0 and place_mm(own, 12.0) == (5.0, 0.0)


def test_sizes_come_in_whole_millimetres_from_the_reliable_side() -> None:
    assert reliable_mm(1.383, 24.0) == 18.0
    assert reliable_mm(2.4, 24.0) == 10.0
    assert reliable_mm(6.0, 24.0) == 8.0  # never under 8 mm: fiddly to cut and place
    assert reliable_tag_px((1920, 1080)) == 24.0
    assert reliable_tag_px((3840, 2160)) == pytest.approx(1.4 * 0.02 * 3840 / 4)


def test_the_kit_knows_the_detectors_smallest_tag_and_the_renderers_lens() -> None:
    assert DETECTOR_MIN_PERIMETER_RATE == MIN_PERIMETER_RATE
    assert NOMINAL_DISTORTION == WEBCAM_DISTORTION


@pytest.mark.parametrize("camera", ["1080p", "4k"])
def test_a_nominal_webcam_is_the_renderers_camera(camera: str) -> None:
    view = nominal_view(camera, 24.0, 24.0)
    lens = Camera.overhead(camera, height_mm=view.camera_height_mm)
    table = np.array([(0.0, 0.0), (24.0, 24.0), (3.0, 20.0), (12.0, 12.0), (23.0, 1.5)])
    for height_mm in (3.0, 75.0):
        ours = view.mapping.to_pixels(table, height_mm)
        world = np.column_stack([table * MM, np.full(len(table), height_mm)])
        assert np.abs(ours - lens.project(world)).max() < 0.05


def test_the_nominal_camera_is_mounted_no_lower_than_the_demo_footages() -> None:
    """Kits made for the nominal webcam are never too small for the demo's cameras."""
    for b in bundled_scenarios():
        scenario = load_scenario(b.name)
        w, d = scenario.table.width_in, scenario.table.depth_in
        ours = nominal_height_mm(w, d, "1080p", board=on_board(scenario))
        theirs = overhead_camera(scenario, "1080p", board=True)
        assert ours >= theirs.position_mm[2] - 1.0, b.name
        if not on_board(scenario):
            assert ours == pytest.approx(theirs.position_mm[2], abs=1.0), b.name
    assert nominal_height_mm(24, 24) == pytest.approx(804, abs=1)
    assert nominal_height_mm(36, 36) == pytest.approx(1131, abs=1)


def test_what_the_player_is_told_where_a_base_falls_short() -> None:
    plan = scenario_plan(load_scenario("crossroads-ambush"), camera="1080p")
    (short,) = plan.shortfalls
    assert short.readable and short.need_mm == 18.0
    assert {t.size_mm for t in short.tags} == {15.0}
    text = short.sentence
    assert text.startswith("The 32 mm bases of Sergeant Ash")
    assert "carry at most a 15 mm tag clear of the figure: it spans 21 px" in text
    assert "bases of 35 mm or more, a 4K camera (--camera 4k) or the camera at 0.70 m" in text
    assert "takes in 57 degrees top to bottom" in text
    refused = scenario_plan(load_scenario("ford-at-dawn"), camera="1080p").unreadable
    assert refused and "under the 18 px below which too many sightings are lost" in (
        refused[0].sentence
    )


def test_kit_for_gives_the_demo_its_kit() -> None:
    scenario = load_scenario("strike-causeway")
    kit = kit_for(scenario, "1080p")
    assert kit.camera.kind == "1080p" and kit.scenario == "strike-causeway"
    assert {t.size_mm for t in kit.tags if t.kind == "base"} == {15.0}
    lower = kit_for(scenario, "1080p", height_mm=600.0)  # a camera hung lower reads smaller tags
    assert {t.size_mm for t in lower.tags if t.kind == "base"} == {14.0}
    assert all(t.status == "reliable" for t in lower.tags)
    sized = apply_kit(scenario, kit)
    assert {t.size_mm for u in sized.units for t in u.tags} == {15.0}


def test_a_kit_must_fit_the_scenarios_pieces() -> None:
    crossroads = load_scenario("crossroads-ambush")
    ford_kit = scenario_kit(load_scenario("ford-at-dawn"))
    with pytest.raises(KitMismatchError, match=r"tag 16 on a 25\.4 mm base, but Sergeant Ash"):
        apply_kit(crossroads, ford_kit, "kit K")
    own = scenario_kit(crossroads)
    with pytest.raises(KitMismatchError, match="kit K has no tag 23"):
        apply_kit(crossroads, Kit(own.tags[:-4], own.camera), "kit K")
    swapped = tuple(
        KitTag(t.tag_id, t.piece, t.name, "terrain", t.size_mm) if t.tag_id == 16 else t
        for t in own.tags
    )
    with pytest.raises(KitMismatchError, match="puts tag 16 on a terrain piece"):
        apply_kit(crossroads, Kit(swapped, own.camera), "kit K")
    extra = Kit((*own.tags, KitTag(40, "x", "X", "base", 10.0, base_mm=25.0)), own.camera)
    assert apply_kit(crossroads, extra) == crossroads  # tags it does not use are left aside


def test_the_kit_file_round_trips_and_refuses_what_it_cannot_read(tmp_path: Path) -> None:
    kit = kit_for(load_scenario("skirmish-cairns"), "4k")
    path = tmp_path / "k.kit.json"
    save_kit(kit, path)
    assert load_kit(path) == kit
    assert [p.name for p in tmp_path.iterdir()] == ["k.kit.json"]  # no temporary file left
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["version"] == 1 and data["camera"]["kind"] == "4k"
    for change, says in [
        ({"version": 9}, "version 9; this soloscope reads versions [1]"),
        ({"tags": "none"}, "missing or malformed field"),
        ({"tags": [{"id": 16}]}, "missing or malformed field 'size_mm'"),
        (
            {"tags": [data["tags"][0], data["tags"][0]]},
            f"tag {data['tags'][0]['id']} is listed twice",
        ),
    ]:
        path.write_text(json.dumps(data | change), encoding="utf-8")
        with pytest.raises(CalibrationError, match=says.replace("[", r"\[").replace("]", r"\]")):
            load_kit(path)
    path.write_text("{", encoding="utf-8")
    with pytest.raises(CalibrationError, match="not valid JSON"):
        load_kit(path)
    with pytest.raises(CalibrationError, match="does not exist"):
        load_kit(tmp_path / "gone.kit.json")
    with pytest.raises(CalibrationError, match="cannot write"):
        save_kit(kit, tmp_path / "no" / "k.kit.json")


def test_a_kit_of_plain_base_tags_for_a_camera(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "plain.pdf"
    assert (
        main(
            ["markers", "--out", str(out), "--camera", "1080p", "--base-mm", "40", "--pieces", "4"]
        )
        == 0
    )
    kit = load_kit(tmp_path / "plain.kit.json")
    assert [t.tag_id for t in kit.tags] == [16, 17, 18, 19]
    assert {(t.size_mm, t.forward_mm, t.base_mm) for t in kit.tags} == {
        (18.0, base_tag_offset_mm(40.0, 18.0), 40.0)
    }
    assert "sized for a 1080p webcam 0.80 m above the table" in capsys.readouterr().out
    assert main(["markers", "--out", str(out), "--camera", "1080p"]) == 2  # 25 mm bases
    assert "The 25 mm bases carry at most a 10 mm tag" in capsys.readouterr().err
    assert main(["markers", "--out", str(out), "--camera", "4k", "--pieces", "2"]) == 0
    assert {t.size_mm for t in load_kit(tmp_path / "plain.kit.json").tags} == {10.0}


def test_a_size_of_ones_own_with_a_scenario(tmp_path: Path) -> None:
    out = tmp_path / "own.pdf"
    assert (
        main(["markers", "--out", str(out), "--scenario", "skirmish-cairns", "--tag-mm", "20"]) == 0
    )
    kit = load_kit(tmp_path / "own.kit.json")
    assert kit.camera == KitCamera("manual", "base tags of 20 mm, as asked")
    bases = [t for t in kit.tags if t.kind == "base"]
    assert {(t.size_mm, t.forward_mm) for t in bases} == {(20.0, base_tag_offset_mm(40.0, 20.0))}
    listing = out.with_suffix(".tags.txt").read_text(encoding="utf-8")
    assert f"20 mm tag, {base_tag_offset_mm(40.0, 20.0):g} mm ahead of the centre" in listing
    assert math.isclose(bases[0].base_mm, 1.575 * MM)


def test_a_kit_the_profile_names_for_another_scenario_is_passed_over() -> None:
    """A profile names the kit last made for it; a battle of another scenario (a campaign's
    next one) is read with its own sizes and a warning, while a --kit that does not fit is
    refused."""
    crossroads = load_scenario("crossroads-ambush")
    ford_kit = scenario_kit(load_scenario("ford-at-dawn"))
    warned: list[str] = []
    named = KitInUse(ford_kit, Path("ford.kit.json"), named_by=Path("table.json"))
    assert with_kit(crossroads, named, warned.append) == crossroads
    assert warned and warned[0].startswith(
        "the kit ford.kit.json that table.json names does not fit crossroads-ambush"
    )
    with pytest.raises(UserError, match="give the kit made for scenario crossroads-ambush"):
        with_kit(crossroads, KitInUse(ford_kit, Path("ford.kit.json")), warned.append)

"""The kit through the commands: a camera calibrated from its four corner tags alone, a kit
sized from that profile (``markers --profile``), and ``calibrate``, ``track``, ``play`` and
``replay`` reading the table with the kit (``--kit``, or the one the profile names)."""

from __future__ import annotations

import io
import json
import math
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from assistant.cli import main
from assistant.kit_files import kit_in_use
from assistant.pieces import apply_kit, terrain_kits, unit_specs
from assistant.replay.reconstruct import read_session_records
from assistant.replay.run import ReplayOptions
from assistant.replay.run import _kit_for as replay_kit
from assistant.scenarios import load_scenario
from calibration.kit_file import load_kit
from calibration.kit_sizes import reliable_mm
from calibration.kit_view import profile_view
from calibration.profile import load_profile
from calibration.quality import reliable_tag_px
from tests.session.clips import SAMPLE, short_clip_folder
from vision.detector import Detector, to_grey
from vision.render import Camera, Effects, Figure, PlacedPiece, Scene, TableSpec, Terrain
from vision.render.effects import apply_effects
from vision.render.frame import FrameTruth, render_clean

SCENARIO = "crossroads-ambush"


def camera_1440p() -> Camera:
    """A 2560 x 1440 webcam 0.8 m over a 2 ft table: finer than 1080p, coarser than 4K."""
    base = Camera.overhead("1080p", height_mm=800.0)
    f = base.fx * 1440 / 1080
    return replace(base, width_px=2560, height_px=1440, fx=f, fy=f, cx=1279.5, cy=719.5)


def write_frame(path: Path, scene: Scene, camera: Camera, copies: int = 1) -> FrameTruth:
    """Render the scene; write it to ``path`` (and ``copies - 1`` more noisy frames beside it,
    ``NAME-1.png`` ..., for the tracker, which confirms a tag over several frames)."""
    clean, truth = render_clean(scene, camera)
    path.parent.mkdir(parents=True, exist_ok=True)
    for k in range(copies):
        image = apply_effects(clean, Effects(), np.random.default_rng(k))
        name = path if k == 0 else path.with_name(f"{path.stem}-{k}{path.suffix}")
        assert cv2.imwrite(str(name), image)
    return truth


def set_up_scene(kit_path: Path) -> Scene:
    """The scenario's models where it sets them out and its terrain, with the kit's tags."""
    scenario = load_scenario(SCENARIO)
    sized = apply_kit(scenario, load_kit(kit_path))
    starts = {u.id: u for u in scenario.units}
    pieces = tuple(
        PlacedPiece(
            spec,
            starts[spec.name].x,
            starts[spec.name].y,
            starts[spec.name].heading,
            figure=Figure(forward_mm=-(spec.base_diameter_mm / 2 - 5.0)),
        )
        for spec in unit_specs(sized)
    )
    terrain = tuple(
        Terrain(t.spec, t.x_in, t.y_in, 0.0, t.footprint_mm, height_mm=max(3.0, t.height_mm))
        for t in terrain_kits(sized)
    )
    return Scene(table=TableSpec(24, 24), pieces=pieces, terrain=terrain)


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 1440p camera calibrated from the corner tags alone (corners/table.png, table.json),
    then a kit for the scenario sized from that profile (kit.pdf, kit.kit.json)."""
    root = tmp_path_factory.mktemp("table")
    camera = camera_1440p()
    write_frame(root / "corners" / "table.png", Scene(table=TableSpec(24, 24)), camera)
    profile = root / "table.json"
    assert main(["calibrate", "--source", str(root / "corners"), "--save", str(profile)]) == 0
    kit_pdf = root / "kit.pdf"
    args = ["markers", "--out", str(kit_pdf), "--scenario", SCENARIO, "--profile", str(profile)]
    assert main(args) == 0
    return root


def test_calibrating_from_the_corner_tags_alone_is_not_refused_at_1080p(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_frame(tmp_path / "c" / "t.png", Scene(table=TableSpec(24, 24)), Camera.overhead("1080p"))
    code = main(["calibrate", "--source", str(tmp_path / "c"), "--save", str(tmp_path / "t.json")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "detection margin: no tag size given" in out
    assert "next: size your tags for this camera with soloscope markers" in out
    assert load_profile(tmp_path / "t.json").kit == ""


def test_profile_sizes_the_kit_for_the_camera_it_measured(table: Path) -> None:
    kit = load_kit(table / "kit.kit.json")
    profile = load_profile(table / "table.json")
    assert kit.camera.kind == "profile" and kit.camera.profile == str(table / "table.json")
    view = profile_view(profile, "table.json")
    want = reliable_mm(view.px_per_mm(3.0), reliable_tag_px(profile.image_size_px))
    bases = {t.size_mm for t in kit.tags if t.kind == "base"}
    assert bases == {want} == {13.0}  # 1080p would give 15 mm (short), 4K 10 mm
    assert all(t.status == "reliable" for t in kit.tags)
    # the profile now names the kit, so the other commands find it
    assert profile.kit == "kit.kit.json"
    used = kit_in_use(None, table / "table.json")
    assert used is not None and used.path == table / "kit.kit.json"


def test_the_profiles_kit_is_read_through_that_camera(table: Path) -> None:
    sized = apply_kit(load_scenario(SCENARIO), load_kit(table / "kit.kit.json"))
    scene = set_up_scene(table / "kit.kit.json")
    width = sized.table.width_in
    pieces = tuple(
        replace(p, x_in=x, y_in=y, heading_deg=math.degrees(math.atan2(12 - x, 12 - y)) % 360)
        for p, (x, y) in zip(
            scene.pieces,
            [(1, 1), (width - 1, 1), (width - 1, 23), (1, 23), (12, 23), (1, 12)],
            strict=False,
        )
    )
    clean, truth = render_clean(replace(scene, pieces=pieces), camera_1440p())
    detector = Detector("DICT_4X4_50")
    kit_ids = {t.tag_id for t in load_kit(table / "kit.kit.json").tags}
    shown = {t.tag_id for t in truth.tags if t.tag_id in kit_ids and t.visible}
    assert len(shown) >= 8
    for seed in range(3):
        image = apply_effects(clean, Effects(), np.random.default_rng(seed))
        read = {int(s.tag_id) for s in detector.detect(to_grey(image))}
        assert shown <= read, f"draw {seed}: not read {sorted(shown - read)}"


def test_calibrate_checks_the_kit_and_the_profile_names_it(
    table: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kit = table / "kit.kit.json"
    saved = tmp_path / "again.json"
    code = main(
        ["calibrate", "--source", str(table / "corners"), "--kit", str(kit), "--save", str(saved)]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert "detection margin: the kit's 12 mm tags 75 mm up span 25 px at the far edge; " in out
    assert f"tag sizes: kit {kit}" in out
    assert load_profile(saved).kit == str(Path("..") / table.name / "kit.kit.json") or (
        (saved.parent / load_profile(saved).kit).resolve() == kit.resolve()
    )
    # calibrating again without --kit keeps the kit the profile names
    assert main(["calibrate", "--source", str(table / "corners"), "--save", str(saved)]) == 0
    assert f"using the kit {saved.parent / load_profile(saved).kit}" in capsys.readouterr().out
    assert (saved.parent / load_profile(saved).kit).resolve() == kit.resolve()


def test_calibrate_refuses_a_kit_this_camera_cannot_read(
    table: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    small = tmp_path / "small.pdf"
    assert (
        main(["markers", "--out", str(small), "--scenario", "ford-at-dawn", "--tag-mm", "6"]) == 0
    )
    capsys.readouterr()
    args = [
        "calibrate",
        "--source",
        str(table / "corners"),
        "--kit",
        str(tmp_path / "small.kit.json"),
    ]
    assert main([*args, "--save", str(tmp_path / "t.json")]) == 2
    err = capsys.readouterr().err
    assert "the kit's 6 mm tags are 11 px wide" in err and "under the 16 px" in err
    assert not (tmp_path / "t.json").exists()
    assert main([*args, "--tag-mm", "14"]) == 2
    assert "give --kit or --tag-mm, not both" in capsys.readouterr().err


def _track(
    capsys: pytest.CaptureFixture[str], *argv: str
) -> tuple[dict[int, tuple[float, float]], str]:
    assert main(["track", *argv, "--json"]) == 0
    out, err = capsys.readouterr()
    last = json.loads(out.strip().splitlines()[-1])
    return {t["id"]: (t["x"], t["y"]) for t in last["tags"]}, err


def test_track_maps_the_kits_terrain_tags_at_their_height(
    table: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scene = set_up_scene(table / "kit.kit.json")
    # the shrine (its tag 75 mm up) off the middle of the table, where its height shows
    terrain = tuple(
        replace(t, x_in=5.0, y_in=18.0) if t.name == "shrine" else t for t in scene.terrain
    )
    scene = replace(scene, terrain=terrain)
    truth = write_frame(tmp_path / "f" / "t.png", scene, camera_1440p(), copies=6)
    tower = next(t for t in truth.tags if t.tag_id == 8)
    assert tower.height_mm == 75.0
    # the kit the profile names: tag 8 at its height, and only the kit's tags
    seen, err = _track(capsys, str(tmp_path / "f"), "--profile", str(table / "table.json"))
    assert "tag sizes: kit" in err
    # (the rest of the error is the camera's height, estimated without a lens calibration)
    off_with_kit_mm = math.dist(seen[8], (tower.x_in, tower.y_in)) * 25.4
    assert off_with_kit_mm < 8.0
    assert set(seen) <= {t.tag_id for t in load_kit(table / "kit.kit.json").tags} | {4, 5, 6, 7}
    # --kit given: the same
    bare = tmp_path / "bare.json"
    profile = load_profile(table / "table.json")
    bare.write_text(json.dumps(profile.to_dict() | {"kit": None}), encoding="utf-8")
    with_kit, _ = _track(
        capsys, str(tmp_path / "f"), "--profile", str(bare), "--kit", str(table / "kit.kit.json")
    )
    assert with_kit[8] == seen[8]
    # without a kit the tag is taken to lie on a base top: off by its height's parallax
    without, err = _track(capsys, str(tmp_path / "f"), "--profile", str(bare))
    assert "tag sizes" not in err
    assert math.dist(without[8], (tower.x_in, tower.y_in)) * 25.4 > 3 * off_with_kit_mm


@pytest.fixture(autouse=True)
def no_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """These runs are not interactive, even under ``pytest -s`` from a terminal."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))


def test_play_and_replay_read_the_table_with_the_kit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clips = short_clip_folder(tmp_path / "clips")
    # the kit the sample footage was made with: the scenario's own sizes
    assert main(["markers", "--out", str(tmp_path / "kit.pdf"), "--scenario", SCENARIO]) == 0
    kit = tmp_path / "kit.kit.json"
    run = tmp_path / "run"
    argv = ["play", "--source", str(clips / "short.mp4"), "--scenario", SCENARIO, "--seed", "3"]
    argv += ["--speech", "off", "--no-page", "--out", str(run), "--kit", str(kit)]
    capsys.readouterr()
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"tag sizes: kit {kit}" in out
    saved = json.loads((run / "game.json").read_text(encoding="utf-8"))
    assert saved["kit"] == str(kit.resolve())
    said = [text for _, text in saved["announcements"]]
    assert any("Initiative roll" in s for s in said)  # the set-up was read as in place
    log = [
        json.loads(line) for line in (run / "recording" / "events.jsonl").read_text().splitlines()
    ]
    (session,) = [r for r in log if r.get("type") == "session"]
    assert session["kit"] == str(kit.resolve())
    # the replay of that run finds the kit in the session's log ...
    replay = ["replay", str(clips / "short.mp4"), "--events", str(run), "--quiet"]
    assert main([*replay, "--out", str(tmp_path / "r1")]) == 0
    assert "not here" not in capsys.readouterr().err
    # ... says so when it has gone, and takes one given with --kit
    moved = tmp_path / "elsewhere.kit.json"
    kit.rename(moved)
    records = read_session_records(clips / "short.mp4", log=run)
    warnings: list[str] = []
    options = ReplayOptions(clips / "short.mp4", tmp_path / "r2", events=run)
    assert replay_kit(options, records, warnings) is None
    assert warnings == [
        f"the session was played with the kit {kit.resolve()}, which is not here: tags are "
        "placed as the scenario says; give --kit FILE"
    ]
    assert main([*replay, "--out", str(tmp_path / "r3"), "--kit", str(moved)]) == 0
    assert "not here" not in capsys.readouterr().err


def test_a_kit_for_other_bases_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(
            [
                "markers",
                "--out",
                str(tmp_path / "ford.pdf"),
                "--scenario",
                "ford-at-dawn",
                "--camera",
                "4k",
            ]
        )
        == 0
    )
    capsys.readouterr()
    args = [
        "replay",
        str(SAMPLE / "crossroads-seed3.mp4"),
        "--out",
        str(tmp_path / "r"),
        "--scenario",
        SCENARIO,
        "--kit",
        str(tmp_path / "ford.kit.json"),
    ]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert "on a 25.4 mm base, but" in err and "stands on 31.8 mm" in err
    assert len(err.splitlines()) == 1


def test_the_readmes_battle_at_your_table_with_a_1080p_webcam(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Steps 2, 4 and 5 of "A battle at your table", on a render of the set-up through the
    nominal 1080p webcam carrying the kit it printed."""
    monkeypatch.chdir(tmp_path)
    assert main(["markers", "--out", "kit.pdf", "--scenario", SCENARIO, "--camera", "1080p"]) == 0
    lens = Camera.overhead("1080p", height_mm=load_kit("kit.kit.json").camera.height_mm)
    write_frame(tmp_path / "cam" / "f.png", set_up_scene(tmp_path / "kit.kit.json"), lens, 12)
    assert (
        main(["calibrate", "--source", "cam", "--save", "table.json", "--kit", "kit.kit.json"]) == 0
    )
    assert "detection margin: the kit's 15 mm tags span 21 px" in capsys.readouterr().out
    argv = ["play", "--source", "cam", "--scenario", SCENARIO, "--profile", "table.json"]
    assert main([*argv, "--no-page", "--speech", "off", "--out", "run", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "tag sizes: kit kit.kit.json (sized for a 1080p webcam 0.80 m above the table)" in out
    assert "The table matches Ambush at the Crossroads Shrine. Let battle begin." in out


def test_a_4k_webcam_calibrates_without_a_lens_calibration_and_reads_its_kit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its uncalibrated lens bends the far corner tags a few pixels off a flat fit (about
    1 mm): that is no misplaced tag. The 4K kit's 10 mm tags are read on the same picture."""
    out = tmp_path / "kit.pdf"
    assert main(["markers", "--out", str(out), "--scenario", SCENARIO, "--camera", "4k"]) == 0
    kit = tmp_path / "kit.kit.json"
    assert {t.size_mm for t in load_kit(kit).tags} == {10.0}
    truth = write_frame(tmp_path / "c" / "t.png", set_up_scene(kit), Camera.overhead("4k"))
    args = ["calibrate", "--source", str(tmp_path / "c"), "--kit", str(kit)]
    assert main([*args, "--save", str(tmp_path / "t.json")]) == 0, capsys.readouterr().err
    (margin,) = [line for line in capsys.readouterr().out.splitlines() if "margin" in line]
    assert margin.startswith("detection margin: the kit's 10 mm tags span 2")
    assert "reliable from 27 px; margin +" in margin
    image = cv2.imread(str(tmp_path / "c" / "t.png"), cv2.IMREAD_GRAYSCALE)
    read = {int(s.tag_id) for s in Detector("DICT_4X4_50").detect(image)}
    shown = {t.tag_id for t in truth.tags if t.tag_id in load_kit(kit).ids and t.visible}
    assert len(shown) >= 8 and shown <= read

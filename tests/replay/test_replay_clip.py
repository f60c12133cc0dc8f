"""End to end on the rendered battle: outputs, damaged and tagless footage, other sources."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import cv2
import pytest

from assistant.cli import main
from assistant.errors import UserError
from assistant.replay.document import load_timeline
from assistant.replay.footage import open_footage
from assistant.replay.observe import fit_profile_from_footage, make_detector
from assistant.replay.run import ReplayOptions, ReplayResult, run_replay
from calibration.profile import save_profile
from tests.replay.rendered_clip import BattleScript, render_battle


def _transcode(src: Path, dst: Path, fourcc: str = "MJPG") -> None:
    """Copy a video frame by frame into another container and codec."""
    cap = cv2.VideoCapture(str(src))
    fps = cap.get(cv2.CAP_PROP_FPS)
    writer = None
    while True:
        ok, image = cap.read()
        if not ok:
            break
        if writer is None:
            size = (image.shape[1], image.shape[0])
            writer = cv2.VideoWriter(str(dst), cv2.VideoWriter.fourcc(*fourcc), fps, size)
        writer.write(image)
    cap.release()
    assert writer is not None
    writer.release()


def test_outputs_are_written_and_versioned(replay: ReplayResult) -> None:
    doc = json.loads((replay.out_dir / "timeline.json").read_text())
    assert doc["version"] == 1
    assert {"moves", "states", "events", "activations", "keyframes"} <= set(doc)
    for m in doc["moves"]:
        assert set(m) == {
            "tag",
            "from",
            "to",
            "heading_from",
            "heading_to",
            "t_start",
            "t_end",
            "known",
        }
        assert m["known"] == "seen"
    for kf in doc["keyframes"]:
        assert (replay.out_dir / kf["src"]).is_file()
    html = (replay.out_dir / "index.html").read_text()
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in html
    assert (replay.out_dir / "replay.mp4").stat().st_size > 10_000
    assert replay.warnings == []


def test_truncated_video_gives_partial_replay_and_warning(
    clip_and_truth: tuple[BattleScript, Path, list[dict]], tmp_path: Path
) -> None:
    script, path, truth = clip_and_truth
    avi = tmp_path / "battle.avi"  # MJPEG in AVI: readable up to where it was cut
    _transcode(path, avi)
    data = avi.read_bytes()
    cut = tmp_path / "cut.avi"
    cut.write_bytes(data[: len(data) * 75 // 100])
    result = run_replay(ReplayOptions(footage=cut, out_dir=tmp_path / "out"))
    assert any("truncated or corrupt" in w for w in result.warnings)
    assert 8.0 < result.footage_s < script.duration_s - 2.0
    found = [m.tag_id for m in result.timeline.moves]
    # moves whose hand had left and whose board had settled before the cut are all there
    settled_before_cut = [t["tag"] for t in truth if t["t_end"] + 2.5 < result.footage_s]
    assert found[: len(settled_before_cut)] == settled_before_cut
    assert set(found) <= {t["tag"] for t in truth if t["t_start"] < result.footage_s}
    doc = json.loads((tmp_path / "out" / "timeline.json").read_text())
    assert doc["warnings"] == result.warnings


def test_corrupt_middle_is_skipped_with_a_warning(
    clip_and_truth: tuple[BattleScript, Path, list[dict]], tmp_path: Path
) -> None:
    _, path, _ = clip_and_truth
    data = bytearray(path.read_bytes())
    n = len(data)
    for k in range(n * 4 // 10, n * 4 // 10 + n // 10):
        data[k] = (data[k] * 7 + 13) % 256
    bad = tmp_path / "bad.mp4"
    bad.write_bytes(bytes(data))
    result = run_replay(ReplayOptions(footage=bad, out_dir=tmp_path / "out"))
    assert any("damaged" in w or "corrupt" in w for w in result.warnings)
    assert result.timeline.moves, "nothing replayed from the readable part"
    assert (tmp_path / "out" / "index.html").is_file()


def test_footage_without_corner_tags_is_a_clear_error(
    clip_and_truth: tuple[BattleScript, Path, list[dict]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    script, _, _ = clip_and_truth
    table = replace(script.scene.table, corner_tags=False)
    bare = replace(script, scene=replace(script.scene, table=table), moves=[], hovers=[])
    path = tmp_path / "nocorners.mp4"
    render_battle(replace(bare, duration_s=1.0), path)
    code = main(["replay", str(path), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1, err
    assert "no corner tags" in err and "nocorners.mp4" in err


def test_unreadable_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "junk.mp4"
    path.write_bytes(b"\\x00not a video" * 100)
    code = main(["replay", str(path), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "junk.mp4" in err and "Traceback" not in err


def test_replay_with_a_saved_profile_and_from_an_image_folder(
    clip_and_truth: tuple[BattleScript, Path, list[dict]], replay: ReplayResult, tmp_path: Path
) -> None:
    _, path, truth = clip_and_truth
    reader = open_footage(path)
    profile = fit_profile_from_footage(reader, make_detector())
    save_profile(profile, tmp_path / "table.json")
    progress: list[tuple[float, float | None]] = []
    with_profile = run_replay(
        ReplayOptions(footage=path, out_dir=tmp_path / "p", profile=tmp_path / "table.json"),
        lambda done, total: progress.append((done, total)),
    )
    assert progress and all(total == pytest.approx(reader.duration_s) for _, total in progress)
    assert [d for d, _ in progress] == sorted(d for d, _ in progress)
    assert [m.tag_id for m in with_profile.timeline.moves] == [t["tag"] for t in truth]
    # every second frame of the clip as JPEG files
    images = tmp_path / "images"
    images.mkdir()
    cap = cv2.VideoCapture(str(path))
    i = 0
    while True:
        ok, image = cap.read()
        if not ok:
            break
        if i == 10:  # one odd image of another size
            image = cv2.resize(image, (640, 360))
        if i % 2 == 0:
            cv2.imwrite(str(images / f"frame_{i:05d}.jpg"), image)
        i += 1
    from_images = run_replay(
        ReplayOptions(footage=images, out_dir=tmp_path / "i", images_fps=reader.fps / 2)
    )
    got = from_images.timeline.moves
    assert from_images.warnings == ["frame 5 is 640x360 px, not 1920x1080 like the rest: skipped"]
    assert [m.tag_id for m in got] == [t["tag"] for t in truth]
    for want, move in zip(replay.timeline.moves, got, strict=True):
        assert math.dist(move.to_in, want.to_in) < 0.1
        assert abs(move.t_end - want.t_end) <= 0.3


def test_timeline_json_loads_by_version(replay: ReplayResult, tmp_path: Path) -> None:
    doc = load_timeline(replay.out_dir / "timeline.json")
    assert [m["tag"] for m in doc["moves"]] == [m.tag_id for m in replay.timeline.moves]
    future = tmp_path / "future.json"
    future.write_text(json.dumps({**doc, "version": 99}))
    with pytest.raises(UserError, match=r"future\.json has version 99"):
        load_timeline(future)


def test_a_profile_of_another_resolution_is_a_clear_error(
    clip_and_truth: tuple[BattleScript, Path, list[dict]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, path, _ = clip_and_truth
    profile = fit_profile_from_footage(open_footage(path), make_detector())
    save_profile(replace(profile, image_size_px=(3840, 2160)), tmp_path / "4k.json")
    code = main(
        ["replay", str(path), "--profile", str(tmp_path / "4k.json"), "--out", str(tmp_path)]
    )
    err = capsys.readouterr().err
    assert code == 2 and "3840x2160" in err and "1920x1080" in err


def _profile_of_another_table(folder: Path) -> Path:
    """A real profile of the 36 x 36 in watchtower-coop table, seen by the same 1080p camera
    model as the clips: one rendered still, calibrated from its corner tags."""
    from assistant.footage import battle_scene, overhead_camera
    from assistant.scenarios import load_game
    from vision.render.frame import render_frame

    scenario, _, state = load_game("watchtower-coop")
    image, _ = render_frame(battle_scene(scenario, state), overhead_camera(scenario, "1080p"))
    stills = folder / "stills"
    stills.mkdir()
    cv2.imwrite(str(stills / "table.png"), image)
    profile = fit_profile_from_footage(open_footage(stills), make_detector(), 36.0, 36.0)
    assert profile.fit.reprojection_rms_mm < 1.0  # a good profile, of its own table
    save_profile(profile, folder / "36in.json")
    return folder / "36in.json"


@pytest.mark.parametrize("scenario", [None, "crossroads-ambush"])
def test_a_profile_of_another_table_size_is_a_clear_error(
    clip_and_truth: tuple[BattleScript, Path, list[dict]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    scenario: str | None,
) -> None:
    """Once, such a profile gave an empty replay and exit 0."""
    _, path, _ = clip_and_truth
    profile = _profile_of_another_table(tmp_path)
    out = tmp_path / "out"
    argv = ["replay", str(path), "--profile", str(profile), "--out", str(out), "--quiet"]
    code = main(argv + (["--scenario", scenario] if scenario else []))
    err = capsys.readouterr().err
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "is for a 36 x 36 in table" in lines[0], err
    assert "leave out --profile" in lines[0]
    assert not out.exists()  # nothing half-written

"""``soloscope demo --scenario``: a scenario's battle rendered once into a cache folder (whole
or not at all), played as the camera, ending on whether it matched ``simulate``; ``--list``;
progress off a terminal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant import demo_clips
from assistant.cli import main
from assistant.demo_clips import cached, demo_clip, simulated_outcome
from assistant.demo_kit import choose_kit
from assistant.progress import progress_lines
from assistant.scenarios import bundled_scenarios, load_scenario
from tests.render.test_progress import DUEL


def test_list_names_the_clip_and_every_bundled_scenario(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["demo", "--list"]) == 0
    out = capsys.readouterr().out
    assert "crossroads-seed3" in out and "crossroads-ambush, seed 3 (the default)" in out
    for b in bundled_scenarios():
        assert f"  {b.name} " in out
    assert len(bundled_scenarios()) == 12


def test_the_scenario_option_is_for_any_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--scenario" in help_text and "grid scenario" not in help_text
    assert "soloscope simulate SCENARIO --seed N" in help_text


def test_a_seed_goes_with_a_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "2"]) == 2
    assert "--seed goes with --scenario" in capsys.readouterr().err


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    path = tmp_path / "duel.toml"
    path.write_text(DUEL, encoding="utf-8")
    return path


@pytest.mark.slow
def test_a_scenario_demo_renders_once_and_ends_as_simulate_ends(
    duel: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    args = ["demo", "--scenario", str(duel), "--footage", str(cache), "--speech", "off"]
    assert main([*args, "--out", str(tmp_path / "run1")]) == 0
    out, err = capsys.readouterr()
    assert "Rendering the duel demo (seed 1, " in out
    simulated = simulated_outcome(str(duel), 1)
    assert simulated.winner not in (None, "draw")
    assert out.splitlines()[-1] == (
        f"Same outcome as 'soloscope simulate {duel} --seed 1': {simulated.winner} win after "
        f"{simulated.rounds} rounds."
    )
    # off a terminal the render still says how far it is and how long is left
    assert "rendering: " in err and " frames rendered, " in err and " elapsed" in err
    files = sorted(p.name for p in cache.iterdir())
    assert len(files) == 5 and not [f for f in files if f.startswith(".")]
    assert main([*args, "--out", str(tmp_path / "run2"), "--seed", "1"]) == 0
    out, _ = capsys.readouterr()
    assert "Rendering" not in out and "Same outcome as" in out  # the cached clip


def test_an_interrupted_render_leaves_nothing_behind(
    duel: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    stale = cache / f".{_name(duel)}.killed.partial"  # a render killed outright before
    stale.mkdir(parents=True)
    (stale / "battle.mp4").write_bytes(b"half a video")

    def half_written(*args: object, **kwargs: object) -> dict[str, object]:
        out_dir, name = Path(str(args[5])), str(kwargs["name"])
        (out_dir / f"{name}.mp4").write_bytes(b"the first frames")
        raise KeyboardInterrupt

    monkeypatch.setattr(demo_clips, "write_battle_footage", half_written)
    with pytest.raises(KeyboardInterrupt):
        demo_clip(str(duel), 1, cache)
    assert list(cache.iterdir()) == []  # no partial video, no temporary folder


def _name(duel: Path, seed: int = 1) -> str:
    """The cache's name for the duel's demo clip."""
    digest = demo_clips.battle_digest(str(duel), seed)
    return demo_clips.clip_name("duel", seed, digest, choose_kit(load_scenario(str(duel))))


def test_a_cached_clip_is_found_by_its_battle_and_kit(duel: Path, tmp_path: Path) -> None:
    name = _name(duel)
    assert name != _name(duel, 2)
    for suffix in (".mp4", ".truth.json", ".declarations.jsonl", ".kit.json"):
        (tmp_path / f"{name}{suffix}").write_text("rendered before", encoding="utf-8")
    meta = {
        "version": demo_clips.FOOTAGE_VERSION,
        "video": f"{name}.mp4",
        "truth": f"{name}.truth.json",
        "declarations": f"{name}.declarations.jsonl",
        "kit_file": f"{name}.kit.json",
    }
    (tmp_path / f"{name}.json").write_text(json.dumps(meta), encoding="utf-8")
    assert cached(tmp_path, name) is not None
    assert demo_clip(str(duel), 1, tmp_path) == (tmp_path, name)  # nothing rendered
    (tmp_path / f"{name}.mp4").unlink()
    assert cached(tmp_path, name) is None  # a clip missing its video is rendered again


def test_progress_lines_come_every_few_seconds_with_the_time_left() -> None:
    now = [100.0]
    lines: list[str] = []
    update = progress_lines(
        "rendering",
        lambda done, total: f"{done:.0f}/{total:.0f} frames",
        every_s=5.0,
        clock=lambda: now[0],
        write=lines.append,
    )
    for done in range(0, 101):
        update(done, 100)
        now[0] += 0.5
    assert lines[0] == "rendering: 0/100 frames, 0 s elapsed"
    assert lines[1] == "rendering: 10/100 frames, 5 s elapsed, about 45 s left"
    assert len(lines) == 11 and lines[-1] == "rendering: 100/100 frames, 50 s elapsed"

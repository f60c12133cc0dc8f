"""``soloscope play`` keeps its game safe: one process per session folder (a second is refused
and told who holds it), a stop by Ctrl-C says where the game is and how to carry it on, damaged
footage ends non-zero after saving, a resumed game says nothing twice, and mistaken folders get
one sentence."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path
from typing import Any

import pytest

from assistant.cli import main
from assistant.session import start
from calibration.safe_files import LOCK_NAME, lock_folder
from tests.session.conftest import soloscope

SCENARIO = "crossroads-ambush"


pytestmark = pytest.mark.usefixtures("no_terminal")


def _play(clips: Path, *extra: object) -> list[object]:
    return ["play", "--source", clips / "short.mp4", "--speech", "off", "--no-page", *extra]


def _said(folder: Path) -> list[str]:
    saved = json.loads((folder / "game.json").read_text(encoding="utf-8"))
    return [text for _, text in saved["announcements"]]


@pytest.fixture(scope="module")
def saved_run(clips: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A session of the short clip: the game waits for the player's declaration, saved."""
    out = tmp_path_factory.mktemp("saved") / "run"
    assert (
        main([str(a) for a in _play(clips, "--scenario", SCENARIO, "--seed", 3, "--out", out)]) == 0
    )
    return out


def test_a_second_play_on_a_folder_in_use_is_refused_and_writes_nothing(
    clips: Path, saved_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fresh = tmp_path / "fresh"
    with lock_folder(fresh, "soloscope play"):  # another play has begun there
        code, _, err = soloscope(capsys, *_play(clips, "--scenario", SCENARIO, "--out", fresh))
        assert code == 2 and "Traceback" not in err
        assert err.startswith(f"soloscope play: {fresh} is in use by soloscope play (process ")
        assert sorted(p.name for p in fresh.iterdir()) == [LOCK_NAME]

    resumed = tmp_path / "resumed"
    shutil.copytree(saved_run, resumed)
    before = (resumed / "game.json").read_bytes()
    with lock_folder(resumed, "soloscope play"):
        code, _, err = soloscope(capsys, *_play(clips, "--resume", resumed))
        assert code == 2 and f"{resumed} is in use by soloscope play" in err
    assert (resumed / "game.json").read_bytes() == before
    assert not (resumed / "recording-2").exists()


def test_mistaken_folders_get_one_sentence(
    clips: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("not a folder", encoding="utf-8")
    empty = tmp_path / "empty"
    empty.mkdir()
    cases = [
        (("--scenario", SCENARIO, "--out", a_file), f"--out {a_file} is a file; give a folder"),
        (("--resume", tmp_path / "nosuch"), f"--resume {tmp_path / 'nosuch'}: does not exist"),
        (("--resume", a_file), f"--resume {a_file}: is a file, not a folder"),
        (("--resume", empty), f"--resume {empty}: this folder holds no saved game"),
    ]
    for extra, message in cases:
        code, _, err = soloscope(capsys, *_play(clips, *extra))
        assert code == 2 and err.count("\n") == 1, (extra, err)
        assert message in err and "Errno" not in err and "Traceback" not in err, (extra, err)
    assert a_file.read_text(encoding="utf-8") == "not a folder"
    assert sorted(p.name for p in empty.iterdir()) == []


def test_ctrl_c_says_where_the_game_is_and_the_command_that_carries_it_on(
    clips: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real_loop = start.run_loop

    def stopped_at_frame_50(frames: Any, *args: Any, **kwargs: Any) -> Any:
        def until_ctrl_c() -> Any:
            for frame in frames:
                if frame.index == 50:
                    raise KeyboardInterrupt
                yield frame

        return real_loop(until_ctrl_c(), *args, **kwargs)

    monkeypatch.setattr(start, "run_loop", stopped_at_frame_50)
    out = tmp_path / "run"
    code, _, err = soloscope(
        capsys, *_play(clips, "--scenario", SCENARIO, "--seed", 3, "--out", out)
    )
    assert code == 130 and "Traceback" not in err
    command = f"soloscope play --resume {out} --source {clips / 'short.mp4'}"
    assert (
        err == f"soloscope play: stopped. The game is saved in {out}; carry it on with: {command}\n"
    )
    steps = len(json.loads((out / "game.json").read_text(encoding="utf-8"))["steps"])
    assert steps >= 1  # the initiative roll

    monkeypatch.setattr(start, "run_loop", real_loop)
    code, _, err = soloscope(capsys, *shlex.split(command)[1:], "--speech", "off", "--no-page")
    assert code == 0, err
    with lock_folder(out, "soloscope play"):  # the finished run let its folder go
        pass


def test_damaged_footage_ends_non_zero_after_saving(
    clips: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    video = (clips / "short.mp4").read_bytes()
    middle = len(video) // 2
    damaged = tmp_path / "damaged.mp4"
    damaged.write_bytes(
        video[:middle] + bytes(len(video) // 10) + video[middle + len(video) // 10 :]
    )
    out = tmp_path / "run"
    code, stdout, err = soloscope(
        capsys,
        "play", "--source", damaged, "--scenario", SCENARIO, "--seed", 3, "--speech", "off",
        "--no-page", "--out", out,
    )  # fmt: skip
    assert code == 2, err
    last = err.strip().splitlines()[-1]
    assert last.startswith(
        f"soloscope play: the footage {damaged} is damaged (video {damaged} ended at frame "
    )
    assert last.endswith(f"truncated or damaged); the game is saved in {out}.")
    assert f"Saved game: {out / 'game.json'}" in stdout
    assert json.loads((out / "game.json").read_text(encoding="utf-8"))["steps"]


def test_a_resumed_game_says_nothing_twice(
    clips: Path, saved_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The saved game waits for the player's declaration; resumed, it waits on, saying nothing
    it said before (the turn prompt is said again aloud, not logged a second time)."""
    run = tmp_path / "run"
    shutil.copytree(saved_run, run)
    before = _said(run)
    assert any(text.startswith("Your turn: move one of your characters") for text in before)
    code, _, err = soloscope(capsys, *_play(clips, "--resume", run))
    assert code == 0, err
    said = _said(run)
    assert said[: len(before)] == before
    again = [text for text in said[len(before) :] if text in before[:-1]]
    assert again == [], again


def test_other_commands_refuse_a_file_named_as_their_folder(
    clips: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each a traceback before (FileExistsError), or a raw [Errno 21]."""
    a_file = tmp_path / "notes.txt"
    a_file.write_text("not a folder", encoding="utf-8")
    cases = [
        (("replay", clips / "short.mp4", "--out", a_file, "--quiet"), "a folder for the replay"),
        (
            ("footage", SCENARIO, "--seed", 1, "--out", a_file, "--quiet"),
            "a folder for the footage",
        ),
        (
            ("demo", "--footage", clips, "--clip", "short", "--out", a_file, "--speech", "off"),
            "a folder for the session's files",
        ),
    ]
    for argv, folder in cases:
        code, _, err = soloscope(capsys, *argv)
        assert code == 2 and err.endswith(f": --out {a_file} is a file; give {folder}\n"), err
        assert err.count("\n") == 1, err
    code, _, err = soloscope(capsys, "roster", "new", "--ruleset", "skirmish2d6", tmp_path)
    assert code == 2 and err == f"soloscope roster: cannot read {tmp_path}: Is a directory\n"
    assert a_file.read_text(encoding="utf-8") == "not a folder"

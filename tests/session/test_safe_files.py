"""Whole-file writes that a crash cannot leave half done, and the locks that keep two soloscope
processes out of one game folder (``calibration.safe_files``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from calibration.safe_files import (
    LOCK_NAME,
    LockError,
    atomic_path,
    lock_folder,
    take_lock,
    write_atomic,
    write_json_atomic,
)

REPO = Path(__file__).resolve().parents[2]


def test_a_write_that_fails_leaves_the_old_file_and_no_leftovers(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    write_json_atomic(target, {"steps": [1, 2, 3]})
    before = target.read_bytes()
    with pytest.raises(RuntimeError), atomic_path(target) as tmp:
        tmp.write_text('{"steps": [1, 2', encoding="utf-8")  # the process dies mid-write
        raise RuntimeError("killed")
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    with pytest.raises(FileNotFoundError):
        write_atomic(tmp_path / "no-such-folder" / "notes.txt", "no folder is made for it")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_a_second_holder_is_refused_and_told_who_holds_the_folder(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    with lock_folder(folder, "soloscope play") as held:
        assert held.held and (folder / LOCK_NAME).is_file()
        with pytest.raises(LockError) as refused:
            lock_folder(folder, "soloscope play")
        message = str(refused.value)
        assert message.startswith(f"{folder} is in use by soloscope play (process {os.getpid()}")
        assert "wait for it to end, or stop it" in message
    with lock_folder(folder, "soloscope play"):  # let go: the next one gets it
        pass
    with pytest.raises(LockError, match="cannot use the folder"):
        lock_folder(folder / LOCK_NAME / "below", "soloscope play")


def test_a_lock_dies_with_its_process_even_under_kill_9(tmp_path: Path) -> None:
    lock_file = tmp_path / "camp.sqlite.lock"
    script = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from calibration.safe_files import take_lock\n"
        f"take_lock(Path({str(lock_file)!r}), 'soloscope campaign next', 'camp.sqlite')\n"
        "print('held', flush=True)\n"
        "time.sleep(60)\n"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", script], cwd=REPO, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(LockError, match=f"soloscope campaign next \\(process {holder.pid}"):
            take_lock(lock_file, "soloscope campaign next", "camp.sqlite")
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=30)
        if holder.stdout is not None:
            holder.stdout.close()
    with take_lock(lock_file, "soloscope campaign next", "camp.sqlite") as mine:
        assert mine.held

"""Writing files safely, and keeping two soloscope processes out of one game or campaign.

A whole file is written to a temporary file beside its target, flushed to the disk, then
renamed over the target (``os.replace`` is atomic): a crash or a full disk leaves the old file
or the new one, never half of one. Every file soloscope writes goes through
:func:`write_atomic` (text or bytes), :func:`write_json_atomic`, or :func:`atomic_path` for a
library that writes a named file itself (a PDF, an image, a video); only append-only logs are
written line by line instead (their readers drop an incomplete last line).

A lock is the operating system's own (``flock``) on a small lock file. The operating system
releases it when the process ends, however it ends (``kill -9`` included), so a lock is never
left stale. Its holder writes who it is into the lock file (the command, the process id and
since when), so that a second process can say who holds it. Lives in ``calibration`` because
profiles and the printable kit are written through it too (``calibration`` imports nothing of
``assistant``).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

LOCK_NAME = ".soloscope.lock"
"""The lock file of a game folder (a campaign's is ``DB.lock`` beside its database)."""


class LockError(Exception):
    """A game folder or a campaign cannot be locked: another process holds it (the message
    says who), or its lock file cannot be made."""


def _fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (best effort: not every file system allows it)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


@contextlib.contextmanager
def atomic_path(path: Path | str) -> Iterator[Path]:
    """A temporary path beside ``path`` (same suffix) to write the whole file to; on leaving
    the block it is flushed and renamed over ``path``; if the block fails it is removed and
    ``path`` is left as it was. OSError when it cannot be written (a missing folder too: the
    caller makes the folders it means to write into)."""
    target = Path(path)
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=target.suffix)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        with open(tmp, "rb+") as written:
            os.fsync(written.fileno())
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(target.parent)


def write_atomic(path: Path | str, data: str | bytes) -> None:
    """Write the whole file at ``path`` (text as UTF-8) so that a crash leaves the old file or
    the new one, never half of one. OSError when it cannot be written (the old file stays)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_path(path) as tmp:
        tmp.write_bytes(raw)


def write_json_atomic(path: Path | str, data: Any, *, indent: int | None = 1) -> None:
    """Write ``data`` as a JSON file atomically (see :func:`write_atomic`)."""
    separators = (",", ":") if indent is None else None
    write_atomic(path, json.dumps(data, indent=indent, separators=separators) + "\n")


class FileLock:
    """A held lock (see :func:`take_lock`); ``release()``, or leave its ``with`` block."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @property
    def held(self) -> bool:
        """Still held by this process."""
        return self._fd is not None

    def release(self) -> None:
        """Let the lock go (the lock file stays: removing it could let two processes in)."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def __enter__(self) -> FileLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def take_lock(lock_file: Path, what: str, subject: str) -> FileLock:
    """Hold the lock on ``lock_file`` (created if need be) for this process, as ``what`` (the
    command, e.g. "soloscope play"), without waiting. ``subject`` names what is locked in the
    message of the LockError raised when another process holds it."""
    try:
        fd = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise LockError(f"cannot lock {subject}: {exc.strerror or exc} ({lock_file})") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise LockError(
            f"{subject} is in use by {lock_holder(lock_file)}; wait for it to end, or stop "
            "it, then try again"
        ) from None
    except OSError as exc:
        os.close(fd)
        raise LockError(f"cannot lock {subject}: {exc.strerror or exc}") from None
    holder = {"what": what, "pid": os.getpid(), "since": time.strftime("%Y-%m-%d %H:%M:%S")}
    with contextlib.suppress(OSError):
        os.ftruncate(fd, 0)
        os.pwrite(fd, (json.dumps(holder) + "\n").encode("utf-8"), 0)
    return FileLock(lock_file, fd)


def lock_holder(lock_file: Path) -> str:
    """Who holds ``lock_file``, in words: "soloscope play (process 4242, since 2025-05-01
    20:14:03)", or "another process" when the lock file does not say."""
    try:
        holder = json.loads(lock_file.read_text(encoding="utf-8"))
        return f"{holder['what']} (process {int(holder['pid'])}, since {holder['since']})"
    except (OSError, ValueError, KeyError, TypeError):
        return "another process"


def lock_folder(folder: Path, what: str) -> FileLock:
    """Hold the lock of a game folder (created if need be); LockError if another
    process holds it, or if the folder cannot be made."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise LockError(f"cannot use the folder {folder}: {exc.strerror or exc}") from None
    return take_lock(folder / LOCK_NAME, what, str(folder))

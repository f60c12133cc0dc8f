"""``soloscope`` run as a player runs it: a separate process whose standard input is a terminal
(a pseudo-terminal), its output read line by line, stopped with Ctrl-C (SIGINT)."""

from __future__ import annotations

import os
import pty
import queue
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from types import TracebackType

REPO = Path(__file__).resolve().parents[2]
#: How long to wait for a line before the test fails (a guard against hanging, not a timing).
LINE_TIMEOUT_S = 900.0


def _default_sigint() -> None:
    """In the child before it starts: SIGINT does what it does at a terminal."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class LivePlay:
    """``python -m assistant.cli ARGS`` with a terminal on standard input."""

    def __init__(self, args: list[str]) -> None:
        self.args = args
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()

    def __enter__(self) -> LivePlay:
        main_fd, terminal_fd = pty.openpty()
        self._main_fd = main_fd
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "assistant.cli", *self.args],
            cwd=REPO,
            stdin=terminal_fd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            text=True,
            # Ctrl-C must reach it even when the tests were started as a background job (whose
            # shell ignores SIGINT, and that is inherited): the player's terminal delivers it.
            preexec_fn=_default_sigint,
        )
        os.close(terminal_fd)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        return self

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def wait_for(self, pattern: str) -> re.Match[str]:
        """The first output line (from the start) matching ``pattern``; waits for it."""
        for line in self.lines:
            if found := re.search(pattern, line):
                return found
        while True:
            try:
                line = self._queue.get(timeout=LINE_TIMEOUT_S)
            except queue.Empty:
                raise AssertionError(f"no line matched {pattern!r}: {self.lines[-20:]}") from None
            if line is None:
                raise AssertionError(f"the program ended before {pattern!r}: {self.lines[-20:]}")
            self.lines.append(line)
            if found := re.search(pattern, line):
                return found

    def seen(self, text: str) -> bool:
        """Whether a line read so far holds ``text``."""
        return any(text in line for line in self.lines)

    def interrupt(self) -> None:
        """Ctrl-C."""
        self.proc.send_signal(signal.SIGINT)

    def wait(self) -> int:
        """The exit code, once every line of output is read."""
        code = self.proc.wait(timeout=LINE_TIMEOUT_S)
        self._reader.join(LINE_TIMEOUT_S)
        while (line := self._queue.get_nowait() if not self._queue.empty() else None) is not None:
            self.lines.append(line)
        return code

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._reader.join(LINE_TIMEOUT_S)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        os.close(self._main_fd)

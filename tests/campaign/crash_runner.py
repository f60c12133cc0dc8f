"""The process the crash trials kill: ``python -m tests.campaign.crash_runner`` imports soloscope
once, warms it with one uncut ``campaign next --simulate`` and ``campaign resolve`` on a
scratch campaign, then for each request on standard input forks a child that runs one
``soloscope campaign ...`` command (``assistant.cli.main``) and SIGKILLs it at the requested
point; it answers one JSON line per request on standard output.

A request is ``{"argv": [...], "cpu_s": S, "after_file": PATH, "after_cpu_s": A}``:
the child is killed once it has run ``S`` seconds on the CPU (null: not for that), or once it
has run ``A`` more seconds on the CPU after ``PATH`` appeared (null: not for that). The answer
is ``{"code": EXIT or null when killed, "cpu_s": the child's CPU seconds}``.

Kill points are measured in the child's own CPU time (``/proc/PID/schedstat``), not in
wall-clock time, so a loaded machine moves them no further into the step than a quiet one;
each trial skips the interpreter's start-up and imports (about a second of CPU) that a fresh
``python -m assistant.cli`` would spend before reaching the campaign.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

from assistant.campaign.files import load_campaign
from assistant.campaign.store import CampaignStore
from assistant.cli import main

POLL_S = 0.0005
"""How often the child's CPU time is looked at (seconds of wall-clock time)."""


def cpu_seconds(pid: int) -> float:
    """Seconds process ``pid`` has run on a CPU so far (0 when it is gone)."""
    try:
        text = Path(f"/proc/{pid}/schedstat").read_text(encoding="ascii")
    except OSError:
        return 0.0
    return int(text.split()[0]) / 1e9


def run_child(argv: list[str]) -> None:
    """In the forked child: the command, its output discarded; never returns."""
    code = 70
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        code = main(argv)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    except BaseException:
        traceback.print_exc()
    finally:
        os._exit(code)


def trial(request: dict[str, Any]) -> dict[str, Any]:
    """One forked command, killed as the request says."""
    cpu_s, after_file = request.get("cpu_s"), request.get("after_file")
    after_cpu_s = float(request.get("after_cpu_s") or 0.0)
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:
        run_child(list(request["argv"]))
    kill_at = None if cpu_s is None else float(cpu_s)
    killed = False
    used = 0.0
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        used = cpu_seconds(pid)
        if after_file is not None and Path(after_file).exists():
            at = used + after_cpu_s
            kill_at = at if kill_at is None else min(kill_at, at)
            after_file = None
        if not killed and kill_at is not None and used >= kill_at:
            os.kill(pid, signal.SIGKILL)
            killed = True
        time.sleep(POLL_S)
    used = max(used, usage.ru_utime + usage.ru_stime)
    code = None if os.WIFSIGNALED(status) else os.waitstatus_to_exitcode(status)
    return {"code": code, "cpu_s": used}


def warm_up() -> None:
    """One uncut battle and resolution on a scratch campaign, in this process: every module
    the commands import lazily is loaded before the first fork."""
    with tempfile.TemporaryDirectory() as folder:
        loaded = load_campaign("wardens-road")
        db = Path(folder) / "warm.sqlite"
        CampaignStore.create(db, loaded.campaign, loaded.text, loaded.scenarios).close()
        null = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
        out, err = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = null
        try:
            main(["campaign", "next", "--db", str(db), "--simulate", "--seed", "1"])
            main(["campaign", "resolve", "--db", str(db), "--seed", "1", "--speech", "off"])
        finally:
            sys.stdout, sys.stderr = out, err
            null.close()


def serve() -> None:
    """Answer requests until standard input ends."""
    warm_up()
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(trial(json.loads(line))), flush=True)


if __name__ == "__main__":
    serve()

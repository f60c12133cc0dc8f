"""Spoken announcements: a queue that never blocks the caller and never cuts itself off.

``Speaker.say(text)`` returns at once; a dispatcher thread takes the announcements in order and,
one after the other, synthesises each with pyttsx3 (espeak-ng on Linux) and plays it, writes it as
a numbered WAV file, or only prints it.

pyttsx3 runs in a separate worker process (this module, run as ``python -m assistant.speech
--worker``) fed one JSON line per announcement. espeak's driver keeps C-level global state that can
only be initialised once per process and its loop is known to hang in threads; in a child process a
hang is a timeout, the child is killed and the announcement is retried with the ``espeak-ng``
program itself. Without any speech engine, or without an audio device, the speaker says so once (a
notice) and carries on with text (and WAV files when it was given a folder).

Rate is in words per minute (espeak's unit); voice is an espeak-ng voice name or identifier such as
``"en-us"`` or ``"gmw/en-us"``.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import wave
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Literal

from assistant.errors import UserError

SpeechMode = Literal["on", "off", "wav"]
"""``on``: speak aloud; ``wav``: write one WAV file per announcement; ``off``: print only."""

DEFAULT_RATE_WPM = 165
"""Speaking rate in words per minute: a little slower than espeak's 175, for a noisy table."""

_WAV_NAME = re.compile(r"^(\d+)\.wav$")
_WORKER_START_TIMEOUT_S = 15.0
_WORKER_ATTEMPTS = 3


class SpeechError(UserError):
    """A speech option the user gave cannot be used (an unknown mode, a folder we cannot write)."""


@dataclass(frozen=True)
class Announcement:
    """One announcement after the speaker has dealt with it."""

    number: int
    """Position in this speaker's queue, from 1 (also the WAV file's number in ``wav`` mode)."""
    text: str
    """What was said."""
    wav_path: Path | None
    """The WAV file written for it, or None when no file was kept."""
    engine: str | None
    """``"pyttsx3"``, ``"espeak-ng"`` (the program), or None when it was only printed."""
    played: bool
    """True when it was played on an audio device."""
    queued_at_s: float = 0.0
    """``time.monotonic()`` when ``say`` was called."""
    ready_at_s: float = 0.0
    """``time.monotonic()`` when it was ready to be heard: printed, its sound written, and (with
    an audio device) playing started right after. ``ready_at_s - queued_at_s`` is the delay the
    speaker adds (queue wait plus synthesis)."""


def parse_speech_option(spec: str) -> tuple[SpeechMode, Path | None]:
    """Read a ``--speech`` value: ``on``, ``off`` or ``wav:DIR``; returns (mode, folder or None)."""
    value = spec.strip()
    if value in ("on", "off"):
        return value, None  # type: ignore[return-value]
    if value.startswith("wav:") and value[4:].strip():
        return "wav", Path(value[4:].strip())
    raise SpeechError(
        f"--speech {spec!r} is not understood: use 'on', 'off' or 'wav:DIR' "
        "(a folder for WAV files)."
    )


def find_audio_output() -> tuple[list[str] | None, str]:
    """A command that plays a WAV file given as its last argument, or None; and why.

    Looks for a PulseAudio/PipeWire server (``paplay``/``pw-play``) and for ALSA sound cards under
    ``/dev/snd`` (``aplay``). The reason is a sentence for the player when nothing was found.
    """
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    server = bool(os.environ.get("PULSE_SERVER")) or any(
        runtime and Path(runtime, name).exists() for name in ("pulse/native", "pipewire-0")
    )
    if server:
        for program in ("paplay", "pw-play"):
            found = shutil.which(program)
            if found:
                return [found], f"playing through {program}"
    snd = Path("/dev/snd")
    cards = snd.is_dir() and any(p.name.startswith("pcm") for p in snd.iterdir())
    aplay = shutil.which("aplay")
    if cards and aplay:
        return [aplay, "-q"], "playing through aplay"
    if not cards and not server:
        return None, "no audio device was found (no sound card under /dev/snd, no sound server)"
    return None, "no program to play sound was found (paplay, pw-play or aplay)"


class Speaker:
    """Speaks announcements one after the other in a background thread; ``say`` never blocks.

    ``mode="on"`` speaks aloud (and also keeps WAV files when ``out_dir`` is given); ``"wav"``
    writes ``out_dir/NNN.wav`` per announcement, numbered after any WAV files already there;
    ``"off"`` only prints. Every announcement's text is printed to ``echo`` (None: not printed).
    Problems (no engine, no audio device) are reported once each through ``on_notice`` (default:
    a line on stderr) and the speaker carries on.
    """

    def __init__(
        self,
        mode: SpeechMode = "on",
        out_dir: Path | str | None = None,
        *,
        rate_wpm: int = DEFAULT_RATE_WPM,
        voice: str | None = None,
        echo: IO[str] | None = sys.stdout,
        on_notice: Callable[[str], None] | None = None,
        player: list[str] | None = None,
    ) -> None:
        if mode not in ("on", "off", "wav"):
            raise SpeechError(f"speech mode {mode!r} is not one of 'on', 'off', 'wav'.")
        if mode == "wav" and out_dir is None:
            raise SpeechError("speech mode 'wav' needs a folder for the WAV files (wav:DIR).")
        if not 40 <= rate_wpm <= 500:
            raise SpeechError(f"speech rate {rate_wpm} words per minute is outside 40..500.")
        self.mode: SpeechMode = mode
        self.rate_wpm = rate_wpm
        self.voice = voice
        self.out_dir = Path(out_dir) if out_dir is not None else None
        self._echo = echo
        self._on_notice = on_notice or _notice_to_stderr
        self._notices: list[str] = []
        self._noticed: set[str] = set()
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._pending = 0
        self._done: list[Announcement] = []
        self._queue: queue.Queue[tuple[str, float] | None] = queue.Queue()
        self._closed = False
        self._abandon = threading.Event()
        self._worker: _Pyttsx3Worker | None = None
        self._worker_failed = False
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self._player: list[str] | None = None

        if self.out_dir is not None:
            try:
                self.out_dir.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise SpeechError(f"cannot create the WAV folder {self.out_dir}: {exc}") from exc
        self._next_number = _first_free_number(self.out_dir) if self.out_dir else 1
        if mode == "on":
            self._player, reason = (player, "given player") if player else find_audio_output()
            if self._player is None:
                where = f" and written as WAV files to {self.out_dir}" if self.out_dir else ""
                self._notice(
                    "audio",
                    f"Speech: {reason}; announcements are shown as text{where} instead.",
                )
        self._thread = threading.Thread(target=self._run, name="soloscope-speaker", daemon=True)
        self._thread.start()

    @classmethod
    def from_option(cls, spec: str, **kwargs: Any) -> Speaker:
        """A speaker for a ``--speech on|off|wav:DIR`` value; other arguments as ``Speaker``."""
        mode, folder = parse_speech_option(spec)
        return cls(mode, folder if folder is not None else kwargs.pop("out_dir", None), **kwargs)

    # -- the caller's side -------------------------------------------------------------------

    def say(self, text: str) -> None:
        """Queue one announcement and return at once. Empty text is ignored."""
        text = " ".join(text.split())
        if not text:
            return
        with self._lock:
            if self._closed:
                raise RuntimeError(f"Speaker is closed; cannot say {text!r}")
            self._pending += 1
        self._queue.put((text, time.monotonic()))

    @property
    def pending(self) -> int:
        """Announcements queued or being spoken right now."""
        with self._lock:
            return self._pending

    @property
    def announcements(self) -> list[Announcement]:
        """The announcements dealt with so far, in order."""
        with self._lock:
            return list(self._done)

    @property
    def notices(self) -> list[str]:
        """The notices given so far (each problem once)."""
        with self._lock:
            return list(self._notices)

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until every queued announcement is done; False if ``timeout`` (s) ran out first."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def close(self, timeout: float | None = 30.0) -> bool:
        """Say everything still queued (waiting up to ``timeout`` s), then stop.

        Returns True when the queue was drained; False when time ran out (the rest is dropped).
        """
        with self._lock:
            already = self._closed
            self._closed = True
        if not already:
            self._queue.put(None)
        self._thread.join(timeout)
        drained = not self._thread.is_alive()
        if not drained:
            self._abandon.set()
        if self._worker is not None:
            self._worker.stop()
        if drained and self._tmp is not None:
            self._tmp.cleanup()
        return drained

    def __enter__(self) -> Speaker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the dispatcher thread ---------------------------------------------------------------

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None or self._abandon.is_set():
                return
            text, queued_at = item
            try:
                announcement = self._deliver(text, queued_at)
            except Exception as exc:  # never let one announcement stop the queue
                self._notice("crash", f"Speech: an announcement failed ({exc}); carrying on.")
                now = time.monotonic()
                number = self._take_number()
                announcement = Announcement(number, text, None, None, False, queued_at, now)
            with self._idle:
                self._done.append(announcement)
                self._pending -= 1
                self._idle.notify_all()

    def _deliver(self, text: str, queued_at: float) -> Announcement:
        number = self._take_number()
        if self._echo is not None:
            with contextlib.suppress(OSError, ValueError):
                print(text, file=self._echo, flush=True)
        if self.mode == "off" or (self._player is None and self.out_dir is None):
            return Announcement(number, text, None, None, False, queued_at, time.monotonic())
        if self.out_dir is not None:
            path = self.out_dir / f"{number:03d}.wav"
        else:
            if self._tmp is None:
                self._tmp = tempfile.TemporaryDirectory(prefix="soloscope-speech-")
            path = Path(self._tmp.name) / "say.wav"
        engine = self._synthesise(text, path)
        ready_at = time.monotonic()
        if engine is None:
            return Announcement(number, text, None, None, False, queued_at, ready_at)
        played = self._play(path) if self._player is not None else False
        kept = path if self.out_dir is not None else None
        return Announcement(number, text, kept, engine, played, queued_at, ready_at)

    def _take_number(self) -> int:
        number = self._next_number
        self._next_number += 1
        return number

    def _synthesise(self, text: str, path: Path) -> str | None:
        """Write ``text`` to the WAV file ``path``; returns the engine used, or None."""
        if not self._worker_failed:
            if self._worker is None:
                try:
                    self._worker = _Pyttsx3Worker()
                except _WorkerError as exc:
                    self._worker_failed = True
                    self._notice("pyttsx3", f"Speech: pyttsx3 is not usable ({exc}).")
            if self._worker is not None:
                try:
                    self._worker.synthesise(text, path, self.rate_wpm, self.voice)
                    return "pyttsx3"
                except _WorkerError as exc:
                    self._worker.stop()
                    self._worker = None
                    self._notice(
                        "pyttsx3-fail",
                        f"Speech: pyttsx3 failed ({exc}); using the espeak-ng program directly.",
                    )
                except _VoiceError as exc:
                    self._notice("voice", f"Speech: {exc}; using the default voice.")
                    self.voice = None
                    return self._synthesise(text, path)
        return self._espeak_program(text, path)

    def _espeak_program(self, text: str, path: Path) -> str | None:
        program = shutil.which("espeak-ng") or shutil.which("espeak")
        if program is None:
            self._notice(
                "engine",
                "Speech: no speech engine was found (pyttsx3 with espeak-ng, or the espeak-ng "
                "program); announcements are shown as text only.",
            )
            return None
        command = [program, "-w", str(path), "-s", str(self.rate_wpm), "--stdin"]
        if self.voice:
            command[1:1] = ["-v", self.voice]
        try:
            done = subprocess.run(
                command, input=text.encode(), capture_output=True, timeout=_synth_timeout_s(text)
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            self._notice("espeak", f"Speech: the espeak-ng program failed ({exc}).")
            return None
        if done.returncode != 0 and self.voice:
            self._notice("voice", f"Speech: voice {self.voice!r} is unknown; using the default.")
            self.voice = None
            return self._espeak_program(text, path)
        if done.returncode != 0 or not _is_wav(path):
            reason = done.stderr.decode(errors="replace").strip() or f"exit {done.returncode}"
            self._notice("espeak", f"Speech: the espeak-ng program failed ({reason}).")
            return None
        return "espeak-ng"

    def _play(self, path: Path) -> bool:
        assert self._player is not None
        try:
            seconds = wav_duration_s(path)
            done = subprocess.run(
                [*self._player, str(path)], capture_output=True, timeout=seconds + 10.0
            )
        except (OSError, subprocess.TimeoutExpired, wave.Error) as exc:
            failure = str(exc)
        else:
            if done.returncode == 0:
                return True
            failure = done.stderr.decode(errors="replace").strip() or f"exit {done.returncode}"
        where = f" and written as WAV files to {self.out_dir}" if self.out_dir else ""
        self._notice(
            "audio",
            f"Speech: the audio device cannot play ({failure}); announcements are shown as "
            f"text{where} instead.",
        )
        self._player = None
        return False

    def _notice(self, key: str, message: str) -> None:
        with self._lock:
            if key in self._noticed:
                return
            self._noticed.add(key)
            self._notices.append(message)
        self._on_notice(message)


def wav_duration_s(path: Path) -> float:
    """Length of a WAV file in seconds."""
    with wave.open(str(path), "rb") as wav:
        return wav.getnframes() / float(wav.getframerate())


def _is_wav(path: Path) -> bool:
    try:
        return path.stat().st_size > 44 and wav_duration_s(path) > 0.0
    except (OSError, wave.Error, EOFError):
        return False


def _wav_complete(path: Path) -> bool:
    """Whether the WAV's RIFF header accounts for the whole file (espeak writes the header's
    sizes last, so a file still being written does not pass)."""
    try:
        with path.open("rb") as f:
            head = f.read(12)
        size = path.stat().st_size
    except OSError:
        return False
    if len(head) < 12 or head[:4] != b"RIFF" or head[8:12] != b"WAVE":
        return False
    return int.from_bytes(head[4:8], "little") + 8 == size and _is_wav(path)


def _wait_for_complete_wav(path: Path, timeout_s: float = 5.0) -> bool:
    """Wait until the WAV file is completely written (pyttsx3 may return before that)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if _wav_complete(path):
            return True
        time.sleep(0.02)
    return _wav_complete(path)


def _synth_timeout_s(text: str) -> float:
    # espeak synthesises some 100 times faster than real time here; this is only a hang guard.
    return 20.0 + len(text) / 50.0


def _notice_to_stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _first_free_number(folder: Path) -> int:
    numbers = [int(m.group(1)) for p in folder.iterdir() if (m := _WAV_NAME.match(p.name))]
    return max(numbers, default=0) + 1


# -- the pyttsx3 worker process ----------------------------------------------------------------


class _WorkerError(Exception):
    """The pyttsx3 worker is missing, died, hung or wrote no sound."""


class _VoiceError(Exception):
    """The voice asked for is not one espeak-ng knows."""


class _Pyttsx3Worker:
    """The parent's handle on one ``python -m assistant.speech --worker`` child process."""

    def __init__(self) -> None:
        package_root = str(Path(__file__).resolve().parents[1])
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "assistant.speech", "--worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=env,
                text=True,
                bufsize=1,
            )
        except OSError as exc:
            raise _WorkerError(f"cannot start the speech process: {exc}") from exc
        hello = self._reply(_WORKER_START_TIMEOUT_S)
        if not hello.get("ready"):
            self.stop()
            raise _WorkerError(str(hello.get("error", "the speech process did not start")))

    def synthesise(self, text: str, path: Path, rate_wpm: int, voice: str | None) -> None:
        """Have the child write ``text`` to ``path``; raises on any failure."""
        request = {"text": text, "path": str(path), "rate": rate_wpm, "voice": voice}
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        try:
            assert self._process.stdin is not None
            self._process.stdin.write(json.dumps(request) + "\n")
            self._process.stdin.flush()
        except (OSError, ValueError) as exc:
            raise _WorkerError(f"the speech process is gone: {exc}") from exc
        reply = self._reply(_synth_timeout_s(text))
        if reply.get("voice_error"):
            raise _VoiceError(str(reply["voice_error"]))
        if not reply.get("ok"):
            raise _WorkerError(str(reply.get("error", "no reason given")))
        if not _is_wav(path):
            raise _WorkerError(f"no sound was written to {path}")

    def _reply(self, timeout_s: float) -> dict[str, Any]:
        result: list[str] = []
        stdout = self._process.stdout
        assert stdout is not None
        reader = threading.Thread(target=lambda: result.append(stdout.readline()), daemon=True)
        reader.start()
        reader.join(timeout_s)
        if reader.is_alive():
            self.stop()
            raise _WorkerError(f"the speech process did not answer within {timeout_s:.0f} s")
        line = result[0] if result else ""
        if not line:
            raise _WorkerError("the speech process stopped")
        try:
            reply = json.loads(line)
        except json.JSONDecodeError as exc:
            raise _WorkerError(f"the speech process answered {line[:80]!r}") from exc
        return dict(reply)

    def stop(self) -> None:
        """End the child process (closing its input first, then killing it if it lingers)."""
        process = self._process
        if process.poll() is None:
            with contextlib.suppress(OSError, ValueError):
                assert process.stdin is not None
                process.stdin.close()
            try:
                process.wait(2.0)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(2.0)
        for stream in (process.stdin, process.stdout):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None:
                    stream.close()


def _resolve_voice(wanted: str, voices: list[Any]) -> str | None:
    """The espeak-ng identifier (e.g. ``gmw/en-us``) of a voice named by id, short id or name."""
    key = wanted.strip().lower()
    for voice in voices:
        ident = str(voice.id).lower()
        if key in (ident, ident.rsplit("/", 1)[-1], str(voice.name).lower()):
            return str(voice.id)
    return None


def _worker_main() -> int:
    """The child: read one JSON request a line, write one JSON reply a line."""
    protocol = sys.stdout
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - pyttsx3 prints "Audio saved to ..."

    def reply(**fields: Any) -> None:
        protocol.write(json.dumps(fields) + "\n")
        protocol.flush()

    try:
        import pyttsx3

        engine = pyttsx3.init()
        voices = list(engine.getProperty("voices"))
    except Exception as exc:
        reply(ready=False, error=f"{type(exc).__name__}: {exc}")
        return 1
    reply(ready=True, voices=len(voices))
    for line in sys.stdin:
        try:
            request = json.loads(line)
            voice = request.get("voice")
            if voice:
                resolved = _resolve_voice(voice, voices)
                if resolved is None:
                    reply(ok=False, voice_error=f"voice {voice!r} is not an espeak-ng voice")
                    continue
                engine.setProperty("voice", resolved)
            engine.setProperty("rate", int(request["rate"]))
            # pyttsx3's espeak driver now and then returns without having written the file
            # (3 times in some 150 test announcements here, cause not found): ask again before
            # giving up; the parent then falls back to the espeak-ng program for this one.
            attempts = 0
            while attempts < _WORKER_ATTEMPTS:
                attempts += 1
                engine.save_to_file(request["text"], request["path"])
                engine.runAndWait()
                if _wait_for_complete_wav(Path(request["path"])):
                    break
            reply(ok=True, attempts=attempts)
        except Exception as exc:
            reply(ok=False, error=f"{type(exc).__name__}: {exc}")
    return 0


def measure_delay(count: int = 20, rate_wpm: int = DEFAULT_RATE_WPM) -> dict[str, float]:
    """Seconds from ``say`` to the sound being ready, over ``count`` typical orders (WAV mode).

    Each order is said once the previous one is done, so the figure is the synthesis delay the
    speaker adds, without queueing. ``first_s`` includes starting the pyttsx3 process.
    """
    with tempfile.TemporaryDirectory(prefix="soloscope-speech-measure-") as folder:
        speaker = Speaker("wav", folder, rate_wpm=rate_wpm, echo=None)
        try:
            for i in range(count):
                speaker.say(
                    f"Orc Captain: pivot left about {10 + i} degrees, move {2 + i % 5} inches "
                    "toward the ruined tower, then shoot the Ranger, the nearest enemy in the open."
                )
                speaker.wait_idle(60.0)
        finally:
            speaker.close()
        delays = sorted(a.ready_at_s - a.queued_at_s for a in speaker.announcements[1:])
        first = speaker.announcements[0]
    return {
        "first_s": first.ready_at_s - first.queued_at_s,
        "median_s": delays[len(delays) // 2] if delays else float("nan"),
        "worst_s": delays[-1] if delays else float("nan"),
        "count": float(count),
    }


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        sys.exit(_worker_main())
    if sys.argv[1:2] == ["--measure"]:
        figures = measure_delay(int(sys.argv[2]) if len(sys.argv) > 2 else 20)
        print(
            f"say -> sound ready over {figures['count']:.0f} orders: first (cold) "
            f"{figures['first_s'] * 1000:.0f} ms, then median {figures['median_s'] * 1000:.0f} ms, "
            f"worst {figures['worst_s'] * 1000:.0f} ms"
        )
        sys.exit(0)
    print("usage: python -m assistant.speech --worker | --measure [N]")
    sys.exit(2)

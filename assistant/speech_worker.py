"""The speech engine, kept warm in a child process: espeak-ng through pyttsx3's binding.

The child (``python -m assistant.speech_worker``) loads espeak-ng once, through the ctypes
binding pyttsx3 ships (``pyttsx3.drivers._espeak``), in espeak's *synchronous* mode, and then
answers one JSON line per sentence: it sets the voice and rate, synthesises the sentence and
writes it as a WAV file before it replies. ``EngineProcess`` is the parent's handle on it.

Why not ``pyttsx3.Engine.runAndWait``: pyttsx3 2.99's espeak driver runs espeak in its
asynchronous mode, where every property change is a command queued to espeak's own thread, and
its run loop ends by calling ``espeak_Cancel`` whenever that thread is still busy. A queued rate
change caught by that cancel is thrown away and espeak falls back to the last rate it applied
(the driver's own 200 words per minute at start). Whether that happens depends on thread timing:
when the first request came a few hundred milliseconds after the engine started (as on a loaded
machine) the rate was lost in 3 of 12 fresh engines, and the WAV file was sometimes written after
``runAndWait`` had returned, or not at all. In synchronous mode a property is applied before
``espeak_SetParameter`` returns and the sound is complete when ``espeak_Synth`` returns: no
thread, no cancel, no waiting for a file.

espeak keeps process-wide state that can be initialised only once, so each speaker has its own
child; a child that hangs is killed after a timeout and the speaker falls back to the
``espeak-ng`` program (``espeak_program``).
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import wave
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

START_TIMEOUT_S = 20.0
"""How long the child may take to start and warm up (seconds; a cold disk on a loaded machine)."""

SAMPLE_WIDTH_BYTES = 2
"""espeak-ng writes 16-bit mono samples."""

ENGINE_FAILURES_ALLOWED = 2
"""Engine processes that may fail before the speaker keeps to the espeak-ng program."""


class WorkerError(Exception):
    """The speech process is missing, died, hung or wrote no sound."""


class VoiceError(Exception):
    """The voice asked for is not one espeak-ng knows."""


def synth_timeout_s(text: str) -> float:
    """A hang guard for synthesising ``text`` (espeak-ng is some 300 times faster than real time)."""
    return 10.0 + len(text) / 50.0


class EngineProcess:
    """The parent's handle on one warm ``python -m assistant.speech_worker`` child process.

    Starting it waits until the engine is loaded and has synthesised a first word (so the first
    announcement pays no start-up). Not thread-safe: one thread talks to it.
    """

    def __init__(self) -> None:
        package_root = str(Path(__file__).resolve().parents[1])
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "assistant.speech_worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=env,
                text=True,
                bufsize=1,
            )
        except OSError as exc:
            raise WorkerError(f"cannot start the speech process: {exc}") from exc
        self._lines: queue.Queue[str] = queue.Queue()
        stdout = self._process.stdout
        assert stdout is not None
        threading.Thread(
            target=_pump_lines,
            args=(stdout, self._lines),
            name="soloscope-speech-reader",
            daemon=True,
        ).start()
        hello = self._reply(START_TIMEOUT_S)
        if not hello.get("ready"):
            self.stop()
            raise WorkerError(str(hello.get("error", "the speech process did not start")))
        self.sample_rate_hz = int(hello.get("sample_rate", 22050))

    def synthesise(self, text: str, path: Path, rate_wpm: int, voice: str | None) -> float:
        """Have the child write ``text`` to the WAV file ``path``; its length in seconds.

        Raises ``VoiceError`` for a voice espeak-ng does not know, ``WorkerError`` otherwise.
        """
        request = {"text": text, "path": str(path), "rate": rate_wpm, "voice": voice}
        try:
            stdin = self._process.stdin
            assert stdin is not None
            stdin.write(json.dumps(request) + "\n")
            stdin.flush()
        except (OSError, ValueError) as exc:
            raise WorkerError(f"the speech process is gone: {exc}") from exc
        reply = self._reply(synth_timeout_s(text))
        if reply.get("voice_error"):
            raise VoiceError(str(reply["voice_error"]))
        if not reply.get("ok"):
            raise WorkerError(str(reply.get("error", "no reason given")))
        return float(reply["seconds"])

    def _reply(self, timeout_s: float) -> dict[str, Any]:
        try:
            line = self._lines.get(timeout=timeout_s)
        except queue.Empty:
            self.stop()
            raise WorkerError(
                f"the speech process did not answer within {timeout_s:.0f} s"
            ) from None
        if not line:
            raise WorkerError("the speech process stopped")
        try:
            reply = json.loads(line)
        except json.JSONDecodeError as exc:
            raise WorkerError(f"the speech process answered {line[:80]!r}") from exc
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


class Synthesiser:
    """Sentences to WAV files: the warm engine process, else the ``espeak-ng`` program.

    Each problem is reported once through ``notice(key, message)``; an unknown voice falls back
    to the default voice, an engine that fails is restarted once and then left for the program.
    """

    def __init__(
        self, rate_wpm: int, voice: str | None, notice: Callable[[str, str], None]
    ) -> None:
        self.rate_wpm = rate_wpm
        self.voice = voice
        self._notice = notice
        self._engine: EngineProcess | None = None
        self._failures = 0
        self._stopped = False

    def start(self) -> None:
        """Start the engine process now (it then stays warm until ``stop``)."""
        if self._engine is not None or self._stopped or self._failures >= ENGINE_FAILURES_ALLOWED:
            return
        try:
            self._engine = EngineProcess()
        except WorkerError as exc:
            self._failures += 1
            self._notice("pyttsx3", f"Speech: pyttsx3 is not usable ({exc}).")

    def synthesise(self, text: str, path: Path) -> str | None:
        """Write ``text`` to the WAV file ``path``; the engine used (``"pyttsx3"`` or
        ``"espeak-ng"``), or None when there was none (or the synthesiser was stopped)."""
        self.start()
        engine = self._engine
        if engine is not None:
            try:
                engine.synthesise(text, path, self.rate_wpm, self.voice)
                return "pyttsx3"
            except WorkerError as exc:
                engine.stop()
                self._engine = None
                if self._stopped:
                    return None
                self._failures += 1
                self._notice(
                    "pyttsx3-fail",
                    f"Speech: pyttsx3 failed ({exc}); using the espeak-ng program directly.",
                )
            except VoiceError as exc:
                self._notice("voice", f"Speech: {exc}; using the default voice.")
                self.voice = None
                return self.synthesise(text, path)
        return None if self._stopped else self._program(text, path)

    def _program(self, text: str, path: Path) -> str | None:
        failure = espeak_program(text, path, self.rate_wpm, self.voice)
        if failure is None:
            return "espeak-ng"
        if failure.startswith("missing:"):
            self._notice(
                "engine",
                "Speech: no speech engine was found (pyttsx3 with espeak-ng, or the espeak-ng "
                "program); announcements are shown as text only.",
            )
        elif failure.startswith("voice:"):
            self._notice("voice", f"Speech: voice {self.voice!r} is unknown; using the default.")
            self.voice = None
            return self._program(text, path)
        else:
            self._notice("espeak", f"Speech: the espeak-ng program failed ({failure}).")
        return None

    def stop(self) -> None:
        """Stop the engine process for good (from any thread)."""
        self._stopped = True
        engine = self._engine
        if engine is not None:
            engine.stop()


def _pump_lines(stream: IO[str], lines: queue.Queue[str]) -> None:
    """Hand the child's reply lines over one by one; an empty string when it closes."""
    with contextlib.suppress(OSError, ValueError):
        for line in stream:
            lines.put(line)
    lines.put("")


def espeak_program(text: str, path: Path, rate_wpm: int, voice: str | None) -> str | None:
    """Write ``text`` to ``path`` with the ``espeak-ng`` program; None, or why it failed.

    The reason starts with ``"voice:"`` when only the voice was refused.
    """
    program = shutil.which("espeak-ng") or shutil.which("espeak")
    if program is None:
        return "missing: no espeak-ng program"
    command = [program, "-w", str(path), "-s", str(rate_wpm), "--stdin"]
    if voice:
        command[1:1] = ["-v", voice]
    try:
        done = subprocess.run(
            command, input=text.encode(), capture_output=True, timeout=synth_timeout_s(text)
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    if done.returncode != 0 and voice:
        return f"voice: {voice!r} is unknown"
    if done.returncode != 0 or not is_wav(path):
        return done.stderr.decode(errors="replace").strip() or f"exit {done.returncode}"
    return None


def wav_duration_s(path: Path) -> float:
    """Length of a WAV file in seconds."""
    with wave.open(str(path), "rb") as wav:
        return wav.getnframes() / float(wav.getframerate())


def is_wav(path: Path) -> bool:
    """Whether ``path`` is a readable WAV file holding some sound."""
    try:
        return path.stat().st_size > 44 and wav_duration_s(path) > 0.0
    except (OSError, wave.Error, EOFError):
        return False


def write_wav(path: Path, samples: bytes, sample_rate_hz: int) -> None:
    """Write 16-bit mono ``samples`` as a WAV file, complete when the name appears."""
    partial = path.with_name(path.name + ".part")
    with wave.open(str(partial), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(SAMPLE_WIDTH_BYTES)
        wav.setframerate(sample_rate_hz)
        wav.writeframes(samples)
    os.replace(partial, path)


# -- the child process --------------------------------------------------------------------------


def _resolve_voice(wanted: str, voices: list[tuple[str, str]]) -> str | None:
    """The espeak-ng identifier (e.g. ``gmw/en-us``) of a voice named by id, short id or name."""
    key = wanted.strip().lower()
    for ident, name in voices:
        if key in (ident.lower(), ident.lower().rsplit("/", 1)[-1], name.lower()):
            return ident
    return None


def worker_main() -> int:
    """The child: read one JSON request a line, synthesise, write one JSON reply a line."""
    protocol = sys.stdout
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - nothing but replies on the protocol

    def reply(**fields: Any) -> None:
        protocol.write(json.dumps(fields) + "\n")
        protocol.flush()

    chunks: list[bytes] = []

    def collect(wav: Any, numsamples: int, events: Any) -> int:
        if numsamples > 0:
            chunks.append(ctypes.string_at(wav, numsamples * SAMPLE_WIDTH_BYTES))
        return 0  # carry on

    try:
        from pyttsx3.drivers import _espeak

        sample_rate = int(_espeak.Initialize(_espeak.AUDIO_OUTPUT_SYNCHRONOUS, 100, None, 0))
        if sample_rate <= 0:
            raise RuntimeError("espeak-ng did not initialise")
        _espeak.SetSynthCallback(collect)
        voices = [
            (v.identifier.decode("utf-8"), v.name.decode("utf-8")) for v in _espeak.ListVoices(None)
        ]
        flags = _espeak.ENDPAUSE | _espeak.CHARS_UTF8
        if _espeak.Synth(b"Ready.", flags=flags) != 0 or not chunks:  # warm: voice, dictionary
            raise RuntimeError("espeak-ng made no sound")
    except Exception as exc:
        reply(ready=False, error=f"{type(exc).__name__}: {exc}")
        return 1
    reply(ready=True, voices=len(voices), sample_rate=sample_rate)
    voice_now: str | None = None
    for line in sys.stdin:
        try:
            request = json.loads(line)
            voice = request.get("voice")
            if voice != voice_now:
                resolved = _resolve_voice(voice, voices) if voice else "en"
                if resolved is None or _espeak.SetVoiceByName(resolved.encode()) != 0:
                    reply(ok=False, voice_error=f"voice {voice!r} is not an espeak-ng voice")
                    continue
                voice_now = voice
            # Synchronous mode: the rate is in force when SetParameter returns.
            if _espeak.SetParameter(_espeak.RATE, int(request["rate"]), 0) != 0:
                raise RuntimeError(f"espeak-ng refused the rate {request['rate']}")
            chunks.clear()
            status = _espeak.Synth(str(request["text"]).encode("utf-8"), flags=flags)
            samples = b"".join(chunks)
            if status != 0 or not samples:
                raise RuntimeError(f"espeak-ng made no sound (status {status})")
            write_wav(Path(request["path"]), samples, sample_rate)
            reply(ok=True, seconds=len(samples) / SAMPLE_WIDTH_BYTES / sample_rate)
        except Exception as exc:
            reply(ok=False, error=f"{type(exc).__name__}: {exc}")
    return 0


if __name__ == "__main__":
    sys.exit(worker_main())

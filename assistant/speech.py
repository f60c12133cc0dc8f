"""Spoken announcements: a queue that never blocks the caller and never cuts itself off.

``Speaker.say(text)`` returns at once. Two background threads share the work:

* the *synthesis* thread takes the announcements in order, splits each into sentences and has
  a warm speech engine (espeak-ng in a child process, ``assistant.speech_worker``) write them one
  by one as WAV files, handing each sentence over as soon as it exists;
* the *delivery* thread prints each announcement and plays its sentences one after the other on
  the audio device, so the first sentence is heard while the rest are still being made, the
  next announcement's sentences are made while this one plays, and no announcement ever cuts
  another off. In ``wav`` mode (and ``on`` with a folder) the sentences of an announcement are
  joined into one numbered WAV file per announcement.

The engine starts when the speaker is made, not on the first announcement. Without the engine
the ``espeak-ng`` program is used; without any speech engine, or without an audio device, the
speaker says so once (a notice) and carries on with text (and WAV files when it has a folder).

Rate is in words per minute (espeak's unit); voice is an espeak-ng voice name or identifier such as
``"en-us"`` or ``"gmw/en-us"``.
"""

from __future__ import annotations

import contextlib
import queue
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal

from assistant.errors import UserError
from assistant.speech_audio import (
    AudioOut,
    find_audio_output,
    first_free_number,
    join_wavs,
    split_sentences,
)
from assistant.speech_worker import Synthesiser, wav_duration_s

__all__ = [
    "DEFAULT_RATE_WPM",
    "Announcement",
    "Speaker",
    "SpeechError",
    "SpeechMode",
    "find_audio_output",
    "parse_speech_option",
    "split_sentences",
    "wav_duration_s",
]

SpeechMode = Literal["on", "off", "wav"]
"""``on``: speak aloud; ``wav``: write one WAV file per announcement; ``off``: print only."""

DEFAULT_RATE_WPM = 165
"""Speaking rate in words per minute: a little slower than espeak's 175, for a noisy table."""


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
    """The WAV file written for it (all its sentences), or None when no file was kept."""
    engine: str | None
    """``"pyttsx3"`` (espeak-ng through pyttsx3's binding), ``"espeak-ng"`` (the program), or
    None when it was only printed."""
    played: bool
    """True when it was played on an audio device."""
    queued_at_s: float = 0.0
    """``time.monotonic()`` when ``say`` was called."""
    ready_at_s: float = 0.0
    """``time.monotonic()`` when it started to be heard: with an audio device, when the player
    was started on its first sentence; otherwise when its first sentence's sound was written (or,
    with no sound at all, when it was printed). ``ready_at_s - queued_at_s`` is the delay before
    speech starts (waiting for earlier announcements, plus making the first sentence)."""
    done_at_s: float = 0.0
    """``time.monotonic()`` when it had been played through (or written) completely."""


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


@dataclass
class _Sentence:
    path: Path
    ready_at_s: float


@dataclass
class _Job:
    """An announcement on its way: the synthesis thread fills ``sentences`` (None ends it)."""

    number: int
    text: str
    queued_at_s: float
    sentences: queue.Queue[_Sentence | None] = field(default_factory=queue.Queue)
    wav_path: Path | None = None
    engine: str | None = None


class Speaker:
    """Speaks announcements one after the other in the background; ``say`` never blocks.

    ``mode="on"`` speaks aloud (and also keeps WAV files when ``out_dir`` is given); ``"wav"``
    writes ``out_dir/NNN.wav`` per announcement, numbered after any WAV files already there;
    ``"off"`` only prints. Every announcement's text is printed to ``echo`` when it starts
    (default: standard output as it is when the speaker is made; None: not printed). Problems (no engine, no audio device) are reported once each through
    ``on_notice`` (default: a line on stderr) and the speaker carries on. ``player`` is a command
    that plays the WAV file given as its last argument (default: the audio device's).
    """

    def __init__(
        self,
        mode: SpeechMode = "on",
        out_dir: Path | str | None = None,
        *,
        rate_wpm: int = DEFAULT_RATE_WPM,
        voice: str | None = None,
        echo: IO[str] | Literal["stdout"] | None = "stdout",
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
        self._echo = sys.stdout if echo == "stdout" else echo
        self._on_notice = on_notice or _notice_to_stderr
        self._notices: list[str] = []
        self._noticed: set[str] = set()
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._pending = 0
        self._done: list[Announcement] = []
        self._jobs: queue.Queue[tuple[str, float] | None] = queue.Queue()
        self._deliveries: queue.Queue[_Job | None] = queue.Queue()
        self._closed = False
        self._abandon = threading.Event()
        self._synth = Synthesiser(rate_wpm, voice, self._notice)
        self._scratch: tempfile.TemporaryDirectory[str] | None = None
        self._audio: AudioOut | None = None

        if self.out_dir is not None:
            try:
                self.out_dir.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise SpeechError(f"cannot create the WAV folder {self.out_dir}: {exc}") from exc
        self._next_number = first_free_number(self.out_dir) if self.out_dir else 1
        if mode == "on":
            command, reason = (player, "given player") if player else find_audio_output()
            self._audio = AudioOut(command) if command else None
            if self._audio is None:
                where = f" and written as WAV files to {self.out_dir}" if self.out_dir else ""
                self._notice(
                    "audio",
                    f"Speech: {reason}; announcements are shown as text{where} instead.",
                )
        self._threads = (
            threading.Thread(target=self._synthesis_loop, name="soloscope-speech", daemon=True),
            threading.Thread(target=self._delivery_loop, name="soloscope-speech-out", daemon=True),
        )
        for thread in self._threads:
            thread.start()

    @classmethod
    def from_option(cls, spec: str, **kwargs: Any) -> Speaker:
        """A speaker for a ``--speech on|off|wav:DIR`` value; other arguments as ``Speaker``.

        ``out_dir`` among them is the folder for WAV files when the value names none (``on``
        keeps its WAV files there); the folder of ``wav:DIR`` always wins.
        """
        mode, folder = parse_speech_option(spec)
        default_dir = kwargs.pop("out_dir", None)
        return cls(mode, folder if folder is not None else default_dir, **kwargs)

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
        self._jobs.put((text, time.monotonic()))

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
            self._jobs.put(None)
        deadline = None if timeout is None else time.monotonic() + timeout
        for thread in self._threads:
            thread.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
        drained = not any(thread.is_alive() for thread in self._threads)
        if not drained:
            self._abandon.set()
            audio = self._audio
            if audio is not None:
                audio.kill()
        self._synth.stop()
        if drained and self._scratch is not None:
            self._scratch.cleanup()
        return drained

    def __enter__(self) -> Speaker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the synthesis thread ----------------------------------------------------------------

    def _makes_sound(self) -> bool:
        return self.mode != "off" and (self._audio is not None or self.out_dir is not None)

    def _synthesis_loop(self) -> None:
        if self._makes_sound():
            self._synth.start()  # warm before the first announcement
        try:
            while True:
                item = self._jobs.get()
                if item is None or self._abandon.is_set():
                    return
                text, queued_at = item
                job = _Job(self._take_number(), text, queued_at)
                self._deliveries.put(job)
                try:
                    if self._makes_sound():
                        self._synthesise_job(job)
                except Exception as exc:  # never let one announcement stop the queue
                    self._notice("crash", f"Speech: an announcement failed ({exc}); carrying on.")
                finally:
                    job.sentences.put(None)
        finally:
            self._deliveries.put(None)
            self._synth.stop()

    def _take_number(self) -> int:
        number = self._next_number
        self._next_number += 1
        return number

    def _synthesise_job(self, job: _Job) -> None:
        """Make the announcement's sentences one by one, handing each over as soon as it exists;
        then join them into the announcement's WAV file when one is kept."""
        if self._scratch is None:
            self._scratch = tempfile.TemporaryDirectory(prefix="soloscope-speech-")
        made: list[Path] = []
        for index, sentence in enumerate(split_sentences(job.text), start=1):
            if self._abandon.is_set():
                break
            path = Path(self._scratch.name) / f"{job.number:03d}-{index:02d}.wav"
            engine = self._synth.synthesise(sentence, path)
            if engine is None:
                break
            job.engine = job.engine or engine
            made.append(path)
            job.sentences.put(_Sentence(path, time.monotonic()))
        if self.out_dir is not None and made:
            job.wav_path = self.out_dir / f"{job.number:03d}.wav"
            join_wavs(made, job.wav_path)

    # -- the delivery thread -----------------------------------------------------------------

    def _delivery_loop(self) -> None:
        while True:
            job = self._deliveries.get()
            if job is None or self._abandon.is_set():
                return
            try:
                announcement = self._deliver(job)
            except Exception as exc:  # never let one announcement stop the queue
                self._notice("crash", f"Speech: an announcement failed ({exc}); carrying on.")
                now = time.monotonic()
                announcement = Announcement(
                    job.number, job.text, None, None, False, job.queued_at_s, now, now
                )
            with self._idle:
                self._done.append(announcement)
                self._pending -= 1
                self._idle.notify_all()

    def _deliver(self, job: _Job) -> Announcement:
        """Print the announcement, then play its sentences as they come, one after the other."""
        if self._echo is not None:
            with contextlib.suppress(OSError, ValueError):
                print(job.text, file=self._echo, flush=True)
        printed_at = time.monotonic()
        started_at: float | None = None
        played: bool | None = None
        made: list[Path] = []
        while (sentence := job.sentences.get()) is not None:
            made.append(sentence.path)
            audio = self._audio
            if audio is not None and not self._abandon.is_set():
                ok, began = self._play(audio, sentence.path)
                played = ok if played is None else played and ok
                started_at = began if started_at is None else started_at
            elif started_at is None:
                started_at = sentence.ready_at_s
        done_at = time.monotonic()
        for path in made:
            with contextlib.suppress(OSError):
                path.unlink()
        return Announcement(
            job.number,
            job.text,
            job.wav_path,
            job.engine,
            bool(played),
            job.queued_at_s,
            started_at if started_at is not None else printed_at,
            done_at,
        )

    def _play(self, audio: AudioOut, path: Path) -> tuple[bool, float]:
        """Play one sentence to the end; (whether it played, when the player started). A device
        that cannot play is noticed once and not used again."""
        failure, began = audio.play(path)
        if failure is None:
            return True, began
        if not self._abandon.is_set():
            where = f" and written as WAV files to {self.out_dir}" if self.out_dir else ""
            self._notice(
                "audio",
                f"Speech: the audio device cannot play ({failure}); announcements are shown as "
                f"text{where} instead.",
            )
            self._audio = None
        return False, began

    def _notice(self, key: str, message: str) -> None:
        with self._lock:
            if key in self._noticed:
                return
            self._noticed.add(key)
            self._notices.append(message)
        self._on_notice(message)


def _notice_to_stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)

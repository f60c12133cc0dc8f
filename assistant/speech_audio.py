"""What the speaker needs around the engine: the audio device, sentences, WAV files on disk."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import time
import wave
from pathlib import Path

from assistant.speech_worker import wav_duration_s

_WAV_NAME = re.compile(r"^(\d+)\.wav$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
_PLAY_MARGIN_S = 10.0


def split_sentences(text: str) -> list[str]:
    """The sentences of an announcement, in order (a full stop, ! or ? then a space and a capital
    or a digit ends one; "8.9 in" does not)."""
    return [s for s in _SENTENCE_END.split(" ".join(text.split())) if s]


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


class AudioOut:
    """Plays WAV files one at a time with a command that takes the file as its last argument."""

    def __init__(self, command: list[str]) -> None:
        self.command = list(command)
        self._process: subprocess.Popen[bytes] | None = None

    def play(self, path: Path) -> tuple[str | None, float]:
        """Play ``path`` to the end: (None, or why it could not; ``time.monotonic()`` when the
        player was running)."""
        began = time.monotonic()
        try:
            seconds = wav_duration_s(path)
            process = subprocess.Popen(
                [*self.command, str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
            )
        except (OSError, wave.Error, EOFError) as exc:
            return str(exc), began
        began = time.monotonic()
        self._process = process
        try:
            _, err = process.communicate(timeout=seconds + _PLAY_MARGIN_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            return f"it took more than {seconds + _PLAY_MARGIN_S:.0f} s", began
        finally:
            self._process = None
        if process.returncode == 0:
            return None, began
        return err.decode(errors="replace").strip() or f"exit {process.returncode}", began

    def kill(self) -> None:
        """Stop what is playing now, if anything (from another thread)."""
        process = self._process
        if process is not None:
            with contextlib.suppress(OSError):
                process.kill()


def join_wavs(parts: list[Path], target: Path) -> None:
    """Write the WAV files ``parts`` one after the other into ``target``; the file appears
    complete. A part in another sound format than the first (another engine) is left out."""
    partial = target.with_name(target.name + ".part")
    with wave.open(str(partial), "wb") as out:
        for index, part in enumerate(parts):
            with wave.open(str(part), "rb") as wav:
                fmt = (wav.getnchannels(), wav.getsampwidth(), wav.getframerate())
                if index == 0:
                    out.setparams(wav.getparams())
                elif fmt != (out.getnchannels(), out.getsampwidth(), out.getframerate()):
                    continue
                out.writeframes(wav.readframes(wav.getnframes()))
    os.replace(partial, target)


def first_free_number(folder: Path) -> int:
    """The number after the highest ``NNN.wav`` in ``folder`` (1 when there is none)."""
    numbers = [int(m.group(1)) for p in folder.iterdir() if (m := _WAV_NAME.match(p.name))]
    return max(numbers, default=0) + 1

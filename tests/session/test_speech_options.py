"""``--speech`` of ``soloscope play`` and ``soloscope demo``, run through the command line on a
short piece of the sample footage: ``wav:DIR`` writes one non-silent WAV per announcement into
DIR, ``on`` speaks each sentence on the audio device (a stand-in device here) and keeps the WAV
files in the session folder, or says once that there is no device; ``off`` only prints; a value
that means nothing is refused with one sentence before anything is written."""

from __future__ import annotations

import json
import shutil
import sys
import wave
from pathlib import Path

import numpy as np
import pytest

from assistant.speech import split_sentences
from tests.session.conftest import soloscope

SCENARIO = "crossroads-ambush"

pytestmark = [
    pytest.mark.skipif(
        shutil.which("espeak-ng") is None,
        reason="espeak-ng is not installed (make sysdeps-runtime)",
    ),
    pytest.mark.usefixtures("no_terminal"),
]


def _said(folder: Path) -> list[str]:
    saved = json.loads((folder / "game.json").read_text(encoding="utf-8"))
    return [" ".join(text.split()) for _, text in saved["announcements"]]


def _assert_one_spoken_wav_each(folder: Path, said: list[str]) -> None:
    """``folder`` holds 001.wav ... one per announcement, each a real stretch of speech."""
    names = sorted(p.name for p in folder.iterdir())
    assert names == [f"{n:03d}.wav" for n in range(1, len(said) + 1)], names
    for name, text in zip(names, said, strict=True):
        with wave.open(str(folder / name), "rb") as wav:
            rate = wav.getframerate()
            samples = np.frombuffer(wav.readframes(wav.getnframes()), dtype="<i2")
        seconds = len(samples) / rate
        assert seconds > 0.15 * len(text.split()), (name, text, seconds)
        rms = float(np.sqrt(np.mean(samples.astype(np.float64) ** 2)))
        assert rms > 500.0, f"{name} is nearly silent (RMS {rms:.0f})"


def _play(clips: Path, out_dir: Path, speech: str, capsys: pytest.CaptureFixture[str]) -> tuple:
    return soloscope(
        capsys,
        "play", "--source", clips / "short.mp4", "--scenario", SCENARIO, "--seed", 3,
        "--declarations", clips / "short.declarations.jsonl", "--no-page",
        "--out", out_dir, "--speech", speech,
    )  # fmt: skip


def _stand_in_device(monkeypatch: pytest.MonkeyPatch, log: Path) -> None:
    """An audio device for ``--speech on``: a program that reads each WAV file through, as a
    sound card plays it, and logs its name and length."""
    reader = (
        "import sys, wave, os; w = wave.open(sys.argv[2]); "
        "open(sys.argv[1], 'a').write("
        "f'{os.path.basename(sys.argv[2])} {w.getnframes() / w.getframerate():.2f}\\n')"
    )
    command = [sys.executable, "-c", reader, str(log)]
    monkeypatch.setattr(
        "assistant.speech.find_audio_output", lambda: (command, "playing through a stand-in")
    )


def test_play_speech_wav_dir_writes_one_wav_per_announcement(
    clips: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir, wavs = tmp_path / "run", tmp_path / "wavs"
    code, out, err = _play(clips, out_dir, f"wav:{wavs}", capsys)
    assert code == 0 and "Traceback" not in err, err
    said = _said(out_dir)
    assert "Declared: Crossbow Ivy moves and shoots Goblin Stabber." in said
    _assert_one_spoken_wav_each(wavs, said)
    assert f"Speech: {len(said)} WAV files in {wavs}" in out
    assert not list(out_dir.rglob("*.wav"))  # the WAV files went where --speech said


def test_demo_speech_wav_dir_writes_one_wav_per_announcement(
    clips: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir, wavs = tmp_path / "demo", tmp_path / "wavs"
    code, out, err = soloscope(
        capsys,
        "demo", "--footage", clips, "--clip", "short", "--out", out_dir,
        "--speech", f"wav:{wavs}",
    )  # fmt: skip
    assert code == 0 and "Traceback" not in err, err
    said = _said(out_dir)
    _assert_one_spoken_wav_each(wavs, said)
    assert f"Speech: {len(said)} WAV files in {wavs}" in out
    assert (out_dir / "replay" / "index.html").is_file()


def test_play_speech_on_speaks_every_sentence_and_keeps_the_wavs(
    clips: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "played.log"
    _stand_in_device(monkeypatch, log)
    out_dir = tmp_path / "run"
    code, out, err = _play(clips, out_dir, "on", capsys)
    assert code == 0 and "Traceback" not in err, err
    assert "Speech:" not in err  # nothing to complain about
    said = _said(out_dir)
    # Every sentence of every announcement was played, in order, one after the other.
    played = [line.split()[0] for line in log.read_text().splitlines()]
    expected = [
        f"{number:03d}-{index:02d}.wav"
        for number, text in enumerate(said, start=1)
        for index in range(1, len(split_sentences(text)) + 1)
    ]
    assert played == expected
    _assert_one_spoken_wav_each(out_dir / "speech", said)
    for text in said:
        assert text in out  # and each was shown as text too


def test_demo_speech_on_without_an_audio_device_says_so_and_writes_wavs(
    clips: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    reason = "no audio device was found (no sound card under /dev/snd, no sound server)"
    monkeypatch.setattr("assistant.speech.find_audio_output", lambda: (None, reason))
    out_dir = tmp_path / "demo"
    code, _out, err = soloscope(
        capsys, "demo", "--footage", clips, "--clip", "short", "--out", out_dir, "--speech", "on"
    )
    assert code == 0 and "Traceback" not in err, err
    notices = [line for line in err.splitlines() if line.startswith("Speech:")]
    assert notices == [
        f"Speech: {reason}; announcements are shown as text and written as WAV files to "
        f"{out_dir / 'speech'} instead."
    ]
    _assert_one_spoken_wav_each(out_dir / "speech", _said(out_dir))


def test_play_speech_off_only_prints(
    clips: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "played.log"
    _stand_in_device(monkeypatch, log)
    out_dir = tmp_path / "run"
    code, out, err = _play(clips, out_dir, "off", capsys)
    assert code == 0 and "Traceback" not in err, err
    said = _said(out_dir)
    assert said and all(text in out for text in said)
    assert not log.exists() and not list(tmp_path.rglob("*.wav"))


def test_a_speech_value_that_means_nothing_is_refused_before_anything_is_written(
    clips: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "run"
    for value in ("loud", "wav:"):
        code, _out, err = _play(clips, out_dir, value, capsys)
        assert code == 2 and "Traceback" not in err, err
        assert f"--speech {value!r} is not understood" in err
        assert not out_dir.exists(), value

"""Announcements are made and played sentence by sentence: the first sentence is heard while the
rest is made, the next announcement is made while this one plays, nothing is cut off, and a kept
WAV file still holds the whole announcement."""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from assistant.speech import Speaker, split_sentences, wav_duration_s
from assistant.speech_worker import espeak_program

pytestmark = pytest.mark.skipif(
    shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (make sysdeps-runtime)"
)

ORDER = (
    "Goblin Boss: turn right about 15 degrees, then move 6 inches toward the shrine. "
    "Why: Crossbow Ivy is the nearest enemy in range, 8.9 in away."
)
SHORT = "Round 2 begins."
WAIT_S = 60.0  # only a bound for a hung engine; every wait below ends on a condition


def _wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.01)


def test_sentences_of_an_announcement() -> None:
    assert split_sentences(ORDER) == [
        "Goblin Boss: turn right about 15 degrees, then move 6 inches toward the shrine.",
        "Why: Crossbow Ivy is the nearest enemy in range, 8.9 in away.",
    ]
    assert split_sentences("Road Wardens have lost 2 of 3: rout check 2, they rout! Go.") == [
        "Road Wardens have lost 2 of 3: rout check 2, they rout!",
        "Go.",
    ]
    assert split_sentences("  Round 1 begins.  ") == ["Round 1 begins."]
    assert split_sentences("Initiative roll 4: Road Wardens activate first.") == [
        "Initiative roll 4: Road Wardens activate first."
    ]


def test_one_wav_per_announcement_holds_all_its_sentences(tmp_path: Path) -> None:
    with Speaker("wav", tmp_path / "wavs", echo=None, on_notice=pytest.fail) as speaker:
        speaker.say(ORDER)
        speaker.say(SHORT)
    assert sorted(p.name for p in (tmp_path / "wavs").iterdir()) == ["001.wav", "002.wav"]
    parts = []
    for index, sentence in enumerate(split_sentences(ORDER)):
        path = tmp_path / f"part{index}.wav"
        assert espeak_program(sentence, path, speaker.rate_wpm, None) is None
        parts.append(wav_duration_s(path))
    whole = wav_duration_s(tmp_path / "wavs" / "001.wav")
    assert whole == pytest.approx(sum(parts), abs=0.1)
    first, second = speaker.announcements
    assert first.queued_at_s <= first.ready_at_s <= first.done_at_s <= second.done_at_s


def test_first_sentence_plays_while_the_rest_is_made_and_nothing_is_cut_off(
    tmp_path: Path,
) -> None:
    # A player that logs when each sentence starts and ends, and holds the first sentence until
    # the test lets it go: meanwhile the speaker must make everything else.
    log, gate = tmp_path / "played.log", tmp_path / "go"
    script = (
        f'echo "start $(basename "$1")" >> {log}; '
        f"while [ ! -e {gate} ]; do sleep 0.01; done; "
        f'echo "end $(basename "$1")" >> {log}'
    )
    player = ["sh", "-c", script, "player"]
    out = tmp_path / "kept"
    speaker = Speaker("on", out, echo=None, player=player, on_notice=pytest.fail)
    try:
        speaker.say(ORDER)
        speaker.say(SHORT)
        _wait_until(lambda: log.exists(), "the first sentence to start playing")
        # Both announcements are made (and kept as WAV files) while the first sentence plays.
        _wait_until(lambda: (out / "002.wav").exists(), "the second announcement to be made")
        assert log.read_text().split("\n")[0] == "start 001-01.wav"
        assert speaker.pending == 2 and speaker.announcements == []
        gate.touch()
    finally:
        assert speaker.close(WAIT_S)
    assert log.read_text().splitlines() == [
        "start 001-01.wav",
        "end 001-01.wav",
        "start 001-02.wav",
        "end 001-02.wav",
        "start 002-01.wav",
        "end 002-01.wav",
    ]
    first, second = speaker.announcements
    assert (first.played, second.played) == (True, True)
    assert first.ready_at_s <= first.done_at_s <= second.ready_at_s <= second.done_at_s
    assert sorted(p.name for p in out.iterdir()) == ["001.wav", "002.wav"]


def test_sentences_reach_a_real_player_as_wav_files(tmp_path: Path) -> None:
    # The player is any command taking a WAV path; this one reads each file through, as a sound
    # card would play it, and records its length.
    log = tmp_path / "lengths.txt"
    reader = (
        "import sys, wave; w = wave.open(sys.argv[2]); "
        "open(sys.argv[1], 'a').write(f'{w.getnframes() / w.getframerate():.2f}\\n')"
    )
    player = [sys.executable, "-c", reader, str(log)]
    with Speaker("on", echo=None, player=player, on_notice=pytest.fail) as speaker:
        speaker.say(ORDER)
    lengths = [float(x) for x in log.read_text().split()]
    assert len(lengths) == 2 and all(x > 1.0 for x in lengths)
    assert speaker.announcements[0].played and speaker.announcements[0].wav_path is None

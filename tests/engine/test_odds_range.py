"""``soloscope odds`` takes attack and defence modifiers from 0 to 10 and refuses anything else
with one line (it printed an answer for a negative defence and for 10^22)."""

from __future__ import annotations

import pytest

from assistant.cli import main


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--attack", "1", "--defence", "-1"], "--defence must be a whole number from 0 to 10"),
        (["--attack", "-3", "--defence", "0"], "--attack must be a whole number from 0 to 10"),
        (["--attack", "1" + "0" * 22, "--defence", "0"], "got 1e+22"),
        (["--attack", "0", "--defence", "11"], "--defence must be a whole number from 0 to 10"),
    ],
)
def test_out_of_range_modifiers_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    assert main(["odds", "narrative", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert says in captured.err and captured.err.count("\n") == 1


@pytest.mark.parametrize(("attack", "defence"), [(0, 0), (0, 10), (10, 0), (10, 10)])
def test_the_ends_of_the_range_are_answered(
    capsys: pytest.CaptureFixture[str], attack: int, defence: int
) -> None:
    assert main(["odds", "narrative", "--attack", str(attack), "--defence", str(defence)]) == 0
    assert "Chance of a wound" in capsys.readouterr().out

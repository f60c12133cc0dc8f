"""One die is "1 die", not "1 dice" (issue 22: "1 dice read", "1 dice left over")."""

from __future__ import annotations

import pytest

from assistant.cli import main
from assistant.commands.dice import describe
from vision.dice.types import DiceRead, DieFound


def _read(*values: int) -> DiceRead:
    return DiceRead(tuple(DieFound(v, 10.0 * i, 5.0, 0.9) for i, v in enumerate(values)), ())


def test_the_dice_reading_counts_one_die() -> None:
    assert describe(_read(4))[0] == "1 die read: 4 (total 4)"
    assert describe(_read(6, 2))[0] == "2 dice read: 6 2 (total 8)"
    assert describe(_read())[0] == "0 dice read: -"


@pytest.mark.parametrize(("pool", "left"), [("1,4,6", "1 die"), ("1,4,6,6", "2 dice")])
def test_the_strike_pool_counts_one_die_left_over(
    pool: str, left: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["odds", "strike", "--dice", str(len(pool.split(","))), "--pool", pool]
    assert main([*argv, "--types", "command,heavy"]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    assert line.endswith(f"; {left} left over for skills"), line

"""``soloscope oracle [QUESTION] [--yes-no]``: seed 003's what-happens-next oracle or its
yes/no question, one d20 (RULES §5.b).

``--json`` prints ``{"roll", "result"}``: the d20 and the table's answer (``happens``,
``does-not-happen``, ... or ``yes`` / ``no``). ``--roll R`` reads a d20 the player rolled.
"""

from __future__ import annotations

import argparse
import json

from assistant.errors import UserError
from assistant.seed_args import add_seed_arguments, resolve_seed, whole_number
from engine.dice import PhysicalDice, RandomSource, SeededDice
from engine.tools.oracle import ORACLE_DIE, ORACLE_WORDS, ask_yes_no, what_happens_next

NAME = "oracle"
HELP = "Ask the d20 oracle what happens next (or a yes/no question with --yes-no)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Question, kind of question, dice and output."""
    parser.add_argument(
        "question", nargs="?", default="", help='the event or question ("Does the bridge hold?")'
    )
    parser.add_argument(
        "--yes-no", action="store_true", help="a yes/no question: 1-10 no, 11-20 yes"
    )
    add_seed_arguments(parser)
    parser.add_argument(
        "--roll", metavar="R", help="read a d20 you rolled yourself (1-20) instead of rolling"
    )
    parser.add_argument("--json", action="store_true", help='print {"roll", "result"}')


def table_dice(args: argparse.Namespace) -> RandomSource:
    """The player's own d20 with ``--roll``, otherwise seeded dice (``--seed`` or fresh)."""
    if args.roll is not None:
        if args.seed is not None:
            raise UserError("give --roll or --seed, not both")
        rolled = whole_number(args.roll, "--roll", 1, ORACLE_DIE)
        return PhysicalDice(lambda _sides, _purpose: rolled)
    return SeededDice(resolve_seed(args))


def run(args: argparse.Namespace) -> int:
    """Roll, then print the answer."""
    dice = table_dice(args)
    question = args.question.strip()
    if args.yes_no:
        answer = ask_yes_no(dice, question)
        roll, result, words = answer.roll, "yes" if answer.yes else "no", ""
    else:
        oracle = what_happens_next(dice, question)
        roll, result, words = oracle.roll, oracle.outcome.value, ORACLE_WORDS[oracle.outcome]
    if args.json:
        print(json.dumps({"roll": roll, "result": result}))
        return 0
    if question:
        print(question)
    print(f"d20 = {roll}: {words or result}.")
    return 0

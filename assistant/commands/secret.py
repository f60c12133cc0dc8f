"""``soloscope secret [WHAT]``: seed 003's secret roll, 16+ on a d20, with the last-place rule
(RULES §5.b, D003-26).

``--last-place`` says every other possible place has been searched without success: a failed
roll there means the secret does not exist, or, with ``--mandatory`` (the scenario's
``secret_mandatory``), that it is in this last place after all. ``--json`` prints
``{"roll", "result", "found"}`` with result ``found``, ``not-here``, ``found-in-last-place`` or
``does-not-exist``.
"""

from __future__ import annotations

import argparse
import json

from assistant.commands.oracle import table_dice
from assistant.seed_args import add_seed_arguments
from engine.tools.oracle import SECRET_THRESHOLD, SECRET_WORDS, search_for_secret

NAME = "secret"
HELP = f"Roll for a secret where it could be found: there on {SECRET_THRESHOLD}+ on a d20."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """What is searched for, the last-place rule, dice and output."""
    parser.add_argument(
        "secret", nargs="?", default="", help='what is searched for ("a hidden door")'
    )
    parser.add_argument(
        "--last-place",
        action="store_true",
        help="every other place has been searched: this is the last one",
    )
    parser.add_argument(
        "--mandatory",
        action="store_true",
        help="the secret must exist (scenario flag secret_mandatory): "
        "in the last place it is found even on a failed roll",
    )
    add_seed_arguments(parser)
    parser.add_argument(
        "--roll", metavar="R", help="read a d20 you rolled yourself (1-20) instead of rolling"
    )
    parser.add_argument("--json", action="store_true", help='print {"roll", "result", "found"}')


def run(args: argparse.Namespace) -> int:
    """Roll, then say whether the secret is here."""
    what = args.secret.strip()
    check = search_for_secret(
        table_dice(args), what, last_place=args.last_place, mandatory=args.mandatory
    )
    if args.json:
        result = {"roll": check.roll, "result": check.outcome.value, "found": check.outcome.found}
        print(json.dumps(result))
        return 0
    if what:
        print(f"Searching for {what}")
    print(f"d20 = {check.roll}: {SECRET_WORDS[check.outcome]}.")
    return 0

"""``soloscope roster new --ruleset skirmish2d6 FILE``: start a warband file, or check one and
explain each refusal (the 2D6 skirmish's build rules, RULES §3.2.h).

A missing FILE is written from a template of three legal fighters; an existing one is checked
fighter by fighter: a legal fighter is listed with its stats as its card shows them, a refused
one with every reason. The exit code is 0 when every fighter is legal, 2 otherwise.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from assistant.errors import UserError
from calibration.safe_files import write_atomic
from engine.rulesets.skirmish2d6.fighters import describe_build
from engine.rulesets.skirmish2d6.roster import TEMPLATE, WarbandCheck, check_warband

NAME = "roster"
HELP = "Warbands: 'roster new --ruleset skirmish2d6 FILE' starts a warband file or checks one."
RULESETS = ("skirmish2d6",)
"""The rulesets with a roster builder."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``roster new``."""
    steps = parser.add_subparsers(dest="step", metavar="STEP", required=True)
    about = "Start a warband file (when FILE does not exist) or check it."
    new = steps.add_parser("new", help=about, description=about)
    new.add_argument("--ruleset", required=True, help=f"the rule system ({', '.join(RULESETS)})")
    new.add_argument("file", type=Path, help="the warband file (TOML)")
    new.add_argument("--name", default="My Warband", help="the name of a new warband")
    new.add_argument("--json", action="store_true", help="print the check as one JSON object")


def _as_json(check: WarbandCheck) -> dict[str, object]:
    return {
        "warband": check.name,
        "ruleset": "skirmish2d6",
        "legal": check.legal,
        "problems": list(check.problems),
        "fighters": [
            {
                "name": f.name,
                "legal": not f.problems,
                "problems": list(f.problems),
                **(
                    {
                        "skill": f.card.shown_stats[0],
                        "speed": f.card.shown_stats[1],
                        "armor": f.card.shown_stats[2],
                        "role": f.card.role,
                        "weapons": list(f.card.weapons),
                    }
                    if f.card is not None
                    else {}
                ),
            }
            for f in check.fighters
        ],
    }


def run(args: argparse.Namespace) -> int:
    """Write a new warband, or check the one there."""
    if args.ruleset not in RULESETS:
        raise UserError(
            f"no roster builder for ruleset {args.ruleset!r} (known: {', '.join(RULESETS)})"
        )
    path: Path = args.file
    if not path.exists():
        if '"' in args.name or "\n" in args.name:
            raise UserError("--name may not hold quotes or line breaks")
        try:
            write_atomic(path, TEMPLATE.format(name=args.name))
        except OSError as exc:
            raise UserError(f"cannot write {path}: {exc.strerror or exc}") from None
        print(
            f"Wrote a new warband to {path}: 3 fighters. Edit it, then run this again to check it."
        )
        return 0
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise UserError(f"cannot read {path}: it is not UTF-8 text") from None
    check = check_warband(text, str(path))
    if args.json:
        print(json.dumps(_as_json(check)))
        return 0 if check.legal else 2
    for problem in check.problems:
        print(f"Refused: {problem}.")
    for f in check.fighters:
        if f.card is not None:
            print(f"  {f.index + 1}. {f.name}: {describe_build(f.card)}")
        else:
            print(f"  {f.index + 1}. {f.name}: refused: {'; '.join(f.problems)}.")
    refused = sum(1 for f in check.fighters if f.problems)
    name = check.name or str(path)
    total = len(check.fighters)
    if check.legal:
        print(f"{name}: {total} fighter{'s' if total != 1 else ''}, all legal.")
        return 0
    print(f"{name}: {refused} of {total} fighters refused.")
    return 2

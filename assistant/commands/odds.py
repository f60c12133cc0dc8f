"""``soloscope odds``: the exact chance of a roll under a ruleset."""

from __future__ import annotations

import argparse
from fractions import Fraction

from assistant.errors import UserError
from engine.odds import (
    NARRATIVE_MODIFIER_RANGE,
    narrative_modifier_error,
    narrative_wound_chance,
)

NAME = "odds"
HELP = "Exact odds of a roll: e.g. 'odds narrative --attack 1 --defence 0 --moved'."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ruleset and its roll's inputs."""
    parser.add_argument("ruleset", choices=["narrative"], help="rule system")
    low, high = NARRATIVE_MODIFIER_RANGE[0], NARRATIVE_MODIFIER_RANGE[-1]
    parser.add_argument(
        "--attack", type=int, required=True, help=f"attacker's attack modifier ({low} to {high})"
    )
    parser.add_argument(
        "--defence",
        "--defense",
        type=int,
        required=True,
        help=f"defender's defence modifier ({low} to {high})",
    )
    parser.add_argument("--moved", action="store_true", help="the shot follows a move (-1 attack)")


def run(args: argparse.Namespace) -> int:
    """Print the chance of a wound as a fraction and a percentage."""
    if args.ruleset != "narrative":
        raise UserError(f"no odds for ruleset {args.ruleset!r}")
    for name, value in (("--attack", args.attack), ("--defence", args.defence)):
        problem = narrative_modifier_error(name, value)
        if problem is not None:
            raise UserError(problem)
    chance: Fraction = narrative_wound_chance(args.attack, args.defence, args.moved)
    delta = args.attack - args.defence - (1 if args.moved else 0)
    print(
        f"Chance of a wound (attack {args.attack}, defence {args.defence}"
        f"{', after moving' if args.moved else ''}; modifier {delta:+d}): "
        f"{chance.numerator}/{chance.denominator} = {float(chance) * 100:.1f}%"
    )
    return 0

"""Command-line flags shared by the commands that roll dice on their own (oracle, secret,
generate): ``--seed`` and ``--show-seed``, and whole-number and inch arguments read into one
plain sentence when they are wrong (argparse's own errors print a usage block as well).
"""

from __future__ import annotations

import argparse
import math
import secrets
import sys

from assistant.errors import UserError

FRESH_SEED_BITS = 32
"""A fresh seed is this many random bits: short enough to note down when shown."""


def add_seed_arguments(parser: argparse.ArgumentParser) -> None:
    """``--seed N`` (same seed, same result) and ``--show-seed``."""
    parser.add_argument(
        "--seed",
        metavar="N",
        help="dice seed, a whole number: the same seed gives the same result "
        "(default: a fresh random seed)",
    )
    parser.add_argument(
        "--show-seed",
        action="store_true",
        help="say on standard error which seed was used (to roll the same again)",
    )


def whole_number(text: str, flag: str, low: int | None = None, high: int | None = None) -> int:
    """``text`` as an integer within [low, high], or a UserError naming ``flag``."""
    try:
        value = int(text.strip())
    except ValueError:
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise UserError(f"{flag} must be a whole number, got {shown!r}") from None
    if (low is not None and value < low) or (high is not None and value > high):
        span = (
            f"from {low} to {high}"
            if low is not None and high is not None
            else (f"{low} or more" if low is not None else f"{high} or less")
        )
        raise UserError(f"{flag} must be {span}, got {value}")
    return value


def inches(text: str, flag: str, high: float) -> float:
    """``text`` as a length in inches, more than 0 and at most ``high``, or a UserError."""
    try:
        value = float(text.strip())
    except ValueError:
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise UserError(f"{flag} must be a number of inches, got {shown!r}") from None
    if not (math.isfinite(value) and 0 < value <= high):
        raise UserError(f"{flag} must be more than 0 and at most {high:g} in, got {text.strip()}")
    return value


def resolve_seed(args: argparse.Namespace) -> int:
    """The seed asked for, or a fresh random one; said on stderr only with ``--show-seed``."""
    seed = (
        secrets.randbits(FRESH_SEED_BITS)
        if args.seed is None
        else whole_number(args.seed, "--seed", 0, (1 << 64) - 1)
    )
    if args.show_seed:
        print(f"seed {seed}", file=sys.stderr)
    return seed

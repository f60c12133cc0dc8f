"""``soloscope odds RULESET ...``: the exact chance of a roll, as the ruleset's table adapter
computes it (each adapter adds its own arguments).

Only the named ruleset's adapter (and so its rules) is loaded; ``odds --help`` loads them all to
list what each one offers.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

NAME = "odds"
HELP = "Exact odds of a ruleset's roll: 'odds RULESET --help' lists what it takes."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One sub-command per ruleset whose adapter gives odds, with that adapter's arguments."""
    add_arguments_for(parser, None)


def add_arguments_for(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> None:
    """As :func:`add_arguments`; when ``argv`` (the words after ``odds``) starts with a ruleset
    that has a table adapter, the other rulesets are listed by name without being loaded."""
    from assistant.tables import adapter_names, find_adapter

    names = adapter_names()
    asked = argv[0] if argv and argv[0] in names else None
    rulesets = parser.add_subparsers(dest="ruleset", metavar="RULESET", required=True)
    for name in names:
        if asked is not None and name != asked:
            rulesets.add_parser(name)  # a valid choice, its arguments unread
            continue
        adapter = find_adapter(name)
        if not adapter.odds_help:
            continue
        sub = rulesets.add_parser(name, help=adapter.odds_help, description=adapter.odds_help)
        adapter.add_odds_arguments(sub)


def run(args: argparse.Namespace) -> int:
    """Print the odds the ruleset's adapter works out."""
    from assistant.tables import find_adapter

    print(find_adapter(args.ruleset).odds(args))
    return 0

"""``soloscope odds RULESET ...``: the exact chance of a roll, as the ruleset's table adapter
computes it (each adapter adds its own arguments)."""

from __future__ import annotations

import argparse

from assistant.tables import adapter_names, find_adapter

NAME = "odds"
HELP = "Exact odds of a ruleset's roll: 'odds RULESET --help' lists what it takes."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One sub-command per ruleset whose adapter gives odds, with that adapter's arguments."""
    rulesets = parser.add_subparsers(dest="ruleset", metavar="RULESET", required=True)
    for name in adapter_names():
        adapter = find_adapter(name)
        if not adapter.odds_help:
            continue
        sub = rulesets.add_parser(name, help=adapter.odds_help, description=adapter.odds_help)
        adapter.add_odds_arguments(sub)


def run(args: argparse.Namespace) -> int:
    """Print the odds the ruleset's adapter works out."""
    print(find_adapter(args.ruleset).odds(args))
    return 0

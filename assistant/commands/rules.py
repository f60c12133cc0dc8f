"""``soloscope rules``: the registered rulesets and controllers.

Listed from :mod:`engine.catalogue`, which knows the built-in systems by name, title and source
without importing them: the answer comes at once.
"""

from __future__ import annotations

import argparse
import json

from engine.catalogue import controller_plays, ruleset_titles

NAME = "rules"
HELP = "List the registered rulesets and AI controllers."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Output format."""
    parser.add_argument("--json", action="store_true", help="one JSON object instead of a table")


def run(args: argparse.Namespace) -> int:
    """Print each ruleset with its title, and each controller with the rulesets it plays."""
    rulesets = ruleset_titles()
    controllers = controller_plays()
    if args.json:
        out = {
            "rulesets": [{"name": n, "title": t, "source": s} for n, t, s in rulesets],
            "controllers": [{"name": n, "plays": plays} for n, plays in controllers],
        }
        print(json.dumps(out))
        return 0
    print("Rulesets:")
    for name, title, source in rulesets:
        where = "" if source == title else f" (from {source})"
        print(f"  {name:<16} {title}{where}")
    print("Controllers:")
    for name, plays in controllers:
        print(f"  {name:<16} plays: {', '.join(plays)}")
    return 0

"""``soloscope rules``: the registered rulesets and controllers."""

from __future__ import annotations

import argparse
import json

from engine.protocols import (
    controller_names,
    find_controller,
    find_ruleset,
    ruleset_names,
    rulesets_played,
)

NAME = "rules"
HELP = "List the registered rulesets and AI controllers."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Output format."""
    parser.add_argument("--json", action="store_true", help="one JSON object instead of a table")


def run(args: argparse.Namespace) -> int:
    """Print each ruleset with its title, and each controller with the rulesets it plays."""
    rulesets = [find_ruleset(name) for name in ruleset_names()]
    controllers = [find_controller(name) for name in controller_names()]
    if args.json:
        out = {
            "rulesets": [{"name": r.name, "title": r.title, "source": r.source} for r in rulesets],
            "controllers": [{"name": c.name, "plays": rulesets_played(c)} for c in controllers],
        }
        print(json.dumps(out))
        return 0
    print("Rulesets:")
    for r in rulesets:
        source = "" if r.source == r.title else f" (from {r.source})"
        print(f"  {r.name:<16} {r.title}{source}")
    print("Controllers:")
    for c in controllers:
        print(f"  {c.name:<16} plays: {', '.join(rulesets_played(c))}")
    return 0

"""``soloscope rules``: the registered rulesets and controllers."""

from __future__ import annotations

import argparse

from engine.protocols import controller_names, find_controller, find_ruleset, ruleset_names

NAME = "rules"
HELP = "List the registered rulesets and AI controllers."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """No options."""


def run(args: argparse.Namespace) -> int:
    """Print each ruleset with its title, and each controller with the rulesets it plays."""
    print("Rulesets:")
    for name in ruleset_names():
        print(f"  {name:<16} {find_ruleset(name).title}")
    print("Controllers:")
    for name in controller_names():
        plays = ", ".join(find_controller(name).rulesets)
        print(f"  {name:<16} plays: {plays}")
    return 0

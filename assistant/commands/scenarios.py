"""``soloscope scenarios``: list the bundled scenarios."""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.table import Table

from assistant.scenarios import bundled_scenarios

NAME = "scenarios"
HELP = (
    "List the bundled scenarios (any command taking SCENARIO accepts one of these names or a path)."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Output format."""
    parser.add_argument("--json", action="store_true", help="one JSON list instead of a table")


def run(args: argparse.Namespace) -> int:
    """Print the table (or JSON list) of bundled scenarios."""
    scenarios = bundled_scenarios()
    if args.json:
        rows = [
            {
                "name": s.name,
                "ruleset": s.ruleset,
                "controllers": s.controllers,
                "title": s.title,
                "path": str(s.path),
            }
            for s in scenarios
        ]
        print(json.dumps(rows))
        return 0
    table = Table(title="Bundled scenarios")
    table.add_column("name", style="bold")
    table.add_column("ruleset")
    table.add_column("title")
    for s in scenarios:
        table.add_row(s.name, s.ruleset, s.title)
    Console().print(table)
    return 0

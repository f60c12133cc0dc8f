"""``soloscope scenarios``: list the bundled scenarios."""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

from assistant.scenarios import bundled_scenarios

NAME = "scenarios"
HELP = (
    "List the bundled scenarios (any command taking SCENARIO accepts one of these names or a path)."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """No options."""


def run(args: argparse.Namespace) -> int:
    """Print the table of bundled scenarios."""
    table = Table(title="Bundled scenarios")
    table.add_column("name", style="bold")
    table.add_column("ruleset")
    table.add_column("title")
    for s in bundled_scenarios():
        table.add_row(s.name, s.ruleset, s.title)
    Console().print(table)
    return 0

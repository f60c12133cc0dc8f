"""``soloscope generate WHAT ...``: generated tables and battles (seed 003 §5.m-§5.n, seed 004).

Each WHAT is a module of :mod:`assistant.generators` with its own flags
(``soloscope generate WHAT --help``).
"""

from __future__ import annotations

import argparse

from assistant.generators import generator_modules

NAME = "generate"
HELP = "Generate terrain (and more) from the solo rules' tables: 'generate WHAT --help'."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One sub-command per generator module, each with its own flags."""
    kinds = parser.add_subparsers(dest="what", metavar="WHAT", required=True)
    for module in generator_modules():
        sub = kinds.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(_generate=module.run)


def run(args: argparse.Namespace) -> int:
    """Run the chosen generator."""
    return int(args._generate(args) or 0)

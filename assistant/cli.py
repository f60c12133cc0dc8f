"""The ``soloscope`` command line.

Each subcommand lives in its own module under ``assistant.commands`` and exposes
``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``. Modules are found
by name, so adding a command is adding a file.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from types import ModuleType

from assistant import commands
from assistant.errors import UserError
from calibration.errors import CalibrationError
from calibration.safe_files import LockError
from engine.errors import EngineError
from vision.errors import VisionError

#: Exceptions whose message is meant for the user: shown as one line, never a traceback.
USER_FACING_ERRORS: tuple[type[BaseException], ...] = (
    UserError,
    EngineError,
    CalibrationError,
    VisionError,
    LockError,
)


class CommandParser(argparse.ArgumentParser):
    """An argument parser that reports an unknown option itself, with its own usage: ``rules
    --jsn`` shows the usage of ``rules``, not of ``soloscope`` (argparse leaves a subcommand's
    unknown options to the top-level parser)."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


def _command_modules() -> list[ModuleType]:
    found = []
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        if hasattr(module, "NAME") and hasattr(module, "run"):
            found.append(module)
    return found


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every discovered subcommand."""
    parser = CommandParser(
        prog="soloscope",
        description="A solo miniatures wargaming assistant: an overhead camera reads the "
        "table, the AI opponent gives its orders aloud and on a web page.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _command_modules():
        p = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``soloscope``; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except USER_FACING_ERRORS as exc:
        print(f"soloscope {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:  # a session's says where its game is saved
        print(f"soloscope {args.command}: {exc or 'stopped.'}", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())

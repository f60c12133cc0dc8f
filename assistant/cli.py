"""The ``soloscope`` command line.

Each subcommand lives in its own module under ``assistant.commands`` and exposes ``NAME``,
``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``; :data:`assistant.commands.COMMANDS`
lists them by name, module and help line. Only the module of the command being run is imported
(and only its arguments are built), so a command starts without loading every other command's
dependencies. A command whose arguments depend on what follows it on the command line (``odds
RULESET``: each ruleset's own) may expose ``add_arguments_for(parser, argv)`` instead, ``argv``
being the words after the command's name.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from assistant.commands import COMMANDS, Command
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


def command_module(command: Command) -> ModuleType:
    """The module of one subcommand (imported now)."""
    return importlib.import_module(f"assistant.commands.{command.module}")


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser: every subcommand listed with its help line; the arguments of the
    one ``argv`` names (its first word), or of every subcommand when ``argv`` is None."""
    parser = CommandParser(
        prog="soloscope",
        description="A solo miniatures wargaming assistant: an overhead camera reads the "
        "table, the AI opponent gives its orders aloud and on a web page.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = argv[0] if argv else None
    for command in COMMANDS:
        p = sub.add_parser(command.name, help=command.help, description=command.help)
        if argv is not None and command.name != chosen:
            continue
        module = command_module(command)
        if hasattr(module, "add_arguments_for"):
            module.add_arguments_for(p, None if argv is None else list(argv[1:]))
        else:
            module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``soloscope``; returns the process exit code."""
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(words)
    args = parser.parse_args(words)
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

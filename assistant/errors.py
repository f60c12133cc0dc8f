"""Errors the command line turns into one plain sentence and a non-zero exit."""

from __future__ import annotations


class UserError(Exception):
    """A problem with what the user asked for or gave us (a path, a flag, a file).

    The message is shown as it is: write it for a player, not a programmer.
    """

"""Errors raised by ``vision``; their messages name the input at fault."""

from __future__ import annotations


class VisionError(Exception):
    """A frame source, detector or tracker problem the user can act on."""

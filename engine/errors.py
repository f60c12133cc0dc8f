"""Errors raised by ``engine``; their messages name the input at fault."""

from __future__ import annotations


class EngineError(Exception):
    """Something the game engine was given is not valid: a scenario, an action or a state."""

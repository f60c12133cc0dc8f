"""Errors raised by ``calibration``; their messages name the input at fault."""

from __future__ import annotations


class CalibrationError(Exception):
    """A calibration could not be made or loaded."""

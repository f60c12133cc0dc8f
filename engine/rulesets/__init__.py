"""Rulesets, one module each, registered by name when this package is imported."""

from engine.rulesets import (
    narrative,  # noqa: F401
    strike,  # noqa: F401
)

"""Controllers (AI generals and the autopilot), one module each, registered by name."""

from engine.controllers import autopilot, narrative_ai  # noqa: F401

"""Controllers (AI generals and the autopilot), one module each, registered by name."""

from engine.controllers import autopilot, narrative_ai, random_player  # noqa: F401

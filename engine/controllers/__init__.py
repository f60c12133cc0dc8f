"""Controllers (AI generals and the autopilot), one module each, registered by name."""

from engine.controllers import (  # noqa: F401
    autopilot,
    cards,
    narrative_ai,
    random_player,
    strike_ai,
)

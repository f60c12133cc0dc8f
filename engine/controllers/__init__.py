"""Controllers (AI generals and the autopilot), one module each, registered by name."""

from engine.controllers import (  # noqa: F401
    autopilot,
    cards,
    dungeon_heroes,
    narrative_ai,
    patrol_d8,
    random_player,
    skirmish_ai,
    status_d20,
    strike_ai,
)

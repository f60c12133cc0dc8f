"""The bundled table adapters: one import per ruleset runs its registration line."""

from assistant.tables import (
    d20,  # noqa: F401
    dungeon,  # noqa: F401
    firefight_lite,  # noqa: F401
    narrative,  # noqa: F401
    skirmish2d6,  # noqa: F401
    strike,  # noqa: F401
)

"""The bundled table adapters: each ruleset's name and the module whose registration line
makes its adapter findable (imported when that ruleset's adapter is first asked for)."""

BUILTIN_ADAPTERS: dict[str, str] = {
    "d20": "assistant.tables.d20",
    "dungeon": "assistant.tables.dungeon",
    "firefight-lite": "assistant.tables.firefight_lite",
    "narrative": "assistant.tables.narrative",
    "skirmish2d6": "assistant.tables.skirmish2d6",
    "strike": "assistant.tables.strike",
}

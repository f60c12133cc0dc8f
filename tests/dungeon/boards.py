"""Small boards for the dungeon tests: a scenario written from a few figures, started."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.dice import ScriptedDice
from engine.model import GameState
from engine.protocols import find_ruleset
from engine.rulesets.dungeon.ruleset import DungeonRuleset
from engine.rulesets.dungeon.state import ALERTED, PATROLLING, rules_of
from engine.scenario import parse_scenario

Figure = tuple[str, str, tuple[int, int], float, str]
"""(id, card kind or a card table in TOML, (col, row), heading, "hero" or "enemy")."""


def ruleset() -> DungeonRuleset:
    """The registered dungeon ruleset."""
    r = find_ruleset("dungeon")
    assert isinstance(r, DungeonRuleset)
    return r


def scenario_text(
    cols: int,
    rows: int,
    figures: Sequence[Figure],
    walls: tuple[tuple[int, int], ...] = (),
    options: dict[str, Any] | None = None,
) -> str:
    """A scenario file of the figures on a cols x rows board of 1-in squares."""
    lines = [
        "version = 1",
        "[scenario]",
        'name = "test-board"',
        'ruleset = "dungeon"',
        'ai_controller = "patrol-d8"',
        'human_controller = "dungeon-heroes"',
        "[table]",
        f"width_in = {cols}",
        f"depth_in = {rows}",
        f"grid = {{ cell_in = 1.0, cols = {cols}, rows = {rows} }}",
        "[options]",
    ]
    for key, value in (options or {}).items():
        shown = str(value).lower() if isinstance(value, bool) else repr(value)
        lines.append(f"{key} = {shown}".replace("'", '"'))
    lines += [
        "[[sides]]",
        'name = "Heroes"',
        'role = "human"',
        'edge = "front"',
        "[[sides]]",
        'name = "Monsters"',
        'role = "ai"',
        'edge = "back"',
    ]
    for uid, card, (col, row), heading, side in figures:
        table = card if card.startswith("{") else f'{{ kind = "{card}" }}'
        lines += [
            "[[units]]",
            f'id = "{uid}"',
            f'name = "{uid}"',
            f'side = "{"Heroes" if side == "hero" else "Monsters"}"',
            f"cell = [{col}, {row}]",
            f"heading = {heading}",
            f"card = {table}",
        ]
    for col, row in walls:
        y = rows - row - 1
        lines += [
            "[[terrain]]",
            f'id = "wall-{col}-{row}"',
            'name = "rock wall"',
            f"polygon = [[{col}, {y}], [{col + 1}, {y}], [{col + 1}, {y + 1}], [{col}, {y + 1}]]",
            "blocks_los = true",
            "impassable = true",
        ]
    return "\n".join(lines) + "\n"


def started(
    cols: int,
    rows: int,
    figures: Sequence[Figure],
    walls: tuple[tuple[int, int], ...] = (),
    options: dict[str, Any] | None = None,
    *,
    heroes_have_moved: bool = False,
    alerted: tuple[str, ...] = (),
) -> GameState:
    """The game after its start step (round 1 begun), with the flags a test asks for."""
    r = ruleset()
    scenario = parse_scenario(scenario_text(cols, rows, figures, walls, options), "test.toml")
    state = r.new_game(scenario)
    state = r.apply(state, r_chance(), ScriptedDice([])).state
    state = replace(state, rules=replace(rules_of(state), heroes_have_moved=heroes_have_moved))
    for uid in alerted:
        unit = state.unit(uid)
        state = state.with_unit(replace(unit, statuses=(unit.statuses - {PATROLLING}) | {ALERTED}))
    return state


def r_chance() -> Any:
    """The chance action of the start step."""
    from engine.actions import Action, ActionKind

    return Action(ActionKind.CHANCE)


def acting(state: GameState, unit_id: str) -> GameState:
    """The state with ``unit_id`` next to act (a test's shortcut through the queue)."""
    rules = rules_of(state)
    return replace(state, rules=replace(rules, queue=(unit_id, *rules.queue), acting=None))

"""Constructed firefight-lite positions for the card AI's tests: a small gridded table, a few
figures placed by square name, terrain by squares, the turn at the NPC's half-turn."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.cards import Deck
from engine.model import GameState
from engine.protocols import find_ruleset
from engine.rulesets.firefight_lite.deck import FULL_DECK
from engine.rulesets.firefight_lite.ruleset import FirefightLite
from engine.rulesets.firefight_lite.state import DECK, FFState
from engine.scenario import parse_scenario

NPC, PLAYER, NEUTRAL = "Retinue", "Barons' Men", "Citizens"


def _card(values: dict[str, Any]) -> str:
    parts = []
    for key, value in values.items():
        if isinstance(value, bool):
            parts.append(f"{key} = {'true' if value else 'false'}")
        elif isinstance(value, str):
            parts.append(f'{key} = "{value}"')
        else:
            parts.append(f"{key} = {value}")
    return "{ " + ", ".join(parts) + " }"


def scenario_text(
    units: list[tuple[str, str, str, dict[str, Any]]],
    terrain: list[tuple[str, str, list[tuple[float, float]], dict[str, Any]]] = (),  # type: ignore[assignment]
    *,
    size: int = 12,
    events: bool = False,
    neutral: bool = False,
    max_rounds: int = 8,
) -> str:
    """A scenario: ``units`` as (id, side, square, card), ``terrain`` as (id, kind, polygon,
    attributes)."""
    lines = [
        "version = 1",
        "[scenario]",
        'name = "test-position"',
        'ruleset = "firefight-lite"',
        'ai_controller = "cards"',
        'human_controller = "random"',
        "[table]",
        f"width_in = {size}",
        f"depth_in = {size}",
        "grid = { cell_in = 1.0 }",
        "[options]",
        f"max_rounds = {max_rounds}",
        f"random_events = {'true' if events else 'false'}",
        "[[sides]]",
        f'name = "{PLAYER}"',
        'role = "human"',
        'edge = "front"',
        "[[sides]]",
        f'name = "{NPC}"',
        'role = "ai"',
        'edge = "back"',
    ]
    if neutral:
        lines += ["[[sides]]", f'name = "{NEUTRAL}"', 'role = "neutral"', 'edge = "left"']
    for uid, side, square, card in units:
        lines += [
            "[[units]]",
            f'id = "{uid}"',
            f'name = "{uid}"',
            f'side = "{side}"',
            f'cell = "{square}"',
            f"card = {_card(card)}",
        ]
    for tid, kind, polygon, extra in terrain:
        lines += [
            "[[terrain]]",
            f'id = "{tid}"',
            f'name = "the {tid}"',
            f'kind = "{kind}"',
            f"polygon = {[list(p) for p in polygon]}",
        ]
        for key, value in extra.items():
            lines.append(
                f"{key} = {'true' if value is True else 'false' if value is False else repr(value).replace(chr(39), chr(34))}"
            )
    return "\n".join(lines) + "\n"


def ruleset() -> FirefightLite:
    """The registered firefight-lite ruleset."""
    found = find_ruleset("firefight-lite")
    assert isinstance(found, FirefightLite)
    return found


def position(
    units: list[tuple[str, str, str, dict[str, Any]]],
    terrain: list[tuple[str, str, list[tuple[float, float]], dict[str, Any]]] = (),  # type: ignore[assignment]
    *,
    acting: str = NPC,
    pile: tuple[str, ...] = FULL_DECK,
    **kw: Any,
) -> GameState:
    """The game at ``acting``'s half-turn of turn 1, the deck's draw pile as given."""
    scenario = parse_scenario(scenario_text(units, terrain, **kw), "test-position.toml")
    state = ruleset().new_game(scenario)
    rules = state.rules
    assert isinstance(rules, FFState)
    rules = replace(rules, phase="sides", first=acting, acting_side=acting)
    return replace(state, round=1, rules=rules, decks=(Deck(DECK, pile),))


def wall(x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
    """A rectangle from (x0, y0) to (x1, y1), inches."""
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]

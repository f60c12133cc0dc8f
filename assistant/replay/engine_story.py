"""The record of a game read back from footage: a story (what the engine made of it so far:
its state, the cost of what the footage does not show, the events and activation steps, the
seen dice used), the removals it reads and what the replay hands back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.model import GameState


@dataclass(frozen=True)
class Removal:
    """A piece taken off the table: its name and when it was last seen (seconds)."""

    piece: str
    t: float


@dataclass(frozen=True)
class Window:
    """What the footage shows of units leaving the table between a move and the next one."""

    removed: frozenset[str] = frozenset()
    """Units taken off after the move and before the next one."""
    hidden: Mapping[str, float] = field(default_factory=dict)
    """Units whose tags the footage lost before the next move and never saw again (unit id:
    the time last seen, seconds): hidden where they stood, or taken off and the removal
    misread as hidden."""


@dataclass(frozen=True)
class EngineReplay:
    """What the engine made of the footage: timeline events and the activation steps."""

    events: tuple[dict[str, Any], ...]
    """{"t", "kind", "text", "unit", "source": "engine", ...} in time order."""
    activations: tuple[dict[str, Any], ...]
    """Steps for the viewer: {"index", "t", "t_start", "label", "tags"}."""


@dataclass
class Story:
    """One reading of the footage so far: the engine's state and what it reported."""

    state: GameState
    cost: float = 0.0
    events: list[dict[str, Any]] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)
    per_side: dict[str, int] = field(default_factory=dict)
    cursor: int = 0
    """Seen dice used so far."""

    def fork(self, state: GameState | None = None, cost: float = 0.0, used: int = 0) -> Story:
        return Story(
            self.state if state is None else state,
            self.cost + cost,
            list(self.events),
            list(self.steps),
            dict(self.per_side),
            self.cursor + used,
        )

"""What the replay's modules know of the game being read back: the scenario's ruleset, its
table adapter, the AI, the camera's tolerances and the unseen steps worked out so far.

:class:`ReplayGame` is the one interface the move reader (engine_moves, engine_checks), the
unseen steps (engine_unseen) and the search (engine_replay) share; the search's
:class:`~assistant.replay.engine_replay.GameReplayer` is the one implementation. Naming it
here, below all of them, keeps their imports one way (no circle).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from assistant.tables.base import TableAdapter, Tolerances
from engine.actions import Event
from engine.model import GameState
from engine.protocols import Controller, Ruleset

UnseenStep = tuple[GameState, Sequence[Event], str, int, bool, float]
"""One unseen step: (state after, events, acting unit, seen dice used, all dice seen, the
cost (minus a log-probability) of reading the acting unit within the camera's error of its
seen place; 0 at the place)."""

StepsKey = tuple[GameState, tuple[int | None, ...] | None]
"""A state and the run of seen dice still to come (None: no dice seen)."""


class ReplayGame(Protocol):
    """The scenario's engine as the replay reads it (inches, degrees)."""

    ruleset: Ruleset
    adapter: TableAdapter
    ai: Controller
    tolerances: Tolerances
    unseen_steps: dict[StepsKey, list[UnseenStep]]
    """The unseen steps worked out from each state on each run of seen dice during the replay
    under way (:func:`assistant.replay.engine_unseen.steps_from`)."""

"""The firefight-lite ruleset's own state: unit cards, per-unit rules state and the turn's
bookkeeping (RULES §4, D002-01's "FF-lite meaning" column).

Cards name numbers in squares (1-inch cells, D002-02): ``move`` squares per Move action,
``ranged`` and ``melee`` added to a d6, ``armour`` added to the save roll, ``range`` the
weapon's reach in squares (0: no ranged weapon), ``strength`` of its hits, ``wounds`` it can
take. ``neutral`` names what a figure of the neutral side is (monk, citizen, bot, mob, mine);
``reserve`` keeps a figure off the table until an event brings it on (K♦, K♥, Q♥, J♥, K♣,
Q♦).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.actions import Action, Event
from engine.model import RulesState, Unit, UnitCard, UnitRules, evolve

NAME = "firefight-lite"
DECK = "cards"
"""The card AI's 54-card deck lives in ``GameState.decks`` under this name."""

NeutralKind = Literal["", "monk", "citizen", "bot", "mob", "mine"]
HOSTILE_NEUTRALS = frozenset({"mob", "mine"})
"""Neutral figures that attack anyone (the citizen mob is a third side, K♣; the air mine)."""
UNTARGETABLE = frozenset({"monk", "mine"})
"""Figures no attack may name (monks, K♥; the air mine only explodes)."""
COVER_FIGURES = frozenset({"monk", "citizen", "bot"})
"""Figures others may use as cover (soft)."""

FROSTY = "frosty"
"""Status: on overwatch (Stay Frosty) until it fires or activates again."""


class FFCardModel(BaseModel):
    """The ``card`` table of a firefight-lite unit in a scenario file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    troop: str = ""
    """Troop type ("Retained Household Varlet"): K♦ brings on the most common one."""
    move: int = Field(default=4, ge=1, le=12)
    ranged: int = Field(default=1, ge=0, le=5)
    melee: int = Field(default=1, ge=0, le=5)
    armour: int = Field(default=1, ge=0, le=5)
    range: int = Field(default=12, ge=0, le=48)
    strength: int = Field(default=1, ge=1, le=4)
    wounds: int = Field(default=1, ge=1, le=5)
    neutral: NeutralKind = ""
    reserve: bool = False


@dataclass(frozen=True)
class FFCard(UnitCard):
    """A unit's numbers (see the module docstring)."""

    troop: str = ""
    move: int = 4
    ranged: int = 1
    melee: int = 1
    armour: int = 1
    range: int = 12
    strength: int = 1
    wounds: int = 1
    neutral: str = ""
    reserve: bool = False


@dataclass(frozen=True)
class FFUnit(UnitRules):
    """Per-unit rules state: the cell a figure began the turn in (J♣'s rubble) and the figures
    a dispenser bot has served (J♥)."""

    turn_start: tuple[int, int] | None = None
    served: tuple[str, ...] = ()
    last_card: str = ""
    """The last action or defence card drawn for it (shown on its card at the table)."""


Phase = Literal["setup", "event", "initiative", "order", "neutral", "sides", "over"]


@dataclass(frozen=True)
class FFState(RulesState):
    """Where the turn is (RULES §4.c) and what waits for an answer."""

    phase: Phase = "setup"
    first: str | None = None
    """The side acting first this turn."""
    acting_side: str | None = None
    """The side whose half-turn it is (phase "sides")."""
    initiative_winner: str | None = None
    acting: str | None = None
    """A unit that drew a Joker: it draws again (CONTINUE)."""
    reacting: str | None = None
    """The unit a REACTION waits for."""
    reaction: str = ""
    """"defence" (attacked, §4.g), "event" (an event's hit: no Return Fire), "overwatch"
    (Stay Frosty) or "move_with" (a neutral mover went by)."""
    trigger: Event | None = None
    held: Action | None = None
    """The action that resumes once the reaction is answered (its detail's JSON lists kept
    as tuples, so that the state stays hashable: a searcher keys states)."""
    asked: tuple[str, ...] = ()
    """Overwatchers already asked about the held action."""
    event_hits: tuple[int, ...] = ()
    """Strengths of the hits an event reaction is about (sniper, booby trap)."""
    events_done: tuple[str, ...] = ()
    """Event cards resolved so far (each once per game)."""
    watchers: tuple[str, ...] = ()
    """Units whose move-with reaction is still to ask (Q♥, J♥)."""
    initial_ai: tuple[str, ...] = ()
    """Troop types of the NPC's starting force (K♦)."""
    deploy_cells: tuple[tuple[int, int], ...] = ()
    """The NPC's initial deployment squares (K♦)."""

    def __post_init__(self) -> None:
        if self.held is not None:
            detail = tuple((k, _frozen(v)) for k, v in self.held.detail)
            object.__setattr__(self, "held", evolve(self.held, detail=detail))


def card(unit: Unit) -> FFCard:
    """The unit's firefight-lite card."""
    assert isinstance(unit.card, FFCard)
    return unit.card


def is_combatant(unit: Unit) -> bool:
    """A figure of the NPC or the player's side (not a neutral figure)."""
    return not card(unit).neutral


def hostile(a: Unit, b: Unit) -> bool:
    """Whether ``a`` and ``b`` fight each other: the two combatant sides; the citizen mob
    and the air mine against every combatant (K♣, Q♦)."""
    if a.side == b.side or a.id == b.id:
        return False
    ka, kb = card(a).neutral, card(b).neutral
    if not ka and not kb:
        return True
    if ka and kb:
        return False
    return (ka or kb) in HOSTILE_NEUTRALS


def _frozen(value: Any) -> Any:
    """A JSON value with its lists as tuples (hashable; read the same by index and len)."""
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value

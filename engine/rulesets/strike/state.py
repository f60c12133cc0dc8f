"""The strike system's data (RULES §3.1): soldier cards, soldier types and die faces, threat
ranges, and the ruleset's own frozen parts of the game state (the Oracle pools, who is
acting and what it has done, the die spent beside each soldier).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.errors import EngineError
from engine.model import GameState, RulesState, Unit, UnitCard, UnitRules, evolve

NAME = "strike"

TYPES: tuple[str, ...] = ("command", "assault", "artillery", "heavy", "skirmish", "support")
"""Soldier types in die-face order: face n activates type n (D001A-01)."""

THREAT_RANGES_IN: dict[str, float] = {
    "melee": 1.0,
    "close": 3.0,
    "assault": 6.0,
    "medium": 12.0,
    "far": 18.0,
    "full": math.inf,
}
"""Threat range names and their reach, inches edge to edge (§3.1.f; full: sight only)."""

RANGE_TOL_IN = 1e-9
"""A target exactly at the threat range is within it (T001A-05)."""

FREE_ACTIONS: tuple[str, ...] = ("move", "interact", "strike")
"""The free actions of an activation, each at most once (D001A-05)."""

HOLD = "hold"
"""Activate a soldier and do nothing (its die is still spent)."""

STRIKE = "strike"
"""The action kind of a strike (§3.1.g)."""

SPRINT = "sprint"
"""The one skill effect the data cards may give (D001A-06): each action die spent on it adds
the skill's inches to that activation's move."""

REROLL_SKILL = "reroll"
"""The skill effect that modifies the Oracle roll."""
KEEP, REROLL = "keep", "re-roll"
"""The options of a side whose soldiers may re-roll Oracle dice."""

ROUNDS = 4
"""Rounds before the objectives are scored (D001A-07 with seed 003's generic objectives)."""

HOLD_ENEMY_IN = 2.0
"""An objective is held only with no enemy within this many inches of it (§5.m)."""


class SkillSpec(BaseModel):
    """One skill on a soldier's card (D001A-06: skills come from data cards)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    effect: Literal["sprint", "reroll"]
    """What the skill does; "sprint": each die spent on it adds ``inches`` to the move;
    "reroll": in the Oracle phase its side may roll again up to ``count`` dice of its pool that
    no soldier of the side needs (an action-dice skill, §3.1.c)."""
    inches: float = Field(default=2.0, gt=0, le=12)
    count: int = Field(default=1, ge=1, le=6)


class CardSpec(BaseModel):
    """A soldier's card as a scenario file writes it (D001A-06)."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["command", "assault", "artillery", "heavy", "skirmish", "support"]
    initiative: int = Field(ge=0, le=6)
    """Dice the soldier adds to its side's Oracle pool; also its cap on skill dice."""
    speed_in: float = Field(gt=0, le=48)
    threat: Literal["melee", "close", "assault", "medium", "far", "full"]
    toughness: int = Field(ge=1, le=20)
    deadly: bool = False
    """Counts for two in a strike (§3.1.g)."""
    lethal: bool = False
    """Counts for three in a strike (§3.1.g; wins over deadly)."""
    points: int = Field(default=1, ge=0, le=1000)
    """Its value (the AI strikes the most valuable enemy first, §3.3.1)."""
    leader: bool = False
    """The side's leader: removing it scores 2 VP (seed 003's objective game)."""
    skills: tuple[SkillSpec, ...] = ()


@dataclass(frozen=True)
class StrikeCard(UnitCard):
    """A soldier's numbers (D001A-06)."""

    type: str
    initiative: int
    speed_in: float
    threat: str
    toughness: int
    deadly: bool = False
    lethal: bool = False
    points: int = 1
    leader: bool = False
    skills: tuple[SkillSpec, ...] = ()

    @property
    def face(self) -> int:
        """The die face that activates it (D001A-01)."""
        return TYPES.index(self.type) + 1

    @property
    def weight(self) -> int:
        """How many soldiers it counts for in a strike: 3 Lethal, 2 Deadly, else 1 (§3.1.g)."""
        return 3 if self.lethal else 2 if self.deadly else 1

    @property
    def threat_in(self) -> float:
        """Its threat range in inches (infinite for "full")."""
        return THREAT_RANGES_IN[self.threat]

    @property
    def reroll_count(self) -> int:
        """Dice its side may roll again in the Oracle phase thanks to it (0: none)."""
        return sum(s.count for s in self.skills if s.effect == REROLL_SKILL)

    @property
    def sprint_in(self) -> float:
        """Inches each die spent on its sprint skill adds (0: it has none)."""
        return max((s.inches for s in self.skills if s.effect == SPRINT), default=0.0)


@dataclass(frozen=True)
class StrikeUnit(UnitRules):
    """A soldier's own state: the die left beside it once activated this round."""

    die: int | None = None


@dataclass(frozen=True)
class StrikeState(RulesState):
    """The round's Oracle pools and the activation under way."""

    pools: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """Each side's action dice (faces, sorted), by side name."""
    stopped: frozenset[str] = frozenset()
    """Sides that stopped activating this round (a pass)."""
    acting: str | None = None
    """The soldier whose activation is under way."""
    used: frozenset[str] = frozenset()
    """The free actions it has taken (D001A-05)."""
    skill_dice: int = 0
    """Action dice it has spent on skills this activation (at most its Initiative)."""
    first: str | None = None
    """The side that activated first this round (D001A-03)."""
    rerolling: tuple[str, ...] = ()
    """Sides still to decide whether to re-roll spare Oracle dice, in order."""
    scored: tuple[tuple[str, int], ...] = field(default=())
    """Victory points per side, once the battle is scored."""

    def pool(self, side: str) -> tuple[int, ...]:
        """The side's action dice (faces, sorted)."""
        return dict(self.pools).get(side, ())

    def with_pool(self, side: str, dice: tuple[int, ...]) -> StrikeState:
        """A copy with the side's pool replaced."""
        kept = {**dict(self.pools), side: tuple(sorted(dice))}
        return evolve(self, pools=tuple(sorted(kept.items())))


def card_of(unit: Unit) -> StrikeCard:
    """The strike card of a soldier."""
    if not isinstance(unit.card, StrikeCard):
        raise EngineError(f"{unit.name} has no strike card")
    return unit.card


def rules_of(state: GameState) -> StrikeState:
    """The strike part of the game state."""
    if not isinstance(state.rules, StrikeState):
        raise EngineError("not a strike game")
    return state.rules


def spent_die(unit: Unit) -> int | None:
    """The die beside a soldier (None: not activated this round)."""
    return unit.rules.die if isinstance(unit.rules, StrikeUnit) else None


def remove_faces(pool: tuple[int, ...], faces: list[int]) -> tuple[int, ...] | None:
    """The pool without one die per listed face (None: a face is not there)."""
    left = list(pool)
    for face in faces:
        if face not in left:
            return None
        left.remove(face)
    return tuple(left)


def activatable(pool: tuple[int, ...], faces: list[int]) -> dict[int, int]:
    """How many soldiers of each face a pool can activate (T001A-02): per face, the lesser
    of the dice showing it and the soldiers waiting."""
    return {face: min(pool.count(face), faces.count(face)) for face in sorted(set(faces))}

"""The 2D6 skirmish's own part of the state (who is acting, actions left, Aim, a rolled charge,
drive-backs to carry out) and the scoring of RULES §3.2.j (D001B-12)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import EngineError
from engine.model import GameState, RulesState, UnitStatus
from engine.rulesets.skirmish2d6.combat import Drive
from engine.rulesets.skirmish2d6.objectives import holder, objective_sites

ACTIONS_PER_ACTIVATION = 3
VP_PER_KILL = 1
VP_PER_OBJECTIVE = 3
LAST_ROUND = 4
BOW_RANGE_IN = 18.0
"""D001B-10: the seed gives the Bow no range; 18 in (scenario option ``bow_range_in``)."""


@dataclass(frozen=True)
class SkirmishState(RulesState):
    """Round bookkeeping of the 2D6 skirmish."""

    acting: str | None = None
    """The fighter whose activation this is."""
    actions_left: int = 0
    aimed: bool = False
    """The acting fighter has Aimed: +1 to its next shot this activation (D001B-13)."""
    charge_target: str | None = None
    """A charge whose reach was rolled: the fighter must now run at this enemy."""
    charge_reach_in: float = 0.0
    charge_weapon: str | None = None
    charge_style: str = ""
    drives: tuple[Drive, ...] = ()
    """Drive-backs made by the rules that the player must still carry out at the table."""
    first_side: str | None = None
    """Who won this round's roll-off."""


def rules_of(state: GameState) -> SkirmishState:
    """The state's 2D6-skirmish part."""
    rules = state.rules
    if not isinstance(rules, SkirmishState):
        raise EngineError(f"the {state.ruleset} game has no 2D6-skirmish state")
    return rules


def kills(state: GameState, side: str) -> int:
    """Enemy models the side has killed (every fallen enemy; nobody leaves the table in these
    rules, G-09)."""
    return sum(1 for u in state.units if u.side != side and u.status is UnitStatus.FALLEN)


def held_objectives(state: GameState) -> dict[str, str | None]:
    """Objective id -> the side holding it now (None: nobody), D001B-12."""
    return {site.id: holder(state, site) for site in objective_sites(state)}


def victory_points(state: GameState) -> dict[str, int]:
    """Each side's VP now: 1 per kill, 3 per objective held (§3.2.b)."""
    held = held_objectives(state)
    return {
        s.name: VP_PER_KILL * kills(state, s.name)
        + VP_PER_OBJECTIVE * sum(1 for h in held.values() if h == s.name)
        for s in state.sides
    }

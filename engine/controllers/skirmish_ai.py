"""``skirmish-ai``: the generic AI of the 2D6 skirmish (RULES §3.3.2), one activation of three
actions at a time, in a fixed priority order so that it stays testable:

1. Stunned or Staggered, no enemy in base contact, two or more actions left: Recover.
2. In base contact with an enemy: fight (a charge with no move) the contacting enemy with the
   highest P(kill); again while actions remain. A Staggered fighter cannot (no Charge,
   D001B-06): it shoots if it can, else Recovers (two actions left), else waits.
3. A Bow and an enemy in sight and range: Aim (two or more actions left, not yet aimed), then
   Shoot the enemy with the highest P(Hit) x P(Damage success); ties: the nearest.
4. A melee weapon and an enemy within 7 in with a clear charge lane (P(reach) >= 7/12,
   T001B-03): Charge it, with the weapon (and Hook or Blow Away) of the highest P(kill).
5. Otherwise Move toward the nearest objective the side does not hold, else the nearest enemy.
6. Actions left at an objective: stay there (pass) to keep the hold.

An order carries every action up to and including the first one that rolls dice (the moves and
the Aim before it are certain); the runner or the live session asks again after it. The drive-
backs and the run of a rolled charge are ordered for whichever side's model they concern.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

from engine.actions import Action, ActionKind, Order
from engine.dice import RandomSource
from engine.model import GameState, Unit, evolve
from engine.protocols import ControllerBase, Pending, PendingKind, Ruleset, register_controller
from engine.rulesets.skirmish2d6.board import (
    board,
    contacting_enemies,
    gap,
    guarded,
    path_problem,
    visible,
)
from engine.rulesets.skirmish2d6.checks import opposed_at_least
from engine.rulesets.skirmish2d6.fighters import (
    HEAVY_HIT_PENALTY,
    STAGGERED,
    STUNNED,
    WOUNDED,
    Weapon,
    armor_of,
    card_of,
    damage_of,
    move_allowance_in,
    skill_of,
    speed_of,
)
from engine.rulesets.skirmish2d6.objectives import HOLD_REACH_IN, holder, objective_sites
from engine.rulesets.skirmish2d6.ruleset import (
    AIM,
    CHARGE,
    MOVE,
    NAME,
    RECOVER,
    RUN,
    SHOOT,
    STYLES,
    SkirmishRuleset,
)
from engine.rulesets.skirmish2d6.state import ACTIONS_PER_ACTIVATION, BOW_RANGE_IN, rules_of

AI_NAME = "skirmish-ai"
CHARGE_REACH_IN = 7.0
"""Step 4: charge only enemies within this edge gap (2d6 reaches 7 with P = 7/12)."""
_CERTAIN = frozenset({MOVE, AIM})
"""Actions that roll no dice: an order may carry on past them."""


@dataclass(frozen=True)
class Plan:
    """One chosen action, the rule that chose it and why."""

    action: Action
    rule: str
    reason: str
    target_distance_in: float | None = None


def hit_and_damage(
    state: GameState,
    att: Unit,
    tgt: Unit,
    weapon: Weapon,
    *,
    ranged: bool = False,
    bonus: int = 0,
    style: str = "",
) -> tuple[Fraction, Fraction, Fraction]:
    """Exact P(Hit), P(Damage success | Hit) and P(kill) of one attack (no free attacks)."""
    mod = bonus - (HEAVY_HIT_PENALTY if style else 0)
    defence = speed_of(tgt) if ranged else skill_of(tgt)
    hit_d = skill_of(att) + mod - defence
    armor = armor_of(tgt, guarded(state, tgt), heavy="heavy" in weapon.traits)
    dmg_d = damage_of(weapon, tgt) - armor
    p_hit = opposed_at_least(hit_d, 1)
    p_dmg = opposed_at_least(dmg_d, 1)
    kill_given_hit = opposed_at_least(dmg_d, 1 if WOUNDED in tgt.statuses else 3)
    if "decapitate" in weapon.traits:
        p_dec = opposed_at_least(hit_d, 5)
        p_kill = p_dec + (p_hit - p_dec) * kill_given_hit
    else:
        p_kill = p_hit * kill_given_hit
    return p_hit, p_dmg, p_kill


def best_melee(state: GameState, att: Unit, tgt: Unit) -> tuple[Fraction, Weapon, str]:
    """The melee weapon and style (plain, Hook, Blow Away) with the highest P(kill); ties go
    to the plain attack and the card's order."""
    best: tuple[Fraction, Weapon, str] | None = None
    for weapon in card_of(att).melee_weapons:
        for style in STYLES:
            if style and {"hook": "axe", "blow_away": "maul"}[style] != weapon.name:
                continue
            _, _, p_kill = hit_and_damage(state, att, tgt, weapon, style=style)
            if best is None or p_kill > best[0]:
                best = (p_kill, weapon, style)
    assert best is not None
    return best


def _attack_detail(weapon: Weapon, style: str) -> tuple[tuple[str, str], ...]:
    return (("weapon", weapon.name),) + ((("style", style),) if style else ())


class SkirmishAI(ControllerBase):
    """RULES §3.3.2 (see the module docstring)."""

    name = AI_NAME
    rulesets: tuple[str, ...] = (NAME,)

    def choose_unit(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str | None:
        """A fighter in base contact first, then an archer, then sheet order."""
        if not pending.candidates:
            return None

        def key(uid: str) -> tuple[int, int]:
            unit = state.unit(uid)
            if contacting_enemies(state, unit):
                return (0, unit.sheet_order)
            if card_of(unit).has("bow"):
                return (1, unit.sheet_order)
            return (2, unit.sheet_order)

        return min(pending.candidates, key=key)

    def decide(self, state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource) -> Order:
        """The actions of this activation up to the first that rolls dice."""
        pending = ruleset.pending(state)
        if pending.purpose == "drive back" and isinstance(ruleset, SkirmishRuleset):
            action = ruleset.drive_action(state)
            return Order(action, "drive back", "the rules drive the model back")
        if pending.purpose == "charge" and isinstance(ruleset, SkirmishRuleset):
            path = ruleset.charge_run(state)
            target = state.unit(rules_of(state).charge_target or "")
            return Order(
                Action(RUN, unit_id, path=path, target_id=target.id),
                "step 4: charge",
                f"run at {target.name}",
                distance_in=_length(path),
            )
        left = (
            rules_of(state).actions_left
            if pending.kind is PendingKind.CONTINUE
            else ACTIONS_PER_ACTIVATION
        )
        aimed = rules_of(state).aimed and pending.kind is PendingKind.CONTINUE
        plans: list[Plan] = []
        scratch = state
        while left > 0:
            plan = self._next(scratch, scratch.unit(unit_id), left, aimed)
            plans.append(plan)
            kind = str(plan.action.kind)
            if kind not in _CERTAIN:
                break
            path = plan.action.path
            if path:  # the next step is planned from where this move ends
                mover = scratch.unit(unit_id)
                scratch = scratch.with_unit(evolve(mover, x=path[-1][0], y=path[-1][1]))
            left -= 1
            aimed = aimed or kind == AIM
        plans = _merged_moves(plans, unit_id)
        first = plans[0]
        return Order(
            tuple(p.action for p in plans),
            first.rule,
            first.reason,
            distance_in=sum(_length(p.action.path) for p in plans),
            target_distance_in=first.target_distance_in,
        )

    # ----------------------------------------------------------------------- the steps
    def _next(self, state: GameState, unit: Unit, left: int, aimed: bool) -> Plan:
        contact = contacting_enemies(state, unit)
        if unit.statuses & {STUNNED, STAGGERED} and not contact and left >= 2:
            worst = STUNNED if STUNNED in unit.statuses else STAGGERED
            return Plan(
                Action(RECOVER, unit.id, detail=(("status", worst),)),
                "step 1: recover",
                f"{unit.name} is {worst} and no enemy is in contact",
            )
        if contact and STAGGERED in unit.statuses:
            # A Staggered fighter cannot fight (no Charge, D001B-06): it shoots if it can,
            # else it tries to shake the Stagger off, else it waits.
            if self._shot(state, unit) is None:
                if left >= 2:
                    return Plan(
                        Action(RECOVER, unit.id, detail=(("status", STAGGERED),)),
                        "step 1: recover",
                        f"{unit.name} is staggered and cannot fight",
                    )
                pass_here = Action(ActionKind.PASS, unit.id, side=unit.side)
                return Plan(pass_here, "step 2: fight", f"{unit.name} is staggered")
        elif contact:
            scored = [(best_melee(state, unit, e), e) for e in contact]
            (p_kill, weapon, style), enemy = max(
                scored, key=lambda se: (se[0][0], -se[1].sheet_order)
            )
            return Plan(
                Action(CHARGE, unit.id, target_id=enemy.id, detail=_attack_detail(weapon, style)),
                "step 2: fight",
                f"{enemy.name} is in base contact (kill chance {float(p_kill):.0%})",
                0.0,
            )
        shot = self._shot(state, unit)
        if shot is not None:
            if left >= 2 and not aimed:
                return Plan(Action(AIM, unit.id), "step 3: aim", f"{shot.name} is in sight")
            return Plan(
                Action(SHOOT, unit.id, target_id=shot.id),
                "step 3: shoot",
                f"{shot.name} is the best shot in sight and range",
                gap(unit, shot),
            )
        charge = self._charge(state, unit)
        if charge is not None:
            return charge
        return self._move(state, unit)

    def _shot(self, state: GameState, unit: Unit) -> Unit | None:
        if not card_of(unit).has("bow"):
            return None
        reach = state.option("bow_range_in", BOW_RANGE_IN)
        bow = next(w for w in card_of(unit).items if w.ranged)
        best: tuple[tuple[Fraction, float], Unit] | None = None
        for enemy in state.enemies_of(unit):
            d = gap(unit, enemy)
            if d > reach or not visible(state, unit, enemy):
                continue
            p_hit, p_dmg, _ = hit_and_damage(state, unit, enemy, bow, ranged=True)
            key = (p_hit * p_dmg, -d)
            if best is None or key > best[0]:
                best = (key, enemy)
        return None if best is None else best[1]

    def _charge(self, state: GameState, unit: Unit) -> Plan | None:
        if STAGGERED in unit.statuses:
            return None
        if not any(w.damage > 0 for w in card_of(unit).melee_weapons):
            return None
        scored = []
        for enemy in state.enemies_of(unit):
            d = gap(unit, enemy)
            if d <= CHARGE_REACH_IN:
                p_kill, weapon, style = best_melee(state, unit, enemy)
                scored.append(((-p_kill, d, enemy.sheet_order), enemy, weapon, style))
        scored.sort(key=lambda item: item[0])
        # The likeliest kill first, then the nearest: the first with a clear lane is charged.
        best = next((item for item in scored if self._clear_lane(state, unit, item[1])), None)
        if best is None:
            return None
        _, enemy, weapon, style = best
        return Plan(
            Action(CHARGE, unit.id, target_id=enemy.id, detail=_attack_detail(weapon, style)),
            "step 4: charge",
            f"{enemy.name} is {gap(unit, enemy):.1f} in away with a clear lane",
            gap(unit, enemy),
        )

    def _clear_lane(self, state: GameState, unit: Unit, enemy: Unit) -> bool:
        d = gap(unit, enemy)
        if d <= 1e-6:
            return True
        ux, uy = enemy.x - unit.x, enemy.y - unit.y
        length = (ux * ux + uy * uy) ** 0.5
        end = (unit.x + ux / length * d, unit.y + uy / length * d)
        return not path_problem(state, unit, (unit.position, end), d + 1e-3)

    def _move(self, state: GameState, unit: Unit) -> Plan:
        sites = objective_sites(state)
        pass_here = Action(ActionKind.PASS, unit.id, side=unit.side)
        allowance = move_allowance_in(unit)
        for site in sites:
            if not site.within(unit, HOLD_REACH_IN):
                continue
            rivals = [e for e in state.enemies_of(unit) if site.within(e, HOLD_REACH_IN)]
            if holder(state, site) == unit.side or not rivals or allowance <= 0:
                return Plan(pass_here, "step 6: hold", f"{unit.name} holds {site.name}")
            rival = min(rivals, key=lambda e: (round(gap(unit, e), 6), e.sheet_order))
            path = board(state).slide_toward(unit, rival.position, 0.0, allowance)
            if len(path) < 2:
                return Plan(pass_here, "step 6: hold", f"{unit.name} holds {site.name}")
            return Plan(
                Action(MOVE, unit.id, path=path),
                "step 6: contest",
                f"{rival.name} contests {site.name}",
            )
        open_sites = [s for s in sites if holder(state, s) != unit.side]
        if open_sites:
            site = min(open_sites, key=lambda s: (round(s.gap_in(unit), 6), s.id))
            goal, what = site.point, site.name
        else:
            enemies = state.enemies_of(unit)
            if not enemies:
                return Plan(pass_here, "step 6: hold", "no enemy is left")
            enemy = min(enemies, key=lambda e: (round(gap(unit, e), 6), e.sheet_order))
            goal, what = enemy.position, enemy.name
        path = board(state).slide_toward(unit, goal, 0.0, allowance) if allowance > 0 else ()
        if len(path) < 2:
            return Plan(pass_here, "step 5: move", f"{unit.name} cannot get nearer {what}")
        return Plan(Action(MOVE, unit.id, path=path), "step 5: move", f"toward {what}")


def _merged_moves(plans: list[Plan], unit_id: str) -> list[Plan]:
    """Moves in a row as one move spending that many actions (one path for the player)."""
    out: list[Plan] = []
    for plan in plans:
        prev = out[-1] if out else None
        if prev is not None and prev.action.kind == MOVE and plan.action.kind == MOVE:
            n = int(prev.action.get("actions", 1)) + 1
            path = prev.action.path + plan.action.path[1:]
            action = Action(MOVE, unit_id, path=path, detail=(("actions", n),))
            out[-1] = Plan(action, prev.rule, prev.reason, prev.target_distance_in)
        else:
            out.append(plan)
    return out


def _length(path: tuple[tuple[float, float], ...]) -> float:
    return sum(math.dist(a, b) for a, b in itertools.pairwise(path))


register_controller(AI_NAME, SkirmishAI)

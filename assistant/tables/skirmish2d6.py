"""The 2D6 skirmish at the table (the ``skirmish2d6`` ruleset's adapter).

The roll-off is made by the assistant. An AI order carries the actions of an activation up to
the first that rolls dice ("move 12 inches toward the shrine (2 Moves), then aim, then shoot
Wren"); a charge is said in two steps: roll the distance, then move the model that far at its
target. A drive-back of an AI model is ordered like a move and checked by the camera; the
player is told to drive their own model back and the camera checks it the same way. The player
moves a fighter (a move longer than 4 + Speed spends more Moves) and declares: done (the move),
shoot, charge (or hook with an Axe, blow away with a Maul), aim, recover or pass; during a
charge the move seen is the charge's run. A card shows the stats as they stand (statuses,
Champion, Guardian, Shield), the role and weapons, the statuses and the actions left.
``soloscope odds skirmish2d6 --opposed D | --recover SKILL | --charge INCHES``.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import replace
from fractions import Fraction

from assistant.errors import UserError
from assistant.live_view import SightLineView
from assistant.session.announce import inches
from assistant.session.observation import PieceSeen
from assistant.tables import register_adapter
from assistant.tables import skirmish2d6_words as words
from assistant.tables.base import (
    BaseAdapter,
    CardValue,
    Declaration,
    Expectation,
    ObservedMove,
    ReplayMove,
    Turn,
    UnitCard,
    targets_of,
    unit_status,
)
from engine.actions import Action, ActionKind, Order
from engine.geometry import Point
from engine.model import GameState, Role, Unit
from engine.odds import skirmish_charge_reach, skirmish_opposed, skirmish_recover
from engine.protocols import PendingKind, Ruleset
from engine.rulesets.skirmish2d6.board import (
    gap,
    guarded,
    path_length_in,
    sight_blocked_by,
    visible,
)
from engine.rulesets.skirmish2d6.fighters import (
    armor_of,
    card_of,
    move_allowance_in,
    skill_of,
    speed_of,
    statuses_in_order,
)
from engine.rulesets.skirmish2d6.ruleset import AIM, CHARGE, DRIVE, MOVE, NAME, RECOVER, RUN, SHOOT
from engine.rulesets.skirmish2d6.state import ACTIONS_PER_ACTIVATION, BOW_RANGE_IN, rules_of

OPPOSED_RANGE = range(-12, 13)
STYLE_WORDS = {"hook": "axe", "blow away": "maul"}
"""Declarations for a charge with a weapon's special attack (-2 to hit), and that weapon."""
DRIVE_TOL_IN = 0.3
"""How near the spot a driven-back model must stand for the move to count, inches."""
RECOVER_RANGE = range(-4, 8)


def _drive(state: GameState) -> tuple[str, Point, Point] | None:
    """The drive-back the player must carry out now, if any: (unit id, from, to)."""
    drives = rules_of(state).drives
    return drives[0] if drives and state.winner is None else None


def _fraction(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator} ({float(p) * 100:.2f}%)"


class SkirmishAdapter(BaseAdapter):
    """The 2D6 skirmish's table side."""

    name = NAME
    replayed_events = frozenset({"round_start", "activation"})
    odds_help = (
        "Exact 2D6 odds: 'odds skirmish2d6 --opposed D' (stat difference), "
        "'--recover SKILL', '--charge INCHES'."
    )

    # ---------------------------------------------------------------- turns
    def turn(self, state: GameState, ruleset: Ruleset) -> Turn:
        pending = ruleset.pending(state)
        if pending.kind is PendingKind.OVER:
            return Turn("over")
        if pending.kind is PendingKind.CHANCE:
            return Turn("auto", action=Action(ActionKind.CHANCE))
        side = pending.side or ""
        if pending.purpose == "drive back" and state.side(side).role is not Role.AI:
            # The player drives their own model back, as told (so a declarations file that
            # lists the drive-back plays it too).
            return Turn("human", side, pending.candidates, unit_id=pending.unit, may_pass=False)
        if state.side(side).role is Role.AI:
            return Turn(
                "ai", side, pending.candidates, unit_id=pending.unit, may_pass=pending.may_pass
            )
        return Turn(
            "human", side, pending.candidates, unit_id=pending.unit, may_pass=pending.may_pass
        )

    def pass_action(self, state: GameState, side: str) -> Action:
        """The acting fighter ends its activation (at the choice of a fighter: the first one
        ready stands still)."""
        rules = rules_of(state)
        uid = rules.acting or next((u.id for u in state.units_of(side) if not u.activated), None)
        return Action(ActionKind.PASS, uid, side=side)

    # --------------------------------------------------------------- orders
    def order_instruction(self, state: GameState, order: Order) -> str:
        return words.order_instruction(state, order)

    def describe_action(self, state: GameState, action: Action) -> str:
        return words.describe_action(state, action)

    def expectation(self, state: GameState, order: Order) -> Expectation:
        """Where the path ends; these rules have no facing."""
        return replace(super().expectation(state, order), facing_tol_deg=180.0)

    # ------------------------------------------------------ the player's side
    def turn_prompt(self, state: GameState, turn: Turn) -> str:
        drive = _drive(state)
        if drive is not None:
            unit = state.unit(drive[0])
            length = math.dist(drive[1], drive[2])
            return (
                f"{unit.name} is driven back: move it {inches(length)} straight back, "
                "then declare done."
            )
        if turn.unit_id and rules_of(state).charge_target:
            unit = state.unit(turn.unit_id)
            rules = rules_of(state)
            target = state.unit(rules.charge_target or "")
            return (
                f"{unit.name} may run up to {rules.charge_reach_in:g} inches at {target.name}: "
                "move it, then declare done."
            )
        if turn.unit_id:
            unit = state.unit(turn.unit_id)
            left = rules_of(state).actions_left
            return (
                f"{unit.name} has {left} action{'s' if left != 1 else ''} left: move it and "
                "declare done, or declare shoot, charge, aim, recover or pass."
            )
        return super().turn_prompt(state, turn)

    def declare_prompt(self, state: GameState, turn: Turn) -> str:
        return "Move one fighter and declare done, or declare its action."

    def declarations(
        self, state: GameState, turn: Turn, moved: str | None
    ) -> tuple[Declaration, ...]:
        if rules_of(state).charge_target or _drive(state) is not None:
            return (Declaration("done"),)
        enemies = targets_of(state, turn.side)
        options = [
            Declaration("done"),
            Declaration("shoot", enemies),
            Declaration("charge", enemies),
        ]
        carried = {w for uid in turn.candidates for w in card_of(state.unit(uid)).weapons}
        for word, weapon in STYLE_WORDS.items():
            if weapon in carried:
                options.append(Declaration(word, enemies))
        options += [Declaration("aim"), Declaration("recover"), Declaration("pass")]
        return tuple(options)

    def moved_prompt(self, state: GameState, unit: Unit, distance_in: float) -> str:
        if rules_of(state).charge_target:
            return f"{unit.name} ran {distance_in:.1f} inches. Declare done."
        return f"{unit.name} moved {distance_in:.1f} inches. Declare done for the move."

    def _move_action(self, state: GameState, unit: Unit, end: Point) -> Action:
        """The move (or a charge's run) to ``end``: a move longer than 4 + Speed inches spends
        as many Move actions as it needs."""
        path = (unit.position,) if math.dist(unit.position, end) < 1e-9 else (unit.position, end)
        if rules_of(state).charge_target:
            return Action(RUN, unit.id, path=path)
        allowance = move_allowance_in(unit)
        length = math.dist(unit.position, end)
        rules = rules_of(state)
        left = rules.actions_left if rules.acting == unit.id else ACTIONS_PER_ACTIVATION
        n = 1 if allowance <= 0 else max(1, math.ceil(length / allowance - 1e-9))
        n = min(n, max(left, 1))  # too far for the actions left: the check says how far
        detail = (("actions", n),) if n > 1 else ()
        return Action(MOVE, unit.id, path=path, detail=detail)

    def observed_path(
        self, state: GameState, ruleset: Ruleset, unit: Unit, seen: PieceSeen
    ) -> tuple[tuple[Point, ...] | None, str]:
        drive = _drive(state)
        if drive is not None and drive[0] == unit.id:
            if math.dist((seen.x_in, seen.y_in), drive[2]) <= DRIVE_TOL_IN:
                return (drive[1], drive[2]), ""
            length = math.dist(drive[1], drive[2])
            return None, f"{unit.name} goes {inches(length)} straight back, no further"
        action = self._move_action(state, unit, (seen.x_in, seen.y_in))
        problems = ruleset.validate(state, action)
        if problems:
            return None, problems[0]
        return action.path, ""

    def observed_action(
        self,
        state: GameState,
        ruleset: Ruleset,
        what: str,
        target: str | None,
        move: ObservedMove | None,
        unit_id: str | None,
    ) -> Action | str:
        pending = ruleset.pending(state)
        uid = pending.unit or unit_id or (move[0] if move else None)
        if uid is None and len(pending.candidates) == 1:
            uid = pending.candidates[0]
        if what == "pass":
            return self.pass_action(state, pending.side or "")
        if uid is None:
            return "Say which fighter acts."
        unit = state.unit(uid)
        drive = _drive(state)
        if drive is not None:
            if what != "done":
                return f"First drive {state.unit(drive[0]).name} back, then declare done."
            return Action(DRIVE, drive[0], path=(drive[1], drive[2]))
        if what == "done":
            if move is None or move[1] is None:
                if rules_of(state).charge_target:
                    return Action(RUN, uid, path=(unit.position,))
                return f"Move {unit.name} first, then declare done."
            return self._move_action(state, state.unit(move[0]), move[1][-1])
        if move is not None and move[1] is not None and len(move[1]) > 1:
            return f"{unit.name} moved: declare done for the move first, then {what}."
        if what in (SHOOT, CHARGE, *STYLE_WORDS):
            if target is None:
                return f"Say which enemy {unit.name} should {what}."
            if what in STYLE_WORDS:  # a charge with the Axe's Hook or the Maul's Blow Away
                weapon = STYLE_WORDS[what]
                style = what.replace(" ", "_")
                detail = (("weapon", weapon), ("style", style))
                return Action(CHARGE, uid, target_id=target, detail=detail)
            return Action(what, uid, target_id=target)
        if what == AIM:
            return Action(AIM, uid)
        if what == RECOVER:
            return Action(RECOVER, uid)
        return (
            f"{what!r} is not an action of these rules (done, shoot, charge, aim, recover, pass)."
        )

    # -------------------------------------------------------------- the page
    def unit_card(self, state: GameState, unit: Unit) -> UnitCard:
        card = card_of(unit)
        rules = rules_of(state)
        if rules.acting == unit.id:
            left = rules.actions_left
        else:
            left = 0 if unit.activated else ACTIONS_PER_ACTIVATION
        values = [
            CardValue("skill", str(skill_of(unit))),
            CardValue("speed", str(speed_of(unit))),
            CardValue("armor", str(armor_of(unit, guarded(state, unit)))),
            CardValue("move", f"{move_allowance_in(unit):g} in"),
            CardValue("role", card.role),
            CardValue("weapons", ", ".join(card.weapons) or "unarmed"),
            CardValue("actions left", str(left)),
        ]
        if rules.acting == unit.id and rules.aimed:
            values.append(CardValue("aimed", "+1 to the next shot"))
        ranges = (state.option("bow_range_in", BOW_RANGE_IN),) if card.has("bow") else ()
        return UnitCard(
            status=unit_status(unit),
            statuses=statuses_in_order(unit.statuses),
            values=tuple(values),
            wound_slots=0,  # a wound is the "wounded" status: no wound boxes
            ranges_in=ranges,
        )

    def sight_lines(self, state: GameState, unit: Unit) -> tuple[SightLineView, ...]:
        out = []
        for enemy in state.enemies_of(unit):
            blocked = sight_blocked_by(state, unit, enemy)
            out.append(
                SightLineView(
                    from_id=unit.id,
                    to_id=enemy.id,
                    clear=visible(state, unit, enemy),
                    cover="none",
                    range_in=round(gap(unit, enemy), 2),
                    note="blocked by " + ", ".join(blocked) if blocked else "",
                )
            )
        return tuple(out)

    # ------------------------------------------------------------------ odds
    def add_odds_arguments(self, parser: argparse.ArgumentParser) -> None:
        group = parser.add_mutually_exclusive_group(required=True)
        group.add_argument(
            "--opposed",
            type=int,
            metavar="D",
            help="an opposed 2D6 check, own stat minus the opponent's (-12 to 12)",
        )
        group.add_argument(
            "--recover", type=int, metavar="SKILL", help="Recover: 2D6 + Skill over 7 (-4 to 7)"
        )
        group.add_argument(
            "--charge", type=float, metavar="INCHES", help="a charge's 2D6 reaching this far"
        )

    def odds(self, args: argparse.Namespace) -> str:
        if args.opposed is not None:
            d = args.opposed
            if d not in OPPOSED_RANGE:
                raise UserError(f"--opposed takes a stat difference from -12 to 12, not {d}")
            o = skirmish_opposed(d)
            return (
                f"Opposed 2D6 check, stat difference {d:+d}: success {_fraction(o.success)}, "
                f"draw {_fraction(o.draw)}, fail {_fraction(o.fail)}; "
                f"Advantage 3+ {_fraction(o.advantage_at_least(3))}, "
                f"Advantage 5+ {_fraction(o.advantage_at_least(5))}"
            )
        if args.recover is not None:
            skill = args.recover
            if skill not in RECOVER_RANGE:
                raise UserError(f"--recover takes a Skill from -4 to 7, not {skill}")
            return f"Recover with Skill {skill} (2D6 + Skill over 7): {_fraction(skirmish_recover(skill))}"
        reach = args.charge
        if not 0 <= reach <= 36:
            raise UserError(f"--charge takes a distance from 0 to 36 inches, not {reach:g}")
        chance = _fraction(skirmish_charge_reach(reach))
        return f"A charge reaching {reach:g} inches (2D6 >= {reach:g}): {chance}"

    # ------------------------------------------------------ reading footage
    def replay_move(
        self, state: GameState, ruleset: Ruleset, unit: Unit, seen: PieceSeen, slack_in: float
    ) -> ReplayMove:
        drive = _drive(state)
        if drive is not None and drive[0] == unit.id:
            off = math.dist((seen.x_in, seen.y_in), drive[2])
            if off <= DRIVE_TOL_IN + slack_in:
                act = Action(DRIVE, unit.id, path=(drive[1], drive[2]))
                return ReplayMove((act,), True, nudged=off > DRIVE_TOL_IN)
            return ReplayMove((), False, f"{unit.name} was to be driven back {off:.1f} in away")
        action = self._move_action(state, unit, (seen.x_in, seen.y_in))
        problems = ruleset.validate(state, action)
        if not problems:
            return ReplayMove((action,), True)
        limit = (
            rules_of(state).charge_reach_in
            if rules_of(state).charge_target
            else int(action.get("actions", 1)) * move_allowance_in(unit)
        )
        length = path_length_in(action.path)
        if limit > 0 and limit < length <= limit + slack_in:
            f = limit / length
            end = (unit.x + (seen.x_in - unit.x) * f, unit.y + (seen.y_in - unit.y) * f)
            nudged = replace(action, path=(unit.position, end))
            if not ruleset.validate(state, nudged):
                return ReplayMove((nudged,), True, nudged=True)
        return ReplayMove((), False, problems[0])

    def stand_in_actions(self, state: GameState, unit: Unit) -> tuple[Action, ...]:
        drive = _drive(state)
        if drive is not None and drive[0] == unit.id:
            return (Action(DRIVE, unit.id, path=(drive[1], drive[2])),)
        return (Action(ActionKind.PASS, unit.id, side=unit.side),)


register_adapter(NAME, SkirmishAdapter)

"""The d20 solitaire rules at the table (the ``d20`` ruleset's adapter).

Initiative and the random enemy action are rolled by the assistant (a chance step). The AI's
orders are spoken and drawn: where to move (inches and compass heading, or the cell on a
grid), whom to attack with which weapon and what the die needs, a heal, an ability, the end
of its turn. The player moves one figure, declares ``done`` (the move), then the figure's
second action: ``attack`` (a target), ``heal`` (an ally), ``done`` again for a second move,
or ``pass``. Facing is free in these rules (§5.f), so the camera does not check it. The unit
card shows wounds, the status (prepared, alerted, retreating, stunned), the tactic, the
Move Unit and the weapons. ``soloscope odds d20`` gives the exact chance of a hit and of
damage (T003-06).
"""

from __future__ import annotations

import argparse
import itertools
import math
from dataclasses import replace

from assistant.errors import UserError
from assistant.live_view import SightLineView
from assistant.session.observation import PieceSeen
from assistant.tables import register_adapter
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
from engine.geometry import Point, find_path
from engine.geometry.grid import chebyshev
from engine.model import GameState, Unit
from engine.odds import d20_damage_chance, d20_hit_chance
from engine.protocols import Ruleset
from engine.rulesets.d20.board import cover_word, in_cover, move_allowance, move_area, visible
from engine.rulesets.d20.combat import attack_need
from engine.rulesets.d20.ranges import in_reach, space_in, spaces_between, weapon_reach
from engine.rulesets.d20.resolve import weapon_of
from engine.rulesets.d20.state import (
    ALERTED,
    NAME,
    PREPARED,
    RETREATING,
    STUNNED,
    card_of,
    rules_of,
)
from engine.scenario import cell_name

COMPASS = ("north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west")


def compass(heading_deg: float) -> str:
    """The nearest of eight compass words (north = away from the player)."""
    return COMPASS[round(heading_deg / 45.0) % 8]


def _where(state: GameState, point: Point) -> str:
    grid = state.table.grid
    if grid is not None:
        return cell_name(grid.cell_at(point))
    return f"({point[0]:.1f}, {point[1]:.1f}) in"


def _squares(count: float) -> str:
    n = round(count)
    return f"{n} square" if n == 1 else f"{n} squares"


def _how_far(state: GameState, path: tuple[Point, ...]) -> str:
    """A move's length: in squares on a grid (square to square, as the rules count them),
    else in inches."""
    grid = state.table.grid
    if grid is None:
        return f"{sum(math.dist(a, b) for a, b in itertools.pairwise(path)):.1f} inches"
    cells = [grid.cell_at(p) for p in path]
    return _squares(sum(chebyshev(a, b) for a, b in itertools.pairwise(cells)))


class D20Adapter(BaseAdapter):
    """The d20 rules' table side."""

    name = NAME
    compass_facings = True
    replayed_events = frozenset({"round_start", "activation"})
    odds_help = (
        "The chance of a hit and of damage: 'odds d20 --attack melee|ranged|cover "
        "[--attack-twice] [--defend-twice]'."
    )

    # ---------------------------------------------------------------- turns
    def pass_action(self, state: GameState, side: str) -> Action:
        rules = state.rules
        acting = getattr(rules, "acting", None)
        if acting is not None and state.unit(acting).side == side:
            return Action(ActionKind.PASS, acting)
        return Action(ActionKind.PASS, side=side)

    # --------------------------------------------------------------- orders
    def order_instruction(self, state: GameState, order: Order) -> str:
        return self.describe_action(state, order.action) + "."

    def describe_action(self, state: GameState, action: Action) -> str:
        unit = state.unit(action.unit_id) if action.unit_id else None
        if unit is None:
            return f"{action.side or 'the side'} passes"
        kind = str(action.kind)
        if kind == "move":
            path = action.path or (unit.position,)
            end = path[-1]
            facing = compass(
                action.heading_deg if action.heading_deg is not None else unit.heading_deg
            )
            dist = sum(math.dist(a, b) for a, b in itertools.pairwise(path))
            if dist < 0.05:
                return f"{unit.name} turns to face {facing}"
            return f"{unit.name} moves {_how_far(state, path)} to {_where(state, end)}, facing {facing}"
        if kind == "attack" and action.get("structure"):
            piece = next((t for t in state.terrain if t.id == action.get("structure")), None)
            return f"{unit.name} attacks {piece.name if piece else 'the fortress'} (needs 6+)"
        if kind == "attack":
            target = state.unit(action.target_id or "")
            weapon = weapon_of(unit, action.get("weapon")) or card_of(unit).weapons[0]
            cover = weapon.ranged and in_cover(state, target, unit.position)
            need = attack_need(weapon, cover)
            return f"{unit.name} attacks {target.name} with the {weapon.name} (needs {need}+)"
        if kind == "heal":
            return f"{unit.name} heals {state.unit(action.target_id or '').name}"
        if kind == "ability":
            return f"{unit.name} uses its {action.get('ability')} ability"
        if kind == "interact" and action.get("task") == "pick up":
            return f"{unit.name} picks up the cargo"
        if kind == "interact":
            return f"{unit.name} tries to {action.get('task')} (needs 11+)"
        if kind == "pass":
            return f"{unit.name} does nothing more this turn"
        return f"{unit.name}: {kind}"

    def expectation(self, state: GameState, order: Order) -> Expectation:
        base = super().expectation(state, order)
        grid = state.table.grid
        cell = (
            grid.cell_at((base.x_in, base.y_in))
            if grid is not None and not base.off_table
            else None
        )
        return replace(base, facing_tol_deg=180.0, cell=cell)

    # ------------------------------------------------------ the player's side
    def declarations(
        self, state: GameState, turn: Turn, moved: str | None
    ) -> tuple[Declaration, ...]:
        enemies = targets_of(state, turn.side)
        wounded = tuple(u.id for u in state.units_of(turn.side or "") if u.wounds)
        options = [Declaration("done"), Declaration("attack", enemies)]
        if wounded and any(card_of(state.unit(c)).heals for c in turn.candidates):
            options.append(Declaration("heal", wounded))
        scenario = state.option_value("scenario", "")
        if scenario == "transport":
            options.append(Declaration("pick_up"))
        if scenario == "fortress-assault" and turn.side == state.option_value("assaulters", ""):
            options.append(Declaration("attack_fortress"))
        options.append(Declaration("pass"))
        return tuple(options)

    def declare_prompt(self, state: GameState, turn: Turn) -> str:
        return "Move one figure and declare done, or declare its attack; then its second action."

    def moved_prompt(self, state: GameState, unit: Unit, distance_in: float) -> str:
        return f"{unit.name} moved {distance_in:.1f} inches. Declare done, then its other action."

    def observed_path(
        self, state: GameState, ruleset: Ruleset, unit: Unit, seen: PieceSeen
    ) -> tuple[tuple[Point, ...] | None, str]:
        start, end = unit.position, (seen.x_in, seen.y_in)
        grid = state.table.grid
        if grid is not None:
            end = grid.centre(grid.cell_at(end))
        if math.dist(start, end) <= 0.05:
            return (start,), ""
        straight = Action(ActionKind.MOVE, unit.id, path=(start, end))
        problems = ruleset.validate(state, straight)
        if not problems or grid is not None:
            return ((start, end), "") if not problems else (None, problems[0])
        m = move_allowance(state, unit)
        bent = find_path(start, end, ((m / 2, m / 2),), move_area(state, unit))
        if bent is not None and not ruleset.validate(
            state, Action(ActionKind.MOVE, unit.id, path=bent)
        ):
            return tuple(bent), ""
        return None, problems[0]

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
        if move is not None:
            mover, path, problem, heading = move
            if path is None:
                return problem or "That move is not legal."
            if what not in ("done", "pass") and len(path) > 1:
                return f"Declare done for {state.unit(mover).name}'s move first, then its {what}."
            if len(path) > 1:
                return Action(ActionKind.MOVE, mover, path=path, heading_deg=heading % 360.0)
        candidates = list(pending.candidates)
        uid: str | None = pending.unit or (
            unit_id if unit_id in candidates else (candidates[0] if len(candidates) == 1 else None)
        )
        if what == "pass":
            if uid is None:
                return Action(ActionKind.PASS, side=pending.side)
            return Action(ActionKind.PASS, uid)
        if uid is None:
            return "Move a figure first, or choose on the page which one acts."
        unit = state.unit(uid)
        if what == "done":
            return Action(ActionKind.PASS, uid)
        if what == "pick_up":
            return Action("interact", uid, detail=(("task", "pick up"),))
        if what == "attack_fortress":
            structure = str(state.option_value("fortress", ""))
            return Action("attack", uid, detail=(("structure", structure),))
        if target is None:
            return f"Say whom {unit.name} should {'heal' if what == 'heal' else 'attack'}."
        if not state.has_unit(target):
            return f"There is no figure {target!r} in this battle."
        if what == "heal":
            return Action("heal", uid, target_id=target)
        victim = state.unit(target)
        reaching = [w for w in card_of(unit).weapons if in_reach(state, unit, w, victim)]
        weapon = (reaching or list(card_of(unit).weapons))[0]
        return Action("attack", uid, target_id=target, detail=(("weapon", weapon.name),))

    # -------------------------------------------------------------- the page
    def unit_card(self, state: GameState, unit: Unit) -> UnitCard:
        card, own = card_of(unit), rules_of(unit)
        shown = [s for s in (PREPARED, ALERTED, RETREATING, STUNNED) if s in unit.statuses]
        values = [
            CardValue("Move Unit", f"{card.move} spaces"),
            CardValue("tactic", own.tactic or card.tactic or "none"),
            CardValue("weapons", ", ".join(f"{w.name} ({w.kind})" for w in card.weapons)),
        ]
        if card.arch_foe:
            values.append(CardValue("role", "Arch Foe"))
        if card.heals:
            values.append(CardValue("heals left", str(card.heals - own.heals_used)))
        if card.buffs:
            left = [b for b in card.buffs if b not in own.buffs_used]
            values.append(CardValue("abilities left", ", ".join(left) or "none"))
        space = space_in(state)
        return UnitCard(
            status=unit_status(unit),
            statuses=tuple(shown),
            values=tuple(values),
            wound_slots=card.wounds,
            ranges_in=tuple(
                sorted({weapon_reach(state, w) * space for w in card.weapons if w.ranged})
            ),
            front_arc_deg=None,
        )

    def sight_lines(self, state: GameState, unit: Unit) -> tuple[SightLineView, ...]:
        """Sight from the unit to every enemy (enemies block, allies never do, §5.g), the
        range in inches and whether the target is in cover (16+ to hit at range)."""
        out = []
        for enemy in state.enemies_of(unit):
            clear = visible(state, unit, enemy)
            cover = cover_word(state, enemy, unit.position)
            spaces = spaces_between(state, unit, enemy)
            out.append(
                SightLineView(
                    from_id=unit.id,
                    to_id=enemy.id,
                    clear=clear,
                    cover=cover,
                    range_in=round(spaces * space_in(state), 2),
                    note=f"{spaces:.1f} spaces" + ("" if cover == "none" else "; 16+ at range"),
                )
            )
        return tuple(out)

    def declared_notes(self, state: GameState, action: Action) -> tuple[str, ...]:
        """What a declared attack needs on the d20."""
        if action.kind != "attack" or not action.unit_id or not action.target_id:
            return ()
        return (self.describe_action(state, action) + ".",)

    # ------------------------------------------------------------------ odds
    def add_odds_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--attack",
            default="melee",
            help="melee (hits on 6+), ranged (11+) or cover (a ranged attack at a target in cover, 16+)",
        )
        parser.add_argument("--attack-twice", action="store_true", help="roll the attack twice")
        parser.add_argument("--defend-twice", action="store_true", help="roll the defence twice")

    def odds(self, args: argparse.Namespace) -> str:
        kinds = {
            "melee": ("melee", False, 6),
            "ranged": ("long", False, 11),
            "cover": ("long", True, 16),
        }
        if args.attack not in kinds:
            raise UserError(f"--attack takes melee, ranged or cover, not {args.attack!r}")
        kind, cover, need = kinds[args.attack]
        hit = d20_hit_chance(need, args.attack_twice)
        damage = d20_damage_chance(kind, cover, args.attack_twice, args.defend_twice)
        twice = ", attack rolled twice" if args.attack_twice else ""
        tough = ", defence rolled twice" if args.defend_twice else ""
        return (
            f"{args.attack} attack needing {need}+{twice}{tough}: hit "
            f"{hit.numerator}/{hit.denominator} = {float(hit) * 100:.1f}%, damage "
            f"{damage.numerator}/{damage.denominator} = {float(damage) * 100:.1f}%"
        )

    # ------------------------------------------------------ reading footage
    def replay_move(
        self, state: GameState, ruleset: Ruleset, unit: Unit, seen: PieceSeen, slack_in: float
    ) -> ReplayMove:
        path, reason = self.observed_path(state, ruleset, unit, seen)
        if path is None:
            return ReplayMove((), False, reason)
        if len(path) < 2:
            return ReplayMove((), True)
        return ReplayMove((Action(ActionKind.MOVE, unit.id, path=path),), True)


register_adapter(NAME, D20Adapter)

"""The grid game of seed 004 (the ``dungeon`` ruleset) at the table, in squares.

Orders name squares and facings ("Troll at C4: patrol roll 7: ..."; "Dragon at H3: breathe
fire at the Priest on G7 — roll a d6, 3 or more wounds."); the camera reads each model's square
(:mod:`.dungeon_cells`: a model on a line is asked to be centred, never guessed); the player's
move is read as a move of the rules or refused in squares; a unit card shows the monster's
status (Patrolling / Alerted / Retreating), its facing and square, the wounds of every figure
and the Priest's heals left; ``soloscope odds dungeon`` gives the exact d6 and d8 odds.
Orders and moves: :mod:`.dungeon_orders`.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from fractions import Fraction

from assistant.errors import UserError
from assistant.live_view import GridView, SightLineView
from assistant.session.observation import PieceSeen
from assistant.tables import dungeon_orders as orders
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
    unit_status,
)
from assistant.tables.dungeon_cells import centre_request, read_cell
from engine.actions import Action, ActionKind, Event, Order
from engine.dice import SeededDice
from engine.geometry import Point
from engine.geometry.grid import chebyshev, grid_line
from engine.model import GameState, Role, Unit
from engine.odds import dungeon_defeat_chance, dungeon_patrol, dungeon_wound_chance
from engine.protocols import Ruleset
from engine.rulesets.dungeon.board import Board, label
from engine.rulesets.dungeon.facing import facing_word
from engine.rulesets.dungeon.resolve import PATROL_RESULTS, patrol_turn
from engine.rulesets.dungeon.state import STATUSES, card_of, heals_left, rules_of, status_of
from engine.scenario import cell_name

NAME = "dungeon"


def patrol_odds() -> tuple[tuple[str, Fraction], ...]:
    """The d8 patrol table's outcomes in words and their exact chances (RULES §6.j), from the
    engine's walk of the patrol roll (:func:`engine.odds.dungeon_patrol`)."""
    turn_words = {patrol_turn(r, None): PATROL_RESULTS[r] for r in (6, 7, 8)}
    out: dict[str, Fraction] = {}
    for (roll, again), p in dungeon_patrol():
        what = PATROL_RESULTS[roll]
        if roll == 3:
            turn = patrol_turn(roll, again)
            what = what.replace("then turns", "then " + turn_words.get(turn, "no turn"))
        out[what] = out.get(what, Fraction(0)) + p
    return tuple(out.items())


def _pct(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator} = {float(p) * 100:.1f}%"


class DungeonAdapter(BaseAdapter):
    """The ``dungeon`` ruleset's table side (see the module docstring)."""

    name = NAME
    compass_facings = True
    replayed_events = frozenset({"round_start", "place", "activation"})
    odds_help = (
        "Exact odds of the grid game: 'odds dungeon --need 4' (a d6 attack), "
        "'--need 3 --wounds 2 --attacks 3' (defeat within N attacks), '--patrol' (the d8 table)."
    )

    def __init__(self) -> None:
        self._ordered: set[str] = set()
        """Event texts the current order already said (not said again once applied)."""

    # ---------------------------------------------------------------- turns
    def pass_action(self, state: GameState, side: str) -> Action:
        rules = rules_of(state)
        uid = rules.acting or (rules.queue[0] if rules.queue else None)
        return Action(ActionKind.PASS, uid, side=side)

    # --------------------------------------------------------------- orders
    def order_instruction(self, state: GameState, order: Order) -> str:
        from engine.protocols import find_ruleset

        sentences, covered = orders.order_sentences(state, find_ruleset(NAME), order.action)
        self._ordered = set(sentences) | covered
        return " ".join(sentences)

    def order_text(self, state: GameState, order: Order) -> str:
        instruction = self.order_instruction(state, order)
        reason = order.reason.strip().rstrip(".")
        if not reason or reason in instruction:
            return instruction
        return f"{instruction} Why: {reason}."

    def expectation(self, state: GameState, order: Order) -> Expectation:
        from engine.protocols import find_ruleset

        return orders.expectation(state, find_ruleset(NAME), order)

    def describe_action(self, state: GameState, action: Action) -> str:
        kind = str(action.kind)
        if not action.unit_id or not state.has_unit(action.unit_id):
            return f"{action.side or 'a side'} passes"
        unit = state.unit(action.unit_id)
        if kind == "move":
            cells = action.get("cells") or []
            if not cells:
                return f"{label(unit)} turns to face {facing_word(action.heading_deg or 0.0)}"
            n = len(cells)
            return f"{label(unit)} moves {n} square{'s' if n != 1 else ''} to {cell_name(tuple(cells[-1]))}"
        if kind == "attack":
            return f"{label(unit)}: {orders.attack_words(state, action)}"
        if kind == "heal":
            return f"{label(unit)}: {orders.heal_words(state, action)}"
        if kind == "patrol":
            return f"{label(unit)} patrols (d8 {action.get('roll')})"
        return f"{label(unit)} ends its turn"

    def event_words(self, state: GameState, event: Event) -> str | None:
        if str(event.type) == "move" and event.unit and state.has_unit(event.unit):
            unit = state.unit(event.unit)
            if unit.side != self._ai_side(state):
                return None  # the player's own move: the camera saw it
        if event.text in self._ordered:
            self._ordered.discard(event.text)
            return None
        if str(event.type) == "place" and event.unit and state.has_unit(event.unit):
            placed = state.unit(event.unit)  # the Arch Foe's start roll: the player sets it
            if placed.cell is not None and event.get("from_cell") != event.get("cell"):
                return f"{event.text} Put the {card_of(placed).title} on {cell_name(placed.cell)}."
        return event.text or None

    @staticmethod
    def _ai_side(state: GameState) -> str | None:
        side = state.side_of_role(Role.AI)
        return side.name if side else None

    # ------------------------------------------------------ the player's side
    def _acting(self, state: GameState, turn: Turn) -> Unit | None:
        uid = turn.unit_id or (turn.candidates[0] if turn.candidates else None)
        return state.unit(uid) if uid and state.has_unit(uid) else None

    def turn_prompt(self, state: GameState, turn: Turn) -> str:
        unit = self._acting(state, turn)
        if unit is None:
            return "Your turn."
        card = card_of(unit)
        rules = rules_of(state)
        if rules.acting == unit.id:
            return f"{label(unit)}: declare its attack{' or heal' if card.heal else ''}, or done."
        return (
            f"Your turn: the {label(unit)}. Move it up to {card.move_sq} squares, then declare "
            f"its attack{' or heal' if card.heal else ''}, or done."
        )

    def declare_prompt(self, state: GameState, turn: Turn) -> str:
        unit = self._acting(state, turn)
        if unit is None:
            return "Declare."
        return f"{label(unit)}: move, then say done; or declare an attack."

    def declarations(
        self, state: GameState, turn: Turn, moved: str | None
    ) -> tuple[Declaration, ...]:
        unit = self._acting(state, turn)
        if unit is None:
            return (Declaration("pass"),)
        if moved:
            return (Declaration("done"), Declaration("pass"))
        board = Board.of(state)
        foes = tuple(u.id for u in board.enemies(unit))
        out = [Declaration(w.name, foes) for w in card_of(unit).attacks]
        if card_of(unit).heal is not None and heals_left(unit) > 0:
            heal = card_of(unit).heal
            friends = tuple(
                u.id
                for u in state.units
                if u.on_table
                and u.side == unit.side
                and (u.id != unit.id or (heal is not None and heal.self_allowed))
            )
            out.append(Declaration("heal", friends))
        out += [Declaration("done"), Declaration("pass")]
        return tuple(out)

    def moved_prompt(self, state: GameState, unit: Unit, distance_in: float) -> str:
        grid = state.table.grid
        if grid is not None and distance_in < 0.5 * grid.cell_in and unit.cell is not None:
            return (
                f"The {card_of(unit).title} is still on {cell_name(unit.cell)}. Declare its "
                "attack, or done."
            )
        return f"The {card_of(unit).title} moved. Say done, then declare its attack."

    def piece_name(self, unit: Unit) -> str:
        """ "the Troll at C4": its kind and the square it stood on."""
        return f"the {label(unit)}"

    def placement_problem(self, state: GameState, unit: Unit, seen: PieceSeen) -> str:
        """A model on a line is asked to be centred; one on a wall square or on another
        figure's square is named in squares (the other figures where the game has them)."""
        grid = state.table.grid
        if grid is None:
            return ""
        title = card_of(unit).title
        reading = read_cell(grid, seen.x_in, seen.y_in)
        if not reading.clear or reading.cell is None:
            return centre_request(title, reading)
        where = cell_name(reading.cell)
        if reading.cell in rules_of(state).walls:
            return f"The {title} stands on a wall square, {where}: put it on an open square."
        for other in state.units:
            if other.on_table and other.id != unit.id and other.cell == reading.cell:
                return (
                    f"The {title} and the {card_of(other).title} are both on {where}: "
                    "one figure per square."
                )
        return ""

    def observed_path(
        self, state: GameState, ruleset: Ruleset, unit: Unit, seen: PieceSeen
    ) -> tuple[tuple[Point, ...] | None, str]:
        found = orders.observed_move(state, ruleset, unit, seen)
        if isinstance(found, str):
            return None, found
        return orders.path_of(found), ""

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
        uid = pending.unit or (pending.candidates[0] if pending.candidates else None) or unit_id
        if uid is None or not state.has_unit(uid):
            return "Nobody of yours can act now."
        unit = state.unit(uid)
        if what == "pass":
            return Action(ActionKind.PASS, uid, side=unit.side)
        if move is not None and (move[1] is None or len(move[1]) < 2):
            move = None  # still on its own square: no move (its facing does not count)
        if move is not None and what != "done":
            return f"Say done for the {card_of(unit).title}'s move first, then declare its {what}."
        if what == "done":
            if move is None or move[1] is None:
                return Action(ActionKind.PASS, uid, side=unit.side)
            grid = state.table.grid
            assert grid is not None
            end = grid.cell_at(move[1][-1])
            found = orders.move_to(state, ruleset, state.unit(move[0]), end, move[3])
            return found if isinstance(found, Action) else found[:1].upper() + found[1:] + "."
        if target is None or not state.has_unit(target):
            return f"Say whom the {card_of(unit).title} targets."
        if what == "heal":
            return Action("heal", uid, side=unit.side, target_id=target)
        if card_of(unit).attack(what) is None:
            names = ", ".join(a.name for a in card_of(unit).attacks)
            return f"The {card_of(unit).title} has no {what}; it has: {names}."
        return Action("attack", uid, side=unit.side, target_id=target, detail=(("weapon", what),))

    # -------------------------------------------------------------- the page
    def unit_card(self, state: GameState, unit: Unit) -> UnitCard:
        card = card_of(unit)
        status = unit_status(unit)
        words = status_of(unit)
        statuses = (words.capitalize(),) if status == "active" and words in STATUSES else ()
        values: list[CardValue] = []
        if unit.cell is not None and status == "active":
            values.append(CardValue("square", cell_name(unit.cell)))
            values.append(CardValue("facing", facing_word(unit.heading_deg)))
        if card.heal is not None:
            values.append(CardValue("heals left", f"{heals_left(unit)} of {card.heal.uses}"))
        for weapon in card.attacks:
            reach = (
                "adjacent"
                if weapon.adjacent_only
                else f"{weapon.max_range_sq} squares"
                if weapon.max_range_sq
                else "any range"
            )
            values.append(CardValue(weapon.name, f"{weapon.wound_on}+, {reach}"))
        arc = None
        if "patrolling" in unit.statuses:
            arc = float(state.option("detection_arc", 180.0))
        return UnitCard(
            status=status,
            statuses=statuses,
            values=tuple(values),
            wound_slots=card.max_wounds,
            front_arc_deg=arc,
        )

    def grid_view(self, state: GameState) -> GridView | None:
        view = super().grid_view(state)
        if view is None:
            return None
        walls = tuple(sorted(rules_of(state).walls, key=lambda c: (c[1], c[0])))
        return replace(view, blocked=walls)

    def sight_lines(self, state: GameState, unit: Unit) -> tuple[SightLineView, ...]:
        if unit.cell is None:
            return ()
        board = Board.of(state)
        grid = state.table.grid
        assert grid is not None
        out = []
        for foe in board.enemies(unit):
            assert foe.cell is not None
            clear = board.line_clear(unit, unit.cell, foe)
            squares = chebyshev(unit.cell, foe.cell)
            line = "-".join(cell_name(c) for c in grid_line(unit.cell, foe.cell).crossed)
            out.append(
                SightLineView(
                    from_id=unit.id,
                    to_id=foe.id,
                    clear=clear,
                    range_in=squares * grid.cell_in,
                    note=f"{squares} square{'s' if squares != 1 else ''}: {line}"
                    + ("" if clear else " (blocked)"),
                )
            )
        return tuple(out)

    # ------------------------------------------------------------------ odds
    def add_odds_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--need", type=int, help="the d6 result that wounds (or heals), 1-6")
        parser.add_argument("--wounds", type=int, default=1, help="wounds the target can take")
        parser.add_argument("--attacks", type=int, default=1, help="attacks made (1-20)")
        parser.add_argument("--patrol", action="store_true", help="the d8 patrol table's outcomes")

    def odds(self, args: argparse.Namespace) -> str:
        if args.patrol:
            lines = [f"{what}: {_pct(p)}" for what, p in patrol_odds()]
            return "Patrol d8 (a 3 re-rolls 1-3 for its turn):\n" + "\n".join(lines)
        if args.need is None:
            raise UserError("give --need (the d6 result that wounds, 1-6) or --patrol")
        if not 1 <= args.need <= 6:
            raise UserError(f"--need takes a d6 result from 1 to 6, not {args.need}")
        if not 1 <= args.attacks <= 20 or not 1 <= args.wounds <= 20:
            raise UserError("--attacks and --wounds take 1 to 20")
        if args.attacks == 1 and args.wounds == 1:
            return f"A d6 of {args.need} or more: {_pct(dungeon_wound_chance(args.need))}"
        p = dungeon_defeat_chance(args.need, args.wounds, args.attacks)
        return (
            f"{args.wounds} wound{'s' if args.wounds != 1 else ''} from {args.attacks} "
            f"attack{'s' if args.attacks != 1 else ''} wounding on {args.need}+: {_pct(p)}"
        )

    # ------------------------------------------------------ reading footage
    def activation_begun(self, state: GameState, action: Action) -> str | None:
        """The grid rules keep whose activation is under way (``acting``) and report no
        activation event: a figure's activation begins with its first action while none is
        under way (a patrol, a move or turn, an attack, a heal), as the rules' ``apply`` sets
        it. A pass then ("does nothing this turn") is a turn given up, not an activation."""
        if action.kind in (ActionKind.CHANCE, ActionKind.PASS) or rules_of(state).acting:
            return None
        return action.unit_id

    def replay_move(
        self, state: GameState, ruleset: Ruleset, unit: Unit, seen: PieceSeen, slack_in: float
    ) -> ReplayMove:
        """Every legal action of the unit (a move, or a patrol roll) that leaves it on the
        square the footage shows, those that also leave it facing as seen first."""
        grid = state.table.grid
        assert grid is not None
        reading = read_cell(grid, seen.x_in, seen.y_in)
        if not reading.clear:
            return ReplayMove((), False, centre_request(card_of(unit).title, reading))
        fits: list[tuple[float, int, Action]] = []
        for n, action in enumerate(ruleset.sample_actions(state, unit.id, SeededDice(0))):
            if str(action.kind) not in ("move", "patrol"):
                continue
            after = orders.foresee(state, ruleset, action)
            moved = after.after.unit(unit.id) if after is not None else None
            if moved is not None and moved.cell == reading.cell:
                turn = abs((moved.heading_deg - seen.heading_deg + 180.0) % 360.0 - 180.0)
                fits.append((turn, n, action))
        if fits:
            return ReplayMove(tuple(a for _, _, a in sorted(fits, key=lambda f: f[:2])), True)
        found = orders.observed_move(state, ruleset, unit, seen)
        reason = found if isinstance(found, str) else "no legal action leaves it there"
        return ReplayMove((), False, reason)

    def place(
        self, state: GameState, unit_id: str, x: float, y: float, heading: float
    ) -> GameState:
        grid = state.table.grid
        unit = state.unit(unit_id)
        if grid is not None:
            cell = grid.cell_at((x, y))
            if grid.contains(cell):
                x, y = grid.centre(cell)
        return state.with_unit(replace(unit, x=x, y=y, heading_deg=orders.grid_facing(heading)))


register_adapter(NAME, DungeonAdapter)

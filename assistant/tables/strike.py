"""The strike system at the table (the ``strike`` ruleset's adapter).

The Oracle pools are rolled by the assistant, or by the player with real dice (``--dice
physical``: each die is asked for in turn). An AI order says which die to take and, for a
strike, the whole count: who counts, who is not counted and why; the page draws each ally's
sight line to the target. The player moves one soldier and declares: strike an enemy, done
(the move alone), hold (activate without acting) or pass (stop for the round). A move longer
than the soldier's Speed spends spare dice on its sprint skill when it has one. A card shows the
type and its die, the numbers of the card and the die spent; no wound boxes (a soldier is
removed on the strike count); the side's pool is shown once, for the side.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import replace

from assistant.errors import UserError
from assistant.live_view import OrderView, SightLineView
from assistant.session.observation import PieceSeen
from assistant.tables import register_adapter
from assistant.tables import strike_words as words
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
from engine.odds import strike_pool_at_least
from engine.protocols import PendingKind, Ruleset
from engine.rulesets.strike.count import StrikeCount
from engine.rulesets.strike.odds import MAX_POOL, expected_count
from engine.rulesets.strike.ruleset import StrikeRuleset
from engine.rulesets.strike.state import (
    HOLD,
    NAME,
    STRIKE,
    TYPES,
    activatable,
    card_of,
    remove_faces,
    rules_of,
    spent_die,
)

RULES = StrikeRuleset()


class StrikeAdapter(BaseAdapter):
    """The strike ruleset's table side."""

    name = NAME
    replayed_events = frozenset({"round_start", "activation", STRIKE})
    odds_help = (
        "The Oracle pool: 'odds strike --dice 8' (the chance of a given face at least once)."
    )

    def __init__(self) -> None:
        self._shown: tuple[int, str, StrikeCount] | None = None

    # ---------------------------------------------------------------- turns
    def turn(self, state: GameState, ruleset: Ruleset) -> Turn:
        pending = ruleset.pending(state)
        if pending.kind is PendingKind.OVER:
            return Turn("over")
        if pending.kind is PendingKind.CHANCE:
            return Turn("auto", action=Action(ActionKind.CHANCE))
        side = pending.side or ""
        kind = "ai" if state.side(side).role is Role.AI else "human"
        return Turn(kind, side, pending.candidates, unit_id=pending.unit, may_pass=True)

    def pass_action(self, state: GameState, side: str) -> Action:
        """A pass ends the acting soldier's activation, or stops the side for the round."""
        acting = rules_of(state).acting
        if acting is not None:
            return Action(ActionKind.PASS, acting, side=side)
        return Action(ActionKind.PASS, side=side)

    # --------------------------------------------------------------- orders
    def order_instruction(self, state: GameState, order: Order) -> str:
        return words.order_instruction(state, order, RULES.preview_strike(state, order.action))

    def expectation(self, state: GameState, order: Order) -> Expectation:
        """Where the soldier ends its move; facing does not matter in the strike system."""
        return replace(super().expectation(state, order), facing_tol_deg=180.0)

    def order_view(self, state: GameState, order: Order, expected: Expectation) -> OrderView:
        view = super().order_view(state, order, expected)
        count = RULES.preview_strike(state, order.action)
        if count is not None:
            self._shown = (state.step, order.action.unit_id or "", count)
        return view

    def describe_action(self, state: GameState, action: Action) -> str:
        unit = state.unit(action.unit_id) if action.unit_id else None
        if action.kind == ActionKind.CHOOSE:
            return f"{action.side} choose: {action.get('option')}"
        if unit is None:
            return f"{action.side} stop activating this round"
        return f"{unit.name}: {words.action_words(state, action, None)}"

    def declared_notes(self, state: GameState, action: Action) -> tuple[str, ...]:
        count = RULES.preview_strike(state, action)
        if count is None:
            return ()
        return (f"The {words.count_words(state, count)}.",)

    # ------------------------------------------------------ the player's side
    def turn_prompt(self, state: GameState, turn: Turn) -> str:
        if turn.unit_id:
            name = state.unit(turn.unit_id).name
            return f"{name} may still act: strike, or move, then declare; or pass to end it."
        pool = " ".join(str(f) for f in rules_of(state).pool(turn.side or "")) or "none"
        return (
            f"Your turn (your dice: {pool}): move one soldier whose type has a die, then "
            "declare strike, done or hold."
        )

    def declare_prompt(self, state: GameState, turn: Turn) -> str:
        return "Move one soldier, then declare: strike an enemy, done, hold, or pass."

    def declarations(
        self, state: GameState, turn: Turn, moved: str | None
    ) -> tuple[Declaration, ...]:
        return (
            Declaration("strike", targets_of(state, turn.side)),
            Declaration("done"),
            Declaration("hold"),
            Declaration("pass"),
        )

    def moved_prompt(self, state: GameState, unit: Unit, distance_in: float) -> str:
        return (
            f"{unit.name} moved {distance_in:.1f} inches. Declare strike and its target, or done."
        )

    def _move_for(self, state: GameState, ruleset: Ruleset, unit: Unit, end: Point) -> Action | str:
        """A straight move to ``end``, spending spare dice on the sprint skill if it needs
        them; or the rules' reason it is not legal."""
        path = words.straight(unit.position, end)
        plain = Action(ActionKind.MOVE, unit.id, path=path)
        problems = ruleset.validate(state, plain)
        if not problems or card_of(unit).sprint_in <= 0:
            return plain if not problems else problems[0]
        rules = rules_of(state)
        pool = rules.pool(unit.side)
        if rules.acting is None:
            pool = remove_faces(pool, [card_of(unit).face]) or ()
        faces = sorted(pool, key=lambda f: (-pool.count(f), f))
        for n in range(1, card_of(unit).initiative + 1):
            sprint = Action(
                ActionKind.MOVE, unit.id, path=path, detail=(("sprint_dice", faces[:n]),)
            )
            if n <= len(faces) and not ruleset.validate(state, sprint):
                return sprint
        return problems[0]

    def observed_path(
        self, state: GameState, ruleset: Ruleset, unit: Unit, seen: PieceSeen
    ) -> tuple[tuple[Point, ...] | None, str]:
        move = self._move_for(state, ruleset, unit, (seen.x_in, seen.y_in))
        if isinstance(move, str):
            return None, move
        return move.path, ""

    def observed_action(
        self,
        state: GameState,
        ruleset: Ruleset,
        what: str,
        target: str | None,
        move: ObservedMove | None,
        unit_id: str | None,
    ) -> Action | str:
        acting = rules_of(state).acting
        mover = move[0] if move is not None else unit_id or acting
        if what == "pass":
            return self.pass_action(state, state.unit(mover).side if mover else "")
        if mover is None:
            return "Move the soldier that acts (or say which one), then declare."
        unit = state.unit(mover)
        stepped: Action | str | None = None
        if move is not None and move[1] is not None and len(move[1]) > 1:
            stepped = self._move_for(state, ruleset, unit, move[1][-1])
            if isinstance(stepped, str):
                return stepped
        if what == "strike":
            if target is None:
                return "Say which enemy it strikes."
            if stepped is None:
                return Action(STRIKE, unit.id, target_id=target)
            return replace(stepped, kind=STRIKE, target_id=target)
        if what == "hold" or stepped is None:
            return Action(HOLD if acting is None else ActionKind.PASS, unit.id, side=unit.side)
        return stepped

    # -------------------------------------------------------------- the page
    def unit_card(self, state: GameState, unit: Unit) -> UnitCard:
        card = card_of(unit)
        die = spent_die(unit)
        values = [
            CardValue("type", f"{card.type} (die {card.face})"),
            CardValue(
                "threat",
                f"{card.threat}"
                + ("" if math.isinf(card.threat_in) else f" {card.threat_in:g} in"),
            ),
            CardValue("toughness", str(card.toughness)),
            CardValue("speed", f"{card.speed_in:g} in"),
            CardValue("initiative", str(card.initiative)),
        ]
        if card.weight > 1:
            values.append(
                CardValue("counts for", f"{card.weight} ({'lethal' if card.lethal else 'deadly'})")
            )
        values.append(CardValue("die spent", str(die) if die is not None else "none"))
        return UnitCard(
            status=unit_status(unit),
            statuses=("leader",) if card.leader else (),
            values=tuple(values),
            wound_slots=0,  # no wounds: a soldier is removed when a strike's count reaches it
            ranges_in=() if math.isinf(card.threat_in) else (card.threat_in,),
        )

    def side_values(self, state: GameState, side: str) -> tuple[CardValue, ...]:
        """The side's Oracle pool: the dice it has left this round."""
        pool = " ".join(str(f) for f in rules_of(state).pool(side)) or "none"
        return (CardValue("dice pool", pool),)

    def sight_lines(self, state: GameState, unit: Unit) -> tuple[SightLineView, ...]:
        """The strike being ordered: each ally's line to the target and how it counts; else
        the soldier's line to each enemy it could strike, with the count it would make."""
        shown = self._shown
        if shown is not None and shown[:2] == (state.step, unit.id):
            return words.count_lines(state, shown[2])
        board = RULES.board(state)
        out = []
        for enemy in state.enemies_of(unit):
            if not board.can_strike(unit, enemy):
                continue
            count = board.count(unit, enemy)
            out.append(
                SightLineView(
                    from_id=unit.id,
                    to_id=enemy.id,
                    clear=True,
                    range_in=round(
                        board.gap_in(
                            (unit.id, unit.x, unit.y, unit.radius_in),
                            (enemy.id, enemy.x, enemy.y, enemy.radius_in),
                        ),
                        2,
                    ),
                    note=f"count {count.total} against Toughness {count.toughness}",
                )
            )
        return tuple(out)

    # ------------------------------------------------------------------ odds
    def add_odds_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--dice", type=int, required=True, help=f"dice in the pool (0 to {MAX_POOL})"
        )
        parser.add_argument(
            "--at-least", type=int, default=1, help="dice showing the face asked about (default 1)"
        )
        parser.add_argument(
            "--pool", default="", help="the faces rolled, e.g. 1,1,4,6,6: what they can activate"
        )
        parser.add_argument(
            "--types",
            default="",
            help="the soldiers waiting, e.g. command,command,heavy (with --pool)",
        )

    def odds(self, args: argparse.Namespace) -> str:
        n, k = args.dice, args.at_least
        if not 0 <= n <= MAX_POOL:
            raise UserError(f"--dice takes a pool of 0 to {MAX_POOL} dice, not {n}")
        if not 0 <= k <= n:
            raise UserError(f"--at-least takes 0 to {n} (the pool's size), not {k}")
        p = strike_pool_at_least(n, k)
        shown = f"{p.numerator}/{p.denominator}" if n <= 12 else f"{float(p):.6f}"
        times = "once" if k == 1 else f"{k} times"
        line = (
            f"With {n} dice, a given face shows at least {times}: {shown} = {float(p):.2%}; "
            f"expected {float(expected_count(n)):.2f} dice of each face"
        )
        if args.pool or args.types:
            line += "\n" + self._capacity(args.pool, args.types)
        return line

    def _capacity(self, pool_text: str, types_text: str) -> str:
        try:
            pool = tuple(int(f) for f in pool_text.split(",") if f.strip())
        except ValueError:
            raise UserError(
                f"--pool takes faces from 1 to 6 separated by commas, not {pool_text!r}"
            ) from None
        if any(not 1 <= f <= 6 for f in pool):
            raise UserError(f"--pool takes faces from 1 to 6, not {pool_text!r}")
        names = [t.strip().lower() for t in types_text.split(",") if t.strip()]
        unknown = [t for t in names if t not in TYPES]
        if unknown or not names:
            raise UserError(f"--types takes soldier types ({', '.join(TYPES)}), not {types_text!r}")
        capacity = activatable(pool, [TYPES.index(t) + 1 for t in names])
        said = ", ".join(f"{TYPES[f - 1]} {c}" for f, c in capacity.items())
        left = len(pool) - sum(capacity.values())
        dice = "die" if left == 1 else "dice"
        return f"Activatable: {said}; {left} {dice} left over for skills"

    # ------------------------------------------------------ reading footage
    def replay_move(
        self, state: GameState, ruleset: Ruleset, unit: Unit, seen: PieceSeen, slack_in: float
    ) -> ReplayMove:
        move = self._move_for(state, ruleset, unit, (seen.x_in, seen.y_in))
        if isinstance(move, str):
            return ReplayMove((), False, move)
        options = [move]
        if len(move.path) > 1:
            options += [replace(move, kind=STRIKE, target_id=e.id) for e in state.enemies_of(unit)]
        legal = tuple(a for a in options if not ruleset.validate(state, a))
        return ReplayMove(legal, True) if legal else ReplayMove((), False, "no legal action")

    def stand_in_actions(self, state: GameState, unit: Unit) -> tuple[Action, ...]:
        strikes = tuple(Action(STRIKE, unit.id, target_id=e.id) for e in state.enemies_of(unit))
        return (*strikes, Action(HOLD, unit.id, side=unit.side))


register_adapter(NAME, StrikeAdapter)

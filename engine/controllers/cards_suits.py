"""The card AI's decision procedure on firefight-lite's grid (RULES §4.d-4.g, D002-06..09):
reading an action card, the four suits step by step, the destination rules, the defensive
reading.

Everything here reads the board through ``engine.rulesets.firefight_lite.board``; every action
it returns names the card it read (``detail.card``) so the ruleset discards it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from engine.actions import Action, Order
from engine.board import per_state
from engine.boards.grid import table_grid
from engine.dice import RandomSource, choice
from engine.geometry.grid import Cell, chebyshev
from engine.model import GameState, Unit
from engine.protocols import Ruleset
from engine.rulesets.firefight_lite.board import (
    HIDDEN,
    cell,
    figures,
    move_path,
    reach,
    sees,
    square_cover,
    squares,
)
from engine.rulesets.firefight_lite.deck import card_name, is_picture, trigger_squares
from engine.rulesets.firefight_lite.state import card
from engine.scenario import cell_name

SOFT, HARD = 1, 2
COVER_WORDS = ("in the open", "in soft cover", "in hard cover", "out of sight")
"""How an order's reason says the cover of a square (``square_cover``'s 0 to 3)."""


def _detail(drawn: str, to: Cell | None = None) -> tuple[tuple[str, object], ...]:
    out: list[tuple[str, object]] = [("card", drawn)]
    if to is not None:
        out.append(("cell", [to[0], to[1]]))
    return tuple(out)


def nearest_enemy_gap(state: GameState, unit: Unit, at: Cell) -> int:
    """Squares from ``at`` to the unit's nearest hostile figure (D002-06, Chebyshev)."""
    return per_state(state, ("enemy-gap", unit.id, at), _enemy_gap, state, unit, at)


def _enemy_gap(state: GameState, unit: Unit, at: Cell) -> int:
    cells = [cell(e) for e in figures(state).enemies(unit)]
    return min((max(abs(at[0] - c[0]), abs(at[1] - c[1])) for c in cells), default=0)


def gap_field(state: GameState, enemies: frozenset[Cell]) -> list[list[int]]:
    """Squares from every square of the table's grid to the nearest of ``enemies``
    (Chebyshev, D002-06; 0 when there are none), by row then column: computed with numpy
    once per grid and set of enemy squares for the scenario's games (it reads nothing but
    its key; games from one deployment meet the same sets), read as plain lists. Callers
    must not change it."""
    grid = table_grid(state)
    return state.memo.of_scenario(
        ("gap-field", grid.cols, grid.rows, enemies), _gap_field, grid.cols, grid.rows, enemies
    )


def _gap_field(cols: int, rows: int, enemies: frozenset[Cell]) -> list[list[int]]:
    if not enemies:
        return [[0] * cols for _ in range(rows)]
    at = np.array(sorted(enemies))
    xs = np.abs(np.arange(cols)[None, None, :] - at[:, 0, None, None])
    ys = np.abs(np.arange(rows)[None, :, None] - at[:, 1, None, None])
    out: list[list[int]] = np.maximum(xs, ys).min(axis=0).tolist()
    return out


def squares_word(n: int) -> str:
    """ "1 square", "4 squares"."""
    return f"{n} square" if n == 1 else f"{n} squares"


def activation_order(state: GameState, ids: Sequence[str], dice: RandomSource) -> list[str]:
    """§4.d: figures with sight of an enemy first, then the others; nearest to an enemy first
    within each group; ties by a roll (D002-06)."""
    keyed = []
    for uid in ids:
        unit = state.unit(uid)
        enemies = figures(state).enemies(unit)
        seeing = any(sees(state, unit, e) for e in enemies)
        keyed.append(((0 if seeing else 1, nearest_enemy_gap(state, unit, cell(unit))), uid))
    keyed.sort()
    out: list[str] = []
    while keyed:
        key = keyed[0][0]
        tied = [uid for k, uid in keyed if k == key]
        pick = choice(dice, tied, f"activation order tie: {', '.join(tied)}")
        out.append(pick)
        keyed = [(k, u) for k, u in keyed if u != pick]
    return out


def _best(
    options: Sequence[Cell], key: Callable[[Cell], tuple[int, ...]], dice: RandomSource, why: str
) -> Cell:
    """The option with the highest key; ties by a logged roll (D002-09)."""
    top = max(key(c) for c in options)
    tied = sorted(c for c in options if key(c) == top)
    return choice(dice, tied, f"destination tie: {why}")


class SuitPlan:
    """One figure's decision for one card (§4.e-4.f)."""

    def __init__(
        self, state: GameState, ruleset: Ruleset, unit: Unit, drawn: str, dice: RandomSource
    ) -> None:
        self.state, self.ruleset, self.unit, self.card, self.dice = (
            state,
            ruleset,
            unit,
            drawn,
            dice,
        )
        self.here = cell(unit)
        self.enemies = figures(state).enemies(unit)
        self._enemy_cells = [cell(e) for e in self.enemies]
        grid = state.table.grid
        assert grid is not None, "firefight-lite needs a gridded table"
        self._cols, self._rows = grid.cols, grid.rows
        self._field = gap_field(state, frozenset(self._enemy_cells))
        self._gaps: dict[Cell, int] = {}
        self.say = card_name(drawn)

    def gap(self, at: Cell) -> int:
        """Squares from ``at`` to the nearest enemy (D002-06), for the squares it weighs."""
        col, row = at
        if 0 <= col < self._cols and 0 <= row < self._rows:
            return self._field[row][col]
        found = self._gaps.get(at)
        if found is None:
            found = min(
                (max(abs(at[0] - c[0]), abs(at[1] - c[1])) for c in self._enemy_cells), default=0
            )
            self._gaps[at] = found
        return found

    def legal(self, action: Action) -> bool:
        return not self.ruleset.validate(self.state, action)

    def order(
        self, kind: str, rule: str, reason: str, target: Unit | None = None, to: Cell | None = None
    ) -> Order:
        action = Action(
            kind,
            self.unit.id,
            path=move_path(self.state, self.unit, to) if to is not None else (),
            target_id=target.id if target else None,
            detail=_detail(self.card, to),
        )
        if not self.legal(action):
            action = Action("hold", self.unit.id, detail=_detail(self.card))
            rule, reason = rule + " (not possible: holds)", reason
        return Order(action, f"{self.say}: {rule}", reason)

    def shot_targets(self) -> list[Unit]:
        """Enemies it could fire at from where it stands (sight, weapon range, no monk)."""
        return [
            e
            for e in self.enemies
            if self.legal(Action("aimed_fire", self.unit.id, target_id=e.id))
        ]

    def fire_target(self) -> Unit | None:
        """§4.e, D002-07: the closest enemy in sight within the card's distance (any distance
        for a picture card) and within weapon range."""
        n = trigger_squares(self.card)
        options = [
            e for e in self.shot_targets() if n is None or chebyshev(self.here, cell(e)) <= n
        ]
        if not options:
            return None
        gap = min(chebyshev(self.here, cell(e)) for e in options)
        tied = sorted(
            (e for e in options if chebyshev(self.here, cell(e)) == gap),
            key=lambda e: e.sheet_order,
        )
        return choice(self.dice, tied, f"closest enemy tie for {self.unit.name}")

    def decide(self) -> Order:
        suit = self.card[-1]
        target = self.fire_target()
        if suit == "S":
            return self.spades(target)
        if suit == "H":
            return self.hearts(target)
        if suit == "C":
            return self.clubs(target)
        return self.diamonds(target)

    # -- the suits --------------------------------------------------------------------------

    def spades(self, target: Unit | None) -> Order:
        if target is not None:
            return self.order(
                "aimed_fire", "spades 1: aimed fire", f"{target.name} is in sight", target
            )
        n = trigger_squares(self.card)
        if n is not None:
            hidden = [
                e
                for e in self.enemies
                if chebyshev(self.here, cell(e)) <= n and not sees(self.state, self.unit, e)
            ]
            if hidden:
                foe = min(hidden, key=lambda e: (chebyshev(self.here, cell(e)), e.sheet_order))
                spot = self.assault_square(foe)
                if spot is not None:
                    return self.order(
                        "assault",
                        "spades 2: assault",
                        f"{foe.name} is within {n} but out of sight",
                        foe,
                        spot,
                    )
        order = self.close_in(0, "spades 3: move", "spades")
        return order or self.order("hold", "spades 3: move", "it cannot move")

    def hearts(self, target: Unit | None) -> Order:
        if target is not None:
            return self.move_and_fire(target, SOFT, away=False, rule="hearts 1: move and fire")
        order = self.close_in(SOFT, "hearts 2: move to soft cover or better", "hearts")
        if order is not None:
            return order
        return self.order(
            "stay_frosty", "hearts 3: stay frosty", "no square with cover brings it closer"
        )

    def clubs(self, target: Unit | None) -> Order:
        if target is not None:
            return self.move_and_fire(target, HARD, away=False, rule="clubs 1: move and fire")
        return self.order(
            "stay_frosty", "clubs 2: stay frosty", "no enemy in sight within the card's distance"
        )

    def diamonds(self, target: Unit | None) -> Order:
        if target is not None:
            return self.move_and_fire(target, HARD, away=True, rule="diamonds 1: move and fire")
        move = card(self.unit).move
        now = nearest_enemy_gap(self.state, self.unit, self.here)
        here_key = (square_cover(self.state, self.unit, self.here), now)
        options = [c for c in reach(self.state, self.unit, move) if self.gap(c) >= now]

        def key(c: Cell) -> tuple[int, int]:
            return (
                square_cover(self.state, self.unit, c),
                self.gap(c),
            )

        # Farthest squares first: once a group holds a hidden square, no nearer square can
        # match it (the key is cover, then distance), so the rest need no sight lines.
        by_gap: dict[int, list[Cell]] = {}
        for c in options:
            by_gap.setdefault(self.gap(c), []).append(c)
        better: list[Cell] = []
        for gap in sorted(by_gap, reverse=True):
            group = [c for c in by_gap[gap] if key(c) > here_key]
            better += group
            if any(key(c)[0] == HIDDEN for c in group):
                break
        if not better:
            return self.order(
                "stay_frosty",
                "diamonds 3: stay frosty",
                "it is already in the furthest cover it can reach",
            )
        spot = _best(better, key, self.dice, f"{self.unit.name} withdraws")
        cover = COVER_WORDS[key(spot)[0]]
        return self.order(
            "move",
            "diamonds 2: move away",
            f"it withdraws to {self.place(spot)}, {cover}",
            to=spot,
        )

    # -- destinations (D002-09) ---------------------------------------------------------------

    def place(self, at: Cell) -> str:
        """ "the hedge at E5" (terrain names carry their article), or "E5" in the open."""
        name = squares(self.state).names.get(at)
        return f"{name} at {cell_name(at)}" if name else cell_name(at)

    def close_in(self, need: int, rule: str, suit: str) -> Order | None:
        """Spades/Hearts move: as close to the nearest enemy as it can among squares with at
        least ``need`` cover; ties: better cover, then a roll. Hearts: None when no square
        qualifies."""
        options = [*list(reach(self.state, self.unit, card(self.unit).move)), self.here]
        by_gap: dict[int, list[Cell]] = {}
        for c in options:
            by_gap.setdefault(self.gap(c), []).append(c)
        for gap in sorted(by_gap):
            covered = [(square_cover(self.state, self.unit, c), c) for c in by_gap[gap]]
            good = [(k, c) for k, c in covered if k >= need]
            if not good:
                continue
            top = max(k for k, _ in good)
            tied = sorted(c for k, c in good if k == top)
            # Staying put is among the best: no square brings it closer in that cover.
            spot = (
                self.here
                if self.here in tied
                else choice(self.dice, tied, f"destination tie: {self.unit.name}")
            )
            if spot == self.here:  # it already stands on the nearest square it may take
                if suit == "hearts":
                    return None
                return self.order("hold", rule, "it cannot get any closer")
            reason = (
                f"it moves to {self.place(spot)}, {squares_word(gap)} from the nearest enemy, "
                f"{COVER_WORDS[top]}"
            )
            return self.order("move", rule, reason, to=spot)
        if suit == "hearts":
            return None
        return self.order("hold", rule, "it cannot move")

    def move_and_fire(self, target: Unit, need: int, *, away: bool, rule: str) -> Order:
        """Move and Fire: the move only to a square with ``need`` cover or better from which
        the target stays in sight and range (Diamonds: only away from the enemy); best cover,
        then nearest the target (Diamonds: farthest from all enemies); none: fire standing."""
        half = max(1, card(self.unit).move // 2)
        now = nearest_enemy_gap(self.state, self.unit, self.here)
        options = []
        for c in reach(self.state, self.unit, half):
            if away and self.gap(c) <= now:
                continue
            k = square_cover(self.state, self.unit, c)
            if k < need or k == HIDDEN:
                continue
            if self.legal(
                Action(
                    "move_and_fire",
                    self.unit.id,
                    target_id=target.id,
                    detail=(("cell", [c[0], c[1]]),),
                )
            ):
                options.append(c)
        if not options:
            return self.order(
                "move_and_fire",
                rule,
                f"it fires at {target.name} without moving (no cover to move to)",
                target,
                self.here,
            )

        def key(c: Cell) -> tuple[int, int]:
            second = self.gap(c) if away else -chebyshev(c, cell(target))
            return (square_cover(self.state, self.unit, c), second)

        spot = _best(options, key, self.dice, f"{self.unit.name} moves and fires")
        reason = f"it moves to {self.place(spot)} and fires at {target.name}"
        return self.order("move_and_fire", rule, reason, target, spot)

    def assault_square(self, foe: Unit) -> Cell | None:
        """The nearest reachable square next to ``foe`` (then row-major)."""
        reachable = reach(self.state, self.unit, card(self.unit).move)
        options = [(k, c) for c, k in reachable.items() if chebyshev(c, cell(foe)) == 1]
        if chebyshev(self.here, cell(foe)) == 1:
            return self.here
        if not options:
            return None
        return min(options, key=lambda kc: (kc[0], kc[1][1], kc[1][0]))[1]


def defence_order(
    state: GameState,
    ruleset: Ruleset,
    unit: Unit,
    drawn: str,
    attacker: Unit | None,
    dice: RandomSource,
) -> Order:
    """§4.g: spades and hearts Return Fire, clubs Armour, diamonds Run for Cover (to the
    square within half its move that best hides it from the attacker, then best cover)."""
    say = card_name(drawn)
    suit = drawn[-1]
    detail = _detail(drawn)
    if suit in "SH" and attacker is not None:
        action = Action("return_fire", unit.id, target_id=attacker.id, detail=detail)
        if not ruleset.validate(state, action):
            return Order(action, f"{say}: return fire", f"it fires back at {attacker.name}")
    if suit == "D":
        half = max(1, card(unit).move // 2)
        options = [*reach(state, unit, half), cell(unit)]
        spot = _best(
            options,
            lambda c: (square_cover(state, unit, c), -chebyshev(c, cell(unit))),
            dice,
            f"{unit.name} runs for cover",
        )
        action = Action(
            "run_for_cover", unit.id, path=move_path(state, unit, spot), detail=_detail(drawn, spot)
        )
        if not ruleset.validate(state, action):
            return Order(action, f"{say}: run for cover", f"it runs to {cell_name(spot)}")
    return Order(
        Action("pass", unit.id, side=unit.side, detail=detail),
        f"{say}: armour",
        "it trusts its armour",
    )


def picture(drawn: str) -> bool:
    """Re-exported: whether the card is J, Q or K."""
    return is_picture(drawn)

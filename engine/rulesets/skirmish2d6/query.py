"""The table queries of the 2D6 skirmish for controllers that drive any ruleset (RULES §1.7):
its movement allowance (4 + Speed, D001B-02), its sight (terrain and the viewer's own side
block, D001B-12), its targets (a Bow's shot needs sight and range) and its moves. Inches."""

from __future__ import annotations

from engine.geometry import Point
from engine.model import GameState, Unit
from engine.query import BoardQuery
from engine.rulesets.skirmish2d6.board import POLICY, board, gap, visible
from engine.rulesets.skirmish2d6.fighters import card_of, move_allowance_in
from engine.rulesets.skirmish2d6.state import BOW_RANGE_IN


class SkirmishQuery(BoardQuery):
    """:class:`~engine.query.BoardQuery` with the 2D6 skirmish's own rules."""

    policy = POLICY
    """Sight: the viewer's own side's bases block, enemies' do not (D001B-12)."""

    def __init__(self, state: GameState) -> None:
        super().__init__(state)

    def movement_allowance_in(self, unit: Unit) -> float:
        """One Move: 4 + Speed inches (none when Staggered)."""
        return move_allowance_in(unit)

    def targets(self, unit: Unit, kind: str) -> tuple[Unit, ...]:
        """Enemies it could shoot (a Bow, sight, range) for "shoot"; every enemy otherwise."""
        enemies = self.state.enemies_of(unit)
        if kind != "shoot":
            return enemies
        if not card_of(unit).has("bow"):
            return ()
        reach = self.state.option("bow_range_in", BOW_RANGE_IN)
        return tuple(e for e in enemies if gap(unit, e) <= reach and visible(self.state, unit, e))

    def move_toward(self, unit: Unit, point: Point) -> tuple[Point, ...]:
        """One Move's straight leg ending as near the point as it can."""
        return board(self.state).slide_toward(unit, point, 0.0, move_allowance_in(unit))

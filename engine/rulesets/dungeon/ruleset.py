"""The grid game of seed 004 and its Dungeon Crawl (RULES §6), registry name ``ruleset``.

A round: the enemies act one by one, strongest first (ties in reading order, D004-07), then the
heroes in sheet order (Fighting Man, Magic User, Thief, Priest; D004-19). Each figure moves
(up to ``move_sq`` squares, G-08) and then attacks (or the Priest heals); the dragon may use
both its weapons at different heroes (D004-12). A Patrolling enemy's whole activation is one
``patrol`` action carrying its d8 roll (and the re-roll after a 3), rolled by its controller.

Decision points: the start step is a CHANCE (``purpose`` "dragon start square", a d6 for the
Arch Foe's square when the scenario gives ``dragon_squares``, else "start"; with victory
``count`` it also rolls the 1d6 + 4 round limit); each figure in turn is a
CHOOSE_UNIT with one candidate (a pass skips it); after a move, or after the dragon's first
attack, CONTINUE (a pass ends the activation; the activation ends by itself when nothing is
left to do).

Actions (``Action.kind``):

- ``move``: ``detail.cells`` the squares entered in order (or a ``path`` of cell centres),
  ``heading_deg`` the facing after it (default: the direction of the last step; a move of no
  square with a heading is a turn on the spot).
- ``attack``: ``target_id`` and ``detail.weapon`` (a weapon name on the card).
- ``heal``: ``target_id`` (an adjacent other hero).
- ``patrol``: ``detail.roll`` (d8) and ``detail.turn_roll`` (the 4-8 re-roll after a 3).
- ``pass``.

``validate`` answers in squares ("the Thief moved 3 squares; heroes move 2"). Events: ``place``
(the Arch Foe's start square: ``cell``, ``from_cell``, ``roll``), ``turn_limit``,
``round_start`` (``order``), ``move`` (``path`` in inches and ``cells``), ``face``
(``heading``, ``target`` when it turned toward a hero), a patrol said once (its ``move`` or
``face`` event, or a ``patrol`` event when it neither moves nor turns, each with ``roll`` and
``turn_roll``),
``attack`` (``weapon``, ``target``, ``roll``, ``need``, ``hit``), ``wound``, ``fall``,
``heal`` (``heals_left``), ``pass``, ``status`` (``unit``, ``status``: patrolling / alerted /
retreating / defeated) and ``end``.

Where the adapter reads the rest: a figure's status ``dungeon_state.status_of(unit)`` (the
word in ``unit.statuses``), heals left ``dungeon_state.heals_left(unit)``, facing
``unit.heading_deg`` (``dungeon_board.facing_word``), its card ``dungeon_state.card_of``, its
name in orders ``dungeon_board.label`` ("Troll at C4"), lines of squares
``Board.of(state).line_clear``.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.actions import Action
from engine.dice import RandomSource
from engine.model import GameState
from engine.protocols import Outcome, Pending, RulesetBase, register_ruleset
from engine.rulesets.dungeon import legality as dungeon_check
from engine.rulesets.dungeon import sequence as dungeon_flow
from engine.rulesets.dungeon import setup as dungeon_setup
from engine.rulesets.dungeon.query import DungeonQuery
from engine.rulesets.dungeon.sample import sample_actions
from engine.rulesets.dungeon.setup import ACTION_KINDS, NAME, OPTIONS
from engine.scenario import Scenario


class DungeonRuleset(RulesetBase):
    """The seed-004 grid rules with the Dungeon Crawl's figures (see the module docstring):
    set-up in ``setup``, legality in ``legality``, resolution in
    ``sequence``."""

    name = NAME
    title = "Solo grid skirmish: patrols and the Dungeon Crawl"
    source = "Solo miniatures rules (grid / chessboard) with the Dungeon Crawl"
    action_kinds = ACTION_KINDS
    options: Mapping[str, str] = OPTIONS

    def new_game(self, scenario: Scenario) -> GameState:
        """The state at the start (``dungeon_setup.new_game``)."""
        return dungeon_setup.new_game(scenario)

    def pending(self, state: GameState) -> Pending:
        """What the game waits for (``dungeon_check.pending``)."""
        return dungeon_check.pending(state)

    def validate(self, state: GameState, action: Action) -> list[str]:
        """Why an action is not legal, in squares (``dungeon_check.validate``)."""
        return dungeon_check.validate(state, action)

    def apply(self, state: GameState, action: Action, dice: RandomSource) -> Outcome:
        """Resolve a legal action (``dungeon_flow.apply``)."""
        return dungeon_flow.apply(state, action, dice)

    def check_state(self, state: GameState) -> list[str]:
        """Invariants of a reachable state (``dungeon_check.check_state``)."""
        return dungeon_check.check_state(state)

    def sample_actions(self, state: GameState, unit_id: str, dice: RandomSource) -> list[Action]:
        """Every legal action of the unit now: every end square of a move (a shortest route,
        facing its last step), every weapon at every target it can reach, every heal, every
        patrol roll of a Patrolling enemy, and a pass."""
        return [a for a in sample_actions(state, unit_id) if not self.validate(state, a)]

    def query(self, state: GameState) -> DungeonQuery:
        """Grid answers: Chebyshev squares as inches, sight per G-03 for seed 004."""
        return DungeonQuery(state)


register_ruleset(NAME, DungeonRuleset)

"""The table queries controllers make (issue 11): the narrative ruleset's answers (allowance,
edge-to-edge distance, sight with seed-000 blockers, targets by kind, move-toward, the G-05
nearest edge, cover), the shared defaults, and the seed-000 AI and the autopilot playing a
whole battle through the protocol alone (a ruleset that is not a NarrativeRuleset object)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from builders import AI, HUMANS, build, unit, wall

from assistant.scenarios import load_game
from engine.actions import Action, ActionKind
from engine.dice import RandomSource, ScriptedDice, SeededDice
from engine.errors import EngineError
from engine.geometry import Edge
from engine.model import GameState
from engine.protocols import Outcome, Pending, PendingKind, RulesetBase
from engine.query import BoardQuery, TableQuery, nearest_first
from engine.rulesets.narrative.ruleset import NarrativeRuleset
from engine.rulesets.narrative.state import with_rules
from engine.runner import controllers_for, play_battle


def _hedge(tid: str, x0: float, y0: float, x1: float, y1: float) -> dict[str, Any]:
    return {
        "id": tid,
        "name": tid,
        "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
        "cover": "soft",
    }


def test_the_narrative_queries() -> None:
    ruleset, state = build(
        [
            unit("a", AI, 12, 20, move=6, rng=8),
            unit("h", HUMANS, 12, 13),
            unit("far", HUMANS, 2, 2),
            unit("behind", HUMANS, 20, 20),
            unit("blocker", AI, 17, 20),
        ],
        [wall("w", 5, 10, 7, 14)],
    )
    query: TableQuery = ruleset.query(state)
    a, h, far = state.unit("a"), state.unit("h"), state.unit("far")
    assert query.movement_allowance_in(a) == 6
    bonus = with_rules(state, waiting=PendingKind.CONTINUE, bonus_unit="a", bonus_move_in=3.0)
    assert ruleset.query(bonus).movement_allowance_in(a) == 3.0
    assert query.distance_in(a, h) == pytest.approx(6.0)  # 7 in centre to centre, edge to edge
    assert query.visible(a, h)
    assert not query.visible(a, state.unit("behind"))  # the blocker stands in between
    assert query.visible(h, far)
    assert [u.id for u in query.targets(a, ActionKind.SHOOT)] == ["h"]
    assert [u.id for u in query.targets(a, ActionKind.CONTINUE_MELEE)] == []
    assert [u.id for u in query.targets(a, ActionKind.MOVE_INTO_MELEE)] == ["h"]
    assert [u.id for u in nearest_first(query, a, state.enemies_of(a))] == ["h", "behind", "far"]
    path = query.move_toward(a, (12.0, 14.5))
    assert path[0] == a.position and path[-1][1] < 20 and len(path) <= 3
    assert not ruleset.validate(state, Action(ActionKind.MOVE, "a", path=path))


def test_the_nearest_edge_tie_is_the_own_edge_then_a_logged_roll() -> None:
    ruleset, state = build([unit("h", HUMANS, 3, 3), unit("g", AI, 3, 21), unit("x", AI, 12, 12)])
    query = ruleset.query(state)
    assert query.nearest_edge(state.unit("h"), ScriptedDice([])) == (Edge.FRONT, None)
    dice = ScriptedDice([2])
    edge, roll = query.nearest_edge(state.unit("x"), dice)  # all four tied; back is its own
    assert (edge, roll) == (Edge.BACK, None) and dice.rolls == []
    corner = replace(state.unit("g"), x=21, y=3)
    edge, roll = ruleset.query(state.with_unit(corner)).nearest_edge(corner, dice)
    assert (edge, roll) == (Edge.RIGHT, 2)
    assert [r.purpose for r in dice.rolls] == ["nearest-edge tie for g"]


def test_cover_at_a_spot_against_a_shooter() -> None:
    ruleset, state = build(
        [unit("a", AI, 12, 20), unit("h", HUMANS, 12, 4)], [_hedge("hedge", 8, 9, 16, 10)]
    )
    query = ruleset.query(state)
    a = state.unit("a")
    assert query.cover_at((12.0, 6.0), a, 0.5) == "soft"  # behind the hedge from the shooter
    assert query.cover_at((2.0, 20.0), a, 0.5) == "none"


class _NoMovementRules(RulesetBase):
    name = "bare"


def test_the_shared_queries_and_what_a_ruleset_must_add() -> None:
    _, state = build([unit("a", AI, 12, 20), unit("h", HUMANS, 12, 4), unit("m", AI, 12, 12)])
    query = _NoMovementRules().query(state)
    assert isinstance(query, BoardQuery)
    a, h = state.unit("a"), state.unit("h")
    assert query.distance_in(a, h) == pytest.approx(15.0)
    assert not query.visible(a, h)  # every other base blocks by default
    assert [u.id for u in query.targets(a, "shoot")] == ["h"]
    with pytest.raises(EngineError, match="no movement allowance"):
        query.movement_allowance_in(a)
    with pytest.raises(EngineError, match="no movement paths"):
        query.move_toward(a, (0.0, 0.0))


class _Delegate(RulesetBase):
    """The narrative rules behind the protocol only: not a NarrativeRuleset object."""

    def __init__(self) -> None:
        self._rules = NarrativeRuleset()
        self.name = self._rules.name
        self.title = self._rules.title
        self.source = self._rules.source
        self.action_kinds = self._rules.action_kinds

    def pending(self, state: GameState) -> Pending:
        return self._rules.pending(state)

    def validate(self, state: GameState, action: Action) -> list[str]:
        return self._rules.validate(state, action)

    def apply(self, state: GameState, action: Action, dice: RandomSource) -> Outcome:
        return self._rules.apply(state, action, dice)

    def check_state(self, state: GameState) -> list[str]:
        return self._rules.check_state(state)

    def query(self, state: GameState) -> TableQuery:
        return self._rules.query(state)

    def action_word(self, action: Action) -> str:
        return self._rules.action_word(action)


def test_the_narrative_ai_and_the_autopilot_play_through_the_protocol() -> None:
    scenario, ruleset, state = load_game("ford-at-dawn")
    direct = play_battle(state, ruleset, controllers_for(scenario), SeededDice(7))
    proxied = play_battle(state, _Delegate(), controllers_for(scenario), SeededDice(7))
    assert proxied.events == direct.events and proxied.final == direct.final

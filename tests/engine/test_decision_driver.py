"""The one decision driver (issue 25 item 3): the runner, the live session and the replay ask
``engine.decision`` who answers a decision point and what. The narrative forced flight is a
flag of the decision point: for a side a person plays, the side's controller orders the
routing character without a unit being chosen; a side its controller plays chooses as ever.
An order of several actions goes on through the driver while its unit continues."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from builders import AI, HUMANS, build, unit
from test_decision_points import Scripted, ScriptRuleset

from engine.actions import Action, ActionKind, Order
from engine.decision import (
    DecisionPoint,
    activations,
    by_controller,
    decide,
    decision_point,
    unseen_steps,
)
from engine.dice import RandomSource, ScriptedDice, SeededDice
from engine.model import GameState
from engine.protocols import Controller, Pending, PendingKind, Ruleset, find_controller
from engine.rulesets.narrative.state import with_rules
from engine.runner import next_action, start_game
from engine.scenario import parse_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "assistant" / "data" / "scenarios"
PLAYER = "Road Wardens"
"""The player's side of Crossroads Ambush (one company of that name)."""


class Asked:
    """A controller that records which of its questions were asked, answering as ``inner``."""

    def __init__(self, inner: Controller) -> None:
        self.inner, self.name, self.rulesets = inner, inner.name, inner.rulesets
        self.asked: list[str] = []

    def choose_unit(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str | None:
        self.asked.append("choose_unit")
        return self.inner.choose_unit(state, ruleset, pending, dice)

    def decide(self, state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource) -> Order:
        self.asked.append(f"decide {unit_id}")
        return self.inner.decide(state, ruleset, unit_id, dice)

    def react(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> Order | None:
        self.asked.append("react")
        return self.inner.react(state, ruleset, pending, dice)

    def choose(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str:
        self.asked.append("choose")
        return self.inner.choose(state, ruleset, pending, dice)


@pytest.fixture(scope="module")
def routing() -> tuple[Ruleset, GameState, str]:
    """Crossroads Ambush with the player's side to act first and its company routing."""
    text = (SCENARIOS / "crossroads-ambush.toml").read_text(encoding="utf-8")
    ruleset, state = start_game(parse_scenario(text, "crossroads-ambush"))
    first = ruleset.apply(state, Action(ActionKind.CHANCE), ScriptedDice([5])).state
    human = next(s.name for s in first.sides if s.role == "human")
    return ruleset, with_rules(first, routing_companies=frozenset({PLAYER})), human


def test_a_routing_character_is_the_forced_unit_of_its_sides_decision_point(
    routing: tuple[Ruleset, GameState, str],
) -> None:
    ruleset, state, human = routing
    point = decision_point(state, ruleset)
    first = state.units_of(human)[0].id
    assert point.kind is PendingKind.CHOOSE_UNIT and point.side == human
    assert point.forced and point.unit == first == point.pending.forced
    # a decision point without a routing character forces nobody
    calm = decision_point(with_rules(state, routing_companies=frozenset()), ruleset)
    assert not calm.forced and calm.unit is None and calm.pending.forced is None
    # the searcher's steps: a forced unit's side may not pass it by
    assert unseen_steps(point, Action(ActionKind.PASS, side=human)) == ()
    assert unseen_steps(calm, Action(ActionKind.PASS, side=human)) == (
        Action(ActionKind.PASS, side=human),
    )


def test_who_answers_a_decision_point_for_a_searcher(
    routing: tuple[Ruleset, GameState, str],
) -> None:
    """The replay's unseen steps ask these: a forced unit alone acts, ordered by the side's
    controller even where a person plays the side; otherwise the person answers."""
    ruleset, state, human = routing
    point = decision_point(state, ruleset)
    assert activations(point) == (point.unit,) and by_controller(point, {human})
    calm = decision_point(with_rules(state, routing_companies=frozenset()), ruleset)
    assert activations(calm) == calm.pending.candidates and len(calm.pending.candidates) > 1
    assert not by_controller(calm, {human}) and by_controller(calm, set())


def test_a_forced_flight_is_ordered_for_a_person_without_choosing_a_unit(
    routing: tuple[Ruleset, GameState, str],
) -> None:
    ruleset, state, human = routing
    asked = Asked(find_controller("narrative-ai"))
    decision = decide(state, ruleset, {human: asked}, SeededDice(3), [], people={human})
    first = state.units_of(human)[0].id
    assert decision is not None and decision.order is not None
    assert asked.asked == [f"decide {first}"]
    assert decision.action.kind == ActionKind.FLEE and decision.action.unit_id == first
    assert not ruleset.validate(state, decision.action)
    # nothing is forced: the person decides, the driver asks nobody
    calm = with_rules(state, routing_companies=frozenset())
    assert decide(calm, ruleset, {human: asked}, SeededDice(3), [], people={human}) is None
    assert asked.asked == [f"decide {first}"]


def test_a_side_its_controller_plays_still_chooses_among_routing_characters(
    routing: tuple[Ruleset, GameState, str],
) -> None:
    ruleset, state, human = routing
    asked = Asked(find_controller("autopilot"))
    decision = decide(state, ruleset, {human: asked}, SeededDice(3), [])
    assert decision is not None and asked.asked[0] == "choose_unit"
    # the runner's next_action is the driver's answer
    again = next_action(state, ruleset, {human: find_controller("autopilot")}, SeededDice(3))
    assert again == (decision.action, decision.order)


def _script(step: int) -> GameState:
    _, state = build([unit("a1", HUMANS, 5, 5), unit("b1", AI, 15, 15)], turn=None)
    return replace(state, step=step)


def test_a_planned_order_continues_through_the_driver() -> None:
    ruleset, state = ScriptRuleset(), _script(3)  # a1 continues
    assert decision_point(state, ruleset).unit == "a1"
    asked = Scripted(react=False)
    second = Action(ActionKind.HOLD, "a1")
    planned = [second, Action(ActionKind.HOLD, "a1", detail=(("third", 1),))]
    decision = decide(state, ruleset, {HUMANS: asked, AI: asked}, ScriptedDice([]), planned)
    assert decision is not None and decision.continued and decision.order is None
    assert decision.action == second and len(planned) == 1 and asked.asked == []
    # a planned action the rules refuse: the controller is asked again, its order planned
    refused = [Action(ActionKind.HOLD, "a1", detail=(("refused", True),))]
    decision = decide(state, ruleset, {HUMANS: asked, AI: asked}, ScriptedDice([]), refused)
    assert decision is not None and not decision.continued and decision.order is not None
    assert asked.asked == ["decide a1"] and refused == list(decision.order.actions[1:])


def test_the_searchers_steps_of_a_choice_a_reaction_and_a_chance_step() -> None:
    ruleset = ScriptRuleset()
    assert unseen_steps(decision_point(_script(0), ruleset), None) == (Action(ActionKind.CHANCE),)
    choice = unseen_steps(decision_point(_script(1), ruleset), None)
    assert [a.get("option") for a in choice] == ["first", "second"]
    reaction = unseen_steps(decision_point(_script(4), ruleset), None)
    assert reaction == (Action(ActionKind.PASS, "b1", side=AI),)
    # a side choosing a unit may pass (the pass its table makes); one that may not, cannot
    side_pass = Action(ActionKind.PASS, side=AI)
    assert unseen_steps(decision_point(_script(5), ruleset), side_pass) == (side_pass,)
    choosing = decision_point(_script(5), ruleset)
    held = DecisionPoint(replace(choosing.pending, may_pass=False), None, False)
    assert unseen_steps(held, side_pass) == ()

"""The runner dispatches on the kind of decision point alone (issue 11): chance steps, a side
choosing a unit (or passing), a unit continuing, a reaction (or none), a choice among named
options; an order of several actions is carried out while its unit continues; the memory an
order leaves is stored in the state for its side. A scripted ruleset walks each kind."""

from __future__ import annotations

from dataclasses import replace

from builders import AI, HUMANS, build, unit

from engine.actions import Action, ActionKind, Event, Order, event
from engine.dice import RandomSource, ScriptedDice, SeededDice
from engine.model import GameState
from engine.protocols import (
    ControllerBase,
    Outcome,
    Pending,
    PendingKind,
    Ruleset,
    RulesetBase,
    find_controller,
    plays,
)
from engine.runner import next_action, play_battle

TRIGGER = event("shot_at", 1, "a1 shoots at b1.", "a1", target="b1")

#: The decision points of the script, one per step.
SCRIPT: tuple[Pending, ...] = (
    Pending(PendingKind.CHANCE, purpose="who starts"),
    Pending(PendingKind.CHOICE, side=HUMANS, options=("first", "second"), purpose="order"),
    Pending(PendingKind.CHOOSE_UNIT, side=HUMANS, candidates=("a1",)),
    Pending(PendingKind.CONTINUE, side=HUMANS, candidates=("a1",), unit="a1"),
    Pending(PendingKind.REACTION, side=AI, candidates=("b1",), unit="b1", trigger=TRIGGER),
    Pending(PendingKind.CHOOSE_UNIT, side=AI, candidates=("b1",)),
    Pending(PendingKind.REACTION, side=HUMANS, candidates=("a1",), unit="a1", trigger=TRIGGER),
)


class ScriptRuleset(RulesetBase):
    """Waits for the decision points of SCRIPT in turn; any action is legal but a "refused"
    one; each applied action is logged as an event of its kind."""

    name = "script"
    action_kinds = frozenset({"chance", "choose", "pass", "move", "hold", "react_fire"})

    def pending(self, state: GameState) -> Pending:
        return SCRIPT[state.step] if state.step < len(SCRIPT) else Pending(PendingKind.OVER)

    def validate(self, state: GameState, action: Action) -> list[str]:
        return ["refused"] if action.get("refused") else []

    def sample_actions(self, state: GameState, unit_id: str, dice: RandomSource) -> list[Action]:
        return [Action(ActionKind.HOLD, unit_id), Action(ActionKind.REACT_FIRE, unit_id)]

    def apply(self, state: GameState, action: Action, dice: RandomSource) -> Outcome:
        if action.kind == ActionKind.CHANCE:
            dice.roll(6, "who starts")
        ev = event(str(action.kind), 1, f"{action.kind}", action.unit_id, side=action.side)
        return Outcome(replace(state, step=state.step + 1), (ev,))


class Scripted(ControllerBase):
    """Answers every kind of decision and remembers what it was asked."""

    name = "scripted"
    rulesets = ("script",)

    def __init__(self, react: bool) -> None:
        self.asked: list[str] = []
        self.reacts = react

    def choose_unit(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str | None:
        self.asked.append("choose_unit")
        return None if pending.side == AI else pending.candidates[0]

    def decide(self, state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource) -> Order:
        self.asked.append(f"decide {unit_id}")
        actions = (
            Action(ActionKind.MOVE, unit_id, path=((5, 5), (5, 7))),
            Action(ActionKind.HOLD, unit_id),
        )
        return Order(actions, "plan", "two actions", memory=(("last", unit_id), ("n", 2)))

    def react(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> Order | None:
        self.asked.append(f"react {pending.unit} to {pending.trigger and pending.trigger.type}")
        if not self.reacts:
            return None
        fire = Action(ActionKind.REACT_FIRE, pending.unit, target_id="a1")
        return Order(fire, "reaction", "it was shot at")

    def choose(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str:
        self.asked.append(f"choose {'/'.join(pending.options)}")
        return pending.options[-1]


def test_the_runner_answers_every_kind_of_decision_point() -> None:
    _, state = build([unit("a1", HUMANS, 5, 5), unit("b1", AI, 15, 15)], turn=None)
    humans, ai = Scripted(react=False), Scripted(react=True)
    dice = ScriptedDice([4])
    record = play_battle(state, ScriptRuleset(), {HUMANS: humans, AI: ai}, dice)
    assert [a.to_json() for a in record.actions] == [
        {"kind": "chance"},
        {"kind": "choose", "side": HUMANS, "detail": {"option": "second"}},
        {"kind": "move", "unit": "a1", "path": [[5.0, 5.0], [5.0, 7.0]]},
        {"kind": "hold", "unit": "a1"},  # the rest of the order: no new decision
        {"kind": "react_fire", "unit": "b1", "target": "a1"},
        {"kind": "pass", "side": AI},
        {"kind": "pass", "unit": "a1", "side": HUMANS},  # a reaction declined
    ]
    assert humans.asked == [
        "choose first/second",
        "choose_unit",
        "decide a1",
        "react a1 to shot_at",
    ]
    assert ai.asked == ["react b1 to shot_at", "choose_unit"]
    assert [o is not None for o in record.orders] == [False, False, True, False, True, False, False]
    # The memory the order left is the side's, in the state; the other side has none.
    assert record.final.memory_of(HUMANS) == (("last", "a1"), ("n", 2))
    assert record.final.memory_of(AI) == ()
    assert [r.purpose for r in dice.rolls] == ["who starts"]
    assert record.events[2].type == "order"  # the order line before the move it ordered


def test_a_planned_action_the_rules_refuse_is_decided_again() -> None:
    _, state = build([unit("a1", HUMANS, 5, 5), unit("b1", AI, 15, 15)], turn=None)
    state = replace(state, step=3)  # a1 continues
    humans = Scripted(react=False)
    refused = Action(ActionKind.HOLD, "a1", detail=(("refused", True),))
    planned = [refused]
    chosen = next_action(
        state, ScriptRuleset(), {HUMANS: humans, AI: humans}, ScriptedDice([]), planned
    )
    assert chosen is not None and chosen[1] is not None and humans.asked == ["decide a1"]
    assert planned == [Action(ActionKind.HOLD, "a1")]


def test_the_base_controller_declines_reactions_and_takes_the_first_option() -> None:
    _, state = build([unit("a1", HUMANS, 5, 5), unit("b1", AI, 15, 15)], turn=None)
    base, ruleset, dice = ControllerBase(), ScriptRuleset(), ScriptedDice([])
    assert base.react(state, ruleset, SCRIPT[4], dice) is None
    assert base.choose(state, ruleset, SCRIPT[1], dice) == "first"
    assert base.choose_unit(state, ruleset, SCRIPT[2], dice) == "a1"
    assert isinstance(TRIGGER, Event)


def test_the_random_controller_plays_any_ruleset_through_its_sample() -> None:
    _, state = build([unit("a1", HUMANS, 5, 5), unit("b1", AI, 15, 15)], turn=None)
    random = find_controller("random")
    assert plays(random, "script") and plays(random, "narrative")
    for seed in range(6):
        record = play_battle(state, ScriptRuleset(), {HUMANS: random, AI: random}, SeededDice(seed))
        kinds = [str(a.kind) for a in record.actions]
        assert len(kinds) == len(SCRIPT) and kinds[0] == "chance"
        assert kinds[1] == "choose" and record.actions[1].get("option") in ("first", "second")
        assert set(kinds[2:]) <= {"hold", "react_fire", "pass"}

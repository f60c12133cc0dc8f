"""The replay's likelihood model (issue 26): a story's score is its log-probability, the dice
nobody saw weigh as the engine's exact chance outcomes, every cost comes from the model's few
named parameters, and every timeline event says how sure the replay is of it."""

from __future__ import annotations

import json
import math
import re
from dataclasses import fields, replace
from fractions import Fraction
from pathlib import Path

import pytest

from assistant.replay import engine_model as model
from assistant.replay.engine_branches import seen_outcomes
from assistant.replay.engine_replay import GameReplayer, Removal
from assistant.replay.review import review_text
from assistant.scenarios import load_game
from engine.actions import Action, ActionKind
from engine.dice import ScriptedDice

REPLAY = Path(__file__).resolve().parents[2] / "assistant" / "replay"


def _melee() -> tuple[object, object, Action]:
    _, ruleset, state = load_game("crossroads-ambush")
    state = ruleset.apply(state, Action(ActionKind.CHANCE), ScriptedDice([1])).state
    state = state.with_unit(replace(state.unit("goblin-boss"), x=8.0, y=4.25))
    return ruleset, state, Action(ActionKind.CONTINUE_MELEE, "goblin-boss", target_id="crossbow")


def test_unseen_outcomes_weigh_as_the_engines_exact_chance_outcomes() -> None:
    ruleset, state, fight = _melee()
    found = seen_outcomes(ruleset, state, fight, None)  # type: ignore[arg-type]
    exact = ruleset.chance_outcomes(state, fight)  # type: ignore[attr-defined]
    by_state: dict[object, Fraction] = {}
    for o, p in exact:  # the engine tells apart results that differ in their events only
        by_state[o.state] = by_state.get(o.state, Fraction(0)) + p
    assert len(found) == len(by_state)
    for outcome, used, _, p in found:
        assert used == 0
        assert p == pytest.approx(float(by_state[outcome.state]))
    assert sum(p for *_, p in found) == pytest.approx(1.0)
    # a story that needs the unlikelier result pays more for it
    fell = [p for o, _, _, p in found if not o.state.unit("crossbow").on_table]
    stood = [p for o, _, _, p in found if o.state.unit("crossbow").on_table]
    assert len(fell) == 1 and len(stood) == 1 and fell[0] != stood[0]


def test_seen_dice_are_given_and_the_rest_weigh_their_chance() -> None:
    _, ruleset, state = load_game("crossroads-ambush")
    initiative = Action(ActionKind.CHANCE)
    seen = seen_outcomes(ruleset, state, initiative, (5,))
    assert [(o.state.active_side, used, p) for o, used, _, p in seen] == [("Road Wardens", 1, 1.0)]
    unread = seen_outcomes(ruleset, state, initiative, (None,))
    assert sorted(p for *_, p in unread) == pytest.approx([0.5, 0.5])
    assert ruleset.draws_probability(state, initiative, (5,)) == Fraction(1, 6)


def test_the_model_has_at_most_five_parameters_read_from_its_file(tmp_path: Path) -> None:
    names = [f.name for f in fields(model.Parameters)]
    assert len(names) <= 5
    written = json.loads(model.PARAMETERS_FILE.read_text(encoding="utf-8"))
    assert model.load_parameters() == model.Parameters(**{n: written[n] for n in names})
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**written, "misread": 1.5}), encoding="utf-8")
    with pytest.raises(ValueError, match="misread is a probability"):
        model.load_parameters(bad)
    bad.write_text(json.dumps({n: written[n] for n in names[1:]}), encoding="utf-8")
    with pytest.raises(ValueError, match=names[0]):
        model.load_parameters(bad)


def test_no_engine_module_sets_a_cost_of_its_own() -> None:
    """The hand-set costs are gone: what a story pays is the model's."""
    for path in REPLAY.glob("engine_*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.findall(r"^[A-Z_]*(?:COST|SHARE)\w* *=", text, re.M) or path.stem == (
            "engine_model"
        ), path.name
    assert not re.findall(r"^[A-Z_]*COST\w* *=", (REPLAY / "engine_model.py").read_text(), re.M)


def test_costs_are_minus_log_probabilities() -> None:
    params = model.PARAMETERS
    assert model.off_rules() == pytest.approx(-math.log(params.off_rules))
    assert model.misread(3) == pytest.approx(-3 * math.log(params.misread))
    assert model.probability(model.cost(0.25)) == pytest.approx(0.25)
    tol_in = 0.25
    sigma_in = params.pose_sigma_share * tol_in
    assert model.pose_error(sigma_in, tol_in) == pytest.approx(0.5)


def test_every_engine_event_says_how_sure_the_replay_is() -> None:
    game = GameReplayer("crossroads-ambush")
    boss = game.initial.unit("goblin-boss")
    # the footage takes a model off that no rule takes off: the reading is the tracker's
    replay = game.replay([], [Removal(boss.name, 3.0)])
    removed = [e for e in replay.events if e["kind"] == "removed"]
    assert removed and removed[0]["explained"] is False
    assert removed[0]["p"] == pytest.approx(model.PARAMETERS.misread, rel=1e-2)
    assert all(0.0 < e["p"] <= 1.0 for e in replay.events)


def test_review_asks_about_the_least_sure_first() -> None:
    doc = {
        "piece_moves": [
            {"piece": "A", "t_start": 1.0, "t_end": 2.0, "known": "inferred"},
            {"piece": "B", "t_start": 5.0, "t_end": 6.0, "known": "inferred"},
        ],
        "roster": {"pieces": [{"name": "A"}, {"name": "B"}, {"name": "C"}]},
        "events": [
            {"t": 1.0, "kind": "activation", "source": "engine", "p": 0.9},
            {"t": 5.0, "kind": "activation", "source": "engine", "p": 0.2},
            {"t": 8.0, "kind": "removed", "source": "engine", "p": 0.5, "text": "C is out"},
        ],
    }
    text = review_text(doc)
    order = re.findall(r'^piece = "(\w)"', text, re.M)
    assert order == ["B", "C", "A"]
    assert re.findall(r"^p = (\S+)", text, re.M) == ["0.2", "0.5", "0.9"]

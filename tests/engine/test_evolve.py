"""``engine.model.evolve``: the same new value as ``dataclasses.replace`` for the game's plain
values (a state, a unit, a ruleset's parts), the value given left unwritten, and
``dataclasses.replace`` itself for anything else."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from pathlib import Path

import pytest

import engine.rulesets
from engine.model import GameState, RulesState, Unit, UnitRules, UnitStatus, evolve
from engine.rulesets.firefight_lite.state import FFState
from engine.rulesets.skirmish2d6.state import SkirmishState
from engine.runner import start_game
from engine.scenario import parse_scenario

SCENARIO = Path(__file__).resolve().parents[2] / "assistant/data/scenarios/skirmish-cairns.toml"


def _state() -> GameState:
    return start_game(parse_scenario(SCENARIO.read_text(encoding="utf-8"), "skirmish-cairns"))[1]


def _same(a: object, b: object) -> bool:
    """Equal, of one class, with the very same field objects."""
    return (
        type(a) is type(b)
        and a == b
        and vars(a).keys() == vars(b).keys()
        and all(vars(a)[k] is vars(b)[k] for k in vars(a))
    )


def test_a_state_a_unit_and_a_rulesets_part_evolve_as_replace_makes_them() -> None:
    state = _state()
    before = dict(vars(state))
    unit = state.units[0]
    moved = (unit.x + 1.5, unit.y - 0.25)
    rules = state.rules
    assert isinstance(rules, SkirmishState)
    cases = [
        (state, {"round": 3, "step": 9}),
        (state, {"units": state.units[::-1], "memo": state.memo}),
        (unit, {"x": moved[0], "y": moved[1], "status": UnitStatus.FALLEN}),
        (rules, {"actions_left": 1, "acting": unit.id}),
        (state, {}),
    ]
    for value, changes in cases:
        made = evolve(value, **changes)
        assert made is not value
        assert _same(made, dataclasses.replace(value, **changes))
    assert vars(state) == before  # the value given is never written


def test_other_values_and_unknown_fields_go_through_replace() -> None:
    state = _state()
    with pytest.raises(TypeError):
        evolve(state, no_such_field=1)
    held = FFState()
    assert _same(evolve(held, acting="a"), dataclasses.replace(held, acting="a"))  # __post_init__
    piece = state.terrain[0]
    assert _same(evolve(piece, name="x"), dataclasses.replace(piece, name="x"))


def test_every_plain_value_class_sets_each_field_from_its_argument() -> None:
    """What ``evolve`` relies on: a ruleset's part of a state or a unit has no field that
    ``__init__`` leaves out (such a field would be reset by ``replace``, but copied here)."""
    for info in pkgutil.walk_packages(engine.rulesets.__path__, "engine.rulesets."):
        importlib.import_module(info.name)
    classes: list[type] = []
    todo: list[type] = [GameState, Unit, RulesState, UnitRules]
    while todo:
        cls = todo.pop()
        classes.append(cls)
        todo.extend(cls.__subclasses__())
    assert len(classes) > 8
    for cls in classes:
        assert all(f.init for f in dataclasses.fields(cls)), cls.__name__


def test_contacting_enemies_is_touching_read_for_every_enemy() -> None:
    """The one-pass contact search answers as ``touching`` does, standing or moved, at the
    default tolerance and a raised one (G-04), on states of a played game."""
    from engine.board import contacting_enemies, touching
    from engine.dice import SeededDice
    from engine.runner import controllers_for, play_battle

    scenario = parse_scenario(SCENARIO.read_text(encoding="utf-8"), "skirmish-cairns")
    ruleset, start = start_game(scenario)
    record = play_battle(start, ruleset, controllers_for(scenario), SeededDice(3))
    states = []
    for state in (record.initial, record.final):
        states.append(state)
        for tol in (0.6, 30.0):  # raised tolerances: a camera game's, and one that reaches far
            states.append(evolve(state, options=(("contact_tol_in", tol), *state.options)))
    checked = 0
    for state in states:
        for unit in (u for u in state.units if u.on_table):
            for at in (None, (unit.x + 0.7, unit.y - 0.4)):
                want = tuple(e for e in state.enemies_of(unit) if touching(state, unit, e, at))
                assert contacting_enemies(state, unit, at) == want
                checked += len(want)
    assert checked > 0

"""engine/ keeps no cache outside a game (issue 25): no cache decorator (``functools.cache``,
``lru_cache``: a store shared by every game in the process) and no ``cached_property`` on a
frozen dataclass (a write into a frozen value's ``__dict__``, which games share)."""

from __future__ import annotations

import ast
from dataclasses import fields, replace
from pathlib import Path

import numpy as np
import pytest
import shapely

from engine.boards.open import open_board
from engine.geometry import (
    Cover,
    CoverArea,
    MoveArea,
    Obstacle,
    Table,
    base_obstacle,
    check_path,
    sight_map,
)
from engine.memo import BoardMemo
from engine.model import UnknownUnitError
from engine.runner import start_game
from engine.scenario import parse_scenario

ENGINE = Path(__file__).resolve().parents[2] / "engine"
SCENARIOS = ENGINE.parent / "assistant" / "data" / "scenarios"
CACHE_DECORATORS = {"cache", "lru_cache"}


def _name(node: ast.expr) -> str:
    """The last name of a decorator (``functools.lru_cache(maxsize=8)`` -> "lru_cache")."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _frozen(cls: ast.ClassDef) -> bool:
    for deco in cls.decorator_list:
        if isinstance(deco, ast.Call) and _name(deco) == "dataclass":
            for kw in deco.keywords:
                if kw.arg == "frozen" and isinstance(kw.value, ast.Constant) and kw.value.value:
                    return True
    return False


def cache_findings(sources: dict[str, str]) -> list[str]:
    """Every cache decorator, and every cached_property of a class that is a frozen dataclass
    or a base of one (by class name, across all ``sources``: path -> text)."""
    found: list[str] = []
    classes: dict[str, list[tuple[str, ast.ClassDef]]] = {}
    for path, text in sources.items():
        tree = ast.parse(text, filename=path)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for deco in node.decorator_list:
                    if _name(deco) in CACHE_DECORATORS:
                        found.append(f"{path}:{node.lineno} {node.name} is a cache decorator's")
            elif isinstance(node, ast.ClassDef):
                classes.setdefault(node.name, []).append((path, node))
    frozen = {name for name, defs in classes.items() if any(_frozen(c) for _, c in defs)}
    # A class is frozen-shared when it or any class deriving from it is a frozen dataclass.
    changed = True
    while changed:
        changed = False
        for defs in classes.values():
            for _, cls in defs:
                if cls.name in frozen:
                    for base in cls.bases:
                        if _name(base) in classes and _name(base) not in frozen:
                            frozen.add(_name(base))
                            changed = True
    for name in sorted(frozen):
        for path, cls in classes.get(name, []):
            for item in cls.body:
                if isinstance(item, ast.FunctionDef) and any(
                    _name(d) == "cached_property" for d in item.decorator_list
                ):
                    found.append(f"{path}:{item.lineno} {name}.{item.name} on a frozen dataclass")
    return found


def test_engine_has_no_module_cache_nor_cached_property_on_frozen_values() -> None:
    sources = {
        str(p.relative_to(ENGINE.parent)): p.read_text(encoding="utf-8")
        for p in sorted(ENGINE.rglob("*.py"))
    }
    assert len(sources) > 50
    assert cache_findings(sources) == []


def test_the_scan_finds_each_kind_of_cache() -> None:
    source = """
import functools
from functools import cache, cached_property, lru_cache
from dataclasses import dataclass

@lru_cache(maxsize=8)
def a(x): return x

@functools.cache
def b(): return 1

@cache
def c(): return 1

class Mixin:
    @cached_property
    def d(self): return 1

@dataclass(frozen=True)
class Value(Mixin):
    @functools.cached_property
    def e(self): return 1

class Private:
    @cached_property
    def fine(self): return 1

@dataclass
class Loose:
    @cached_property
    def also_fine(self): return 1
"""
    found = cache_findings({"x.py": source})
    assert [f.split(" ", 1)[1] for f in found] == [
        "a is a cache decorator's",
        "b is a cache decorator's",
        "c is a cache decorator's",
        "Mixin.d on a frozen dataclass",
        "Value.e on a frozen dataclass",
    ]


def _unwritten(value: object) -> dict[str, object]:
    """A snapshot of what a value holds (a cached_property would add to it on first use)."""
    return dict(vars(value))


def test_geometry_values_are_not_written_after_they_are_made() -> None:
    """Obstacles, cover areas and move areas work out what their tests read when they are
    made: testing lines, legs and rays against them changes nothing in them."""
    tower = Obstacle("the tower", shapely.box(10.0, 10.0, 14.0, 14.0))
    orc = base_obstacle("Orc", (6.0, 12.0), 0.5)
    hedge = CoverArea("the hedge", shapely.box(0.0, 11.0, 24.0, 11.5), Cover.SOFT)
    mud = shapely.box(2.0, 2.0, 8.0, 8.0)
    area = MoveArea(Table(), 0.5, (tower, orc), (mud,))
    values = (tower, orc, hedge, area, area.ground)  # area.blockers: a game's own, lazy rays
    before = [_unwritten(v) for v in values]
    for ob in (tower, orc):
        assert ob.blocks_segment((0.0, 12.0), (24.0, 12.0))
        assert ob.crossed_by((0.0, 12.0), (24.0, 12.0))
        assert 0.0 < ob.entry_along_in((0.0, 12.0), (24.0, 12.0)) < 24.0
    assert hedge.crossed_by((12.0, 0.0), (12.0, 20.0))
    assert check_path([(1.0, 1.0), (9.0, 1.0)], [20.0], area).legal
    xs = np.array([1.0, 1.0])
    assert np.all(area.blockers.free_lengths(xs, xs, np.array([1.0, 0.0]), xs * 0.0, 0.5) > 0)
    assert np.all(area.ground.reach_in(xs, xs, np.array([1.0, 0.0]), xs * 0.0, 4.0) > 0)
    sight_map((1.0, 12.0), (tower, orc), rays=64)
    assert [_unwritten(v) for v in values] == before


def test_a_round_base_is_crossed_as_its_circle() -> None:
    """A base's ``crossed_by`` and ``entry_in`` are its circle's (shrunk by 1e-6 in): a line
    grazing the circle is clear, one a hair inside is not."""
    orc = base_obstacle("Orc", (6.0, 12.0), 0.5)
    assert orc.circle == ((6.0, 12.0), 0.5) and orc.outline is None and orc.edges is None
    assert not orc.crossed_by((0.0, 12.5), (24.0, 12.5))
    assert orc.crossed_by((0.0, 12.4999), (24.0, 12.4999))
    assert orc.entry_in((0.0, 12.0), (24.0, 12.0)) == pytest.approx(5.5)


def test_looking_units_up_leaves_the_state_unwritten() -> None:
    """``GameState.unit`` reads an index kept in the game's memo for the units tuple: the
    state's own fields are all it holds, states sharing the tuple share the index, and a
    state with a changed unit finds the new one."""
    scenario = parse_scenario(
        (SCENARIOS / "ford-at-dawn.toml").read_text(encoding="utf-8"), "ford-at-dawn"
    )
    _, state = start_game(scenario)
    first = state.units[0]
    assert state.unit(first.id) is first and state.has_unit(first.id)
    assert not state.has_unit("nobody")
    with pytest.raises(UnknownUnitError):
        state.unit("nobody")
    assert set(vars(state)) <= {f.name for f in fields(state)} | {"_hash"}
    later = replace(state, round=state.round + 1)
    assert later.units is state.units
    assert later.memo.by_id(later.units) is state.memo.by_id(state.units)
    moved = state.with_unit(replace(first, x=first.x + 1.0))
    assert moved.unit(first.id).x == first.x + 1.0 and state.unit(first.id) is first


def test_games_of_one_scenario_share_their_base_obstacles() -> None:
    """A figure's base as an obstacle reads only its name, centre and radius: the games of one
    scenario object share it (what a module-level cache did before, issue 25); a game of
    another scenario object, or a memo of no scenario, makes its own."""
    text = (SCENARIOS / "ford-at-dawn.toml").read_text(encoding="utf-8")
    scenario = parse_scenario(text, "ford-at-dawn")
    ruleset, first = start_game(scenario)
    second = ruleset.new_game(scenario)
    unit = first.units[0]
    base = open_board(first).base(unit)
    assert base.circle == (unit.position, unit.radius_in) and base.name == unit.name
    assert open_board(second).base(second.unit(unit.id)) is base
    _, other = start_game(parse_scenario(text, "ford-at-dawn"))
    assert open_board(other).base(other.unit(unit.id)) is not base
    loose = replace(first, memo=BoardMemo())
    assert open_board(loose).base(unit) is not base

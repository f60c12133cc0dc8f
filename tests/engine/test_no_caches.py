"""engine/ keeps no cache outside a game (issue 25): no cache decorator (``functools.cache``,
``lru_cache``: a store shared by every game in the process) and no ``cached_property`` on a
frozen dataclass (a write into a frozen value's ``__dict__``, which games share)."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
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

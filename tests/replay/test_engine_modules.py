"""The replay's engine modules import one way: no circle, even through imports made only for
type checking (issue 26: the model, the search, the move reader and the story record are
separate concepts)."""

from __future__ import annotations

import ast
from pathlib import Path

REPLAY = Path(__file__).resolve().parents[2] / "assistant" / "replay"
PACKAGE = "assistant.replay."


def _imports(path: Path) -> set[str]:
    """The ``assistant.replay.engine_*`` modules ``path`` imports, anywhere in the file."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for name in names:
            if name.startswith(PACKAGE + "engine_"):
                out.add(name[len(PACKAGE) :].split(".")[0])
    return out


def _graph() -> dict[str, set[str]]:
    return {p.stem: _imports(p) - {p.stem} for p in sorted(REPLAY.glob("engine_*.py"))}


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph``, or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[node] = 2
        path.pop()
        return None

    for node in graph:
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_import_circle_among_the_engine_modules() -> None:
    graph = _graph()
    assert {"engine_model", "engine_replay", "engine_moves", "engine_story"} <= set(graph)
    assert _circle(graph) is None, " -> ".join(_circle(graph) or [])


def test_the_circle_check_finds_a_circle() -> None:
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_the_model_and_the_record_import_no_other_engine_module() -> None:
    graph = _graph()
    assert graph["engine_model"] == set()
    assert graph["engine_story"] == set()

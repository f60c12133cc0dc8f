"""Random mutations of a valid file, for the loaders' fuzz tests: a loader given any of them
either reads the file or refuses it with one line naming it, never with a traceback."""

from __future__ import annotations

import copy
import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from assistant.cli import USER_FACING_ERRORS


def deep(levels: int) -> Any:
    """A list nested ``levels`` deep."""
    value: Any = []
    for _ in range(levels):
        value = [value]
    return value


FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
"""The loaders' fuzz tests: 60 files each (FUZZ_EXAMPLES=N for a longer search)."""

ODD_VALUES = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, -1, 1, 2**63, -(2**63), 10**12]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([math.nan, math.inf, -math.inf, 1e300, -0.0, 1e-300]),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12),
    st.booleans(),
    st.lists(st.integers(min_value=-5, max_value=50), max_size=4),
    st.dictionaries(st.sampled_from(["id", "x", "name", "kind"]), st.integers(), max_size=2),
    st.builds(deep, st.sampled_from([5, 30])),
    st.sampled_from([[[1, 2], [3]], {}, []]).map(copy.deepcopy),
)
"""Values a mutation puts where a file had another."""


def _places(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in nested dicts and lists, as key/index paths."""
    out = [path] if path else []
    if isinstance(data, dict):
        for key, value in data.items():
            out += _places(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out += _places(value, (*path, i))
    return out


def _parent(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path[:-1]:
        data = data[part]
    return data


@st.composite
def mutated(draw: st.DrawFn, original: Any) -> Any:
    """A copy of ``original`` with one to three places changed: a value replaced by an odd
    one, a key removed, a list entry doubled or removed."""
    data = copy.deepcopy(original)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        places = _places(data)
        if not places:
            break
        path = draw(st.sampled_from(places))
        parent = _parent(data, path)
        how = draw(st.sampled_from(["replace", "replace", "remove", "double"]))
        if how == "replace":
            parent[path[-1]] = draw(ODD_VALUES)
        elif how == "remove":
            del parent[path[-1]]
        elif isinstance(parent, list):
            parent.insert(path[-1], parent[path[-1]])
    return data


def check_refusal(exc: BaseException) -> None:
    """A refusal is one of the errors shown as one line, and reads as one."""
    assert isinstance(exc, USER_FACING_ERRORS), repr(exc)
    message = str(exc)
    assert message and "\n" not in message, message
    for raw in ("Input should", "validation error", "Traceback", "Errno"):
        assert raw not in message, message


def judge(path: Path, read: Callable[[Path], Any]) -> None:
    """``read(path)`` reads the file or refuses it in one line naming it."""
    try:
        read(path)
    except Exception as exc:  # judged: only one-line refusals naming the file pass
        check_refusal(exc)
        assert str(path) in str(exc), exc

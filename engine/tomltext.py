"""Reading the TOML text of a soloscope file (a scenario, a campaign, a warband): text that is not
TOML, nesting deeper than any soloscope file needs, and numbers that are not finite (``nan``,
``inf``) are refused in one error naming the file and, for the last two, the field.

The nesting limit keeps a file nested thousands of levels deep from exhausting Python's
recursion (the standard parser recurses once per level) and from reaching code that walks
values recursively.
"""

from __future__ import annotations

import math
import re
import tomllib
from typing import Any

from engine.errors import EngineError

MAX_DEPTH = 16
"""The deepest nesting of tables and lists a soloscope file may use (a scenario needs 5)."""

_TRAILING_INDEXES = re.compile(r"(\[[0-9]+\])+$")


class TomlError(EngineError, ValueError):
    """A file that is not usable TOML; the message names the file (and the field)."""


def load_toml(text: str, source: str) -> dict[str, Any]:
    """The file's tables and values; TomlError for malformed text, nesting deeper than
    :data:`MAX_DEPTH` levels or a number that is not finite."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TomlError(f"{source}: not valid TOML: {exc}") from None
    except RecursionError:
        raise TomlError(
            f"{source}: tables or lists are nested too deep (a soloscope file nests them at "
            f"most {MAX_DEPTH} levels)"
        ) from None
    problem = _first_problem(raw)
    if problem is not None:
        raise TomlError(f"{source}: {problem}")
    return raw


def _first_problem(raw: dict[str, Any]) -> str | None:
    """Where the first value nested too deep or the first number that is not finite is, in
    words; None when there is none (walked without recursion)."""
    todo: list[tuple[str, Any, int]] = [("", raw, 0)]
    while todo:
        path, value, depth = todo.pop()
        if depth > MAX_DEPTH:
            field = _TRAILING_INDEXES.sub("", path)
            return (
                f"{field}: tables or lists are nested too deep (a soloscope file nests them at "
                f"most {MAX_DEPTH} levels)"
            )
        if isinstance(value, float) and not math.isfinite(value):
            return f"{path}: {value} is not a number that can be used (give a finite number)"
        if isinstance(value, dict):
            items = [(f"{path}.{k}" if path else str(k), v) for k, v in value.items()]
        elif isinstance(value, list):
            items = [(f"{path}[{i}]", v) for i, v in enumerate(value)]
        else:
            continue
        todo.extend((p, v, depth + 1) for p, v in reversed(items))
    return None

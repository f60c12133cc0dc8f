"""JSON values kept immutable inside the engine: lists become tuples, objects become tuples of
(key, value) pairs, so that actions, events, memories and states stay hashable.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

JSONScalar = bool | int | float | str | None
"""A JSON scalar (rule options, details, memory values)."""

Pairs = tuple[tuple[str, Any], ...]
"""A frozen JSON object: (key, value) pairs in order, values frozen with :func:`freeze`."""

Memory = Pairs
"""A controller's memory for one side (a deck order, an Arch Foe, a previous target):
JSON-able, frozen, saved and undone with the state."""


def freeze(value: Any) -> Any:
    """Lists to tuples, recursively (objects stay as they are; see :func:`freeze_pairs`)."""
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """Tuples to lists, recursively (for JSON)."""
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value


def freeze_pairs(data: Mapping[str, Any] | Pairs) -> Pairs:
    """A JSON object (or pairs) as frozen pairs. Values are scalars or lists (of lists) of
    scalars; a nested object is refused, since it would not round-trip as pairs."""
    items = data.items() if isinstance(data, Mapping) else data
    out = tuple((str(k), freeze(v)) for k, v in items)
    for key, value in out:
        if not _flat(value):
            raise TypeError(f"{key!r}: {value!r} is not a JSON scalar or a list of them")
    return out


def _flat(value: Any) -> bool:
    if isinstance(value, tuple):
        return all(_flat(v) for v in value)
    return value is None or isinstance(value, bool | int | float | str)


def pairs_to_json(pairs: Pairs) -> dict[str, Any]:
    """Frozen pairs as a JSON object (nested tuples as lists)."""
    return {k: thaw(v) for k, v in pairs}

"""A file's validation error in plain words: the field, what is wrong with it and what is
allowed ("table.width_in: 300 is too big (allowed: more than 0 and at most 240)"), never the
validator's own wording ("Input should be less than or equal to 240").
"""

from __future__ import annotations

from typing import Any, get_args

from annotated_types import Ge, Gt, Le, Lt, MaxLen, MinLen
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

LISTS_OF_TABLES = frozenset({"sides", "units", "terrain", "objectives", "roster", "battles"})
"""Fields written as ``[[name]]`` entries in a file."""

_TYPE_WORDS: dict[str, str] = {
    "float_type": "a number is needed",
    "float_parsing": "a number is needed",
    "int_type": "a whole number is needed",
    "int_parsing": "a whole number is needed",
    "int_parsing_size": "a whole number is needed",
    "int_from_float": "a whole number is needed",
    "bool_type": "true or false is needed",
    "bool_parsing": "true or false is needed",
    "string_type": "a text in quotes is needed",
    "dict_type": "a table is needed ([{field}], or {{ key = value }})",
    "model_type": "a table is needed ([{field}], or {{ key = value }})",
    "model_attributes_type": "a table is needed ([{field}], or {{ key = value }})",
    "tuple_type": "a list is needed ([a, b, ...])",
    "list_type": "a list is needed ([a, b, ...])",
    "finite_number": "a finite number is needed",
}
"""What a value of the wrong kind should have been."""

_RANGE_KINDS = frozenset({"greater_than", "greater_than_equal", "less_than", "less_than_equal"})


def _walk(model: type[BaseModel], loc: tuple[int | str, ...]) -> tuple[Any, FieldInfo | None]:
    """The type found at ``loc`` inside ``model`` and the field that declares it (None when
    ``loc`` leaves the models)."""
    current: Any = model
    info: FieldInfo | None = None
    for part in loc:
        if isinstance(part, int):
            args = [a for a in get_args(current) if a is not Ellipsis]
            current = args[0] if args else None
        elif isinstance(current, type) and issubclass(current, BaseModel):
            info = current.model_fields.get(part)
            current = info.annotation if info is not None else None
        else:
            return None, None
    return current, info


def allowed_fields(model: type[BaseModel], loc: tuple[int | str, ...]) -> list[str]:
    """The field names of the model found at ``loc`` inside ``model`` (empty if not a model)."""
    current, _ = _walk(model, loc)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return [name for name in current.model_fields if name != "source"]
    return []


def allowed_range(info: FieldInfo | None) -> str | None:
    """A number field's range in words ("more than 0 and at most 240"), None without one."""
    if info is None:
        return None
    words = []
    for bound in info.metadata:
        if isinstance(bound, Gt):
            words.append(f"more than {bound.gt:g}")
        elif isinstance(bound, Ge):
            words.append(f"{bound.ge:g} or more")
        elif isinstance(bound, Lt):
            words.append(f"less than {bound.lt:g}")
        elif isinstance(bound, Le):
            words.append(f"at most {bound.le:g}")
    return " and ".join(words) or None


def _count_bounds(info: FieldInfo | None) -> tuple[int | None, int | None]:
    lo = hi = None
    for bound in info.metadata if info is not None else ():
        if isinstance(bound, MinLen):
            lo = bound.min_length
        elif isinstance(bound, MaxLen):
            hi = bound.max_length
    return lo, hi


def shown_value(value: object) -> str:
    """A value as the file wrote it, kept short."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value == int(value) and abs(value) < 1e15:
        return f"{value:g}"
    if isinstance(value, str | int | float):
        text = repr(value)
        return text if len(text) <= 40 else text[:37] + "..."
    return "a " + ("table" if isinstance(value, dict) else "list")


def plain_message(error: Any, model: type[BaseModel], loc: tuple[int | str, ...]) -> str:
    """What is wrong with the field at ``loc`` and what is allowed, for one pydantic error."""
    kind = error["type"]
    ctx = error.get("ctx", {})
    value = error.get("input")
    _, info = _walk(model, loc)
    if kind == "extra_forbidden":
        fields = allowed_fields(model, loc[:-1])
        return "unknown field" + (f" (allowed: {', '.join(fields)})" if fields else "")
    if kind == "value_error" and "error" in ctx:
        return str(ctx["error"])
    if kind == "missing":
        return "missing (this field is required)"
    if kind == "literal_error":
        return f"{shown_value(value)} is not allowed (allowed: {ctx['expected']})"
    if kind == "string_too_short":
        return "must not be empty"
    if kind in ("too_short", "too_long"):
        name = str(loc[-1]) if loc else ""
        count = ctx.get("actual_length")
        entries = "entry" if count == 1 else "entries"
        if name in LISTS_OF_TABLES:
            entries = f"[[{name}]] {entries}"
        lo, hi = _count_bounds(info)
        allowed = f"{lo} to {hi}" if lo is not None and hi is not None else ""
        if lo is not None and hi is None:
            allowed = f"at least {lo}"
        elif hi is not None and lo is None:
            allowed = f"at most {hi}"
        given = f"{count} {entries}" if count is not None else f"the wrong number of {entries}"
        return f"{given} given (allowed: {allowed or 'another number'})"
    range_words = allowed_range(info)
    if kind in _RANGE_KINDS:
        return f"{shown_value(value)} is out of range (allowed: {range_words or ctx})"
    what = _TYPE_WORDS.get(kind, "").format(field=field_path(loc))
    if what:
        got = "" if value is None else f", not {shown_value(value)}"
        return f"{what}{got}" + (f" (allowed: {range_words})" if range_words else "")
    return f"{shown_value(value)} is not allowed here"


def describe_error(
    exc: ValidationError, model: type[BaseModel], prefix: tuple[int | str, ...] = ()
) -> str:
    """ "field: what is wrong (what is allowed)" for the first (most telling) problem in ``exc``.

    Unknown fields come first, since a misspelt field also shows up as a missing one.
    """
    errors = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")
    first = errors[0]
    loc = tuple(first["loc"])
    message = plain_message(first, model, loc)
    if not loc:
        return message  # cross-field checks name their fields themselves
    more = len(errors) - 1
    tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
    return f"{field_path(prefix + loc)}: {message}{tail}"


def field_path(loc: tuple[int | str, ...]) -> str:
    """ "units[2].card.attack" for the location (units, 2, card, attack)."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"

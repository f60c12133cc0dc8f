"""Table adapters: each ruleset at the table, found by the ruleset's name.

A module per ruleset (``assistant/tables/<ruleset name>.py``) implements
:class:`~assistant.tables.base.TableAdapter` and ends with one registration line,
``register_adapter(NAME, Adapter)``; :mod:`assistant.tables.builtin` imports them. The live
session, the page, the replay and ``soloscope odds`` reach a ruleset's table side only through
:func:`find_adapter`.
"""

from __future__ import annotations

from collections.abc import Callable

from assistant.errors import UserError
from assistant.tables.base import TableAdapter
from engine.protocols import Ruleset

_ADAPTERS: dict[str, Callable[[], TableAdapter]] = {}


class UnknownAdapterError(UserError):
    """A ruleset with no table adapter registered."""


def register_adapter(ruleset_name: str, factory: Callable[[], TableAdapter]) -> None:
    """Make the table adapter of ``ruleset_name`` findable (``factory`` builds one)."""
    _ADAPTERS[ruleset_name] = factory


def unregister_adapter(ruleset_name: str) -> None:
    """Forget the table adapter of ``ruleset_name``; no-op if there is none."""
    _ADAPTERS.pop(ruleset_name, None)


def _load_builtins() -> None:
    import assistant.tables.builtin  # noqa: F401  (its imports run the registration lines)


def find_adapter(ruleset_name: str) -> TableAdapter:
    """The table adapter of the ruleset named ``ruleset_name``."""
    _load_builtins()
    try:
        return _ADAPTERS[ruleset_name]()
    except KeyError:
        known = ", ".join(sorted(_ADAPTERS)) or "none"
        raise UnknownAdapterError(
            f"the ruleset {ruleset_name!r} has no table adapter (known: {known})"
        ) from None


def adapter_names() -> list[str]:
    """Every ruleset with a table adapter, sorted."""
    _load_builtins()
    return sorted(_ADAPTERS)


def adapter_for(ruleset: Ruleset) -> TableAdapter:
    """The table adapter of a ruleset the game runs (found by the ruleset's name)."""
    return find_adapter(ruleset.name)

"""Table adapters: each ruleset at the table, found by the ruleset's name.

A module per ruleset (``assistant/tables/<ruleset name>.py``) implements
:class:`~assistant.tables.base.TableAdapter` and ends with one registration line,
``register_adapter(NAME, Adapter)``; :mod:`assistant.tables.builtin` names their modules, each
imported when its ruleset's adapter is first asked for (``soloscope odds narrative`` loads the
narrative rules alone). The live
session, the page, the replay and ``soloscope odds`` reach a ruleset's table side only through
:func:`find_adapter`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from assistant.errors import UserError
from assistant.tables.base import TableAdapter
from assistant.tables.builtin import BUILTIN_ADAPTERS
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


def _load_builtin(ruleset_name: str) -> None:
    """Import the bundled adapter of ``ruleset_name`` (its registration line), if there is one
    and it is not registered yet."""
    if ruleset_name not in _ADAPTERS and ruleset_name in BUILTIN_ADAPTERS:
        importlib.import_module(BUILTIN_ADAPTERS[ruleset_name])


def find_adapter(ruleset_name: str) -> TableAdapter:
    """The table adapter of the ruleset named ``ruleset_name``."""
    _load_builtin(ruleset_name)
    try:
        return _ADAPTERS[ruleset_name]()
    except KeyError:
        known = ", ".join(adapter_names()) or "none"
        raise UnknownAdapterError(
            f"the ruleset {ruleset_name!r} has no table adapter (known: {known})"
        ) from None


def adapter_names() -> list[str]:
    """Every ruleset with a table adapter, sorted (the bundled ones are not imported)."""
    return sorted(set(_ADAPTERS) | set(BUILTIN_ADAPTERS))


def adapter_for(ruleset: Ruleset) -> TableAdapter:
    """The table adapter of a ruleset the game runs (found by the ruleset's name)."""
    return find_adapter(ruleset.name)

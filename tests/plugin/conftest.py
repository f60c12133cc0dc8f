"""The test-only ruleset is registered for these tests only (the registry is restored after)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import assistant.tables as tables
import engine.protocols as protocols
from tests.plugin import ruleset, table


@pytest.fixture(autouse=True)
def plugin_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The plug-in ruleset, controller and table adapter findable by name during one test."""
    protocols.ruleset_names()  # the built-ins first
    monkeypatch.setattr(protocols, "_RULESETS", dict(protocols._RULESETS))
    monkeypatch.setattr(protocols, "_CONTROLLERS", dict(protocols._CONTROLLERS))
    tables.adapter_names()
    monkeypatch.setattr(tables, "_ADAPTERS", dict(tables._ADAPTERS))
    ruleset.register()
    table.register()
    yield

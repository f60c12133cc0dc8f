"""The test-only ruleset is registered for these tests only (unregistered after each)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from assistant.tables import adapter_names, unregister_adapter
from engine.protocols import ruleset_names, unregister_controller, unregister_ruleset
from tests.plugin import ruleset, table


@pytest.fixture(autouse=True)
def plugin_registered() -> Iterator[None]:
    """The plug-in ruleset, controller and table adapter findable by name during one test."""
    ruleset_names()  # the built-ins first, so they are not loaded while the plug-in is in
    adapter_names()
    ruleset.register()
    table.register()
    try:
        yield
    finally:
        unregister_ruleset(ruleset.NAME)
        unregister_controller(ruleset.PluginAI.name)
        unregister_adapter(ruleset.NAME)

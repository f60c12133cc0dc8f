"""The table adapter registry: every ruleset the engine knows has one, found by name; an
unknown name is one sentence naming the known ones."""

from __future__ import annotations

import pytest

from assistant.cli import main
from assistant.tables import UnknownAdapterError, adapter_names, find_adapter, register_adapter
from assistant.tables.base import BaseAdapter, TableAdapter
from assistant.tables.narrative import NarrativeAdapter
from engine.protocols import ruleset_names


def test_every_engine_ruleset_has_a_table_adapter() -> None:
    for name in ruleset_names():
        adapter = find_adapter(name)
        assert adapter.name == name
    assert "narrative" in adapter_names()
    assert isinstance(find_adapter("narrative"), NarrativeAdapter)


def test_an_unknown_ruleset_is_one_sentence() -> None:
    with pytest.raises(UnknownAdapterError) as caught:
        find_adapter("no-such-rules")
    text = str(caught.value)
    assert "'no-such-rules' has no table adapter" in text and "narrative" in text
    assert "\n" not in text


def test_a_registered_adapter_is_found_by_its_name_and_built_fresh() -> None:
    class Plain(BaseAdapter):
        name = "plain-test-rules"

    register_adapter("plain-test-rules", Plain)
    try:
        first, second = find_adapter("plain-test-rules"), find_adapter("plain-test-rules")
        assert isinstance(first, Plain) and first is not second
        assert "plain-test-rules" in adapter_names()
    finally:
        from assistant import tables

        tables._ADAPTERS.pop("plain-test-rules", None)


def test_the_base_adapter_says_there_are_no_odds(capsys: pytest.CaptureFixture[str]) -> None:
    adapter: TableAdapter = NarrativeAdapter()
    assert adapter.odds_help
    # The odds command offers a sub-command per adapter with odds; others are refused by argparse.
    with pytest.raises(SystemExit) as stopped:
        main(["odds", "plain-test-rules"])
    assert stopped.value.code == 2
    assert "invalid choice" in capsys.readouterr().err

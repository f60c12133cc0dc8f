"""``rules --json`` and ``scenarios --json``: the listing contract other tools read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.cli import main
from engine.protocols import controller_names, ruleset_names


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> object:
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return json.loads(out)


def test_rules_json_lists_every_ruleset_and_controller(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = _json(capsys, ["rules", "--json"])
    assert isinstance(data, dict) and set(data) == {"rulesets", "controllers"}
    assert [r["name"] for r in data["rulesets"]] == ruleset_names()
    assert [c["name"] for c in data["controllers"]] == controller_names()
    for r in data["rulesets"]:
        assert set(r) == {"name", "title", "source"} and r["title"] and r["source"]
        assert "seed" not in r["title"].lower()
    narrative = next(r for r in data["rulesets"] if r["name"] == "narrative")
    assert narrative["title"] == "Solo Narrative Minis Ruleset"
    for c in data["controllers"]:
        assert set(c) == {"name", "plays"} and set(c["plays"]) <= set(ruleset_names())
    assert {"narrative-ai", "autopilot"} <= {c["name"] for c in data["controllers"]}


def test_rules_text_names_systems_by_title(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "Solo Narrative Minis Ruleset" in out and "seed" not in out.lower()


def test_scenarios_json_lists_bundled_scenarios(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, ["scenarios", "--json"])
    assert isinstance(data, list)
    by_name = {row["name"]: row for row in data}
    assert {"ford-at-dawn", "crossroads-ambush", "watchtower-coop"} <= set(by_name)
    for row in data:
        assert set(row) == {"name", "ruleset", "controllers", "title", "path"}
        assert Path(row["path"]).is_file() and Path(row["path"]).stem == row["name"]
        assert row["ruleset"] in ruleset_names()
        assert set(row["controllers"]) == {"ai", "human"}
    assert by_name["ford-at-dawn"]["controllers"] == {"ai": "narrative-ai", "human": "autopilot"}

"""Running campaign commands in this process and reading their output (issue 16 tests)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from assistant.campaign.files import bundled_dir
from assistant.cli import main


def cli(capsys: pytest.CaptureFixture[str], *argv: str, code: int = 0) -> str:
    """Run ``soloscope ARGV`` here; its standard output (standard error when it fails)."""
    capsys.readouterr()
    got = main(list(argv))
    out, err = capsys.readouterr()
    assert got == code, (out, err)
    return out if code == 0 else err


def show(capsys: pytest.CaptureFixture[str], db: Path) -> dict[str, Any]:
    """``campaign show --json``."""
    data: dict[str, Any] = json.loads(cli(capsys, "campaign", "show", "--json", "--db", str(db)))
    return data


def campaign_copy(tmp_path: Path, option: str = "A", name: str = "wardens-road") -> Path:
    """A copy of a bundled campaign with the wound option set (its scenarios are bundled
    names, so the copy reads them from anywhere)."""
    text = (bundled_dir() / f"{name}.toml").read_text(encoding="utf-8")
    text = text.replace('wounds = "A"', f'wounds = "{option}"')
    path = tmp_path / f"{name}-{option}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def battle_units(run: str) -> dict[str, dict[str, Any]]:
    """The player's units of a battle's scenario file, by id."""
    data = tomllib.loads((Path(run) / "scenario.toml").read_text(encoding="utf-8"))
    human = next(s["name"] for s in data["sides"] if s["role"] == "human")
    return {u["id"]: u for u in data["units"] if u["side"] == human}


def log_unit_ids(run: str) -> set[str]:
    """Every unit id in a simulated battle's log (its setup line and events)."""
    ids: set[str] = set()
    for line in (Path(run) / "log.jsonl").read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        if item["type"] == "setup":
            ids |= {u["id"] for u in item["units"]}
        elif "unit" in item:
            ids.add(item["unit"])
    return ids


def rolls_for(battle: dict[str, Any], value: int) -> str:
    """``--rolls`` for option B: ``value`` for each die the last battle's resolution needs
    (one per wound token, one per fallen character)."""
    n = sum(1 if w["fallen"] else w["wounds"] for w in battle["wounds"])
    return ",".join([str(value)] * n)

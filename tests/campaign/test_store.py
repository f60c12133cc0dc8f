"""The campaign store: a database of an older schema is migrated; a corrupt or foreign file,
a newer schema, a missing file are one clear sentence and change nothing (issue 16)."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from assistant.campaign.files import load_campaign
from assistant.campaign.store import APPLICATION_ID, SCHEMA_V1, SCHEMA_VERSION, CampaignStore
from tests.campaign.helpers import cli, show


def _folder(path: Path) -> dict[str, str]:
    """Every file of a folder with its checksum."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(path.iterdir())}


def _version_1_campaign(path: Path) -> None:
    """A campaign database as the first schema wrote it: one battle fought and resolved."""
    loaded = load_campaign("wardens-road")
    db = sqlite3.connect(path)
    db.executescript(SCHEMA_V1)
    db.execute(f"PRAGMA application_id={APPLICATION_ID}")
    db.execute("PRAGMA user_version=1")
    db.execute(
        "INSERT INTO campaign VALUES (1, 'wardens-road', ?, ?, 'ford')",
        (loaded.campaign.source, loaded.text),
    )
    for battle_id, (source, text) in loaded.scenarios.items():
        db.execute("INSERT INTO scenario_files VALUES (?, ?, ?)", (battle_id, source, text))
    for i, c in enumerate(loaded.campaign.roster):
        wounds, status = (1, "wounded") if c.key == "rook" else (0, "fit")
        db.execute(
            "INSERT INTO characters VALUES (?, ?, ?, ?, ?, ?, 1, 0)",
            (c.key, c.name, c.tag, i, wounds, status),
        )
    db.execute(
        "INSERT INTO battles VALUES (1, 'shrine', 'crossroads-ambush', 9, 'win', NULL, 'ford')"
    )
    db.commit()
    db.close()


def test_a_version_1_database_is_migrated_and_plays_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "old.sqlite"
    _version_1_campaign(db)
    capsys.readouterr()
    from assistant.cli import main

    assert main(["campaign", "show", "--json", "--db", str(db)]) == 0
    err = capsys.readouterr().err
    assert "schema version 1 updated" in err
    with CampaignStore.open(db) as store:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.migrated_from is None  # already current
        assert store.problems() == []
        assert [b.played for b in store.battles()] == ["v1"]
    data = show(capsys, db)
    assert [(b["scenario"], b["seed"], b["outcome"]) for b in data["battles"]] == [
        ("crossroads-ambush", 9, "win")
    ]
    rook = next(c for c in data["roster"] if c["id"] == "rook")
    assert (rook["wounds"], rook["status"], rook["wound_from"]) == (1, "wounded", "")
    assert data["next_battle"] == "ford" and data["battles"][0]["resolved"] is True
    cli(capsys, "campaign", "next", "--simulate", "--seed", "2", "--db", str(db))
    cli(capsys, "campaign", "resolve", "--speech", "off", "--db", str(db))
    assert len(show(capsys, db)["battles"]) == 2
    cli(capsys, "campaign", "undo", "--db", str(db))
    err = cli(capsys, "campaign", "undo", "--db", str(db), code=2)
    assert "older soloscope" in err and "cannot be taken back" in err


def _foreign(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE recipes (name TEXT, minutes INTEGER)")
    db.execute("INSERT INTO recipes VALUES ('soup', 20)")
    db.commit()
    db.close()


def _newer(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA application_id={APPLICATION_ID}")
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.execute("CREATE TABLE campaign (id INTEGER)")
    db.commit()
    db.close()


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (
            lambda p: p.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 20),
            "not a soloscope campaign",
        ),
        (lambda p: p.write_text("a shopping list\n", encoding="utf-8"), "not a soloscope campaign"),
        (_foreign, "an SQLite database of another program (tables: recipes)"),
        (_newer, f"schema version {SCHEMA_VERSION + 1}, newer than this soloscope reads"),
    ],
    ids=["corrupt", "text", "foreign", "newer"],
)
@pytest.mark.parametrize("step", ["show", "next", "resolve", "undo"])
def test_a_file_that_is_not_a_campaign_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: object, expected: str, step: str
) -> None:
    db = tmp_path / "x.sqlite"
    make(db)  # type: ignore[operator]
    before = _folder(tmp_path)
    extra = ["--simulate", "--seed", "1"] if step == "next" else []
    err = cli(capsys, "campaign", step, *extra, "--db", str(db), code=2)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert expected in err and "nothing was changed" in err, err
    assert _folder(tmp_path) == before


def test_new_refuses_an_existing_file_and_others_a_missing_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "c.sqlite"
    err = cli(capsys, "campaign", "show", "--db", str(db), code=2)
    assert "no campaign at" in err and "campaign new" in err
    assert not db.exists()
    _foreign(db)
    before = _folder(tmp_path)
    err = cli(capsys, "campaign", "new", "wardens-road", "--db", str(db), code=2)
    assert "already exists" in err and _folder(tmp_path) == before


def test_a_failed_change_leaves_the_campaign_as_it_was(tmp_path: Path) -> None:
    """The battle's rows and the campaign's advance are one transaction: an error in the
    middle of writing them (here: a character the roster does not have) writes nothing."""
    from dataclasses import replace

    from assistant.campaign.battle import simulate_next
    from assistant.campaign.store import table_dump
    from assistant.campaign.wounds import BattleWounds

    loaded = load_campaign("wardens-road")
    with CampaignStore.create(
        tmp_path / "c.sqlite", loaded.campaign, loaded.text, loaded.scenarios
    ) as store:
        _, result = simulate_next(store, 9)
        before = table_dump(store)
        broken = replace(
            result, units=(*result.units, (BattleWounds("ghost", "G", 0, 1, False), 0))
        )
        with pytest.raises(Exception):  # noqa: B017 - whatever sqlite raises
            store.record_battle(broken)
        assert table_dump(store) == before
        store.record_battle(result)
        assert store.problems() == [] and len(store.battles()) == 1

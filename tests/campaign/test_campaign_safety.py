"""A campaign in use is locked: a second step that would change it is refused, saying who
holds it, before it writes anything (a second ``campaign next`` no longer overwrites the
recorded battle's log); a database with garbage pages is one sentence for every step."""

from __future__ import annotations

import hashlib
import os
import random
from pathlib import Path

import pytest

from calibration.safe_files import take_lock
from tests.campaign.helpers import cli, show


def _files(folder: Path) -> dict[str, str]:
    """Every file under a folder with its checksum."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _one_battle_fought(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A new campaign of the bundled Wardens' Road with its first battle simulated."""
    db = tmp_path / "camp.sqlite"
    cli(capsys, "campaign", "new", "wardens-road", "--db", str(db))
    cli(capsys, "campaign", "next", "--simulate", "--seed", "1", "--db", str(db))
    return db


def test_a_second_step_on_a_campaign_in_use_is_refused_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _one_battle_fought(tmp_path, capsys)
    cli(capsys, "campaign", "resolve", "--speech", "off", "--db", str(db))
    runs = tmp_path / "camp-runs"
    before = _files(runs)
    assert "battle-1-shrine/log.jsonl" in before
    with take_lock(tmp_path / "camp.sqlite.lock", "soloscope campaign next", f"the campaign {db}"):
        for step in (["next", "--simulate", "--seed", "2"], ["undo"],
                     ["recover", "ash", "--speech", "off"]):  # fmt: skip
            err = cli(capsys, "campaign", *step, "--db", str(db), code=2)
            assert err.startswith(
                f"soloscope campaign: the campaign {db} is in use by soloscope campaign next "
                f"(process {os.getpid()}, since "
            ), err
            assert "Traceback" not in err and err.count("\n") == 1
        assert len(show(capsys, db)["battles"]) == 1  # show only reads: allowed
    assert _files(runs) == before  # no battle 2 begun, the recorded battle's log as it was
    cli(capsys, "campaign", "next", "--simulate", "--seed", "2", "--db", str(db))  # let go: runs
    assert len(show(capsys, db)["battles"]) == 2


def test_a_database_with_garbage_pages_is_one_sentence_for_every_step(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _one_battle_fought(tmp_path, capsys)
    data = bytearray(db.read_bytes())
    noise = random.Random(7)
    for i in range(4096, len(data)):  # every page after the first: the schema still reads
        data[i] = noise.randrange(256)
    db.write_bytes(bytes(data))
    for step in (["show"], ["show", "--json"], ["resolve", "--speech", "off"], ["undo"],
                 ["next", "--simulate", "--seed", "2"], ["recover", "ash", "--speech", "off"]):  # fmt: skip
        err = cli(capsys, "campaign", *step, "--db", str(db), code=2)
        assert err.startswith(f"soloscope campaign: {db} is a damaged campaign database"), err
        assert "nothing was changed" in err and err.count("\n") == 1, err
        assert "Traceback" not in err
    assert db.read_bytes() == bytes(data)


def test_a_port_out_of_range_is_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "camp.sqlite"
    cli(capsys, "campaign", "new", "wardens-road", "--db", str(db))
    for port in ("70000", "-1"):
        for step in (["show", "--page"], ["next", "--source", "0"]):
            err = cli(capsys, "campaign", *step, "--port", port, "--db", str(db), code=2)
            assert err == (
                f"soloscope campaign: --port {port} is not a port (allowed: 1 to 65535, or 0 "
                "for any free port)\n"
            )
    assert not (tmp_path / "camp-runs").exists()  # nothing written for the battle

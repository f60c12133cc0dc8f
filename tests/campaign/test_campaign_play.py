"""Issue 16, must show: a four-battle campaign played by ``campaign next --simulate`` to its end,
wounds carried per RULES D000-13 option A and option B (scripted dice), a lost character
absent from later battles, the branch taken by outcome; undo; the show --json contract."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.scenarios import load_game
from tests.campaign.helpers import (
    battle_units,
    campaign_copy,
    cli,
    log_unit_ids,
    rolls_for,
    show,
)

# Seeds of the first battle (crossroads-ambush with the wardens-road roster), from the runs:
WIN_IVY_FALLS_ROOK_WOUNDED = 9  # win; Crossbow Ivy falls; Shieldman Rook ends with 1 wound
LOSE = 3  # lose (the relic was carried off first: flag relic-saved)


def _next(capsys: pytest.CaptureFixture[str], db: Path, seed: int) -> None:
    cli(capsys, "campaign", "next", "--simulate", "--seed", str(seed), "--db", str(db))


def test_show_json_contract(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "c.sqlite"
    cli(capsys, "campaign", "new", "wardens-road", "--db", str(db))
    data = show(capsys, db)
    assert {"campaign", "next", "roster", "battles"} <= set(data)
    assert data["campaign"] == "wardens-road" and data["next"] == "crossroads-ambush"
    assert [set(c) >= {"name", "tag", "wounds", "status"} for c in data["roster"]] == [True] * 3
    assert [(c["name"], c["tag"], c["wounds"], c["status"]) for c in data["roster"]] == [
        ("Sergeant Ash", 16, 0, "fit"),
        ("Crossbow Ivy", 17, 0, "fit"),
        ("Shieldman Rook", 18, 0, "fit"),
    ]
    assert data["battles"] == []
    _next(capsys, db, WIN_IVY_FALLS_ROOK_WOUNDED)
    battle = show(capsys, db)["battles"][0]
    assert (battle["scenario"], battle["seed"], battle["outcome"]) == (
        "crossroads-ambush",
        WIN_IVY_FALLS_ROOK_WOUNDED,
        "win",
    )


def test_option_a_four_battles_to_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "a.sqlite"
    cli(capsys, "campaign", "new", str(campaign_copy(tmp_path, "A")), "--db", str(db))
    _next(capsys, db, WIN_IVY_FALLS_ROOK_WOUNDED)
    # The next battle waits for the wounds to be resolved.
    err = cli(capsys, "campaign", "next", "--simulate", "--seed", "1", "--db", str(db), code=2)
    assert "campaign resolve" in err and err.count("\n") == 1
    said = cli(capsys, "campaign", "resolve", "--speech", "off", "--db", str(db))
    assert "Shieldman Rook carries 1 wound into the next battle." in said
    assert (
        "Crossbow Ivy fell; returns next battle unhurt (its card has no wound slots to fill)."
        in said
    )
    data = show(capsys, db)
    roster = {c["id"]: c for c in data["roster"]}
    assert (roster["rook"]["wounds"], roster["rook"]["status"]) == (1, "wounded")
    assert roster["rook"]["wound_from"] == "the shrine"
    assert (roster["ivy"]["wounds"], roster["ivy"]["status"]) == (0, "fit")
    # The branch: the first battle was won, so the ford is next.
    assert (data["next_battle"], data["next"]) == ("ford", "ford-at-dawn")

    _next(capsys, db, 2)
    battle = show(capsys, db)["battles"][1]
    assert battle["battle"] == "ford"
    units = battle_units(battle["run"])
    assert units["rook"]["name"] == "Shieldman Rook" and units["rook"]["wounds"] == 1
    assert units["rook"]["tags"][0]["id"] == 18
    # The veteran starts the battle with the wound on its card (the unit's state).
    _, _, state = load_game(str(Path(battle["run"]) / "scenario.toml"))
    assert state.unit("rook").wounds == 1 and state.unit("ash").wounds == 0
    scenario_text = (Path(battle["run"]) / "scenario.toml").read_text(encoding="utf-8")
    assert "Shieldman Rook, carrying one wound from the shrine." in scenario_text

    for seed in (3, 4):
        cli(capsys, "campaign", "resolve", "--speech", "off", "--db", str(db))
        _next(capsys, db, seed)
    cli(capsys, "campaign", "resolve", "--speech", "off", "--db", str(db))
    data = show(capsys, db)
    assert [b["battle"] for b in data["battles"]] == ["shrine", "ford", "tower", "home"]
    assert data["next"] is None and data["path"] == ["shrine", "ford", "tower", "home"]
    err = cli(capsys, "campaign", "next", "--simulate", "--seed", "1", "--db", str(db), code=2)
    assert "the campaign is over" in err
    assert all(c["battles"] == 4 for c in data["roster"])  # option A loses nobody


def test_option_b_lost_character_absent_later(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "b.sqlite"
    cli(capsys, "campaign", "new", str(campaign_copy(tmp_path, "B")), "--db", str(db))
    _next(capsys, db, WIN_IVY_FALLS_ROOK_WOUNDED)
    before = show(capsys, db)
    # Option B: Ivy fell (one d6, 1-2 lost), Rook has one wound (one d6, 1-3 carries it).
    err = cli(
        capsys, "campaign", "resolve", "--rolls", "1", "--speech", "off", "--db", str(db), code=2
    )
    assert "ran out" in err and "nothing was changed" in err
    assert show(capsys, db) == before
    wavs = tmp_path / "speech"
    said = cli(
        capsys, "campaign", "resolve", "--rolls", "1,2", "--speech", f"wav:{wavs}", "--db", str(db)
    )
    assert "Crossbow Ivy fell; rolled 1: lost for the campaign." in said
    assert "Shieldman Rook rolled 2: 0 healed, carries 1 wound." in said
    assert len(list(wavs.glob("*.wav"))) == 4  # the header and three characters, spoken
    roster = {c["id"]: c for c in show(capsys, db)["roster"]}
    assert (roster["ivy"]["status"], roster["ivy"]["wounds"]) == ("lost", 0)
    assert (roster["rook"]["status"], roster["rook"]["wounds"]) == ("wounded", 1)

    for seed, heal in ((2, 4), (3, 5), (4, 6)):
        _next(capsys, db, seed)
        data = show(capsys, db)
        battle = data["battles"][-1]
        assert "ivy" not in battle_units(battle["run"]) and "ivy" not in log_unit_ids(battle["run"])
        assert "Crossbow Ivy is lost and does not fight." in (
            Path(battle["run"]) / "scenario.toml"
        ).read_text(encoding="utf-8")
        rolls = rolls_for(battle, heal)
        args = ["--rolls", rolls] if rolls else []
        cli(capsys, "campaign", "resolve", *args, "--speech", "off", "--db", str(db))
    data = show(capsys, db)
    assert data["next"] is None and len(data["battles"]) == 4
    roster = {c["id"]: c for c in data["roster"]}
    assert roster["ivy"]["battles"] == 1 and roster["ash"]["battles"] == 4
    # Rolls of 4-6: every wound token heals; a fallen character returns with every slot filled.
    for w in data["battles"][-1]["wounds"]:
        assert roster[w["id"]]["wounds"] == (w["slots"] if w["fallen"] else 0), w


def test_branch_by_outcome_and_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "c.sqlite"
    cli(capsys, "campaign", "new", "wardens-road", "--db", str(db))
    _next(capsys, db, LOSE)
    data = show(capsys, db)
    assert data["battles"][0]["outcome"] == "lose"
    assert (data["next_battle"], data["next"]) == ("ditch", "crossroads-ambush")
    assert data["flags"] == ["relic-saved"]


def test_undo_takes_back_the_last_battle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "c.sqlite"
    cli(capsys, "campaign", "new", "wardens-road", "--db", str(db))
    _next(capsys, db, WIN_IVY_FALLS_ROOK_WOUNDED)
    cli(capsys, "campaign", "resolve", "--speech", "off", "--db", str(db))
    after_first = show(capsys, db)
    _next(capsys, db, 2)
    cli(capsys, "campaign", "resolve", "--speech", "off", "--db", str(db))
    assert len(show(capsys, db)["battles"]) == 2
    run = Path(show(capsys, db)["battles"][1]["run"])
    out = cli(capsys, "campaign", "undo", "--db", str(db))
    assert "Battle 2" in out
    assert show(capsys, db) == after_first
    # Its files are set aside: the battle played again starts afresh.
    assert not run.exists() and (run.parent / f"{run.name}-undone" / "log.jsonl").is_file()
    cli(capsys, "campaign", "undo", "--db", str(db))  # an unresolved-or-not battle alike
    cli(capsys, "campaign", "undo", "--db", str(db), code=2)
    assert show(capsys, db)["next_battle"] == "shrine"

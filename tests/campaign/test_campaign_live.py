"""``campaign next --source``: the next battle played live through the same session as
``soloscope play`` (issue 16). The camera knows each veteran by its tag; the briefing, the
page's unit cards and the speech use the veteran's name and wounds; a live battle's result is
recorded like a simulated one."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from assistant.campaign.battle import prepare, simulate_next
from assistant.campaign.live import live_result
from assistant.campaign.store import CampaignStore
from assistant.scenarios import load_game
from assistant.session.dice import AutoDice
from assistant.session.game import LiveGame
from assistant.session.view import build_view
from engine.actions import ActionKind
from engine.dice import SeededDice
from engine.model import Role
from engine.protocols import find_controller
from engine.runner import controllers_for, play_battle, start_game
from tests.campaign.helpers import cli, show
from tests.session.clips import short_clip_folder
from tests.session.virtual_table import VirtualTable

LOSE_ROOK_FALLS = 3  # the shrine is lost (next: the ditch road, crossroads-ambush again)


@pytest.fixture(autouse=True)
def no_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not interactive, even under ``pytest -s``: the page is not held after the battle."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))


def _wounded_rook_on_the_ditch_road(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    db = tmp_path / "c.sqlite"
    cli(capsys, "campaign", "new", "wardens-road", "--db", str(db))
    cli(capsys, "campaign", "next", "--simulate", "--seed", str(LOSE_ROOK_FALLS), "--db", str(db))
    cli(capsys, "campaign", "resolve", "--speech", "off", "--db", str(db))
    data = show(capsys, db)
    assert data["next_battle"] == "ditch"  # crossroads-ambush again, as the sample footage
    rook = next(c for c in data["roster"] if c["id"] == "rook")
    assert (rook["wounds"], rook["wound_from"]) == (1, "the shrine")
    return db


def test_live_battle_knows_the_veterans_by_their_tags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The sample footage's first 8 seconds (set-up, initiative, an AI order): its models carry
    tags 16-18, which the campaign's roster puts on Ash, Ivy and Rook."""
    clips = short_clip_folder(tmp_path / "clips")
    db = _wounded_rook_on_the_ditch_road(tmp_path, capsys)
    wavs = tmp_path / "speech"
    args = ["campaign", "next", "--source", str(clips / "short.mp4"), "--no-page"]
    out = cli(capsys, *args, "--speech", f"wav:{wavs}", "--seed", "5", "--db", str(db))
    assert "The battle is not over; it is saved" in out
    session = db.with_name("c-runs") / "battle-2-ditch" / "session"
    saved = json.loads((session / "game.json").read_text(encoding="utf-8"))
    said = [text for _, text in saved["announcements"]]
    assert said[:4] == [
        "Battle 2 of The Wardens' Road: Back along the ditch road.",
        "Sergeant Ash, fit for battle.",
        "Crossbow Ivy, fit for battle.",
        "Shieldman Rook, carrying one wound from the shrine.",
    ]
    assert said[4] == "The table matches Ambush at the Crossroads Shrine. Let battle begin."
    assert len(list(wavs.glob("*.wav"))) == len(said)  # every line spoken
    # Set-up matched each veteran to the model carrying its tag.
    assert {"ash", "ivy", "rook"} <= set(saved["positions"])
    _, _, state = load_game(str(session.parent / "scenario.toml"))
    assert state.unit("rook").wounds == 1 and state.unit("rook").name == "Shieldman Rook"
    assert show(capsys, db)["battles"][-1]["battle"] == "shrine"  # nothing recorded yet
    # Again: the saved battle resumes (the briefing is not said twice).
    cli(capsys, *args, "--speech", "off", "--db", str(db))
    again = json.loads((session / "game.json").read_text(encoding="utf-8"))["announcements"]
    assert [text for _, text in again].count(
        "Shieldman Rook, carrying one wound from the shrine."
    ) == 1


def test_a_live_battle_on_the_virtual_table_is_recorded_like_the_simulated_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _wounded_rook_on_the_ditch_road(tmp_path, capsys)
    with CampaignStore.open(db) as store:
        prepared = prepare(store)
        ruleset, state = start_game(prepared.scenario)
        seed = 4
        record = play_battle(state, ruleset, controllers_for(prepared.scenario), SeededDice(seed))
        human = state.side_of_role(Role.HUMAN)
        assert human is not None
        plan = tuple(
            a
            for a in record.actions
            if (a.unit_id and state.unit(a.unit_id).side == human.name)
            or (a.kind in (ActionKind.PASS, ActionKind.CHOOSE) and a.side == human.name)
        )
        said: list[str] = []
        game = LiveGame(
            scenario=prepared.scenario,
            ruleset=ruleset,
            ai=find_controller(prepared.scenario.scenario.ai_controller),
            dice=AutoDice(seed),
            say=said.append,
            initial=state,
            human_plan=plan,
        )
        # The page's unit card: the veteran's name and the wound it carries.
        rook = next(u for u in build_view(game).units if u.id == "rook")
        assert (rook.name, rook.wounds, rook.wound_slots) == ("Shieldman Rook", 1, 1)
        VirtualTable(game).play()
        live = live_result(store, prepared, game, tmp_path)
        _, simulated = simulate_next(store, seed)
        assert (live.outcome, live.next_node, live.units) == (
            simulated.outcome,
            simulated.next_node,
            simulated.units,
        )
        assert live.played == "live"
        store.record_battle(live)
        assert store.problems() == []


def test_the_table_page_of_a_campaign_battle_serves_the_campaign_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``campaign next --source`` gives the table page the campaign's database, so /campaign
    is served beside the battle."""
    from assistant.live_hub import LiveHub
    from assistant.web.app import create_app

    db = tmp_path / "c.sqlite"
    cli(capsys, "campaign", "new", "wardens-road", "--db", str(db))
    seen: list[object] = []

    def fake_play(store: object, opts: object, echo: object = None) -> tuple[object, None, None]:
        seen.append(opts)
        return None, None, None

    monkeypatch.setattr("assistant.campaign.live.play_next_live", fake_play)
    cli(capsys, "campaign", "next", "--source", "0", "--db", str(db))
    config = seen[0].page_config  # type: ignore[attr-defined]
    assert config == {"CAMPAIGN_DB": str(db.resolve())}
    client = create_app(LiveHub(), {**config, "TESTING": True}).test_client()
    page = client.get("/campaign").get_data(as_text=True)
    assert "The Wardens&#39; Road" in page and "Sergeant Ash" in page

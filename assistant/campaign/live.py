"""``campaign next --source SRC``: the next battle played live, through the same session as
``soloscope play``.

The battle's scenario file (the roster seated: veterans' names, tags, cards and starting
wounds, and the briefing "Sergeant Ash, carrying one wound from the ford") is written to the
battle's run folder and played from there, so the camera knows each veteran by its tag and
the page and speech use its name and wounds. The session keeps its files in ``session/``
inside the run folder; if the camera feed ends before the battle does, running ``campaign
next --source`` again resumes it. The result is recorded when the battle is over.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from assistant.campaign.battle import (
    PreparedBattle,
    battle_folder,
    battle_result,
    prepare,
)
from assistant.campaign.store import BattleResult, CampaignStore
from assistant.session.finish import SessionResult
from assistant.session.game import LiveGame, Stage
from assistant.session.start import SessionOptions, run_session
from assistant.session.store import load_saved
from calibration.safe_files import write_atomic


def play_next_live(
    store: CampaignStore, opts: SessionOptions, echo: Callable[[str], None] = print
) -> tuple[PreparedBattle, BattleResult | None, SessionResult | None]:
    """Play the next battle at the table (``opts`` as for ``play``; its scenario, out and
    resume are set here). The result is None when the battle did not end (it is saved and
    resumes next time); the session is None when the saved battle had already ended (finished
    with ``play --resume``) and is only recorded."""
    prepared = prepare(store)
    folder = battle_folder(store, prepared)
    session = folder / "session"
    scenario_file = folder / "scenario.toml"
    saved = session / "game.json"
    if saved.exists():
        game = load_saved(saved, lambda text: None)[0]
        if game.state.winner is not None:
            return prepared, live_result(store, prepared, game, folder), None
        opts.resume, opts.scenario, opts.out = session, None, None
    else:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(scenario_file, prepared.scenario_text)
        opts.resume, opts.scenario, opts.out = None, str(scenario_file), session
    result = run_session(opts, echo)
    if result.game.stage is not Stage.OVER:
        return prepared, None, result
    return prepared, live_result(store, prepared, result.game, folder), result


def live_result(
    store: CampaignStore, prepared: PreparedBattle, game: LiveGame, folder: Path
) -> BattleResult:
    """The store's record of a battle played live (its seed from the saved game)."""
    events = [ev for snap in game.history.snapshots() for ev in snap.events]
    seed = _saved_seed(folder / "session" / "game.json")
    return battle_result(store, prepared, game.ruleset, game.state, events, seed, folder, "live")


def _saved_seed(path: Path) -> int | None:
    try:
        seed = json.loads(path.read_text(encoding="utf-8")).get("seed")
    except (OSError, ValueError):
        return None
    return int(seed) if isinstance(seed, int) else None

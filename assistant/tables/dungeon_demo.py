"""Footage of a grid game for ``soloscope demo --scenario NAME``: a seeded battle played by the
engine and carried out by the rendered hand on the printed board (:mod:`vision.render.grid_board`),
rendered once into a cache folder and read back by the demo like the bundled clip.

The Dungeon Crawl's figures are the seed's flat markers (a tagged base, no standing figure), so
nothing hides a tag; the camera hangs low enough over the small board for its 12 mm tags. The
cache lives in ``$SOLOSCOPE_CACHE`` (default ``~/.cache/soloscope``)/``footage``; nothing
rendered goes into the repository's ``sample_footage/``.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

from assistant.errors import UserError
from assistant.footage import FOOTAGE_VERSION, battle_moves, battle_scene, render_battle
from assistant.progress import ProgressFn
from assistant.scenarios import load_game
from assistant.session.store import exact_action_json
from assistant.tables.dungeon_kit import printed_grid
from calibration.safe_files import write_json_atomic
from engine.dice import SeededDice
from engine.model import GameState, Role
from engine.protocols import Controller, Ruleset
from engine.runner import controllers_for, play_battle
from engine.scenario import Scenario
from vision.render.camera import MM_PER_INCH, Camera
from vision.render.scene import Scene
from vision.render.sequence import Sequence, moves_script

SEARCH_SEEDS = range(1, 60)
"""Where the demo looks for its seed when none is given (see :func:`replayable_seed`)."""
BORDER_MM = 50.0
"""What the camera must see beyond the grid on every side (the corner tags), millimetres."""


def stand_in_rolls(scenario: Scenario, ruleset: Ruleset, state: GameState, seed: int) -> int:
    """How many dice the human side's stand-in (its autopilot) rolls in the simulated battle.

    At the table the player's actions come from a file and the stand-in is never asked, so
    its own rolls (a tie settled by a die) are not made there: a battle where it rolls none
    is played at the table with exactly the dice ``simulate`` uses, and ends the same way."""
    controllers = controllers_for(scenario)
    human = state.side_of_role(Role.HUMAN)
    dice = SeededDice(seed)
    if human is None:
        return 0
    stand_in = _Counted(controllers[human.name], dice)
    controllers[human.name] = cast(Controller, stand_in)
    play_battle(state, ruleset, controllers, dice)
    return stand_in.rolls


class _Counted:
    """A controller that counts the dice it rolls while it decides."""

    _ASKED = frozenset({"choose_unit", "decide", "react", "choose"})

    def __init__(self, inner: Controller, dice: SeededDice) -> None:
        self.inner, self.dice, self.rolls = inner, dice, 0

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.inner, name)
        if name not in self._ASKED:
            return found

        def counted(*args: Any, **kwargs: Any) -> Any:
            before = len(self.dice.rolls)
            try:
                return found(*args, **kwargs)
            finally:
                self.rolls += len(self.dice.rolls) - before

        return counted


def replayable_seed(
    scenario: Scenario, ruleset: Ruleset, state: GameState, seeds: Iterable[int] = SEARCH_SEEDS
) -> int:
    """The first seed whose battle the table replays exactly (see :func:`stand_in_rolls`)."""
    for seed in seeds:
        if stand_in_rolls(scenario, ruleset, state, seed) == 0:
            return seed
    raise UserError(f"no seed of {scenario.scenario.name} replays at the table; give --seed")


def battle_digest(scenario: Scenario, ruleset: Ruleset, state: GameState, seed: int) -> str:
    """A short fingerprint of the simulated battle (its actions): cached footage of another
    engine version is rendered again."""
    record = play_battle(state, ruleset, controllers_for(scenario), SeededDice(seed))
    text = json.dumps([exact_action_json(a) for a in record.actions], sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def cache_dir() -> Path:
    """Where rendered demo footage is kept."""
    root = os.environ.get("SOLOSCOPE_CACHE") or str(Path.home() / ".cache" / "soloscope")
    return Path(root) / "footage"


def grid_scene(scenario: Scenario, state: GameState) -> Scene:
    """The scenario's table as the renderer's scene: the printed board, flat tagged markers."""
    scene = battle_scene(scenario, state)
    pieces = tuple(replace(p, figure=None) for p in scene.pieces)
    return replace(scene, table=replace(scene.table, board=printed_grid(scenario)), pieces=pieces)


def grid_camera(scenario: Scenario, resolution: str = "720p") -> Camera:
    """A camera straight above the board, just high enough to frame it and its corner tags."""
    span_mm = max(scenario.table.depth_in, scenario.table.width_in * 9 / 16) * MM_PER_INCH
    height_mm = (span_mm + 2 * BORDER_MM) / 2.0 / math.tan(math.radians(25.0))
    return Camera.overhead(
        resolution,
        table_width_in=scenario.table.width_in,
        table_depth_in=scenario.table.depth_in,
        height_mm=height_mm,
    )


def write_grid_footage(
    scenario: Scenario,
    scenario_ref: str,
    ruleset: Ruleset,
    state: GameState,
    seed: int,
    out_dir: Path,
    *,
    name: str = "battle",
    resolution: str = "720p",
    fps: float = 6.0,
    settle_s: float = 1.0,
    progress: ProgressFn | None = None,
) -> dict[str, Any]:
    """Render the seeded grid battle to ``out_dir/NAME.mp4`` with its ground truth, the human
    side's declarations and ``NAME.json`` (the files the demo reads); returns the metadata."""
    out_dir.mkdir(parents=True, exist_ok=True)
    battle = battle_moves(scenario, ruleset, state, seed)
    scene = grid_scene(scenario, state)
    camera = grid_camera(scenario, resolution)
    script = Sequence(scene, camera, moves_script(battle.moves, settle_s=settle_s, start_s=2.0))
    meta = render_battle(
        battle, scene, camera, script, out_dir, name, scenario_ref, seed, fps, resolution, progress
    )
    write_json_atomic(out_dir / f"{name}.json", meta, indent=2)
    return meta


def demo_clip(
    scenario_ref: str, seed: int | None = None, folder: Path | None = None
) -> tuple[Path, str]:
    """The folder and clip name of a grid scenario's demo footage, rendered there on first use
    (with a progress bar on a terminal)."""
    from assistant.progress import progress_bar

    scenario, ruleset, state = load_game(scenario_ref)
    if seed is None:
        seed = replayable_seed(scenario, ruleset, state)
    elif stand_in_rolls(scenario, ruleset, state, seed):
        print(
            f"Note: in seed {seed} the heroes' stand-in settles a tie with a die the table never "
            "rolls, so the battle at the table may go another way; leave out --seed to play "
            "one that replays exactly."
        )
    folder = cache_dir() if folder is None else folder
    name = f"{scenario.scenario.name}-seed{seed}-{battle_digest(scenario, ruleset, state, seed)}"
    meta = folder / f"{name}.json"
    if meta.is_file():
        known = json.loads(meta.read_text(encoding="utf-8"))
        if known.get("version") == FOOTAGE_VERSION and (folder / known["video"]).is_file():
            return folder, name
    print(f"Rendering the {scenario.scenario.name} demo (seed {seed}) into {folder} once ...")

    def frames_done(done: float, total: float | None) -> str:
        return f"{done:.0f}/{total:.0f} frames rendered" if total else "playing the battle"

    with progress_bar("footage", frames_done) as update:
        write_grid_footage(
            scenario, scenario_ref, ruleset, state, seed, folder, name=name, progress=update
        )
    return folder, name

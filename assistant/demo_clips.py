"""Demo footage of any scenario for ``soloscope demo --scenario NAME``: the battle
``soloscope simulate NAME --seed N`` plays, carried out by the rendered hand on the synthetic
table, rendered once into a cache folder and read back by the demo like the bundled clip.

The footage is that battle exactly (the same actions, dice and outcome: the stand-in player's
own rolls travel in its declarations, see :class:`assistant.footage.BattleMoves`). It is filmed
with the kit sized for its camera (:mod:`assistant.demo_kit`): a webcam above the table as
the README mounts it (a grid game's printed board framed closely), 1080p when that camera
reads every tag of its kit in every frame, else 4K. The kit file lies beside the footage,
and the demo reads the table with it (as ``play --kit``).

The cache lives in ``$SOLOSCOPE_CACHE`` (default ``~/.cache/soloscope``)/``footage``, one clip
per scenario, seed, battle, kit and renderer version; nothing rendered goes into the
repository's ``sample_footage/``. A clip is written into a temporary folder beside it and moved
into place only when whole, so an interrupted render leaves no partial file behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.demo_kit import DemoKit, choose_kit
from assistant.errors import UserError
from assistant.footage import FOOTAGE_VERSION, battle_moves, write_battle_footage
from assistant.pieces import apply_kit
from assistant.progress import ProgressFn
from assistant.scenarios import load_game
from assistant.session.start import SessionOptions
from assistant.session.store import exact_action_json
from calibration.kit_file import save_kit
from engine.dice import SeededDice
from engine.model import GameState
from engine.runner import controllers_for, play_battle
from vision.render.pipeline import RENDER_VERSION

DEMO_SEED = 1
"""The battle the demo plays when no ``--seed`` is given."""
DEMO_FPS = 3.0
"""Frames per second of demo footage: the tracker confirms a tag (three sightings) and judges
the board settled in the 1.2 s a move rests; cuts of four systems' demos reach the simulated
state at 2, 3 and 4 fps alike (``benchmarks/render_bench.py``): 3 keeps a frame to spare."""
SETTLE_S = 1.2
"""How long the board rests after each move in demo footage, seconds."""
START_S = 7.0
"""How long the set-up table is filmed before the first move, seconds. The tracker looks for
tags it has not seen in full-frame searches every 15 frames (5 s at 3 fps); a tag the first
frame misses (a marginal read, as a real camera has too) is found by the second search and
confirmed three frames later, with the table still untouched: 21 frames, 7 s. A player takes
longer than that to set a table up."""


@dataclass(frozen=True)
class Outcome:
    """How a battle ended: the winner, the rounds, and each unit's status, wounds and
    statuses (what ``simulate`` and the table must agree on)."""

    winner: str | None
    rounds: int
    units: tuple[tuple[str, str, int, tuple[str, ...]], ...]

    @classmethod
    def of(cls, state: GameState) -> Outcome:
        """The outcome of a finished (or cut short) game."""
        units = tuple(
            (u.id, str(u.status), u.wounds, tuple(sorted(str(s) for s in u.statuses)))
            for u in state.units
        )
        return cls(state.winner, state.round, units)

    def differences(self, other: Outcome) -> list[str]:
        """What differs from ``other``, in words (empty: the same outcome)."""
        out = []
        if self.winner != other.winner:
            out.append(f"winner {self.winner} against {other.winner}")
        if self.rounds != other.rounds:
            out.append(f"{self.rounds} rounds against {other.rounds}")
        theirs = {u[0]: u for u in other.units}
        for unit in self.units:
            if theirs.get(unit[0]) != unit:
                out.append(f"{unit[0]}: {unit[1:]} against {theirs.get(unit[0], ('?',))[1:]}")
        return out


def simulated_outcome(scenario_ref: str, seed: int, max_actions: int | None = None) -> Outcome:
    """The outcome ``soloscope simulate SCENARIO --seed N`` reaches (after ``max_actions``
    actions when given: a battle cut short)."""
    scenario, ruleset, state = load_game(scenario_ref)
    if max_actions is None:
        record = play_battle(state, ruleset, controllers_for(scenario), SeededDice(seed))
        return Outcome.of(record.final)
    return Outcome.of(battle_moves(scenario, ruleset, state, seed, max_actions).final)


def cache_dir() -> Path:
    """Where rendered demo footage is kept."""
    root = os.environ.get("SOLOSCOPE_CACHE") or str(Path.home() / ".cache" / "soloscope")
    return Path(root) / "footage"


def battle_digest(scenario_ref: str, seed: int, max_actions: int | None = None) -> str:
    """A short fingerprint of the simulated battle (its actions and the stand-in's rolls):
    cached footage of another engine version is rendered again."""
    scenario, ruleset, state = load_game(scenario_ref)
    battle = battle_moves(scenario, ruleset, state, seed, max_actions)
    text = json.dumps(
        [[exact_action_json(a) for a in battle.actions], battle.stand_in_rolls], sort_keys=True
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def clip_name(
    scenario_name: str, seed: int, digest: str, kit: DemoKit, fps: float = DEMO_FPS
) -> str:
    """The cache's name for a clip: scenario, seed, battle, camera and kit, frame rate,
    renderer."""
    kit_key = hashlib.sha256(kit.key().encode("utf-8")).hexdigest()[:6]
    rate = "" if fps == DEMO_FPS else f"-{fps:g}fps"
    return (
        f"{scenario_name}-seed{seed}-{digest}-{kit.resolution}-{kit_key}{rate}"
        f"-r{RENDER_VERSION}f{FOOTAGE_VERSION}"
    )


def cached(folder: Path, name: str) -> dict[str, Any] | None:
    """The metadata of a whole clip ``name`` in ``folder``, or None when it is not there."""
    meta = folder / f"{name}.json"
    if not meta.is_file():
        return None
    try:
        known = json.loads(meta.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    files = [known.get(k) for k in ("video", "truth", "declarations", "kit_file")]
    if known.get("version") != FOOTAGE_VERSION or not all(
        isinstance(f, str) and (folder / f).is_file() for f in files
    ):
        return None
    return dict(known)


def demo_clip(
    scenario_ref: str,
    seed: int | None = None,
    folder: Path | None = None,
    *,
    progress: ProgressFn | None = None,
    max_actions: int | None = None,
    fps: float = DEMO_FPS,
) -> tuple[Path, str]:
    """The folder and clip name of the scenario's demo footage, rendered there on first use.

    ``max_actions`` cuts the battle short after that many actions (a short clip, for tests);
    ``fps`` renders at another frame rate (for the benchmark that measures what the tracker
    needs). ``progress`` hears (frames written, frames in all) while it renders."""
    seed = DEMO_SEED if seed is None else seed
    scenario, _, _ = load_game(scenario_ref)
    kit = choose_kit(scenario)
    folder = cache_dir() if folder is None else folder
    digest = battle_digest(scenario_ref, seed, max_actions)
    name = clip_name(scenario.scenario.name, seed, digest, kit, fps)
    if max_actions is not None:
        name += f"-cut{max_actions}"
    if cached(folder, name) is not None:
        return folder, name
    print(
        f"Rendering the {scenario.scenario.name} demo (seed {seed}, {kit.resolution} camera, "
        f"{kit.words}) into {folder} once ..."
    )
    with _whole_or_nothing(folder, name) as work:
        render_demo(scenario_ref, seed, kit, work, name, progress=progress, max_actions=max_actions)
    return folder, name


def render_demo(
    scenario_ref: str,
    seed: int,
    kit: DemoKit,
    out_dir: Path,
    name: str,
    *,
    progress: ProgressFn | None = None,
    max_actions: int | None = None,
    fps: float = DEMO_FPS,
) -> dict[str, Any]:
    """Render the demo clip into ``out_dir``: ``NAME.mp4``, its truth, the stand-in's
    declarations, the kit file ``NAME.kit.json`` and ``NAME.json``; returns the metadata
    written."""
    kit_file = out_dir / f"{name}.kit.json"
    save_kit(kit.kit, kit_file)
    scenario, ruleset, state = load_game(scenario_ref)
    return write_battle_footage(
        apply_kit(scenario, kit.kit),
        scenario_ref,
        ruleset,
        state,
        seed,
        out_dir,
        name=name,
        resolution=kit.resolution,
        fps=fps,
        settle_s=SETTLE_S,
        start_s=START_S,
        progress=progress,
        camera=kit.camera,
        max_actions=max_actions,
        patient=True,
        extra_meta={
            "kit_file": kit_file.name,
            "kit": kit.words,
            "tag_px_min": round(kit.px_min, 1),
            **({"max_actions": max_actions} if max_actions is not None else {}),
        },
    )


@contextmanager
def _whole_or_nothing(folder: Path, name: str) -> Iterator[Path]:
    """A temporary folder beside ``folder`` for a clip's files; moved into ``folder`` when the
    block ends normally (metadata last), removed whatever happens."""
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob(f".{name}.*.partial"):  # a render killed before it could tidy up
        shutil.rmtree(stale, ignore_errors=True)
    work = Path(tempfile.mkdtemp(prefix=f".{name}.", suffix=".partial", dir=folder))
    try:
        yield work
        meta = work / f"{name}.json"
        for path in sorted(work.iterdir()):
            if path != meta:
                os.replace(path, folder / path.name)
        os.replace(meta, folder / meta.name)
    finally:
        shutil.rmtree(work, ignore_errors=True)


@dataclass(frozen=True)
class Clip:
    """A demo clip as the demo plays it: the footage, the battle's scenario and seed, the
    stand-in player's declarations, and the kit the footage shows (None: the scenario's own
    tag sizes, as in the bundled clip)."""

    video: Path
    scenario: str
    seed: int
    declarations: Path
    kit: Path | None = None
    max_actions: int | None = None

    @classmethod
    def read(cls, folder: Path, name: str) -> Clip:
        """The clip ``name`` in ``folder`` (its ``NAME.json``); UserError when it is not there."""
        meta_path = folder / f"{name}.json"
        if not meta_path.is_file():
            raise UserError(f"no sample clip {name!r} in {folder} (expected {meta_path.name})")
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            kit = folder / meta["kit_file"] if "kit_file" in meta else None
            return cls(
                folder / meta["video"],
                str(meta["scenario"]),
                int(meta["seed"]),
                folder / meta["declarations"],
                kit,
                meta.get("max_actions"),
            )
        except (OSError, ValueError, KeyError, TypeError, RecursionError) as exc:
            raise UserError(f"the clip's metadata {meta_path} is damaged ({exc})") from None

    def session_options(self, out: Path, **options: Any) -> SessionOptions:
        """How the demo plays it: the footage as the camera, the declarations as the player,
        the battle's seed (``options``: speech, serve, port ...)."""
        return SessionOptions(
            source=str(self.video),
            scenario=self.scenario,
            seed=self.seed,
            out=out,
            declarations=self.declarations,
            kit=self.kit,
            **options,
        )

    def simulated(self) -> Outcome:
        """The outcome ``simulate`` reaches with this clip's scenario and seed."""
        return simulated_outcome(self.scenario, self.seed, self.max_actions)


def outcome_line(scenario: str, seed: int, played: Outcome, simulated: Outcome) -> str:
    """The demo's last word: whether the battle at the table ended as ``simulate`` ends it."""
    command = f"'soloscope simulate {scenario} --seed {seed}'"
    winner = "a draw" if simulated.winner in (None, "draw") else f"{simulated.winner} win"
    differences = played.differences(simulated)
    if not differences:
        return f"Same outcome as {command}: {winner} after {simulated.rounds} rounds."
    return (
        f"Note: this run ended differently from {command} ({winner} after "
        f"{simulated.rounds} rounds): " + "; ".join(differences[:4]) + "."
    )

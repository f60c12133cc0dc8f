"""A short cut of a rule system's battle on an evaluation seed (benchmarks/replay_battles.py:
101-110, seeds no fit sees), replayed from the footage alone with its scenario and no session
log (issue 26 items 2 and 3), beside the battle the engine played over the same actions.

The cut is rendered as ``soloscope footage`` renders a battle (the scenario's own tags, at the
resolution its tags need: 1080p, or 4K for the small-tag tables the benchmark films in 4K;
7 frames a second), into a cache folder named by the scenario, seed, cut, resolution, and the
renderer's and footage's versions, once per test run and shared by the pytest-xdist workers
(tests/run_once.py), as are its replay's figures."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from assistant.footage import (
    FOOTAGE_VERSION,
    BattleMoves,
    TrayRoll,
    battle_moves,
    write_battle_footage,
)
from assistant.replay.dice_seen import UNKNOWN, SeenRoll
from assistant.replay.reconstruct import PieceMove
from assistant.replay.run import ReplayOptions, run_replay
from assistant.scenarios import load_game
from tests.replay.fed_battle import MOVE_S, fed_move
from tests.run_once import once_per_run
from vision.render.pipeline import RENDER_VERSION
from vision.render.sequence import PieceRemoval

EVALUATION_SEEDS = range(101, 111)
"""benchmarks/replay_battles.py's evaluation seeds."""


@dataclass(frozen=True)
class EvalCut:
    """The replay's reading of a cut and the battle as played over it."""

    game: dict[str, Any]
    """The replay's summary of the game: rounds, activations, fallen, winner."""
    footage: dict[str, Any]
    """The replay's summary of the footage itself: moves, "removed" and "hidden" pieces."""
    engine_events: int
    """Timeline events the replay's engine reading gave (none: the footage was not read as
    the scenario's game)."""
    rounds: int
    fallen: set[str]
    """The models on the table at the start and not at the end of the cut, as played."""
    winner: str | None


def eval_cut(
    factory: pytest.TempPathFactory,
    scenario: str,
    seed: int,
    actions: int,
    resolution: str = "1080p",
    dice: str = "none",
) -> EvalCut:
    """The first ``actions`` actions of ``scenario``'s battle at evaluation ``seed``, rendered
    at ``resolution`` (``dice`` "tray": every roll shown in the dice tray, as the benchmark
    films its battles) and replayed once per test run, with the battle's own outcome over
    them."""
    assert seed in EVALUATION_SEEDS, "the replay's tests hold evaluation battles only"
    key = f"{scenario}-seed{seed}-cut{actions}-{resolution}-{dice}"
    key += f"-r{RENDER_VERSION}f{FOOTAGE_VERSION}"

    def make(out: Path) -> dict[str, Any]:
        loaded, ruleset, state = load_game(scenario)
        write_battle_footage(
            loaded,
            scenario,
            ruleset,
            state,
            seed,
            out,
            name="cut",
            resolution=resolution,
            fps=7.0,
            max_actions=actions,
            dice=dice,
        )
        run_replay(ReplayOptions(out / "cut.mp4", out / "replay", scenario=scenario))
        return dict(json.loads((out / "replay" / "timeline.json").read_text(encoding="utf-8")))

    doc = once_per_run(factory, f"eval-cut-{key}", make)
    loaded, ruleset, state = load_game(scenario)
    final = battle_moves(loaded, ruleset, state, seed, actions).final
    # a model not yet on the table at the start (a reinforcement to come) has not fallen
    waiting = {u.id for u in state.units if not u.on_table}
    engine = sum(1 for e in doc["events"] if e.get("source") == "engine")
    return EvalCut(
        doc["summary"]["game"],
        {k: v for k, v in doc["summary"].items() if k != "game"},
        engine,
        final.round,
        {u.id for u in final.units if not u.on_table} - waiting,
        final.winner,
    )


def assert_as_played(cut: EvalCut) -> None:
    """The replay read the cut as the scenario's game, with its rounds, fallen and winner as
    played."""
    assert cut.engine_events, "the footage was not read as the scenario's game"
    game = cut.game
    assert game["rounds"] == cut.rounds, f"rounds read {game['rounds']}, played {cut.rounds}"
    fallen = set(game["fallen"])
    assert fallen == cut.fallen, f"fallen read {sorted(fallen)}, played {sorted(cut.fallen)}"
    assert game["winner"] == cut.winner, f"winner read {game['winner']}, played {cut.winner}"


@dataclass(frozen=True)
class FedCut:
    """A cut's changes fed to the replay as the footage would show them, one every
    ``2 * MOVE_S`` seconds in the order the player makes them (no render): its moves, its tray
    rolls and its removals (piece name, seconds), the pieces' starting poses by name (inches,
    degrees) and the battle as played."""

    played: BattleMoves
    moves: list[PieceMove]
    rolls: list[SeenRoll]
    removals: list[tuple[str, float]]
    start: dict[str, tuple[float, float, float]]


def fed_cut(scenario: str, seed: int, actions: int, unread: frozenset[int] = frozenset()) -> FedCut:
    """The first ``actions`` actions of ``scenario``'s battle at evaluation ``seed``, fed as
    :class:`FedCut`; the tray rolls numbered in ``unread`` (from 0) could not be read."""
    assert seed in EVALUATION_SEEDS, "the replay's tests hold evaluation battles only"
    loaded, ruleset, state = load_game(scenario)
    played = battle_moves(loaded, ruleset, state, seed, actions)
    names = {u.id: u.name for u in state.units}
    pose = {u.id: (u.x, u.y, u.heading_deg) for u in state.units}
    fed = FedCut(played, [], [], [], {})
    t = 1.0
    for change in played.shown:
        if isinstance(change, TrayRoll):
            k = len(fed.rolls)
            fed.rolls.append(
                SeenRoll(t, (), UNKNOWN) if k in unread else SeenRoll(t, change.values)
            )
        elif isinstance(change, PieceRemoval):
            fed.removals.append((names[change.piece], t))
        else:
            fed.moves.append(fed_move(change, names, pose, t))
        t += 2 * MOVE_S
    fed.start.update({names[u.id]: (u.x, u.y, u.heading_deg) for u in state.units if u.on_table})
    return fed

"""Battle footage: a seeded battle played by the engine, carried out by a rendered hand on the
synthetic table, written as a video with its ground truth.

This is how ``sample_footage/`` is made (``soloscope footage``), and how the tests get footage
of a whole game. Beside the video it writes the human side's declarations (what the demo's
stand-in player declares) and a small JSON file naming the scenario and the seed.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.pieces import terrain_kits, unit_specs
from assistant.progress import ProgressFn, counted
from assistant.session.store import exact_action_json
from engine.actions import Action, Event, EventType
from engine.dice import SeededDice
from engine.model import GameState, Role
from engine.protocols import Ruleset
from engine.runner import controllers_for, next_action
from engine.scenario import Scenario
from vision.render.camera import Camera
from vision.render.clip import write_clip
from vision.render.effects import Effects
from vision.render.scene import Figure, PlacedPiece, Scene, TableSpec, Terrain
from vision.render.sequence import (
    Action as ScriptStep,
)
from vision.render.sequence import (
    HandLeave,
    Hover,
    NudgeCamera,
    PieceMove,
    PieceRemoval,
    Sequence,
    Wait,
    moves_script,
    render_sequence,
)

FOOTAGE_VERSION = 1


@dataclass
class BattleMoves:
    """A seeded battle as the moves a player's hand makes, and the human side's actions."""

    final: GameState
    moves: list[PieceMove | PieceRemoval] = field(default_factory=list)
    human_actions: list[Action] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    @property
    def activations(self) -> int:
        """How many activations the battle had (the engine's activation events)."""
        return sum(e.type == EventType.ACTIVATION for e in self.events)


def battle_moves(scenario: Scenario, ruleset: Ruleset, state: GameState, seed: int) -> BattleMoves:
    """Play the battle (the AI against the autopilot) and list every physical change."""
    controllers = controllers_for(scenario)
    dice = SeededDice(seed)
    human = state.side_of_role(Role.HUMAN)
    assert human is not None
    out = BattleMoves(final=state)
    for _ in range(5000):
        chosen = next_action(state, ruleset, controllers, dice)
        if chosen is None:
            break
        action, _ = chosen
        outcome = ruleset.apply(state, action, dice)
        after = outcome.state
        out.events.extend(outcome.events)
        out.actions.append(action)
        if acting_side(state, action) == human.name:
            out.human_actions.append(action)
        out.moves.extend(_changes(state, after, action))
        state = after
    out.final = state
    return out


def acting_side(state: GameState, action: Action) -> str | None:
    """The side whose action this is: its unit's side, or the side named (a pass); None for
    a step of the game itself (an initiative roll)."""
    if action.unit_id and state.has_unit(action.unit_id):
        return state.unit(action.unit_id).side
    return action.side


def _changes(
    before: GameState, after: GameState, action: Action
) -> Iterator[PieceMove | PieceRemoval]:
    mover = action.unit_id
    order = sorted(before.units, key=lambda u: u.id != mover)
    for unit in order:
        new = after.unit(unit.id)
        if not unit.on_table:
            continue
        if not new.on_table:
            yield PieceRemoval(unit.id)
        elif (new.x, new.y) != (unit.x, unit.y) or abs(new.heading_deg - unit.heading_deg) > 1e-6:
            via = tuple(action.path[1:-1]) if unit.id == mover and len(action.path) > 2 else ()
            yield PieceMove(unit.id, new.x, new.y, new.heading_deg, via)


def battle_scene(scenario: Scenario, state: GameState, mat_seed: int = 0) -> Scene:
    """The scenario's table, terrain and characters as the renderer's scene."""
    colours = [(60, 80, 150), (150, 90, 50)]
    side_colour = {s.name: colours[i % 2] for i, s in enumerate(scenario.sides)}
    specs = {s.name: s for s in unit_specs(scenario)}
    pieces = []
    for unit in state.units:
        spec = specs.get(unit.id)
        if spec is None or not unit.on_table:
            continue
        base_mm = spec.base_diameter_mm
        figure = Figure(forward_mm=-0.28 * base_mm, color_bgr=side_colour[unit.side])
        pieces.append(PlacedPiece(spec, unit.x, unit.y, unit.heading_deg, figure=figure))
    terrain = tuple(
        Terrain(
            kit.spec, kit.x_in, kit.y_in, 0.0, kit.footprint_mm, height_mm=max(3.0, kit.height_mm)
        )
        for kit in terrain_kits(scenario)
    )
    table = TableSpec(scenario.table.width_in, scenario.table.depth_in, seed=mat_seed)
    return Scene(table=table, pieces=tuple(pieces), terrain=terrain)


def overhead_camera(scenario: Scenario, resolution: str = "1080p") -> Camera:
    """A camera straight above the table centre, just high enough to frame the corner tags."""
    depth_mm = max(scenario.table.depth_in, scenario.table.width_in * 9 / 16) * 25.4
    height_mm = max(800.0, (depth_mm + 140.0) / 2.0 / math.tan(math.radians(25.0)))
    return Camera.overhead(
        resolution,
        table_width_in=scenario.table.width_in,
        table_depth_in=scenario.table.depth_in,
        height_mm=height_mm,
    )


@dataclass(frozen=True)
class Interruptions:
    """What happens at the table besides the game: a hand hovering over the board for a while
    (a player pointing, reaching for a drink) and the camera bumped, each after a given move
    (counted from 1; None: never)."""

    hover_after: int | None = None
    hover_s: float = 4.0
    """How long the hand hovers, seconds."""
    nudge_after: int | None = None
    nudge_mm: float = 4.0
    """How far the camera is bumped sideways, millimetres (with a small turn)."""


def interrupted(
    script: tuple[ScriptStep, ...],
    extra: Interruptions,
    table_in: tuple[float, float],
    settle_s: float,
) -> tuple[ScriptStep, ...]:
    """``script`` (from :func:`moves_script`) with the hover and the nudge after their moves."""
    width, depth = table_in
    out: list[ScriptStep] = []
    moves_done = 0
    for i, step in enumerate(script):
        out.append(step)
        if not isinstance(step, Wait) or i == 0:
            continue
        moves_done += 1
        if moves_done == extra.hover_after:
            path = (
                (0.25 * width, 0.35 * depth),
                (0.6 * width, 0.5 * depth),
                (0.45 * width, 0.7 * depth),
            )
            out += [Hover(path, seconds=extra.hover_s), HandLeave(), Wait(settle_s)]
        if moves_done == extra.nudge_after:
            out += [
                NudgeCamera(dx_mm=extra.nudge_mm, dy_mm=-0.5 * extra.nudge_mm, dyaw_deg=0.4),
                Wait(settle_s),
            ]
    return tuple(out)


def write_battle_footage(
    scenario: Scenario,
    scenario_ref: str,
    ruleset: Ruleset,
    state: GameState,
    seed: int,
    out_dir: Path,
    *,
    name: str = "battle",
    resolution: str = "1080p",
    fps: float = 10.0,
    settle_s: float = 1.2,
    progress: ProgressFn | None = None,
    extra: Interruptions | None = None,
) -> dict[str, Any]:
    """Render the seeded battle to ``out_dir/NAME.mp4`` with ``NAME.truth.json``,
    ``NAME.declarations.jsonl`` and ``NAME.json``; returns the metadata written.

    ``progress`` hears (0, None) while the battle is played, then (frames written, frames in
    all) after every frame."""
    out_dir.mkdir(parents=True, exist_ok=True)
    if progress is not None:
        progress(0, None)
    battle = battle_moves(scenario, ruleset, state, seed)
    scene = battle_scene(scenario, state)
    camera = overhead_camera(scenario, resolution)
    steps = moves_script(battle.moves, settle_s=settle_s, start_s=2.0)
    if extra is not None:
        table_in = (scenario.table.width_in, scenario.table.depth_in)
        steps = interrupted(steps, extra, table_in, settle_s)
    script = Sequence(scene, camera, steps)
    effects = Effects(noise_sigma=1.5, jpeg_quality=None)
    frames = render_sequence(scene, camera, script, fps, effects=effects, seed=seed)
    if progress is not None:
        frames = counted(frames, script.n_frames(fps), progress)
    video = out_dir / f"{name}.mp4"
    truth = out_dir / f"{name}.truth.json"
    count = write_clip(video, truth, frames, fps=fps, scene=scene, camera=camera)
    with (out_dir / f"{name}.declarations.jsonl").open("w", encoding="utf-8") as f:
        for action in battle.human_actions:
            f.write(json.dumps(exact_action_json(action)) + "\n")
    meta = {
        "version": FOOTAGE_VERSION,
        "scenario": scenario_ref,
        "seed": seed,
        "video": video.name,
        "truth": truth.name,
        "declarations": f"{name}.declarations.jsonl",
        "fps": fps,
        "frames": count,
        "resolution": resolution,
        "winner": battle.final.winner,
        "rounds": battle.final.round,
        "moves": len(battle.moves),
        "activations": battle.activations,
    }
    if extra is not None:
        meta["hover_after"], meta["nudge_after"] = extra.hover_after, extra.nudge_after
    (out_dir / f"{name}.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return meta

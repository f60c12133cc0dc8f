"""Battle footage: a seeded battle played by the engine, carried out by a rendered hand on the
synthetic table, written as a video with its ground truth.

This is how ``sample_footage/`` is made (``soloscope footage``), and how the tests get footage
of a whole game. Beside the video it writes the human side's declarations (what the demo's
stand-in player declares) and a small JSON file naming the scenario and the seed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from assistant.errors import UserError
from assistant.pieces import on_board, terrain_kits, unit_specs
from assistant.progress import ProgressFn, counted
from assistant.session.store import exact_action_json
from assistant.tables.dungeon_kit import printed_grid
from calibration.kit_view import NOMINAL_DISTORTION, NOMINAL_VFOV_DEG, nominal_height_mm
from calibration.safe_files import write_atomic, write_json_atomic
from engine.actions import Action, Event, EventType
from engine.dice import Roll, SeededDice
from engine.model import GameState, Role, Unit
from engine.protocols import Ruleset
from engine.runner import MAX_STEPS, acting_side, controllers_for, next_action, with_order_memory
from engine.scenario import Scenario
from vision.render.camera import Camera
from vision.render.clip import write_pictures
from vision.render.dice import TrayLook, tray_beside_table
from vision.render.dice_footage import ClearDice, ShowDice, roll_for
from vision.render.effects import Effects
from vision.render.faults import NO_FAULTS, CameraFaults
from vision.render.frame import pieces_in_sight
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
    sequence_pictures,
)
from vision.types import PieceSpec

FOOTAGE_VERSION = 3
"""2: the battle exactly as ``simulate`` plays it, the stand-in's rolls in its declarations,
grid boards printed and framed closely, flat markers without figures. 3: the demo films its
set-up table for ``assistant.demo_clips.START_S``."""
HIDDEN_REST_S = 9.0
"""How long the board rests after a move that leaves the piece's tags covered (by its own
figure, leaning outward near the edge of the view): the live settle judge takes a still change
no tag explains into the background after 8 s, then the stand-in confirms the move."""
DICE_MODES = ("none", "tray")
"""``--dice``: no dice shown (the footage shows only the table), or every roll in the tray."""


def frames_rendered(done: float, total: float | None) -> str:
    """How far a render is, for its progress bar."""
    return f"{done:.0f}/{total:.0f} frames rendered" if total else "playing the battle"


@dataclass(frozen=True)
class TrayRoll:
    """A roll of the battle as the player makes it: the dice (d6 values) and what it was for."""

    values: tuple[int, ...]
    purpose: str


@dataclass
class BattleMoves:
    """A seeded battle as the moves a player's hand makes, and the human side's actions."""

    final: GameState
    moves: list[PieceMove | PieceRemoval] = field(default_factory=list)
    human_actions: list[Action] = field(default_factory=list)
    stand_in_rolls: list[tuple[int, ...]] = field(default_factory=list)
    """For each human action, the dice (their sides) the human side's stand-in rolled on the
    game's dice while it decided: the declarations carry them so that the table rolls them
    too and its dice run as in ``simulate``."""
    actions: list[Action] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    shown: list[PieceMove | PieceRemoval | TrayRoll] = field(default_factory=list)
    """Every physical change in order with the rolls between them: for each action, the
    acting piece's move, then the action's d6 rolls, then the other changes (removals)."""
    unshown: list[Roll] = field(default_factory=list)
    """Rolls of dice other than d6 (not shown in the tray)."""

    @property
    def activations(self) -> int:
        """How many activations the battle had (the engine's activation events)."""
        return sum(e.type == EventType.ACTIVATION for e in self.events)


def battle_moves(
    scenario: Scenario,
    ruleset: Ruleset,
    state: GameState,
    seed: int,
    max_actions: int | None = None,
) -> BattleMoves:
    """Play the battle as ``simulate`` does (the AI against the autopilot, the same seeded dice,
    the same orders of several actions and controller memory) and list every physical change;
    ``max_actions`` stops it after that many actions (a short cut of the battle)."""
    controllers = controllers_for(scenario)
    dice = SeededDice(seed)
    human = state.side_of_role(Role.HUMAN)
    assert human is not None
    specs = {s.name: s for s in unit_specs(scenario)}

    def model(unit: Unit) -> PlacedPiece | None:
        spec = specs.get(unit.id)
        return None if spec is None else _placed(spec, unit, scenario)

    out = BattleMoves(final=state)
    planned: list[Action] = []
    for _ in range(MAX_STEPS if max_actions is None else max_actions):
        deciding = len(dice.log)
        chosen = next_action(state, ruleset, controllers, dice, planned)
        if chosen is None:
            break
        action, order = chosen
        decided = dice.log[deciding:]
        logged = len(dice.log)
        outcome = ruleset.apply(state, action, dice)
        after = with_order_memory(outcome.state, acting_side(state, action), order)
        out.events.extend(outcome.events)
        out.actions.append(action)
        if acting_side(state, action) == human.name:
            if any(not isinstance(r, Roll) for r in decided):
                raise UserError(
                    f"{scenario.scenario.name}: the player's stand-in draws cards while it "
                    "decides; its battle cannot be replayed at the table"
                )
            out.human_actions.append(action)
            out.stand_in_rolls.append(tuple(r.sides for r in decided if isinstance(r, Roll)))
        changes = list(_changes(state, after, action, model))
        out.moves.extend(changes)
        rolls = [r for r in dice.log[logged:] if isinstance(r, Roll)]
        out.unshown.extend(r for r in rolls if r.sides != 6)
        first = [c for c in changes[:1] if isinstance(c, PieceMove) and c.piece == action.unit_id]
        out.shown.extend(first)
        out.shown.extend(TrayRoll((r.result,), r.purpose) for r in rolls if r.sides == 6)
        out.shown.extend(changes[len(first) :])
        state = after
    out.final = state
    return out


def _changes(
    before: GameState,
    after: GameState,
    action: Action,
    model: Callable[[Unit], PlacedPiece | None],
) -> Iterator[PieceMove | PieceRemoval]:
    """The changes ``action`` made on the table: the mover's move first, then the others'
    moves, removals, and models brought (back) onto the table."""
    mover = action.unit_id
    order = sorted(before.units, key=lambda u: u.id != mover)
    for unit in order:
        new = after.unit(unit.id)
        if not unit.on_table:
            entering = model(new) if new.on_table else None
            if entering is not None:  # brought on by an event, or back on its feet
                yield PieceMove(unit.id, new.x, new.y, new.heading_deg, entering=entering)
            continue
        if not new.on_table:
            yield PieceRemoval(unit.id)
        elif (new.x, new.y) != (unit.x, unit.y) or abs(new.heading_deg - unit.heading_deg) > 1e-6:
            via = tuple(action.path[1:-1]) if unit.id == mover and len(action.path) > 2 else ()
            yield PieceMove(unit.id, new.x, new.y, new.heading_deg, via)


def battle_scene(scenario: Scenario, state: GameState, mat_seed: int = 0) -> Scene:
    """The scenario's table, terrain and characters as the renderer's scene."""
    specs = {s.name: s for s in unit_specs(scenario)}
    pieces = tuple(
        _placed(specs[u.id], u, scenario) for u in state.units if u.id in specs and u.on_table
    )
    terrain = tuple(
        Terrain(
            kit.spec, kit.x_in, kit.y_in, 0.0, kit.footprint_mm, height_mm=max(3.0, kit.height_mm)
        )
        for kit in terrain_kits(scenario)
    )
    table = TableSpec(
        scenario.table.width_in,
        scenario.table.depth_in,
        seed=mat_seed,
        board=printed_grid(scenario),
    )
    return Scene(table=table, pieces=pieces, terrain=terrain)


def _placed(spec: PieceSpec, unit: Unit, scenario: Scenario) -> PlacedPiece:
    """A character's model: its base and tags, and a figure of its side's colour standing on
    the rear of the base; a base whose only tag sits at its centre is a flat marker (a
    counter, the Dungeon Crawl's), with no figure."""
    colours = [(60, 80, 150), (150, 90, 50), (70, 140, 140)]
    side = next(i for i, s in enumerate(scenario.sides) if s.name == unit.side)
    marker = len(spec.tags) == 1 and (spec.tags[0].forward_mm, spec.tags[0].right_mm) == (0, 0)
    figure = Figure(forward_mm=-0.28 * spec.base_diameter_mm, color_bgr=colours[side % 3])
    return PlacedPiece(spec, unit.x, unit.y, unit.heading_deg, figure=None if marker else figure)


def overhead_camera(
    scenario: Scenario, resolution: str = "1080p", *, board: bool = False
) -> Camera:
    """A webcam straight above the table centre as the README mounts it, the nominal webcam
    kits are sized for (:func:`calibration.kit_view.nominal_height_mm`): 0.8 m up, higher for
    a larger table (just high enough to frame the corner tags); with ``board``, a grid game's
    printed board is framed closely."""
    width, depth = scenario.table.width_in, scenario.table.depth_in
    close = board and on_board(scenario)
    return Camera.overhead(
        resolution,
        table_width_in=width,
        table_depth_in=depth,
        height_mm=nominal_height_mm(width, depth, resolution, board=close),
        vfov_deg=NOMINAL_VFOV_DEG,
        dist=NOMINAL_DISTORTION,
    )


def footage_tray(scenario: Scenario) -> TrayLook:
    """The dice tray beside the table's right edge, level with its middle, in view of
    :func:`overhead_camera` (24 x 24 in to 36 x 36 in tables); 28 mm tags so the tray is found
    at 1080p over a 3 ft table too."""
    depth_mm = scenario.table.depth_in * 25.4
    return tray_beside_table(
        scenario.table.width_in * 25.4,
        width_mm=160.0,
        depth_mm=150.0,
        gap_mm=30.0,
        y_mm=depth_mm / 2.0 - 75.0,
        tag_mm=28.0,
    )


def tray_script(
    shown: list[PieceMove | PieceRemoval | TrayRoll],
    tray: TrayLook,
    seed: int,
    settle_s: float = 1.0,
    start_s: float = 1.0,
) -> tuple[ScriptStep, ...]:
    """:func:`moves_script` with each roll shown in the tray between the changes (the dice
    lie in it ~1 s, then it lies empty a moment); dice placed with seeds from ``seed``."""
    script: list[ScriptStep] = [Wait(start_s)]
    for n, item in enumerate(shown):
        if isinstance(item, TrayRoll):
            dice = roll_for(seed * 10007 + n, tray, item.values)
            script += [ShowDice(dice, label=item.purpose), ClearDice()]
        else:
            script.extend(moves_script([item], settle_s=settle_s, start_s=0.0)[1:])
    return tuple(script)


def rolls_truth(
    script: Sequence, shown: list[PieceMove | PieceRemoval | TrayRoll]
) -> list[dict[str, Any]]:
    """The rolls as the footage shows them: {"t" (dice at rest, s), "t_out" (taken out, s),
    "values", "purpose"} in order."""
    rolls = [item for item in shown if isinstance(item, TrayRoll)]
    spans = [(seg.t0, seg.t1) for seg in script.segments if seg.dice]
    return [
        {"t": round(t0, 3), "t_out": round(t1, 3), "values": list(r.values), "purpose": r.purpose}
        for (t0, t1), r in zip(spans, rolls, strict=True)
    ]


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


def render_battle(
    battle: BattleMoves,
    scene: Scene,
    camera: Camera,
    script: Sequence,
    out_dir: Path,
    name: str,
    scenario_ref: str,
    seed: int,
    fps: float,
    resolution: str,
    progress: ProgressFn | None = None,
    faults: CameraFaults = NO_FAULTS,
) -> dict[str, Any]:
    """Render ``script`` to ``out_dir/NAME.mp4`` with ``NAME.truth.json`` and write the human
    side's ``NAME.declarations.jsonl``; returns the metadata every battle footage has (the
    caller adds its own and writes ``NAME.json``). ``faults``: the webcam faults the
    footage is rendered with (``script`` made with ``faults.camera``)."""
    effects = Effects(noise_sigma=1.5, jpeg_quality=None)
    pictures = (
        (picture, truth)
        for _, _, picture, truth in sequence_pictures(
            scene, camera, script, fps, effects=effects, seed=seed, faults=faults
        )
    )
    if progress is not None:
        pictures = counted(pictures, script.n_frames(fps), progress)
    video = out_dir / f"{name}.mp4"
    truth = out_dir / f"{name}.truth.json"
    count = write_pictures(video, truth, pictures, fps=fps, scene=scene, camera=camera)
    write_declarations(out_dir / f"{name}.declarations.jsonl", battle)
    return {
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
        **({"faults": list(faults.names)} if faults else {}),
    }


def settle_rests(
    scene: Scene, camera: Camera, moves: list[PieceMove | PieceRemoval], settle_s: float
) -> list[float]:
    """How long the board rests after each move: ``settle_s``, or :data:`HIDDEN_REST_S` when
    the moved piece's tags all end covered."""
    rests = []
    for move in moves:
        if isinstance(move, PieceRemoval):
            scene = scene.without_piece(move.piece)
            rests.append(settle_s)
            continue
        if move.entering is not None:
            placed = replace(move.entering, x_in=move.x_in, y_in=move.y_in)
            scene = replace(scene, pieces=(*scene.pieces, placed))
        scene = scene.with_piece_at(move.piece, move.x_in, move.y_in, move.heading_deg)
        seen = pieces_in_sight(scene, camera, [move.piece])[move.piece]
        rests.append(settle_s if seen else max(settle_s, HIDDEN_REST_S))
    return rests


def write_declarations(path: Path, battle: BattleMoves) -> None:
    """The human side's actions, one JSON object per line (the demo's stand-in player), each
    with the dice its stand-in rolled while it decided (``stand_in_rolls``: their sides)."""
    lines = []
    for action, rolls in zip(battle.human_actions, battle.stand_in_rolls, strict=True):
        line = exact_action_json(action)
        if rolls:
            line["stand_in_rolls"] = list(rolls)
        lines.append(json.dumps(line) + "\n")
    write_atomic(path, "".join(lines))


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
    dice: str = "none",
    camera: Camera | None = None,
    max_actions: int | None = None,
    extra_meta: dict[str, Any] | None = None,
    patient: bool = False,
    start_s: float = 2.0,
    faults: CameraFaults = NO_FAULTS,
) -> dict[str, Any]:
    """Render the seeded battle to ``out_dir/NAME.mp4`` with ``NAME.truth.json``,
    ``NAME.declarations.jsonl`` and ``NAME.json``; returns the metadata written.

    ``progress`` hears (0, None) while the battle is played, then (frames written, frames in
    all) after every frame. ``dice`` "tray": every d6 roll is shown in a dice tray beside the
    table, and ``NAME.json`` lists them ("rolls"). ``camera`` replaces
    :func:`overhead_camera`; ``max_actions`` cuts the battle short; ``extra_meta`` is added to
    the metadata. ``patient``: the hand waits :data:`HIDDEN_REST_S` after a move that leaves
    the piece's tags covered, as a player waits for the assistant to ask (the demo's
    stand-in). ``start_s``: how long the set-up table is filmed before the first move.
    ``faults``: webcam faults to render with (:mod:`vision.render.faults`); listed in
    ``NAME.json`` ("faults") when any."""
    if dice not in DICE_MODES:
        raise ValueError(f"dice must be one of {', '.join(DICE_MODES)}, not {dice!r}")
    out_dir.mkdir(parents=True, exist_ok=True)
    if progress is not None:
        progress(0, None)
    battle = battle_moves(scenario, ruleset, state, seed, max_actions)
    scene = battle_scene(scenario, state)
    if camera is None:
        camera = overhead_camera(scenario, resolution, board=dice != "tray")
    camera = faults.camera(camera)
    if dice == "tray":
        tray = footage_tray(scenario)
        scene = replace(scene, tray=tray)
        steps = tray_script(battle.shown, tray, seed, settle_s=settle_s, start_s=start_s)
    else:
        rests = settle_rests(scene, camera, battle.moves, settle_s) if patient else None
        steps = moves_script(battle.moves, settle_s=settle_s, start_s=start_s, rests=rests)
    if extra is not None:
        table_in = (scenario.table.width_in, scenario.table.depth_in)
        steps = interrupted(steps, extra, table_in, settle_s)
    script = Sequence(scene, camera, steps)
    meta = render_battle(
        battle,
        scene,
        camera,
        script,
        out_dir,
        name,
        scenario_ref,
        seed,
        fps,
        resolution,
        progress,
        faults,
    )
    if extra is not None:
        meta["hover_after"], meta["nudge_after"] = extra.hover_after, extra.nudge_after
    if dice == "tray":
        meta["dice"] = dice
        meta["rolls"] = rolls_truth(script, battle.shown)
        if battle.unshown:
            meta["rolls_not_shown"] = [
                {"sides": r.sides, "result": r.result, "purpose": r.purpose} for r in battle.unshown
            ]
    meta.update(extra_meta or {})
    write_json_atomic(out_dir / f"{name}.json", meta, indent=2)
    return meta

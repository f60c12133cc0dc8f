"""Saving a live game after every step, and resuming it (versioned JSON, one loader per version).

The file holds the scenario (a bundled name, or a file's absolute path), the starting positions
read off the table, every applied action with the dice results it consumed, the dice state and
every announcement made so far: resuming replays the actions through the engine, which
reproduces the game exactly, and keeps the announcement log whole.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from assistant.errors import UserError
from assistant.scenarios import load_game
from assistant.session.dice import AutoDice, PhysicalDeck, make_dice
from assistant.session.game import AppliedStep, LiveGame, Said, Stage
from assistant.session.waiting import exact_action_json, restore_waiting, waiting_json
from calibration.safe_files import write_json_atomic
from engine.actions import Action, ActionKind
from engine.cards import Deck
from engine.dice import Roll, ScriptedDice
from engine.errors import EngineError
from engine.jsonvalue import Memory, freeze_pairs, pairs_to_json
from engine.model import GameState
from engine.protocols import find_controller

SAVE_VERSION = 1

LEGACY_KINDS: dict[str, str] = {"initiative": ActionKind.CHANCE, "rout": ActionKind.FLEE}
"""Action kinds saved before the shared vocabulary (issue 11), and their words now."""


def action_from_saved(data: Mapping[str, Any]) -> Action:
    """An action read from a saved game or a declarations file, old kind words mapped."""
    kind = data.get("kind") if isinstance(data, Mapping) else None
    if isinstance(kind, str) and kind in LEGACY_KINDS:
        data = {**data, "kind": str(LEGACY_KINDS[kind])}
    return Action.from_json(data)


def game_to_json(game: LiveGame, scenario_ref: str, seed: int | None) -> dict[str, Any]:
    """The saved form of a live game."""
    return {
        "version": SAVE_VERSION,
        "scenario": scenario_ref,
        "dice": "auto" if isinstance(game.dice, AutoDice) or seeded_deck(game) else "physical",
        "cards": "physical" if isinstance(game.dice, PhysicalDeck) else "auto",
        "seed": seed,
        "dice_state": game.dice.get_state(),
        "started": game.stage is not Stage.SETUP,
        "positions": {
            u.id: [round(u.x, 4), round(u.y, 4), round(u.heading_deg, 3)]
            for u in game.initial.units
        },
        "plan_index": game.plan_index,
        "steps": [
            {
                "action": exact_action_json(step.action),
                "rolls": [[r.purpose, r.sides, r.result] for r in step.rolls],
                **({"cards": list(step.cards)} if step.cards else {}),
                "dice_state": snapshot.dice_state,
                **memory_json(step),
            }
            for step, snapshot in zip(game.steps, game.history.snapshots()[1:], strict=True)
        ],
        "announcements": [[round(a.t, 3), a.text] for a in game.announcements],
        "waiting": waiting_json(game),
        **({"decks": [decks_json(d) for d in game.state.decks]} if game.state.decks else {}),
    }


def seeded_deck(game: LiveGame) -> bool:
    """A physical deck with dice rolled by soloscope."""
    return isinstance(game.dice, PhysicalDeck) and game.dice.seeded is not None


def decks_json(deck: Deck) -> dict[str, Any]:
    """A deck's piles in order (a resumed game draws from the same order)."""
    return {
        "name": deck.name,
        "draw_pile": list(deck.draw_pile),
        "discard": list(deck.discard),
        "removed": list(deck.removed),
    }


def saved_decks(state: GameState, raw: object) -> GameState:
    """The state with its decks in the saved order, where the saved piles hold the same cards
    as the replayed ones (the steps' draws are exact; a shuffle's order is not in the steps)."""
    if not isinstance(raw, list):
        return state
    for entry in raw:
        if not isinstance(entry, dict) or not any(d.name == entry.get("name") for d in state.decks):
            continue
        deck = state.deck(str(entry["name"]))
        piles = tuple(
            tuple(str(c) for c in entry.get(k, ())) for k in ("draw_pile", "discard", "removed")
        )
        now = (deck.draw_pile, deck.discard, deck.removed)
        if all(sorted(a) == sorted(b) for a, b in zip(piles, now, strict=True)):
            state = state.with_deck(Deck(deck.name, *piles))
    return state


def memory_json(step: AppliedStep) -> dict[str, Any]:
    """The controller memory a step's order left for its side, when it left one."""
    if step.memory is None:
        return {}
    side, memory = step.memory
    return {"memory": {"side": side, "value": pairs_to_json(memory)}}


def memory_from_saved(raw: Mapping[str, Any]) -> tuple[str, Memory] | None:
    """A step's saved controller memory (side, frozen memory), or None."""
    saved = raw.get("memory")
    if saved is None:
        return None
    return str(saved["side"]), freeze_pairs(saved["value"])


def scenario_reference(name_or_path: str) -> str:
    """What a save records for a scenario: a bundled name as it is, a file as an absolute path
    (so that ``--resume`` works from any working directory)."""
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.exists():
        return str(path.resolve())
    return name_or_path


def saver(
    path: Path, scenario_ref: str, seed: int | None, kit: Path | None = None
) -> Callable[[LiveGame], None]:
    """An ``on_saved`` callback that writes the game to ``path`` after every step (with the
    kit file the table is read with, as an absolute path, when there is one)."""
    extra = {} if kit is None else {"kit": str(kit.resolve())}

    def save(game: LiveGame) -> None:
        write_json_atomic(path, game_to_json(game, scenario_ref, seed) | extra)

    return save


def saved_kit(path: Path) -> Path | None:
    """The kit file a saved game was read with (None: the scenario's own tag sizes)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    kit = data.get("kit") if isinstance(data, dict) else None
    return Path(kit) if isinstance(kit, str) and kit else None


def load_saved(path: Path, say: Callable[[str], None]) -> tuple[LiveGame, str, int | None]:
    """A live game rebuilt from a save file; also the scenario reference and the seed."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UserError(f"cannot read the saved game {path}: {exc.strerror}") from None
    except (ValueError, RecursionError) as exc:  # not UTF-8, not JSON, nested thousands deep
        raise UserError(f"{path} is not a saved game ({exc})") from None
    version = data.get("version") if isinstance(data, dict) else None
    if version == 1:
        return _load_v1(data, path, say)
    raise UserError(f"{path}: saved-game version {version!r} is not known (this reads version 1)")


def _finite_pose(pose: Any, unit_id: str) -> tuple[float, float, float]:
    """A saved position as (x inches, y inches, heading degrees), or ValueError naming the unit."""
    x_in, y_in, heading_deg = (float(v) for v in pose)
    if not all(math.isfinite(v) for v in (x_in, y_in, heading_deg)):
        raise ValueError(f"the position of {unit_id} is not a number: {list(pose)}")
    return x_in, y_in, heading_deg


def _load_v1(
    data: Mapping[str, Any], path: Path, say: Callable[[str], None]
) -> tuple[LiveGame, str, int | None]:
    try:
        scenario_ref = str(data["scenario"])
        seed = data.get("seed")
        try:
            scenario, ruleset, state = load_game(scenario_ref)
        except (UserError, EngineError) as exc:
            raise UserError(f"{path}: the saved game's scenario cannot be read: {exc}") from None
        units = []
        for unit in state.units:
            pose = data["positions"].get(unit.id)
            if pose is None:
                units.append(unit)
                continue
            x_in, y_in, heading_deg = _finite_pose(pose, unit.id)
            units.append(replace(unit, x=x_in, y=y_in, heading_deg=heading_deg))
        state = replace(state, units=tuple(units))
        physical = data.get("dice") == "physical"
        dice = make_dice(physical, data.get("cards") == "physical", int(seed or 0))
        game = LiveGame(
            scenario=scenario,
            ruleset=ruleset,
            ai=find_controller(scenario.scenario.ai_controller),
            dice=dice,
            say=say,
            initial=state,
        )
        steps = data["steps"]
        for i, raw in enumerate(steps):
            action = action_from_saved(raw["action"])
            rolls = tuple(Roll(str(p), int(s), int(r)) for p, s, r in raw["rolls"])
            cards = tuple(str(c) for c in raw.get("cards", ()))
            scripted = ScriptedDice((r.result for r in rolls), cards)
            outcome = ruleset.apply(game.state, action, scripted)
            memory = memory_from_saved(raw)
            after = outcome.state if memory is None else outcome.state.with_memory(*memory)
            if i == len(steps) - 1:
                after = saved_decks(after, data.get("decks"))
            game.history.push(after, raw.get("dice_state"), action, outcome.events)
            game.steps.append(AppliedStep(action, rolls, memory, cards))
        dice.set_state(data.get("dice_state"))
        game.plan_index = int(data.get("plan_index", 0))
        game.announcements = [
            Said(float(t), str(text)) for t, text in data.get("announcements", ())
        ]
        if data.get("started"):
            game.stage = Stage.RUNNING
            restore_waiting(game, data.get("waiting"))
    except (
        KeyError,
        TypeError,
        ValueError,
        IndexError,
        AttributeError,
        OverflowError,
        EngineError,
    ) as exc:
        raise UserError(f"{path}: the saved game is damaged ({exc})") from None
    return game, scenario_ref, seed

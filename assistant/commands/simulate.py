"""``soloscope simulate``: a whole battle, the AI against the autopilot, as a log."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from assistant.scenarios import load_game
from engine.actions import Event, EventType
from engine.dice import Draw, RandomEvent, Roll, SeededDice, Shuffle
from engine.geometry import Table
from engine.model import GameState
from engine.runner import controllers_for, play_battle

NAME = "simulate"
HELP = "Play a whole battle, the scenario's AI against the autopilot, and print its log."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Scenario, seed and output format."""
    parser.add_argument("scenario", help="bundled scenario name or path to a .toml file")
    parser.add_argument("--seed", type=int, default=1, help="dice seed (same seed, same battle)")
    parser.add_argument("--json", action="store_true", help="JSON lines, one event per line")


def event_line(ev: Event) -> str:
    """One readable log line."""
    return f"[round {ev.round}] {ev.text}" if ev.round else ev.text


def setup_json(state: GameState) -> dict[str, Any]:
    """The first JSON line: every unit where it starts (and its cell, on a grid), and the table
    (and its grid)."""
    units = []
    for u in state.units:
        line: dict[str, Any] = {
            "id": u.id,
            "name": u.name,
            "side": u.side,
            "x": round(u.x, 4),
            "y": round(u.y, 4),
            "heading": round(u.heading_deg, 3),
        }
        if state.table.grid is not None:
            line["cell"] = list(u.cell) if u.cell is not None else None
        units.append(line)
    table: dict[str, Any] = {"width_in": state.table.width_in, "depth_in": state.table.depth_in}
    grid = state.table.grid
    if grid is not None:
        table["grid"] = {"cell_in": grid.cell_in, "cols": grid.cols, "rows": grid.rows}
    return {"type": "setup", "units": units, "table": table}


def event_json(ev: Event, table: Table) -> dict[str, Any]:
    """An event line; on a gridded table a move line also gives the cells its path passes
    through (the cell of each point, in order, without repeats)."""
    data = ev.to_json()
    path = data.get("path")
    if table.grid is not None and ev.type == EventType.MOVE and path and "cells" not in data:
        cells: list[list[int] | None] = []
        for point in path:
            cell = table.cell_of((float(point[0]), float(point[1])))
            shown = list(cell) if cell is not None else None
            if not cells or cells[-1] != shown:
                cells.append(shown)
        data = {**{k: v for k, v in data.items() if k != "text"}, "cells": cells, "text": ev.text}
    return data


def random_json(entry: RandomEvent) -> dict[str, Any]:
    """A roll, draw or shuffle line."""
    if isinstance(entry, Roll):
        return {
            "type": "roll",
            "purpose": entry.purpose,
            "sides": entry.sides,
            "result": entry.result,
        }
    if isinstance(entry, Draw):
        return {"type": "draw", "purpose": entry.purpose, "card": entry.card}
    assert isinstance(entry, Shuffle)
    return {"type": "shuffle", "deck": entry.deck, "purpose": entry.purpose}


def run(args: argparse.Namespace) -> int:
    """Play the battle and print each event as it happens; with --json, every roll, draw and
    shuffle too, each just before the events of the step it decided."""
    scenario, ruleset, state = load_game(args.scenario)
    dice = SeededDice(args.seed)
    out = sys.stdout
    logged = 0

    def write(data: dict[str, Any]) -> None:
        out.write(json.dumps(data, separators=(", ", ": ")) + "\n")

    def flush_random() -> None:
        nonlocal logged
        for entry in dice.log[logged:]:
            write(random_json(entry))
        logged = len(dice.log)

    def emit(ev: Event) -> None:
        if args.json:
            flush_random()
            write(event_json(ev, state.table))
        else:
            out.write(event_line(ev) + "\n")

    controllers = controllers_for(scenario)  # before any output: a bad name is a one-line error
    if args.json:
        write(setup_json(state))
    else:
        out.write(f"{scenario.scenario.title or scenario.scenario.name} — seed {args.seed}\n")
    play_battle(state, ruleset, controllers, dice, on_event=emit)
    if args.json:
        flush_random()
    return 0

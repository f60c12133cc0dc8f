"""``soloscope simulate``: a whole battle, the AI against the autopilot, as a log."""

from __future__ import annotations

import argparse
import json
import sys

from assistant.scenarios import load_game
from engine.actions import Event
from engine.dice import SeededDice
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


def run(args: argparse.Namespace) -> int:
    """Play the battle and print each event as it happens."""
    scenario, ruleset, state = load_game(args.scenario)
    dice = SeededDice(args.seed)
    out = sys.stdout

    def emit(ev: Event) -> None:
        if args.json:
            out.write(json.dumps(ev.to_json(), separators=(", ", ": ")) + "\n")
        else:
            out.write(event_line(ev) + "\n")

    controllers = controllers_for(scenario)  # before any output: a bad name is a one-line error
    if not args.json:
        out.write(f"{scenario.scenario.title or scenario.scenario.name} — seed {args.seed}\n")
    play_battle(state, ruleset, controllers, dice, on_event=emit)
    return 0

"""``soloscope generate scenario``: seed 003's d20 scenario table, a whole playable scenario
(RULES §5.m, §5.n).

``--json`` prints ``{"scenario": NAME, "roll": R, ...}`` (NAME as the seed names it, "Basic
Battle"; every field in :func:`assistant.scenario_files.scenario_json`); ``--out FILE.toml``
writes the scenario file ``soloscope simulate`` and ``soloscope play`` take; ``--sheet
FILE.pdf`` draws the set-up sheet.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from assistant.errors import UserError
from assistant.scenario_files import VICTORY, scenario_json, scenario_toml, unit_entries
from assistant.seed_args import add_seed_arguments, inches, resolve_seed, whole_number
from calibration.safe_files import write_atomic
from engine.dice import SeededDice
from engine.generators.scenario import MAX_ARMY, GeneratedScenario, generate_scenario
from engine.generators.scenario_table import ScenarioGenError, ScenarioKind
from engine.generators.terrain_rolls import MAX_TABLE_IN
from engine.generators.terrain_types import Battlefield

NAME = "scenario"
HELP = "Roll a generic scenario (seed 003): set-up, terrain, objectives and victory, as a file."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Dice, armies, table, rule options and outputs."""
    add_seed_arguments(parser)
    parser.add_argument(
        "--scenario",
        choices=[k.value for k in ScenarioKind],
        help="choose the scenario instead of rolling for it",
    )
    parser.add_argument("--heroes", default="5", metavar="N", help="figures in your army (5)")
    parser.add_argument("--enemies", default="6", metavar="N", help="figures in the AI's army (6)")
    parser.add_argument("--width", default="24", metavar="IN", help="table width, inches (24)")
    parser.add_argument("--depth", default="24", metavar="IN", help="table depth, inches (24)")
    parser.add_argument(
        "--battlefield",
        choices=[b.value for b in Battlefield],
        help="piece sizes and Move Units (default: small up to 24 x 24 in)",
    )
    parser.add_argument(
        "--errata",
        action="store_true",
        help="large table 2d6 = 10 is heavy woods instead of the printed major building (the "
        "rules' correction)",
    )
    parser.add_argument("--json", action="store_true", help='print {"scenario", "roll", ...}')
    parser.add_argument("--out", type=Path, metavar="FILE.toml", help="write the scenario file")
    parser.add_argument(
        "--sheet", type=Path, metavar="FILE.pdf", help="draw the set-up sheet (table top-down)"
    )


def describe(gen: GeneratedScenario, seed: int) -> list[str]:
    """The scenario in words."""
    rolled = f"d20 = {gen.roll}" if gen.roll is not None else "chosen"
    lines = [
        f"{gen.kind.display_name} ({rolled}) on a {gen.width_in:g} x {gen.depth_in:g} in table, "
        f"{gen.battlefield.value} battlefield (Move Unit {gen.move_unit_in:g} in); "
        f"{gen.max_rounds} rounds, objective VP after {gen.objective_rounds}.",
        VICTORY[gen.kind],
    ]
    for army in gen.armies:
        who = "you" if army.role == "human" else "the AI"
        lines.append(
            f"{army.label} ({who}, {army.figures} figures) deploy at the {army.edge} edge:"
        )
        for u in unit_entries(gen):
            if u.side == army.label:
                p = u.placement
                where = f"({p.x:g}, {p.y:g}) in, facing {p.heading_deg:g}°"
                off = "" if p.placed else " (by the seed it waits off the table for the spawn die)"
                lines.append(f"  {u.name} [tag {u.tag}] at {where}{off}")
    for o in gen.objectives:
        moved = f", moved {o.moved_in:g} in off impassable terrain" if o.moved_in else ""
        vp = ", ".join(f"{gen.army(r).label} {v} VP" for r, v in o.vp.items())
        lines.append(f"{o.marker.name} at ({o.x:g}, {o.y:g}) in: {vp}{moved}")
    if gen.cargo is not None:
        lines.append(f"the cargo at ({gen.cargo[0]:g}, {gen.cargo[1]:g}) in")
    for t in gen.scenario_terrain:
        lines.append(f"{t.name}: a {t.type.name} at ({t.x:g}, {t.y:g}) in")
    lines.append(f"{len(gen.terrain.pieces)} random terrain pieces.")
    if gen.removed:
        lines.append(f"left out to make room: {', '.join(gen.removed)}")
    return lines


def run(args: argparse.Namespace) -> int:
    """Roll the scenario, print it, write the file and the sheet if asked."""
    width = inches(args.width, "--width", MAX_TABLE_IN)
    depth = inches(args.depth, "--depth", MAX_TABLE_IN)
    heroes = whole_number(args.heroes, "--heroes", 1, MAX_ARMY)
    enemies = whole_number(args.enemies, "--enemies", 1, MAX_ARMY)
    if args.out is not None and args.out.suffix.lower() != ".toml":
        raise UserError(f"--out must name a .toml file, got {str(args.out)!r}")
    if args.sheet is not None and args.sheet.suffix.lower() != ".pdf":
        raise UserError(f"--sheet must name a .pdf file, got {str(args.sheet)!r}")
    seed = resolve_seed(args)
    try:
        gen = generate_scenario(
            SeededDice(seed),
            heroes,
            enemies,
            width,
            depth,
            kind=ScenarioKind(args.scenario) if args.scenario else None,
            errata=args.errata,
            battlefield=Battlefield(args.battlefield) if args.battlefield else None,
        )
    except ScenarioGenError as exc:
        raise UserError(str(exc)) from None
    written = []
    if args.out is not None:
        header = (
            f"Generated by: soloscope generate scenario --seed {seed}"
            + "".join(
                f" --{flag} {value}"
                for flag, value in (
                    ("scenario", args.scenario),
                    ("heroes", heroes),
                    ("enemies", enemies),
                    ("width", f"{width:g}"),
                    ("depth", f"{depth:g}"),
                    ("battlefield", args.battlefield),
                )
                if value is not None
            )
            + (" --errata" if args.errata else "")
            + "\nA generic scenario of the d20 rules' scenario table, with random terrain."
        )
        _write(args.out, scenario_toml(gen, seed, header))
        written.append(f"wrote the scenario to {args.out}")
        written.append(
            f"print its tags with: soloscope markers --out kit.pdf --scenario {args.out}; "
            f"play it with: soloscope play --source 0 --scenario {args.out}"
        )
    if args.sheet is not None:
        from assistant.setup_sheet import scenario_sheet_pdf  # fpdf loads only when asked

        _write(args.sheet, scenario_sheet_pdf(gen, seed))
        written.append(f"wrote the set-up sheet to {args.sheet}")
    if args.json:
        print(json.dumps(scenario_json(gen, seed)))
    else:
        print("\n".join(describe(gen, seed)))
    for line in written:
        print(line, file=sys.stderr if args.json else sys.stdout)
    return 0


def _write(path: Path, content: str | bytes) -> None:
    try:
        write_atomic(path, content)
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror or exc}") from None

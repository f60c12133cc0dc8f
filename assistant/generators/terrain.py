"""``soloscope generate terrain``: seed 003's random terrain for a table (RULES §5.n).

``--json`` prints ``{"pieces": [{"size", "type", "section", "x", "y", "polygon", ...}]}`` (every
field in :func:`assistant.terrain_files.piece_json`); ``--out FILE.toml`` writes the pieces as
scenario ``[[terrain]]`` entries, the first eight with the kit's terrain tags 8 to 15.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from assistant.errors import UserError
from assistant.seed_args import add_seed_arguments, inches, resolve_seed
from assistant.terrain_files import layout_json, piece_tags, terrain_toml
from calibration.kit_ids import TERRAIN_IDS
from calibration.safe_files import write_atomic
from engine.dice import SeededDice
from engine.generators.terrain import TerrainLayout, TerrainPiece, generate_terrain
from engine.generators.terrain_rolls import MAX_TABLE_IN
from engine.generators.terrain_types import Battlefield

NAME = "terrain"
HELP = "Roll random terrain for the table (seed 003): pieces, places and what each does."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Table size, dice, rule options and outputs."""
    add_seed_arguments(parser)
    parser.add_argument("--width", default="24", metavar="IN", help="table width, inches (24)")
    parser.add_argument("--depth", default="24", metavar="IN", help="table depth, inches (24)")
    parser.add_argument(
        "--battlefield",
        choices=[b.value for b in Battlefield],
        help="piece sizes: small halves the seed's sizes (default: small up to 24 x 24 in)",
    )
    parser.add_argument(
        "--errata",
        action="store_true",
        help="large table 2d6 = 10 is heavy woods instead of the printed major building (the "
        "rules' correction)",
    )
    parser.add_argument(
        "--no-tags", action="store_true", help="give no piece a tag in the --out file"
    )
    parser.add_argument("--json", action="store_true", help='print {"pieces": [...]}')
    parser.add_argument(
        "--out", type=Path, metavar="FILE.toml", help="write the pieces as [[terrain]] entries"
    )
    parser.add_argument(
        "--sheet", type=Path, metavar="FILE.pdf", help="draw the set-up sheet (table top-down)"
    )


def _attributes(piece: TerrainPiece) -> str:
    kind = piece.type
    words = [
        w
        for w, on in (
            ("blocks sight", kind.blocks_los),
            ("impassable", kind.impassable),
            ("difficult", kind.difficult),
            ("dangerous", kind.dangerous),
        )
        if on
    ]
    if kind.cover != "none":
        words.append(f"{kind.cover} cover")
    if kind.height_levels:
        words.append(f"{kind.height_levels} height levels")
    return ", ".join(words) or "no effect on play"


def describe(layout: TerrainLayout, tags: dict[str, int]) -> list[str]:
    """The layout in words: the table, each section's roll, each piece, what was left out."""
    size = "halved" if layout.battlefield is Battlefield.SMALL else "as the seed gives them"
    lines = [
        f"Terrain for a {layout.width_in:g} x {layout.depth_in:g} in table "
        f"({layout.battlefield.value} battlefield: piece sizes {size}); "
        f"{len(layout.pieces)} pieces."
    ]
    for s in layout.rolls.sections:
        lines.append(
            f"section [{s.section.col}, {s.section.row}]: d6 = {s.roll}, "
            f"{s.small} small and {s.large} large"
        )
    for p in layout.pieces:
        r = p.rolled
        where = f"({p.x:.2f}, {p.y:.2f}) in"
        dims = f"{round(p.long_in, 2):g} x {round(p.short_in, 2):g} in"
        notes = []
        if p.moved_in:
            notes.append(f"moved {p.moved_in:g} in to fit")
        if p.scale != 1:
            notes.append(f"shrunk to {p.scale:g} to fit")
        if p.id in tags:
            notes.append(f"tag {tags[p.id]}")
        lines.append(
            f"  {p.name} ({r.size.value}, 2d6 = {sum(r.dice_2d6)}, section "
            f"[{r.section.col}, {r.section.row}], scatter {r.scatter} by {r.distance_in} in): "
            f"{dims} at {where}, long axis {p.heading_deg:.0f}°; {_attributes(p)}"
            + (f" [{'; '.join(notes)}]" if notes else "")
        )
    for r in layout.unplaced:
        lines.append(
            f"  left out: {r.type.name} ({r.size.value}, section "
            f"[{r.section.col}, {r.section.row}]): no room for it there"
        )
    return lines


def run(args: argparse.Namespace) -> int:
    """Roll the terrain, print it, and write the scenario entries if asked."""
    width = inches(args.width, "--width", MAX_TABLE_IN)
    depth = inches(args.depth, "--depth", MAX_TABLE_IN)
    if args.out is not None and args.out.suffix.lower() != ".toml":
        raise UserError(f"--out must name a .toml file, got {str(args.out)!r}")
    if args.sheet is not None and args.sheet.suffix.lower() != ".pdf":
        raise UserError(f"--sheet must name a .pdf file, got {str(args.sheet)!r}")
    seed = resolve_seed(args)
    battlefield = Battlefield(args.battlefield) if args.battlefield else None
    layout = generate_terrain(
        SeededDice(seed), width, depth, errata=args.errata, battlefield=battlefield
    )
    tags = piece_tags(layout, not args.no_tags)
    if args.out is not None:
        untagged = len(layout.pieces) - len(tags)
        header = (
            f"Generated by: soloscope generate terrain --seed {seed} --width {width:g} "
            f"--depth {depth:g}{' --errata' if args.errata else ''}"
            f"{f' --battlefield {args.battlefield}' if args.battlefield else ''}\n"
            f"Random terrain by the d20 rules' generator for a {width:g} x {depth:g} in table: "
            "paste these [[terrain]] entries into a scenario file.\n"
            + (
                f"Tags: the first {len(tags)} pieces carry the kit's terrain tags "
                f"{TERRAIN_IDS.start}-{TERRAIN_IDS.stop - 1}; "
                f"{untagged} more have none (the kit prints only {len(TERRAIN_IDS)})."
                if untagged and tags
                else ("No piece carries a tag." if not tags else "Every piece carries a tag.")
            )
        )
        text = terrain_toml(layout, header, not args.no_tags)
        try:
            write_atomic(args.out, text)
        except OSError as exc:
            raise UserError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    if args.sheet is not None:
        from assistant.setup_sheet import terrain_sheet_pdf  # fpdf loads only when asked

        title = f"terrain, seed {seed}"
        try:
            write_atomic(args.sheet, terrain_sheet_pdf(layout, title, not args.no_tags))
        except OSError as exc:
            raise UserError(f"cannot write {args.sheet}: {exc.strerror or exc}") from None
        print(
            f"wrote the set-up sheet to {args.sheet}", file=sys.stderr if args.json else sys.stdout
        )
    if args.json:
        print(json.dumps(layout_json(layout, not args.no_tags)))
    else:
        print("\n".join(describe(layout, tags)))
    if args.out is not None:
        note = (
            f"tags {TERRAIN_IDS.start}-{TERRAIN_IDS.start + len(tags) - 1} on the first "
            f"{len(tags)}, none on the other {len(layout.pieces) - len(tags)}"
            if tags and len(tags) < len(layout.pieces)
            else ("no tags" if not tags else "a tag on each")
        )
        print(
            f"wrote {len(layout.pieces)} [[terrain]] entries to {args.out} ({note})",
            file=sys.stderr if args.json else sys.stdout,
        )
    return 0

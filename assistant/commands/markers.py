"""``soloscope markers --out kit.pdf``: the printable kit at true scale.

Corner, base, button and terrain tags, the lens calibration board and a ruler on every page;
``--png DIR`` also writes each page as a 600 dpi PNG; ``--scenario NAME`` adds which tag goes on
which model (a page in the PDF and a text file beside it).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from assistant.errors import UserError
from assistant.scenarios import load_scenario
from calibration.kit import render_pdf_pages_png, write_kit_pdf
from calibration.kit_ids import PIECE_IDS, TERRAIN_IDS, TERRAIN_TAG_MM, role_of
from calibration.kit_layout import PAPERS, BaseTagSpec, KitSpec
from calibration.kit_tray import append_tray_page
from engine.scenario import Scenario

NAME = "markers"
HELP = "write the printable kit (tags, lens board, rulers) as a true-scale PDF"

PNG_DPI = 600.0
MM_PER_INCH = 25.4


@dataclass(frozen=True)
class Roster:
    """A scenario's tag list: which tag id goes on which model or terrain piece."""

    title: str
    lines: tuple[str, ...]
    bases: tuple[BaseTagSpec, ...]
    """The units' tags in the kit's piece range, by id, with their bases and offsets."""
    terrain_tag_mm: tuple[tuple[int, float], ...]
    """(terrain id, tag side in millimetres) as the scenario asks."""

    @property
    def piece_ids(self) -> tuple[int, ...]:
        """The units' tag ids that are printed, sorted."""
        return tuple(b.tag_id for b in self.bases)


def _role(tag_id: int) -> str:
    try:
        return f"a {role_of(tag_id)} id"
    except ValueError:
        return "outside DICT_4X4_50"


def _tag_words(
    forward_mm: float, right_mm: float, size_mm: float, printed_mm: float, rotation_deg: float = 0
) -> str:
    where = []
    if forward_mm:
        where.append(f"{abs(forward_mm):g} mm {'ahead of' if forward_mm > 0 else 'behind'}")
    if right_mm:
        where.append(f"{abs(right_mm):g} mm {'right of' if right_mm > 0 else 'left of'}")
    place = " and ".join(where) + " the centre" if where else "on the centre"
    size = f"{size_mm:g} mm tag"
    if abs(size_mm - printed_mm) > 0.05:
        size += f" (this kit prints {printed_mm:g} mm: fix one of them)"
    if rotation_deg % 360:
        place += f", turned {rotation_deg % 360:g} deg clockwise from the model's front"
    return f"{size}, {place}"


def scenario_roster(scenario: Scenario) -> Roster:
    """The tag list of a loaded scenario, one line per tag, and the base tags to print: each at
    the size and place on its base that the scenario gives."""
    lines: list[str] = []
    bases: list[BaseTagSpec] = []
    terrain_sizes: dict[int, float] = {}
    for side in scenario.sides:
        lines.append(f"{side.name} ({side.role}):")
        for unit in scenario.units:
            if unit.side != side.name:
                continue
            base_mm = unit.base_diameter_in * MM_PER_INCH
            if not unit.tags:
                lines.append(f"    no tag      {unit.name} ({unit.id}): untracked")
            for tag in unit.tags:
                note = ""
                if tag.id in PIECE_IDS:
                    bases.append(
                        BaseTagSpec(
                            tag.id, base_mm, tag.size_mm, tag.forward_mm, tag.right_mm, unit.name
                        )
                    )
                    if tag.rotation_deg % 360:
                        note = "  [printed upright: turn it as said when sticking it]"
                else:
                    note = f"  [not a piece id: {_role(tag.id)}; not printed]"
                words = _tag_words(
                    tag.forward_mm, tag.right_mm, tag.size_mm, tag.size_mm, tag.rotation_deg
                )
                lines.append(
                    f"    tag {tag.id:>3}     {unit.name} ({unit.id}), base {base_mm:.0f} mm: "
                    f"{words}{note}"
                )
    if scenario.terrain:
        lines.append("Terrain:")
    for piece in scenario.terrain:
        if not piece.tags:
            lines.append(f"    no tag      {piece.name} ({piece.id}): fixed in place")
        for tag in piece.tags:
            note = ""
            printed = tag.size_mm
            if tag.id in TERRAIN_IDS and 10.0 <= tag.size_mm <= 40.0:
                terrain_sizes[tag.id] = tag.size_mm
            elif tag.id in TERRAIN_IDS:
                printed = TERRAIN_TAG_MM
            else:
                note = f"  [not a terrain id: {_role(tag.id)}; not printed]"
            lines.append(
                f"    tag {tag.id:>3}     {piece.name} ({piece.id}): "
                f"{_tag_words(tag.forward_mm, tag.right_mm, tag.size_mm, printed)}, "
                f"{tag.height_mm:g} mm up{note}"
            )
    title = f"Scenario {scenario.scenario.name}: {scenario.scenario.title}"
    return Roster(
        title,
        tuple(lines),
        tuple(sorted(bases, key=lambda b: b.tag_id)),
        tuple(sorted(terrain_sizes.items())),
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags of ``soloscope markers``."""
    parser.add_argument("--out", type=Path, required=True, help="PDF file to write")
    parser.add_argument("--paper", choices=sorted(PAPERS), default="a4", help="paper size")
    parser.add_argument(
        "--pieces",
        type=int,
        default=None,
        help=f"how many base tags to print (1-{len(PIECE_IDS)}, ids from {PIECE_IDS.start}; "
        f"default all, or the scenario's)",
    )
    parser.add_argument(
        "--base-mm", type=float, default=None, help="base diameter, mm (default 25)"
    )
    parser.add_argument("--tag-mm", type=float, default=None, help="base tag side, mm (default 10)")
    parser.add_argument("--png", type=Path, default=None, help="also write 600 dpi PNG pages here")
    parser.add_argument(
        "--tray", choices=["dark", "light"], help="add a dice tray sheet (a dark or light mat)"
    )
    parser.add_argument(
        "--scenario",
        default=None,
        help="bundled scenario name or .toml path: print its models' tags at the sizes and "
        "places it gives, and list which tag goes on which model",
    )
    parser.add_argument(
        "--grid-cell-mm",
        type=float,
        default=None,
        help="with a grid scenario: the squares of your own board (a chessboard), mm; the "
        "printed board is then left out and the corner tags go at your board's corners",
    )


def run(args: argparse.Namespace) -> int:
    """Write the kit and say what was written."""
    out: Path = args.out
    if out.suffix.lower() != ".pdf":
        raise UserError(f"--out must name a .pdf file, got {out}")
    if not out.parent.exists():
        raise UserError(f"folder {out.parent} does not exist (for --out {out})")
    if args.grid_cell_mm is not None and (
        args.scenario is None or load_scenario(args.scenario).table.grid_shape() is None
    ):
        raise UserError("--grid-cell-mm needs --scenario (a scenario played on a grid)")
    roster = None
    if args.scenario is not None:
        given = [
            f
            for f, v in (
                ("--pieces", args.pieces),
                ("--base-mm", args.base_mm),
                ("--tag-mm", args.tag_mm),
            )
            if v is not None
        ]
        if given:
            raise UserError(
                f"{', '.join(given)} cannot be used with --scenario: the scenario gives every "
                "model's base and tag"
            )
        roster = scenario_roster(load_scenario(args.scenario))
        if not roster.bases:
            raise UserError(
                f"scenario {args.scenario} puts no tag of ids {PIECE_IDS.start}-"
                f"{PIECE_IDS.stop - 1} on any model"
            )
    base_mm = 25.0 if args.base_mm is None else args.base_mm
    tag_mm = 10.0 if args.tag_mm is None else args.tag_mm
    if base_mm <= 0 or tag_mm <= 0:
        raise UserError(f"--base-mm and --tag-mm must be positive ({base_mm:g}, {tag_mm:g})")
    pieces = len(PIECE_IDS) if args.pieces is None else args.pieces
    if not 1 <= pieces <= len(PIECE_IDS):
        raise UserError(f"--pieces must be 1 to {len(PIECE_IDS)}, got {pieces}")
    spec = KitSpec(
        paper=PAPERS[args.paper],
        piece_ids=tuple(PIECE_IDS)[:pieces],
        base_mm=base_mm,
        tag_mm=tag_mm,
        bases=() if roster is None else roster.bases,
        terrain_tag_mm=() if roster is None else roster.terrain_tag_mm,
        roster_title="" if roster is None else roster.title,
        roster=() if roster is None else roster.lines,
    )
    pages = write_kit_pdf(spec, out)
    print(f"wrote {out}: {len(pages)} pages on {args.paper}; print at 100 % (actual size)")
    if args.scenario is not None:  # a grid scenario: its board at true scale, or a real board
        from assistant.tables.dungeon_kit import print_grid_board

        print_grid_board(load_scenario(args.scenario), out, PAPERS[args.paper], args.grid_cell_mm)
    if args.tray is not None:
        append_tray_page(out, PAPERS[args.paper], args.tray)
        print(f"added the {args.tray} dice tray sheet as the last page")
    if roster is not None:
        list_path = out.with_suffix(".tags.txt")
        try:
            list_path.write_text("\n".join(roster.lines) + "\n", encoding="utf-8")
        except OSError as exc:
            raise UserError(f"cannot write {list_path}: {exc.strerror}") from None
        print(f"wrote {list_path}: which tag goes on which model ({roster.title})")
    if args.png is not None:
        written = render_pdf_pages_png(out, args.png, PNG_DPI)
        print(f"wrote {len(written)} PNG pages at {PNG_DPI:g} dpi to {args.png}")
    return 0

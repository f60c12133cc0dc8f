"""``soloscope markers --out kit.pdf``: the printable kit at true scale.

Corner, base, button and terrain tags, the lens calibration board and a ruler on every page;
``--png DIR`` also writes each page as a 600 dpi PNG; ``--scenario NAME`` adds which tag goes on
which model (a page in the PDF and a text file beside it).

Tag sizes belong to the camera: ``--camera 1080p|4k`` (a nominal webcam mounted as the README
says) or ``--profile P`` (a camera calibrated from the corner tags alone) gives every base and
terrain tag the smallest size that camera reads in every frame everywhere on the table, within
what its base or piece carries (``calibration.kit_sizes``); ``--tag-mm`` gives the base tags a
size by hand. Without any, the scenario's own sizes are printed. The sizes chosen are written
beside the PDF (``kit.kit.json``) for ``calibrate``, ``play``, ``track`` and ``replay``; with
``--profile`` the profile is made to name that kit file. Where some base cannot carry a tag the
camera can read at all, no kit is written and the message says what to change.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from assistant.errors import UserError
from assistant.scenarios import load_scenario
from calibration.kit import render_pdf_pages_png, write_kit_pdf
from calibration.kit_file import Kit, KitCamera, KitTag
from calibration.kit_ids import PIECE_IDS, TERRAIN_IDS, TERRAIN_TAG_MM, role_of
from calibration.kit_layout import PAPERS, BaseTagSpec, KitSpec
from calibration.kit_tray import append_tray_page
from calibration.safe_files import write_atomic
from engine.scenario import Scenario

NAME = "markers"
HELP = "Write the printable kit (tags, lens board, rulers) as a true-scale PDF."

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


def _kit_note(tag: KitTag | None) -> str:
    """How the camera the kit was sized for reads the tag ("" when it was not measured)."""
    if tag is None or tag.px_min <= 0:
        return ""
    if tag.status == "short":
        return f"  [{tag.px_min:.0f} px at the worst place: some sightings missed]"
    return f"  [{tag.px_min:.0f} px at the worst place]"


def scenario_roster(scenario: Scenario, kit: Kit | None = None) -> Roster:
    """The tag list of a loaded scenario, one line per tag, and the base tags to print: each at
    the size and place on its base that the scenario gives (give it a kit's sizes with
    ``assistant.pieces.apply_kit``; ``kit`` adds how its camera reads each tag)."""
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
                note += _kit_note(kit.tag(tag.id) if kit else None)
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
            note += _kit_note(kit.tag(tag.id) if kit else None)
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


def pdf_page_count(path: Path, written: int) -> int:
    """The pages of the PDF at ``path`` (``written``, the kit's own, without pypdfium2)."""
    try:
        import pypdfium2 as pdfium
    except ImportError:  # without it no page was added to the kit
        return written
    document = pdfium.PdfDocument(str(path))
    try:
        return len(document)
    finally:
        document.close()


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
    parser.add_argument(
        "--tag-mm",
        type=float,
        default=None,
        help="base tag side, mm (default 10, or the scenario's): a size of your own, instead "
        "of --camera or --profile",
    )
    parser.add_argument(
        "--camera",
        choices=["1080p", "4k"],
        default=None,
        help="size every tag for this webcam, mounted straight down as the README says: the "
        "smallest size it reads in every frame everywhere on the table",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="size every tag for the camera of this profile (calibrated from the corner tags "
        "alone), and make the profile name the kit",
    )
    parser.add_argument("--png", type=Path, default=None, help="also write 600 dpi PNG pages here")
    parser.add_argument(
        "--tray", choices=["dark", "light"], help="add a dice tray sheet (a dark or light mat)"
    )
    parser.add_argument(
        "--scenario",
        default=None,
        help="bundled scenario name or .toml path: print its models' and terrain's tags (at "
        "the sizes it gives, or sized for --camera/--profile) and list which goes where",
    )
    parser.add_argument(
        "--grid-cell-mm",
        type=float,
        default=None,
        help="with a grid scenario: the squares of your own board (a chessboard), mm; the "
        "printed board is then left out and the corner tags go at your board's corners",
    )


@dataclass(frozen=True)
class Sized:
    """The kit chosen for a scenario: its sizes, the warnings to print and the scenario whose
    tags now carry them."""

    kit: Kit
    scenario: Scenario
    warnings: tuple[str, ...] = ()


def _table_of(scenario: Scenario, grid_cell_mm: float | None) -> Scenario:
    """The scenario as laid on the player's own board squares (``--grid-cell-mm``)."""
    if grid_cell_mm is None or scenario.table.grid_shape() is None:
        return scenario
    from assistant.tables.dungeon_kit import scaled_scenario_text
    from engine.scenario import parse_scenario

    if not 5.0 <= grid_cell_mm <= 120.0:
        raise UserError(f"--grid-cell-mm takes 5 to 120 mm, not {grid_cell_mm:g}")
    return parse_scenario(scaled_scenario_text(Path(scenario.source), grid_cell_mm), "board")


def _sized(scenario: Scenario, args: argparse.Namespace) -> Sized:
    """The scenario's tags at the sizes asked for: for a camera, by hand, or its own."""
    from assistant.kit_files import manual_kit, scenario_plan
    from assistant.pieces import apply_kit, scenario_kit

    if args.camera is not None or args.profile is not None:
        table = _table_of(scenario, args.grid_cell_mm)
        plan = scenario_plan(table, camera=args.camera, profile_path=args.profile)
        if plan.unreadable:
            raise UserError(
                " ".join(s.sentence for s in plan.unreadable)
                + f" No kit written; {_other_sizing(args)}."
            )
        sized = apply_kit(scenario, plan.kit)
        return Sized(plan.kit, sized, tuple(s.sentence for s in plan.shortfalls))
    if args.tag_mm is not None:
        if args.tag_mm <= 0:
            raise UserError(f"--tag-mm must be positive, got {args.tag_mm:g}")
        kit, too_large = manual_kit(scenario, args.tag_mm)
        if too_large:
            t = too_large[0]
            names = ", ".join(t.names[:3]) + (" ..." if len(t.names) > 3 else "")
            raise UserError(
                f"a {args.tag_mm:g} mm tag does not fit on the {t.base_mm:.0f} mm bases of "
                f"{names} clear of the figure: they carry at most {t.carried_mm:g} mm"
            )
        return Sized(kit, apply_kit(scenario, kit))
    return Sized(scenario_kit(scenario), scenario)


def _other_sizing(args: argparse.Namespace) -> str:
    if args.camera == "1080p":
        return "see what a 4K camera takes with --camera 4k"
    return "a size of your own is --tag-mm N"


def _plain_sizing(
    args: argparse.Namespace, base_mm: float
) -> tuple[float, tuple[str, ...], KitCamera]:
    """The base tag size of a kit with no scenario, its warnings and its camera: sized for
    --camera or --profile on ``base_mm`` bases over a 2 ft table (or the profile's), else
    --tag-mm (default 10)."""
    if args.camera is None and args.profile is None:
        tag_mm = 10.0 if args.tag_mm is None else args.tag_mm
        return tag_mm, (), KitCamera("manual", f"base tags of {tag_mm:g} mm, as asked")
    from assistant.kit_files import camera_view
    from calibration.kit_sizes import TagNeed, size_kit

    width, depth = 24.0, 24.0
    if args.profile is not None:
        from calibration.profile import load_profile

        profile = load_profile(args.profile)
        width, depth = profile.width_in, profile.depth_in
    view = camera_view(width, depth, camera=args.camera, profile_path=args.profile)
    need = TagNeed(PIECE_IDS.start, "", "", "base", 0.0, base_mm=base_mm, placement="front")
    plan = size_kit([need], view)
    if plan.unreadable:
        raise UserError(plan.unreadable[0].sentence + " No kit written.")
    camera = KitCamera(
        "profile" if args.profile else view.kind,
        view.words,
        view.px_per_mm(3.0),
        str(args.profile or ""),
        view.camera_height_mm,
    )
    return plan.kit.tags[0].size_mm, tuple(s.sentence for s in plan.shortfalls), camera


def _check_options(args: argparse.Namespace) -> None:
    out: Path = args.out
    if out.suffix.lower() != ".pdf":
        raise UserError(f"--out must name a .pdf file, got {out}")
    if not out.parent.exists():
        raise UserError(f"folder {out.parent} does not exist (for --out {out})")
    if args.camera is not None and args.profile is not None:
        raise UserError("give --camera or --profile, not both: each sizes the tags for a camera")
    if args.tag_mm is not None and (args.camera is not None or args.profile is not None):
        raise UserError(
            "--tag-mm cannot be used with --camera or --profile: they choose the tag size"
        )
    if args.profile is not None and not args.profile.is_file():
        raise UserError(f"profile {args.profile} does not exist (for --profile)")


def run(args: argparse.Namespace) -> int:
    """Write the kit and say what was written."""
    from calibration.kit_file import kit_path_for, save_kit

    _check_options(args)
    out: Path = args.out
    if args.grid_cell_mm is not None and (
        args.scenario is None or load_scenario(args.scenario).table.grid_shape() is None
    ):
        raise UserError("--grid-cell-mm needs --scenario (a scenario played on a grid)")
    roster = None
    sized = None
    warnings: tuple[str, ...] = ()
    if args.scenario is not None:
        given = [
            f for f, v in (("--pieces", args.pieces), ("--base-mm", args.base_mm)) if v is not None
        ]
        if given:
            raise UserError(
                f"{', '.join(given)} cannot be used with --scenario: the scenario gives every "
                "model's base"
            )
        sized = _sized(load_scenario(args.scenario), args)
        warnings = sized.warnings
        roster = scenario_roster(sized.scenario, sized.kit)
        if not roster.bases:
            raise UserError(
                f"scenario {args.scenario} puts no tag of ids {PIECE_IDS.start}-"
                f"{PIECE_IDS.stop - 1} on any model"
            )
    base_mm = 25.0 if args.base_mm is None else args.base_mm
    if base_mm <= 0 or (args.tag_mm is not None and args.tag_mm <= 0):
        raise UserError(f"--base-mm and --tag-mm must be positive ({base_mm:g}, {args.tag_mm:g})")
    pieces = len(PIECE_IDS) if args.pieces is None else args.pieces
    if not 1 <= pieces <= len(PIECE_IDS):
        raise UserError(f"--pieces must be 1 to {len(PIECE_IDS)}, got {pieces}")
    tag_mm = 10.0
    camera = None
    if roster is None:
        tag_mm, warnings, camera = _plain_sizing(args, base_mm)
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
    kit = sized.kit if sized is not None else _plain_kit_file(spec, camera or KitCamera("manual"))
    pages = len(write_kit_pdf(spec, out))
    if args.scenario is not None:  # a grid scenario: its board at true scale, or a real board
        from assistant.tables.dungeon_kit import print_grid_board

        print_grid_board(load_scenario(args.scenario), out, PAPERS[args.paper], args.grid_cell_mm)
    if args.tray is not None:
        append_tray_page(out, PAPERS[args.paper], args.tray)
        print(f"added the {args.tray} dice tray sheet as the last page")
    # the grid board and the tray sheet are added to the file: count what it holds now
    pages = pdf_page_count(out, pages)
    print(f"wrote {out}: {pages} pages on {args.paper}; print at 100 % (actual size)")
    if roster is not None:
        list_path = out.with_suffix(".tags.txt")
        try:
            write_atomic(list_path, "\n".join(roster.lines) + "\n")
        except OSError as exc:
            raise UserError(f"cannot write {list_path}: {exc.strerror}") from None
        print(f"wrote {list_path}: which tag goes on which model ({roster.title})")
    kit_path = kit_path_for(out)
    save_kit(kit, kit_path)
    print(f"wrote {kit_path}: {_sizes_line(kit)}")
    for line in warnings:
        print(f"warning: {line}")
    if args.profile is not None:
        _name_kit_in_profile(args.profile, kit_path)
    if args.png is not None:
        written = render_pdf_pages_png(out, args.png, PNG_DPI)
        print(f"wrote {len(written)} PNG pages at {PNG_DPI:g} dpi to {args.png}")
    return 0


def _plain_kit_file(spec: KitSpec, camera: KitCamera) -> Kit:
    """The kit file of a kit printed with no scenario: every base tag at one size."""
    tags = tuple(
        KitTag(b.tag_id, "", "", "base", b.tag_mm, b.offset_mm(), b.right_mm, base_mm=b.base_mm)
        for b in spec.base_tags()
    )
    return Kit(tags=tags, camera=camera)


def _sizes_line(kit: Kit) -> str:
    """ "base tags 15 mm, terrain tags 16-18 mm, sized for a 1080p webcam 0.80 m above ..." """
    from calibration.kit_view import CAMERAS

    parts = []
    for kind in ("base", "terrain"):
        sizes = sorted({t.size_mm for t in kit.tags if t.kind == kind})
        if sizes:
            span = f"{sizes[0]:g}" if len(sizes) == 1 else f"{sizes[0]:g}-{sizes[-1]:g}"
            parts.append(f"{kind} tags {span} mm")
    if kit.camera.kind in (*CAMERAS, "profile"):
        parts.append(f"sized for {kit.camera.words}")
    elif kit.camera.kind == "scenario":
        parts.append(
            "the scenario's own sizes (size them for your camera with --camera 1080p|4k or "
            "--profile PROFILE)"
        )
    return ", ".join(parts)


def _name_kit_in_profile(profile_path: Path, kit_path: Path) -> None:
    """Make the profile name the kit file, so that play, track and replay find it."""
    from calibration.profile import load_profile, save_profile

    profile = load_profile(profile_path)
    save_profile(profile.with_kit(kit_path, profile_path), profile_path)
    print(f"{profile_path} now names {kit_path}: play, track and replay use its tag sizes")

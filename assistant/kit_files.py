"""The player's kit in the commands: sizing a scenario's tags for a camera (``markers``), and
which kit a command reads the table with (``calibrate``, ``play``, ``track``, ``replay``).

A command uses ``--kit FILE`` when given, else the kit its profile names (``markers --profile``
and ``calibrate --kit`` record it there), else the scenario's own tag sizes (its default kit).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from assistant.errors import UserError
from assistant.pieces import KitMismatchError, apply_kit, on_board, plan_for_view, tag_needs
from calibration.errors import CalibrationError
from calibration.kit_file import Kit, KitCamera, KitTag, load_kit
from calibration.kit_sizes import KitPlan, carried_mm, kit_tag
from calibration.kit_view import CameraView, nominal_view, profile_view
from calibration.profile import TableProfile, load_profile, profile_kit_path
from calibration.quality import TagSize
from engine.scenario import Scenario


def camera_view(
    width_in: float,
    depth_in: float,
    *,
    camera: str | None = None,
    profile_path: Path | None = None,
    board: bool = False,
) -> CameraView:
    """The camera to size a kit for: a nominal webcam by name, or a calibrated profile's
    (which must be of a table this size)."""
    if profile_path is None:
        return nominal_view(camera or "1080p", width_in, depth_in, board=board)
    profile = load_profile(profile_path)
    if (profile.width_in, profile.depth_in) != (width_in, depth_in):
        raise UserError(
            f"profile {profile_path} is for a {profile.width_in:g} x {profile.depth_in:g} in "
            f"table, but the kit is for a {width_in:g} x {depth_in:g} in one"
        )
    return profile_view(profile, str(profile_path))


def scenario_plan(
    scenario: Scenario, *, camera: str | None = None, profile_path: Path | None = None
) -> KitPlan:
    """The scenario's tags sized for a nominal webcam (``camera``) or a profile's camera."""
    view = camera_view(
        scenario.table.width_in,
        scenario.table.depth_in,
        camera=camera,
        profile_path=profile_path,
        board=on_board(scenario),
    )
    plan = plan_for_view(scenario, view)
    if profile_path is not None:
        camera_words = KitCamera(
            kind="profile",
            words=view.words,
            px_per_mm=plan.kit.camera.px_per_mm,
            profile=str(profile_path),
            height_mm=view.camera_height_mm,
        )
        plan = KitPlan(
            Kit(plan.kit.tags, camera_words, plan.kit.scenario, plan.kit.created),
            plan.shortfalls,
        )
    return plan


@dataclass(frozen=True)
class TooLarge:
    """Bases that cannot carry a tag of the size asked for."""

    names: tuple[str, ...]
    base_mm: float
    carried_mm: float


def manual_kit(scenario: Scenario, tag_mm: float) -> tuple[Kit, tuple[TooLarge, ...]]:
    """Every base tag of the scenario at ``tag_mm`` (placed as the kit places it), the terrain
    tags at the scenario's own sizes; and the bases that cannot carry that size."""
    tags: list[KitTag] = []
    too_large: dict[float, list[str]] = {}
    carried: dict[float, float] = {}
    for need in tag_needs(scenario):
        size = tag_mm if need.kind == "base" else need.size_mm
        if need.kind == "base":
            most = carried_mm(need)
            if most < tag_mm:
                too_large.setdefault(need.base_mm, []).append(need.name)
                carried[need.base_mm] = most
        tags.append(kit_tag(need, size))
    kit = Kit(
        tags=tuple(tags),
        camera=KitCamera(kind="manual", words=f"base tags of {tag_mm:g} mm, as asked"),
        scenario=scenario.scenario.name,
    )
    problems = tuple(TooLarge(tuple(n), b, carried[b]) for b, n in too_large.items())
    return kit, problems


def read_kit(path: Path) -> Kit:
    """A kit file, or one clear sentence naming it."""
    try:
        return load_kit(path)
    except CalibrationError as exc:
        raise UserError(str(exc)) from None


@dataclass(frozen=True)
class KitInUse:
    """The kit a command reads the table with, and where it came from."""

    kit: Kit
    path: Path
    named_by: Path | None = None
    """The profile that names it (None: given with --kit, or saved with the game)."""


def kit_in_use(
    kit_path: Path | None,
    profile_path: Path | None = None,
    profile: TableProfile | None = None,
) -> KitInUse | None:
    """The kit a command reads the table with: ``--kit``, else the one the profile names,
    else None (the scenario's own tag sizes). ``profile`` is the profile read from
    ``profile_path``, when the caller has it."""
    if kit_path is not None:
        return KitInUse(read_kit(kit_path), kit_path)
    if profile_path is None:
        return None
    if profile is None:
        profile = load_profile(profile_path)
    named = profile_kit_path(profile, profile_path)
    if named is None:
        return None
    if not named.is_file():
        raise UserError(
            f"profile {profile_path} names the kit file {named}, which does not exist: give "
            "--kit FILE (the .kit.json written beside the kit's PDF)"
        )
    return KitInUse(read_kit(named), named, profile_path)


def with_kit(
    scenario: Scenario, used: KitInUse | None, warn: Callable[[str], None] | None = None
) -> Scenario:
    """The scenario with the tag sizes and places of the kit in use (unchanged for None).

    A kit that does not fit the scenario's pieces is refused in one sentence; one the profile
    names (made for another scenario) is passed over with a warning to ``warn`` when given,
    and the scenario's own sizes are used."""
    if used is None:
        return scenario
    try:
        return apply_kit(scenario, used.kit, f"kit {used.path}")
    except KitMismatchError as exc:
        if used.named_by is None or warn is None:
            raise UserError(str(exc)) from None
        warn(
            f"the kit {used.path} that {used.named_by} names does not fit "
            f"{scenario.scenario.name} ({exc}); its own tag sizes are used"
        )
        return scenario


def kit_words(used: KitInUse | None) -> str:
    """One line saying where the tag sizes come from."""
    if used is None:
        return "tag sizes: the scenario's own"
    sized = f" (sized for {used.kit.camera.words})" if used.kit.camera.words else ""
    return f"tag sizes: kit {used.path}{sized}"


def kit_tag_sizes(kit: Kit) -> list[TagSize]:
    """The kit's tags as sizes to judge against a camera: one per size and height."""
    out: dict[tuple[float, float], TagSize] = {}
    for t in kit.tags:
        key = (t.size_mm, t.height_mm)
        if key not in out:
            up = f" {t.height_mm:g} mm up" if t.height_mm > 5.0 else ""
            out[key] = TagSize(f"the kit's {t.size_mm:g} mm tags{up}", t.size_mm, t.height_mm)
    return [out[k] for k in sorted(out)]

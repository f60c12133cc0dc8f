"""Starting a live session: the profile, the game, speech, the page and the records, wired up.

Used by ``soloscope play`` and ``soloscope demo``. Everything the session writes goes into one
folder: ``game.json`` (saved after every step, for ``--resume``), ``events.jsonl`` and the
recording manifest (and, for a camera, the footage in segments), and the WAV files when speech
goes to files.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import sys
import traceback
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from assistant.errors import UserError
from assistant.kit_files import KitInUse, kit_in_use, kit_tag_sizes, kit_words, with_kit
from assistant.live_hub import LiveHub
from assistant.recorder import SessionRecorder
from assistant.scenarios import load_game
from assistant.session.camera_dice import camera_dice_reader
from assistant.session.dice import QueuedDice, deck_refusal, make_dice
from assistant.session.finish import SessionResult, outcome_words, part_number
from assistant.session.game import LiveGame, Stage, Tolerances
from assistant.session.live import run_loop
from assistant.session.options import (
    SessionOptions,
    SessionStopped,
    check_folders,
    check_numbers,
    lock_session_folder,
    stopped_text,
)
from assistant.session.reader import TableReader
from assistant.session.store import (
    action_from_saved,
    load_saved,
    saved_kit,
    saver,
    scenario_reference,
)
from assistant.session.view import build_view
from assistant.speech import Speaker, parse_speech_option
from assistant.table_fit import checked_profile, profile_from_frames, smallest_tag_mm
from assistant.web.auth import token_banner
from assistant.web.server import ServerHandle, serve
from calibration.profile import TableProfile, load_profile
from calibration.quality import TagSize
from calibration.safe_files import FileLock
from engine.actions import Action
from engine.errors import EngineError
from engine.protocols import find_controller
from engine.scenario import Scenario
from vision.detector import Detector
from vision.sources import CameraSource, open_source
from vision.types import Frame


def deck_explainer(game: LiveGame) -> Callable[[str, str], str]:
    """Why a card entered cannot be the one drawn, from the game's deck as it stands."""

    def explain(deck: str, card: str) -> str:
        for d in game.state.decks:
            if d.name == deck:
                return deck_refusal(d.draw_pile, d.discard, d.removed, card)
        return "it is not in the pile"

    return explain


def read_declarations(path: Path) -> tuple[Action, ...]:
    """The human side's actions, one JSON object per line (the demo's stand-in player)."""
    return tuple(action_from_saved(line) for line in _declaration_lines(path))


def read_stand_in_rolls(path: Path) -> tuple[tuple[int, ...], ...]:
    """For each declaration, the dice (their sides) the stand-in player rolled on the game's
    dice while it decided (the line's ``stand_in_rolls``; none when it has none)."""
    out = []
    for n, line in enumerate(_declaration_lines(path), start=1):
        rolls = line.get("stand_in_rolls", [])
        if not isinstance(rolls, list) or not all(isinstance(r, int) and r > 0 for r in rolls):
            raise UserError(
                f"cannot read the declarations file {path}: line {n}: stand_in_rolls must be "
                f"a list of die sizes, not {rolls!r}"
            )
        out.append(tuple(rolls))
    return tuple(out)


def _declaration_lines(path: Path) -> list[dict[str, object]]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise UserError(f"cannot read the declarations file {path}: {why}") from None
    out = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            if not isinstance(data, dict):
                raise ValueError("it is not a JSON object")
            action_from_saved(data)
        except (ValueError, RecursionError, EngineError) as exc:
            raise UserError(f"{path}: line {number} is not a declaration ({exc})") from None
        out.append(data)
    return out


def _kit_for(opts: SessionOptions, profile: TableProfile | None) -> KitInUse | None:
    """The kit the table is read with: --kit, the profile's, or on --resume the saved game's."""
    used = kit_in_use(opts.kit, opts.profile, profile if opts.profile is not None else None)
    if used is None and opts.resume is not None:
        saved = saved_kit(opts.resume / "game.json")
        if saved is not None:
            used = kit_in_use(saved)
    return used


def fit_profile(source_spec: str, width_in: float, depth_in: float) -> TableProfile:
    """A table profile from the corner tags in the first frames of a source (not judged)."""
    with open_source(source_spec) as source:
        return profile_from_frames(source, Detector(), width_in, depth_in)[0]


def fit_checked_profile(
    source_spec: str,
    width_in: float,
    depth_in: float,
    *,
    tag_mm: float | None,
    tags: Sequence[TagSize] = (),
    echo: Callable[[str], None] = print,
) -> TableProfile:
    """The table mapped from the corner tags in the first frames of a source, judged as
    ``calibrate`` judges a set-up for base tags of ``tag_mm`` or a kit's ``tags``: from a
    camera, refused (UserError) with calibrate's reasons before anything is written; its
    warnings (for footage, what calibrate would refuse) are echoed."""
    with open_source(source_spec) as source:
        profile, _, warnings = checked_profile(
            source,
            Detector(),
            width_in,
            depth_in,
            source=source_spec,
            tag_mm=tag_mm,
            tags=tags,
            live=isinstance(source, CameraSource),
        )
    for warning in warnings:
        echo(f"Warning: {warning}")
    return profile


def _recording_folder(folder: Path) -> Path:
    """recording/ for a new session; recording-2/, -3/ ... for each time it is resumed."""
    candidate, n = folder / "recording", 1
    while candidate.exists():
        n += 1
        candidate = folder / f"recording-{n}"
    return candidate


def _interactive() -> bool:
    """Whether a player sits at a terminal (standard input is one)."""
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (ValueError, OSError):
        return False


def declarations_beside(source: str) -> Path | None:
    """``CLIP.declarations.jsonl`` next to a footage file ``CLIP.mp4``, if there is one."""
    path = Path(source)
    beside = path.with_name(f"{path.stem}.declarations.jsonl")
    return beside if path.is_file() and beside.is_file() else None


def waiting_text(source: str) -> str:
    """What a footage run says while it waits for the player's declaration."""
    text = "Waiting for your declaration on the page, or pass --declarations FILE."
    beside = declarations_beside(source)
    if beside is not None:
        text += f" This footage has one beside it: --declarations {beside}"
    return text


def _declaration_status(game: LiveGame, source: str) -> Callable[[LiveGame], str | None]:
    """For footage: say when the game waits for a declaration the footage cannot give."""
    text = waiting_text(source)

    def status(game: LiveGame) -> str | None:
        planned = game.plan_index < len(game.human_plan)
        return text if game.stage is Stage.HUMAN and not planned else None

    return status


def run_session(opts: SessionOptions, echo: Callable[[str], None] = print) -> SessionResult:
    """Set everything up, play until the battle ends or the frames run out, tidy up.

    The session's folder is locked for the whole run (a second ``play`` on it is refused,
    saying who holds it): a resumed folder before its game is read, a new one before anything
    is written to it. When the battle is over and the page is kept (``opts.keep_page``; by
    default when the page is served and standard input is a terminal), the page is left
    running: the result's ``page`` is set, and ``hold_page`` keeps it until the player stops
    the program; closing the result lets the folder go.
    """
    check_numbers(opts)
    check_folders(opts)
    parse_speech_option(opts.speech)  # a bad --speech value is refused before anything is written
    speaker_holder: list[Speaker] = []

    def say(text: str) -> None:
        speaker_holder[0].say(text)

    lock: FileLock | None = None
    hub = LiveHub()
    handle: ServerHandle | None = None
    keep = False
    try:
        if opts.resume is not None:  # locked before it is read: nobody else writes it now
            folder, lock = lock_session_folder(opts, "")
        game, scenario_ref, seed = _game_to_play(opts, say)
        profile = _profile_for(opts, game.scenario, echo)
        kit = _kit_for(opts, profile)
        warned: list[str] = []
        game.scenario = with_kit(game.scenario, kit, warned.append)
        if warned:
            kit = None
            echo(f"Warning: {warned[0]}")
        if kit is not None:
            echo(kit_words(kit))
        if opts.serve:
            host = "0.0.0.0" if opts.listen_all else "127.0.0.1"
            handle = serve(
                hub, host=host, port=opts.port, token=opts.token, config=opts.page_config
            )
            echo(
                token_banner(handle.url, handle.token)
                if handle.token
                else f"The table page: {handle.url}"
            )
        if lock is None:
            folder, lock = lock_session_folder(opts, game.scenario.scenario.name)
        try:
            kit_path = None if kit is None else kit.path
            result = _play(
                opts, game, folder, scenario_ref, seed, profile, hub, echo, speaker_holder, kit_path
            )
        except KeyboardInterrupt:
            raise SessionStopped(stopped_text(opts, folder)) from None
        result.url = handle.url if handle else None
        keep = (
            handle is not None
            and game.stage is Stage.OVER
            and (opts.keep_page if opts.keep_page is not None else _interactive())
        )
        if keep:
            hub.publish(build_view(game))
            result.page, result.hub = handle, hub
        result.lock, lock = lock, None
        return result
    finally:
        if lock is not None:
            lock.release()
        if not keep:
            if handle is not None:
                handle.stop()
            hub.close()


def _profile_for(
    opts: SessionOptions, scenario: Scenario, echo: Callable[[str], None]
) -> TableProfile:
    """The table profile (``--profile``, or fitted from the source's corner tags and judged as
    ``calibrate`` judges it), checked against the scenario's table."""
    if opts.profile is not None:
        profile = load_profile(opts.profile)
    else:  # judged for the kit's tags when one is given, else for the scenario's smallest
        kit_first = _kit_for(opts, None)
        profile = fit_checked_profile(
            opts.source,
            scenario.table.width_in,
            scenario.table.depth_in,
            tag_mm=None
            if kit_first is not None
            else smallest_tag_mm([t.size_mm for u in scenario.units for t in u.tags]),
            tags=() if kit_first is None else kit_tag_sizes(kit_first.kit),
            echo=echo,
        )
    table = scenario.table
    if (profile.width_in, profile.depth_in) != (table.width_in, table.depth_in):
        raise UserError(
            f"the profile is for a {profile.width_in:g} x {profile.depth_in:g} in table, but "
            f"{scenario.scenario.name} needs {table.width_in:g} x {table.depth_in:g} in"
        )
    return profile


def _game_to_play(
    opts: SessionOptions, say: Callable[[str], None]
) -> tuple[LiveGame, str, int | None]:
    """The saved game (``--resume``) or a new one, with its scenario reference and seed."""
    if opts.resume is not None:
        game, scenario_ref, seed = load_saved(opts.resume / "game.json", say)
        game.tolerances = Tolerances(opts.position_tol_in, opts.facing_tol_deg)
        if game.state.winner is not None:
            raise UserError(
                f"the battle saved in {opts.resume} is already over ({outcome_words(game)}); "
                "there is nothing to resume"
            )
        if opts.declarations:
            game.human_plan = read_declarations(opts.declarations)
            game.plan_rolls = read_stand_in_rolls(opts.declarations)
            game.confirm_hidden = True
    else:
        if opts.scenario is None:
            raise UserError(
                "give a --scenario (a bundled name or a .toml path), or --resume a saved game"
            )
        scenario_ref = scenario_reference(opts.scenario)
        scenario, ruleset, state = load_game(scenario_ref)
        seed = opts.seed if opts.seed is not None else secrets.randbelow(1_000_000)
        physical = opts.dice in ("physical", "camera")
        dice = make_dice(physical, opts.cards == "physical", seed or 0)
        plan = read_declarations(opts.declarations) if opts.declarations else ()
        plan_rolls = read_stand_in_rolls(opts.declarations) if opts.declarations else ()
        game = LiveGame(
            scenario=scenario,
            ruleset=ruleset,
            ai=find_controller(scenario.scenario.ai_controller),
            dice=dice,
            say=say,
            initial=state,
            human_plan=plan,
            plan_rolls=plan_rolls,
            confirm_hidden=bool(plan),
            tolerances=Tolerances(opts.position_tol_in, opts.facing_tol_deg),
        )
    if isinstance(game.dice, QueuedDice):  # a card refused is explained from the deck
        game.dice.explain = deck_explainer(game)
    return game, scenario_ref, seed


def _play(
    opts: SessionOptions,
    game: LiveGame,
    folder: Path,
    scenario_ref: str,
    seed: int | None,
    profile: TableProfile,
    hub: LiveHub,
    echo: Callable[[str], None],
    speaker_holder: list[Speaker],
    kit: Path | None = None,
) -> SessionResult:
    """The session proper: speech, the records, the frames through the live loop."""
    scenario = game.scenario
    game.on_saved = saver(folder / "game.json", scenario_ref, seed, kit)
    speech = opts.speech
    speaker = Speaker.from_option(speech, out_dir=folder / "speech" if speech == "on" else None)
    speaker_holder.append(speaker)
    recording = _recording_folder(folder)
    recorder = SessionRecorder(recording)
    reader = TableReader(scenario, profile)
    if opts.dice == "camera":
        reader = camera_dice_reader(reader, game, profile)  # type: ignore[assignment]
    try:
        controls = dict(profile.camera_settings.get("v4l2_controls") or {})
        width_px, height_px = profile.image_size_px
        camera_size = (
            {"width_px": width_px, "height_px": height_px} if opts.source.isdigit() else {}
        )
        with open_source(opts.source, controls=controls or None, **camera_size) as source:
            recorder.log_event(
                {
                    "type": "session",
                    "source": opts.source,
                    "scenario": scenario_ref,
                    **({"kit": str(kit.resolve())} if kit is not None else {}),
                    "seed": seed,
                    "part": part_number(recording),
                    "steps_before": len(game.steps),
                    "announcements_before": len(game.announcements),
                },
                0.0,
            )
            frames: Iterable[Frame] = source
            is_camera = isinstance(source, CameraSource)
            logged = (len(game.steps), len(game.announcements))
            if game.stage is Stage.SETUP and not game.announcements:
                for line in scenario.scenario.briefing:  # a campaign's veterans, before set-up
                    game.announce(line)
            try:
                game.resume()
                stats = run_loop(
                    frames,
                    reader,
                    game,
                    hub=hub if opts.serve else None,  # nobody to show the frames to
                    recorder=recorder if is_camera else None,
                    log_event=recorder.log_event,
                    logged=logged,
                    status=None if is_camera else _declaration_status(game, opts.source),
                    echo=echo,
                )
            except (KeyboardInterrupt, UserError):
                raise
            except Exception as exc:  # the edge: a defect must not cost the player the game
                raise internal_error(exc, game, folder) from None
            if game.stage is not Stage.OVER:
                stats.ended_early = True
                game.announce(
                    "The camera feed ended before the battle did. The game is saved; carry on "
                    f"with soloscope play --resume {folder} --source SOURCE."
                )
                game.flush()
                recorder.log_event(
                    {"type": "announcement", "text": game.announcements[-1].text},
                    stats.seconds_of_footage,
                )
            # Where this session's footage ended: a replay of a resumed run starts the next
            # recording folder's times there.
            recorder.log_event(
                {"type": "session_end", "frames": stats.frames}, stats.seconds_of_footage
            )
            for warning in source.warnings:
                echo(f"Warning: {warning}")
            damaged = tuple(source.warnings)
            not_set = source.report.get("not_set")
            if not_set:
                echo(f"The camera did not take these settings: {not_set}")
    finally:
        recorder.close()
        speaker.close(timeout=120)
    return SessionResult(folder, game, stats, speaker, None, damaged=damaged)


def internal_error(exc: Exception, game: LiveGame, folder: Path) -> UserError:
    """A defect stopped the loop: the game is saved (it is after every step), the details go
    to ``error.log`` in the session folder, and the player gets one sentence."""
    with contextlib.suppress(Exception):
        game.flush()
    log = folder / "error.log"
    with contextlib.suppress(OSError), log.open("a", encoding="utf-8") as out:
        out.write("".join(traceback.format_exception(exc)))
    return UserError(
        f"an internal error stopped the game ({type(exc).__name__}: {exc}); everything up to "
        f"the last step is saved: carry on with soloscope play --resume {folder} --source "
        f"SOURCE (details for a bug report: {log})"
    )


def stderr(text: str) -> None:
    """Print a line to standard error."""
    print(text, file=sys.stderr)

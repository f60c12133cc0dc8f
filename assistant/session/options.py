"""What the player asked of a live session (``play``, ``demo``, ``campaign next --source``),
checked before anything is written, and the session folder it names: locked for the whole run
(a second session on it is refused, saying who holds it), with the command that carries its
game on after a stop.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.errors import UserError
from calibration.safe_files import FileLock, lock_folder


@dataclass
class SessionOptions:
    """What the player asked for on the command line."""

    source: str
    scenario: str | None = None
    profile: Path | None = None
    kit: Path | None = None
    """The kit file whose tag sizes the table is read with (default: the one the profile
    names, or on --resume the saved game's; else the scenario's own sizes)."""
    dice: str = "auto"
    cards: str = "auto"
    """auto: soloscope shuffles and draws; physical: the player's real deck, cards entered."""
    seed: int | None = None
    speech: str = "on"
    port: int = 5000
    serve: bool = True
    listen_all: bool = False
    token: str | None = None
    out: Path | None = None
    declarations: Path | None = None
    resume: Path | None = None
    position_tol_in: float = 0.25
    facing_tol_deg: float = 15.0
    keep_page: bool | None = None
    """Keep serving the page after the battle ends, until the player stops the program
    (None: when the page is served and standard input is a terminal)."""
    page_config: dict[str, Any] = field(default_factory=dict)
    """More settings for the page's app (``CAMPAIGN_DB``: a campaign's page beside the table's)."""
    carry_on: str | None = None
    """The command that carries this battle on after a stop (default: ``soloscope play
    --resume FOLDER --source SOURCE``, with the profile and declarations given)."""


class SessionStopped(KeyboardInterrupt):
    """The player stopped the session (Ctrl-C); the message says where the game is saved and
    the command that carries it on."""


def carry_on_command(opts: SessionOptions, folder: Path) -> str:
    """The exact command that carries on the battle saved in ``folder``."""
    if opts.carry_on is not None:
        return opts.carry_on
    words = ["soloscope", "play", "--resume", str(folder), "--source", opts.source]
    if opts.profile is not None:
        words += ["--profile", str(opts.profile)]
    if opts.declarations is not None:
        words += ["--declarations", str(opts.declarations)]
    return shlex.join(words)


def check_folders(opts: SessionOptions) -> None:
    """Refuse an ``--out`` that is a file or already holds a game, and a ``--resume`` folder
    that holds no saved game (before anything is written)."""
    if opts.resume is not None:
        if not opts.resume.is_dir():
            what = "is a file, not a folder" if opts.resume.exists() else "does not exist"
            raise UserError(
                f"--resume {opts.resume}: {what}; give the session folder that holds game.json"
            )
        if not (opts.resume / "game.json").is_file():
            raise UserError(
                f"--resume {opts.resume}: this folder holds no saved game (no game.json)"
            )
        return
    if opts.out is None:
        return
    if opts.out.exists() and not opts.out.is_dir():
        raise UserError(f"--out {opts.out} is a file; give a folder for the session's files")
    if (opts.out / "game.json").exists():
        raise UserError(
            f"{opts.out} already holds a game; resume it with --resume {opts.out}, or pick another --out"
        )


def lock_session_folder(opts: SessionOptions, scenario_name: str) -> tuple[Path, FileLock]:
    """The session's folder, locked for this process: no other soloscope plays in it while
    this one runs (the operating system lets the lock go when the process ends)."""
    from assistant.session.live import session_dir

    if opts.resume is not None:
        return opts.resume, lock_folder(opts.resume, "soloscope play")
    if opts.out is None:
        folder = session_dir(None, scenario_name)
        return folder, lock_folder(folder, "soloscope play")
    lock = lock_folder(opts.out, "soloscope play")
    try:
        check_folders(opts)  # again, under the lock: another play may have begun a game there
    except BaseException:
        lock.release()
        raise
    return opts.out, lock


def check_port(port: int) -> None:
    """UserError unless ``port`` is a TCP port the page can listen on (0: any free one)."""
    if not 0 <= port <= 65535:
        raise UserError(
            f"--port {port} is not a port (allowed: 1 to 65535, or 0 for any free port)"
        )


def check_numbers(opts: SessionOptions) -> None:
    """The tolerances and the page's port within their ranges (UserError naming the flag)."""
    if opts.serve:
        check_port(opts.port)
    if not 0.0 < opts.position_tol_in <= 6.0:
        raise UserError(
            f"--tolerance {opts.position_tol_in:g} must be more than 0 and at most 6 inches"
        )
    if not 0.0 < opts.facing_tol_deg <= 180.0:
        raise UserError(
            f"--facing-tolerance {opts.facing_tol_deg:g} must be more than 0 and at most 180 degrees"
        )


def stopped_text(opts: SessionOptions, folder: Path) -> str:
    """What a session stopped by the player says (after "soloscope play: ")."""
    if not (folder / "game.json").is_file():
        return f"stopped before the battle began; nothing is saved in {folder}."
    return f"stopped. The game is saved in {folder}; carry it on with: {carry_on_command(opts, folder)}"


def options_from_args(args: Any) -> SessionOptions:
    """SessionOptions from parsed ``play`` arguments."""
    return SessionOptions(
        source=args.source,
        scenario=args.scenario,
        profile=Path(args.profile) if args.profile else None,
        kit=Path(args.kit) if getattr(args, "kit", None) else None,
        dice=args.dice,
        cards=getattr(args, "cards", "auto"),
        seed=args.seed,
        speech=args.speech,
        port=args.port,
        serve=not args.no_page,
        listen_all=args.listen_all,
        token=args.token,
        out=Path(args.out) if args.out else None,
        declarations=Path(args.declarations) if args.declarations else None,
        resume=Path(args.resume) if args.resume else None,
        position_tol_in=args.tolerance,
        facing_tol_deg=args.facing_tolerance,
    )

"""``soloscope campaign new|show|next|resolve|recover|undo --db FILE``: campaigns kept in
SQLite."""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from pathlib import Path

from assistant.campaign.store import BattleResult, CampaignStore

NAME = "campaign"
HELP = "Campaigns: a roster whose wounds carry over, battles chained by outcome, kept in SQLite."


def _db(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", required=True, help="the campaign's SQLite file")


def _about(text: str) -> dict[str, str]:
    """A step's help in the list of steps and atop its own --help."""
    return {"help": text, "description": text}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One sub-command per step of a campaign, each with --db."""
    steps = parser.add_subparsers(dest="step", metavar="STEP", required=True)
    new = steps.add_parser("new", **_about("Begin a campaign from a campaign file."))
    new.add_argument("file", help="campaign .toml file, or a bundled campaign's name")
    _db(new)
    show = steps.add_parser(
        "show", **_about("Show the roster, the battles so far and the next battle.")
    )
    show.add_argument("--json", action="store_true", help="one JSON object")
    show.add_argument("--page", action="store_true", help="serve the campaign page until Ctrl-C")
    show.add_argument("--port", type=int, default=5000, help="port of the campaign page")
    _db(show)
    nxt = steps.add_parser("next", **_about("Play the next battle (live, or simulated)."))
    how = nxt.add_mutually_exclusive_group(required=True)
    how.add_argument("--source", help="camera index (0), video file, image folder: play live")
    how.add_argument("--simulate", action="store_true", help="the AI against the autopilot")
    nxt.add_argument("--seed", type=int, help="dice seed (default: random, recorded)")
    nxt.add_argument("--profile", help="table profile from 'soloscope calibrate' (live)")
    nxt.add_argument(
        "--dice", choices=["auto", "physical", "camera"], default="auto", help="live dice"
    )
    nxt.add_argument("--speech", default="on", help="on, off, or wav:DIR (live)")
    nxt.add_argument("--port", type=int, default=5000, help="port of the table page (live)")
    nxt.add_argument("--no-page", action="store_true", help="do not serve the table page (live)")
    nxt.add_argument("--declarations", help="JSON-lines file of the player's actions (footage)")
    _db(nxt)
    res = steps.add_parser(
        "resolve", **_about("Resolve the last battle's wounds as the campaign's wound option says.")
    )
    res.add_argument(
        "--dice",
        choices=["auto", "physical"],
        default="auto",
        help="auto: soloscope rolls; physical: you roll and type each result",
    )
    res.add_argument("--seed", type=int, help="seed for auto dice")
    res.add_argument("--rolls", help="the d6 results in order, e.g. 4,2,6 (physical dice)")
    res.add_argument("--speech", default="on", help="on, off, or wav:DIR")
    _db(res)
    rec = steps.add_parser(
        "recover", **_about("A character takes the Recovery action between battles (d20 rules).")
    )
    rec.add_argument("character", help="the character's name or id")
    rec.add_argument("--speech", default="on", help="on, off, or wav:DIR")
    _db(rec)
    undo = steps.add_parser("undo", **_about("Take back the last battle."))
    _db(undo)


def _rolls(text: str | None) -> list[int] | None:
    from assistant.errors import UserError

    if text is None:
        return None
    try:
        values = [int(v) for v in text.replace(" ", "").split(",") if v]
    except ValueError:
        raise UserError(
            f"--rolls {text!r}: give d6 results separated by commas, e.g. 4,2,6"
        ) from None
    if any(not 1 <= v <= 6 for v in values):
        raise UserError(f"--rolls {text!r}: every result must be 1 to 6")
    return values


def _say_all(lines: list[str], speech: str) -> None:
    """Show each line and say it (the speaker prints it as it starts)."""
    from assistant.speech import Speaker

    with Speaker.from_option(speech) as speaker:
        for line in lines:
            speaker.say(line)
        speaker.close(timeout=120)


def run(args: argparse.Namespace) -> int:
    """Run one campaign step. A step that changes the campaign holds its lock (``DB.lock``
    beside the database) from start to end: a second one at the same time is refused, saying
    who holds it, before it writes anything."""
    from assistant.campaign.store import campaign_lock, damaged_store, inspect_campaign

    db = Path(args.db)
    lock = None
    try:
        if args.step == "new":
            return _new(args, db)
        if args.step != "show":  # a file that is no campaign is refused before the lock
            inspect_campaign(db)
            lock = campaign_lock(db, f"soloscope campaign {args.step}")
        with CampaignStore.open(db) as store:
            if store.migrated_from is not None:
                print(
                    f"{db}: campaign schema version {store.migrated_from} updated to the current one.",
                    file=sys.stderr,
                )
            step = {
                "show": _show,
                "next": _next,
                "resolve": _resolve,
                "recover": _recover,
                "undo": _undo,
            }[args.step]
            return step(args, store)
    except sqlite3.DatabaseError as exc:
        raise damaged_store(db, exc) from None
    finally:
        if lock is not None:
            lock.release()


def _new(args: argparse.Namespace, db: Path) -> int:
    from assistant.campaign.files import load_campaign
    from assistant.campaign.store import campaign_lock, refuse_existing

    loaded = load_campaign(args.file)
    refuse_existing(db)
    with (
        campaign_lock(db, "soloscope campaign new"),
        CampaignStore.create(db, loaded.campaign, loaded.text, loaded.scenarios),
    ):
        info = loaded.campaign
        first = info.node(info.campaign.start)
        print(
            f"Campaign {info.campaign.title or info.campaign.name!r} begun in {db}: "
            f"{len(info.roster)} characters, {len(info.battles)} battles; first: "
            f"{first.title or first.id} ({first.scenario})."
        )
    return 0


def _show(args: argparse.Namespace, store: CampaignStore) -> int:
    from assistant.campaign.view import campaign_json, campaign_lines

    if args.page:
        from assistant.session.options import check_port
        from assistant.web.campaign_page import serve_campaign_page

        check_port(args.port)

        serve_campaign_page(store.path, args.port)
        return 0
    data = campaign_json(store)
    if args.json:
        print(json.dumps(data))
    else:
        print("\n".join(campaign_lines(data)))
    return 0


def _next(args: argparse.Namespace, store: CampaignStore) -> int:
    import secrets

    if args.simulate:
        from assistant.campaign.battle import simulate_next

        seed = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
        prepared, result = simulate_next(store, seed)
        _record(store, prepared.node.title or prepared.node.id, result)
        return 0
    import shlex

    from assistant.campaign.live import play_next_live
    from assistant.session.finish import damaged_source_text, hold_page, session_summary
    from assistant.session.options import SessionOptions, check_numbers

    opts = SessionOptions(
        source=args.source,
        profile=Path(args.profile) if args.profile else None,
        dice=args.dice,
        seed=args.seed,
        speech=args.speech,
        port=args.port,
        serve=not args.no_page,
        declarations=Path(args.declarations) if args.declarations else None,
        page_config={"CAMPAIGN_DB": str(store.path.resolve())},
    )
    words = ["soloscope", "campaign", "next", "--source", args.source, "--db", str(store.path)]
    if args.profile:
        words += ["--profile", args.profile]
    if args.declarations:
        words += ["--declarations", args.declarations]
    opts.carry_on = shlex.join(words)
    check_numbers(opts)  # before the battle's scenario file is written
    prepared, live_result, session = play_next_live(store, opts)
    damaged = None if session is None else damaged_source_text(session, args.source)
    try:
        if session is not None:
            for line in session_summary(session):
                print(line)
        if damaged is not None:
            print(f"soloscope campaign: {damaged}", file=sys.stderr)
        if live_result is None:
            print(f"The battle is not over; it is saved: carry on with {opts.carry_on}")
            return 0 if damaged is None else 2
        _record(store, prepared.node.title or prepared.node.id, live_result)  # before the page
        if session is not None:
            hold_page(session)
    finally:
        if session is not None:
            session.close()
    return 0 if damaged is None else 2


def _record(store: CampaignStore, title: str, result: BattleResult) -> None:
    """Write the battle (one transaction) and say what happened."""
    from assistant.campaign.view import plural

    n = store.record_battle(result)
    print(f"Battle {n}: {title} ({result.scenario}, seed {result.seed}): {result.outcome}.")
    for entry, kills in result.units:
        state = (
            "fell" if entry.fallen else plural(entry.wounds, "wound") if entry.wounds else "unhurt"
        )
        print(f"  {entry.name}: {state}, {plural(kills, 'kill')}")
    if result.flags:
        print(f"  Flags set: {', '.join(result.flags)}")
    following = f"next: {result.next_node}" if result.next_node else "the campaign ends"
    print(f"Resolve the wounds with: soloscope campaign resolve --db {store.path} ({following}).")


def _resolve(args: argparse.Namespace, store: CampaignStore) -> int:
    from assistant.campaign.resolve import dice_for, resolve_last
    from assistant.speech import parse_speech_option

    parse_speech_option(args.speech)
    dice = dice_for(args.dice, args.seed, _rolls(args.rolls))
    lines = resolve_last(store, dice)
    _say_all(lines, args.speech)
    return 0


def _recover(args: argparse.Namespace, store: CampaignStore) -> int:
    from assistant.campaign.resolve import recover_character
    from assistant.speech import parse_speech_option

    parse_speech_option(args.speech)
    _say_all([recover_character(store, args.character)], args.speech)
    return 0


def _undo(args: argparse.Namespace, store: CampaignStore) -> int:

    from assistant.campaign.battle import set_aside

    battle = store.undo()
    print(
        f"Battle {battle.n} ({battle.node}, {battle.scenario}) is taken back; the next battle is "
        f"{battle.node} again."
    )
    moved = set_aside(battle.run_dir)
    if moved is not None:
        print(f"Its files are kept in {moved}.")
    return 0

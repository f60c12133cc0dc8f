"""The campaign store: one SQLite file (the standard library's ``sqlite3``).

WAL journal, one transaction per change (``BEGIN IMMEDIATE`` ... ``COMMIT``), and a schema
version in ``PRAGMA user_version`` with a migration per older version. The file is marked as
soloscope's with ``PRAGMA application_id``; a file that is not an SQLite database, or an
SQLite database of another program, is refused in one sentence *before anything is written*
(it is first opened read-only).

A battle's result (the battle, each character's part in it, the flags it set, the next
battle) is written in the same transaction that advances the campaign, so a crash leaves the
campaign either before that battle or after it. Wound resolution and undo are one transaction
each too.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.campaign.model import CampaignFile, parse_campaign
from assistant.campaign.wounds import LOST, BattleWounds, Resolved
from assistant.errors import UserError
from calibration.safe_files import FileLock, take_lock

APPLICATION_ID = 0x53434D50
"""'SCMP': marks a soloscope campaign database."""
SCHEMA_VERSION = 3

SCHEMA_V1 = """
CREATE TABLE campaign (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL,
    source TEXT NOT NULL,
    file_text TEXT NOT NULL,
    current TEXT
);
CREATE TABLE scenario_files (battle_id TEXT PRIMARY KEY, source TEXT NOT NULL, text TEXT NOT NULL);
CREATE TABLE characters (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    tag INTEGER NOT NULL,
    sheet INTEGER NOT NULL,
    wounds INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'fit',
    battles INTEGER NOT NULL DEFAULT 0,
    kills INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE battles (
    n INTEGER PRIMARY KEY,
    node TEXT NOT NULL,
    scenario TEXT NOT NULL,
    seed INTEGER,
    outcome TEXT NOT NULL,
    run_dir TEXT,
    next_node TEXT
);
CREATE TABLE flags (name TEXT PRIMARY KEY, battle INTEGER NOT NULL);
"""
"""Version 1: the first layout (no record of each character's part in a battle: battles of a
version-1 file are resolved and cannot be taken back)."""


def run_script(db: sqlite3.Connection, script: str) -> None:
    """Run ``;``-separated statements inside the caller's transaction (``executescript``
    would commit it first)."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _migrate_1_to_2(db: sqlite3.Connection) -> None:
    """Version 2: each character's part in each battle (for resolution and undo), a battle's
    resolution state and dice, where a character's wounds come from, how a battle was played."""
    run_script(
        db,
        """
        ALTER TABLE characters ADD COLUMN wound_from TEXT NOT NULL DEFAULT '';
        ALTER TABLE battles ADD COLUMN resolved INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE battles ADD COLUMN played TEXT NOT NULL DEFAULT 'simulate';
        UPDATE battles SET played = 'v1';
        ALTER TABLE battles ADD COLUMN resolution TEXT NOT NULL DEFAULT '';
        CREATE TABLE battle_units (
            battle INTEGER NOT NULL REFERENCES battles(n),
            key TEXT NOT NULL REFERENCES characters(key),
            wounds_end INTEGER NOT NULL,
            slots INTEGER NOT NULL,
            fallen INTEGER NOT NULL,
            kills INTEGER NOT NULL,
            before_wounds INTEGER NOT NULL,
            before_status TEXT NOT NULL,
            before_from TEXT NOT NULL,
            PRIMARY KEY (battle, key)
        );
        """,
    )


def _migrate_2_to_3(db: sqlite3.Connection) -> None:
    """Version 3: whether a character has taken its Recovery action since the last battle
    (RULES §5.b, once per session), and that flag before each battle (for undo)."""
    run_script(
        db,
        """
        ALTER TABLE characters ADD COLUMN recovered INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE battle_units ADD COLUMN before_recovered INTEGER NOT NULL DEFAULT 0;
        """,
    )


MIGRATIONS = {1: _migrate_1_to_2, 2: _migrate_2_to_3}
"""From version N to N + 1."""


class CampaignStoreError(UserError):
    """A campaign database that cannot be used (the message says why; nothing was changed)."""


def damaged_store(path: Path, exc: sqlite3.DatabaseError) -> CampaignStoreError:
    """The one sentence for a campaign file SQLite finds damaged (garbage pages, a cut-short
    file): the change under way was rolled back."""
    detail = " ".join(str(exc).replace("*** in database main ***", "").split())
    return CampaignStoreError(
        f"{path} is a damaged campaign database (SQLite: {detail}); nothing was changed. Restore "
        "it from a copy, or begin the campaign again with soloscope campaign new"
    )


def refuse_existing(path: Path) -> None:
    """CampaignStoreError when a new campaign's file is already there."""
    if path.exists():
        raise CampaignStoreError(
            f"{path} already exists; give a new --db file (nothing was changed)"
        )


def campaign_lock(path: Path, what: str) -> FileLock:
    """The campaign's lock (``DB.lock`` beside the database), held by this process as
    ``what``; LockError saying who holds it when another process does."""
    lock_file = path.with_name(f"{path.name}.lock")
    try:
        lock_file.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CampaignStoreError(f"cannot make the folder of {path}: {exc.strerror}") from None
    return take_lock(lock_file, what, f"the campaign {path}")


@dataclass(frozen=True)
class CharacterRow:
    """A character as the store keeps it."""

    key: str
    name: str
    tag: int
    wounds: int
    status: str
    battles: int
    kills: int
    wound_from: str
    recovered: bool = False
    """Took its Recovery action since the last battle."""


@dataclass(frozen=True)
class BattleRow:
    """A battle played."""

    n: int
    node: str
    scenario: str
    seed: int | None
    outcome: str
    run_dir: str | None
    next_node: str | None
    resolved: bool
    played: str
    resolution: str


@dataclass(frozen=True)
class BattleResult:
    """What a battle produced, ready to be written in one transaction."""

    node: str
    scenario: str
    seed: int | None
    outcome: str
    run_dir: str
    next_node: str | None
    flags: tuple[str, ...]
    units: tuple[tuple[BattleWounds, int], ...]
    """Each character who fought: how it came out, and its kills."""
    played: str = "simulate"


def _uri(path: Path, mode: str) -> str:
    return f"{path.resolve().as_uri()}?mode={mode}"


def inspect_campaign(path: Path) -> int:
    """The schema version of a soloscope campaign file at ``path``, opened read-only;
    CampaignStoreError (nothing written) for anything else."""
    if not path.is_file():
        raise CampaignStoreError(
            f"no campaign at {path}; start one with soloscope campaign new FILE.toml --db {path}"
        )
    try:
        db = sqlite3.connect(_uri(path, "ro"), uri=True)
    except sqlite3.Error as exc:
        raise CampaignStoreError(f"cannot open {path}: {exc}; nothing was changed") from None
    app_id = None
    try:
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        if app_id == APPLICATION_ID:  # every page read: garbage is found before any change
            problem = db.execute("PRAGMA quick_check(1)").fetchone()[0]
            if problem != "ok":
                raise sqlite3.DatabaseError(problem)
    except sqlite3.DatabaseError as exc:
        if app_id == APPLICATION_ID:
            raise damaged_store(path, exc) from None
        raise CampaignStoreError(
            f"{path} is not a soloscope campaign (not a readable SQLite database: {exc}); "
            "nothing was changed"
        ) from None
    finally:
        db.close()
    if app_id != APPLICATION_ID:
        what = f"tables: {', '.join(sorted(tables))}" if tables else "empty"
        raise CampaignStoreError(
            f"{path} is an SQLite database of another program ({what}), not a soloscope "
            "campaign; nothing was changed"
        )
    if version > SCHEMA_VERSION:
        raise CampaignStoreError(
            f"{path} is a campaign of schema version {version}, newer than this soloscope "
            f"reads (up to {SCHEMA_VERSION}); nothing was changed"
        )
    if version < 1:
        raise CampaignStoreError(f"{path} is a damaged campaign (no schema version)")
    return int(version)


class CampaignStore:
    """An open campaign database."""

    def __init__(self, path: Path, db: sqlite3.Connection) -> None:
        self.path = path
        self.db = db
        self.migrated_from: int | None = None
        """The schema version the file had, when opening it migrated it."""

    # ------------------------------------------------------------------ opening
    @staticmethod
    def _connect(path: Path, mode: str) -> sqlite3.Connection:
        db = sqlite3.connect(_uri(path, mode), uri=True, isolation_level=None, timeout=30.0)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        return db

    @classmethod
    def open(cls, path: Path) -> CampaignStore:
        """Open an existing campaign, migrating an older schema (one transaction per step)."""
        version = inspect_campaign(path)
        store = cls(path, cls._connect(path, "rw"))
        if version < SCHEMA_VERSION:
            store.migrated_from = version
            while version < SCHEMA_VERSION:
                with store.transaction() as db:
                    MIGRATIONS[version](db)
                    db.execute(f"PRAGMA user_version={version + 1}")
                version += 1
        return store

    @classmethod
    def create(
        cls,
        path: Path,
        campaign: CampaignFile,
        file_text: str,
        scenario_files: dict[str, tuple[str, str]],
    ) -> CampaignStore:
        """A new campaign file at ``path`` (which must not exist), written in one transaction."""
        refuse_existing(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        store = cls(path, cls._connect(path, "rwc"))
        try:
            with store.transaction() as db:
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                run_script(db, SCHEMA_V1)
                for version in range(1, SCHEMA_VERSION):
                    MIGRATIONS[version](db)
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                db.execute(
                    "INSERT INTO campaign (id, name, source, file_text, current) "
                    "VALUES (1, ?, ?, ?, ?)",
                    (campaign.campaign.name, campaign.source, file_text, campaign.campaign.start),
                )
                for battle_id, (source, text) in scenario_files.items():
                    db.execute(
                        "INSERT INTO scenario_files VALUES (?, ?, ?)", (battle_id, source, text)
                    )
                for i, c in enumerate(campaign.roster):
                    db.execute(
                        "INSERT INTO characters (key, name, tag, sheet) VALUES (?, ?, ?, ?)",
                        (c.key, c.name, c.tag, i),
                    )
        except BaseException:
            store.close()
            for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
                leftover.unlink(missing_ok=True)
            raise
        return store

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    def __enter__(self) -> CampaignStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One change: everything inside is written together or not at all."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # ------------------------------------------------------------------ reading
    def campaign(self) -> CampaignFile:
        """The campaign file as it was when the campaign began."""
        source, text = self.db.execute("SELECT source, file_text FROM campaign").fetchone()
        return parse_campaign(text, source)

    def current(self) -> str | None:
        """The id of the next battle (None: the campaign is over)."""
        row = self.db.execute("SELECT current FROM campaign").fetchone()
        return None if row[0] is None else str(row[0])

    def scenario_file(self, battle_id: str) -> tuple[str, str]:
        """(source, TOML text) of a battle's scenario, as kept when the campaign began."""
        row = self.db.execute(
            "SELECT source, text FROM scenario_files WHERE battle_id = ?", (battle_id,)
        ).fetchone()
        if row is None:
            raise CampaignStoreError(f"{self.path}: no scenario kept for battle {battle_id!r}")
        return str(row[0]), str(row[1])

    def characters(self) -> list[CharacterRow]:
        """The roster in sheet order."""
        rows = self.db.execute(
            "SELECT key, name, tag, wounds, status, battles, kills, wound_from, recovered "
            "FROM characters ORDER BY sheet"
        ).fetchall()
        return [
            CharacterRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], bool(r[8])) for r in rows
        ]

    def battles(self) -> list[BattleRow]:
        """Every battle played, in order."""
        rows = self.db.execute(
            "SELECT n, node, scenario, seed, outcome, run_dir, next_node, resolved, played, "
            "resolution FROM battles ORDER BY n"
        ).fetchall()
        return [
            BattleRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], bool(r[7]), r[8], r[9])
            for r in rows
        ]

    def flags(self) -> set[str]:
        """The flags set so far."""
        return {r[0] for r in self.db.execute("SELECT name FROM flags")}

    def battle_units(self, n: int) -> list[tuple[BattleWounds, int]]:
        """Each character's part in battle ``n``: how it came out, and its kills."""
        rows = self.db.execute(
            "SELECT b.key, c.name, b.wounds_end, b.slots, b.fallen, b.kills FROM battle_units b "
            "JOIN characters c ON c.key = b.key WHERE b.battle = ? ORDER BY c.sheet",
            (n,),
        ).fetchall()
        return [(BattleWounds(r[0], r[1], r[2], r[3], bool(r[4])), r[5]) for r in rows]

    def unresolved(self) -> BattleRow | None:
        """The last battle, if its wounds are not resolved yet."""
        battles = self.battles()
        return battles[-1] if battles and not battles[-1].resolved else None

    # ------------------------------------------------------------------ changes
    def record_battle(self, result: BattleResult) -> int:
        """Write a battle and advance the campaign, in one transaction; its number."""
        with self.transaction() as db:
            (current,) = db.execute("SELECT current FROM campaign").fetchone()
            if current != result.node:
                raise CampaignStoreError(
                    f"the campaign's next battle is {current!r}, not {result.node!r} "
                    "(another process changed it); nothing was recorded"
                )
            (n,) = db.execute("SELECT COALESCE(MAX(n), 0) + 1 FROM battles").fetchone()
            db.execute(
                "INSERT INTO battles (n, node, scenario, seed, outcome, run_dir, next_node, "
                "resolved, played) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)",
                (
                    n,
                    result.node,
                    result.scenario,
                    result.seed,
                    result.outcome,
                    result.run_dir,
                    result.next_node,
                    result.played,
                ),
            )
            for entry, kills in result.units:
                wounds, status, wound_from, recovered = db.execute(
                    "SELECT wounds, status, wound_from, recovered FROM characters WHERE key = ?",
                    (entry.key,),
                ).fetchone()
                db.execute(
                    "INSERT INTO battle_units VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        n,
                        entry.key,
                        entry.wounds,
                        entry.slots,
                        int(entry.fallen),
                        kills,
                        wounds,
                        status,
                        wound_from,
                        recovered,
                    ),
                )
                db.execute(
                    "UPDATE characters SET battles = battles + 1, kills = kills + ? WHERE key = ?",
                    (kills, entry.key),
                )
            db.execute("UPDATE characters SET recovered = 0")  # a new session (RULES §5.b)
            for flag in result.flags:
                db.execute("INSERT OR IGNORE INTO flags VALUES (?, ?)", (flag, n))
            db.execute("UPDATE campaign SET current = ?", (result.next_node,))
        return int(n)

    def resolve(
        self,
        n: int,
        resolved: Sequence[Resolved],
        place: str,
        lines: str,
        rested: Sequence[tuple[str, int]] = (),
    ) -> None:
        """Write the wound resolution of battle ``n`` in one transaction; ``rested``: each
        character's wounds after the morning's rest when the next battle begins a new day."""
        with self.transaction() as db:
            row = db.execute("SELECT resolved FROM battles WHERE n = ?", (n,)).fetchone()
            if row is None or row[0]:
                raise CampaignStoreError(f"battle {n} has no wounds waiting to be resolved")
            for r in resolved:
                before = db.execute(
                    "SELECT b.wounds_end, b.fallen, c.wound_from FROM battle_units b "
                    "JOIN characters c ON c.key = b.key WHERE b.battle = ? AND b.key = ?",
                    (n, r.key),
                ).fetchone()
                hurt_here = bool(before[0] or before[1])
                wound_from = "" if not r.wounds else (place if hurt_here else before[2])
                db.execute(
                    "UPDATE characters SET wounds = ?, status = ?, wound_from = ? WHERE key = ?",
                    (r.wounds, r.status, wound_from, r.key),
                )
            for key, wounds in rested:
                db.execute(
                    "UPDATE characters SET wounds = ?, status = CASE WHEN ? > 0 THEN 'wounded' "
                    "ELSE 'fit' END, wound_from = CASE WHEN ? > 0 THEN wound_from ELSE '' END, "
                    "recovered = 0 WHERE key = ? AND status != 'lost'",
                    (wounds, wounds, wounds, key),
                )
            db.execute("UPDATE battles SET resolved = 1, resolution = ? WHERE n = ?", (lines, n))

    def recover(self, key: str, wounds: int) -> None:
        """Write a character's Recovery action (its wounds after it) in one transaction."""
        with self.transaction() as db:
            row = db.execute(
                "SELECT recovered, status FROM characters WHERE key = ?", (key,)
            ).fetchone()
            if row is None or row[0] or row[1] == LOST:
                raise CampaignStoreError(f"{key} cannot take the Recovery action now")
            db.execute(
                "UPDATE characters SET wounds = ?, recovered = 1, status = CASE WHEN ? > 0 "
                "THEN 'wounded' ELSE 'fit' END, wound_from = CASE WHEN ? > 0 THEN wound_from "
                "ELSE '' END WHERE key = ?",
                (wounds, wounds, wounds, key),
            )

    def undo(self) -> BattleRow:
        """Take back the last battle (and its resolution) in one transaction; the battle."""
        with self.transaction() as db:
            battles = self.battles()
            if not battles:
                raise CampaignStoreError("no battle has been played yet: nothing to take back")
            last = battles[-1]
            parts = db.execute(
                "SELECT key, kills, before_wounds, before_status, before_from, before_recovered "
                "FROM battle_units WHERE battle = ?",
                (last.n,),
            ).fetchall()
            if not parts:
                raise CampaignStoreError(
                    f"battle {last.n} was recorded by an older soloscope (schema version 1) "
                    "without each character's part; it cannot be taken back"
                )
            for key, kills, wounds, status, wound_from, recovered in parts:
                db.execute(
                    "UPDATE characters SET wounds = ?, status = ?, wound_from = ?, "
                    "recovered = ?, battles = battles - 1, kills = kills - ? WHERE key = ?",
                    (wounds, status, wound_from, recovered, kills, key),
                )
            db.execute("DELETE FROM battle_units WHERE battle = ?", (last.n,))
            db.execute("DELETE FROM flags WHERE battle = ?", (last.n,))
            db.execute("DELETE FROM battles WHERE n = ?", (last.n,))
            db.execute("UPDATE campaign SET current = ?", (last.node,))
        return last

    # ------------------------------------------------------------------ checks
    def problems(self) -> list[str]:
        """Inconsistencies between the tables (none after any sequence of changes)."""
        out = []
        battles = self.battles()
        campaign = self.campaign()
        expected = battles[-1].next_node if battles else campaign.campaign.start
        if self.current() != expected:
            out.append(f"next battle {self.current()!r}, expected {expected!r}")
        for i, b in enumerate(battles[:-1]):
            if b.next_node != battles[i + 1].node:
                out.append(f"battle {b.n} leads to {b.next_node!r}, not {battles[i + 1].node!r}")
            if not b.resolved:
                out.append(f"battle {b.n} is unresolved but a later battle was played")
        counts: dict[str, int] = {}
        for b in battles:
            parts = self.battle_units(b.n)
            if not parts and b.played != "v1":
                out.append(f"battle {b.n} has no characters")
            for entry, _ in parts:
                counts[entry.key] = counts.get(entry.key, 0) + 1
        legacy = any(b.played == "v1" for b in battles)  # who fought them was not kept
        for c in self.characters():
            if not legacy and c.battles != counts.get(c.key, 0):
                out.append(f"{c.name} fought {c.battles} battles, {counts.get(c.key, 0)} recorded")
            if c.status == LOST and c.wounds:
                out.append(f"{c.name} is lost but carries wounds")
        return out


def table_dump(store: CampaignStore) -> dict[str, Any]:
    """Every row of every table (tests compare dumps before and after a refused change)."""
    out: dict[str, Any] = {}
    for (name,) in store.db.execute("SELECT name FROM sqlite_master WHERE type='table'"):
        out[name] = store.db.execute(f"SELECT * FROM {name} ORDER BY 1").fetchall()
    return out

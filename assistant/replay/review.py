"""A second opinion from the player: the uncertain events of a replay as a small TOML file.

``soloscope replay ... --review`` writes ``review.toml`` in the replay folder: one
``[[activation]]`` per piece move the footage did not plainly show (who moved, found from the
picture), one ``[[fall]]`` per model taken off the table, each with its time (seconds), the
model the replay names and how that was known, and ``p``: how sure the replay is of it (the
timeline events' probability, :mod:`assistant.replay.engine_model`). The least sure come
first. The player corrects ``piece`` where the replay is wrong; ``--corrections FILE``
replays the footage with those names (a move or a removal is matched by its time, within
:data:`MATCH_S`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from assistant.errors import UserError
from assistant.replay.reconstruct import PieceMove
from calibration.safe_files import write_atomic

#: How close (seconds) a correction's time must be to the move or removal it corrects.
MATCH_S = 0.25
REVIEW_NAME = "review.toml"
_HEADER = """\
# soloscope replay review: what the footage could not plainly show.
# Correct "piece" (the model's name) where the replay is wrong, then run
#   soloscope replay FOOTAGE --scenario SCENARIO --out DIR --corrections THIS_FILE
# [[activation]]: a move, by its end time in seconds (who activated and moved).
# [[fall]]: a model taken off the table, by its time in seconds (which model fell).
# p: how sure the replay is (a probability); the least sure come first.
"""


@dataclass(frozen=True)
class Corrections:
    """The player's corrections: piece names by time (seconds)."""

    moves: dict[float, str] = field(default_factory=dict)
    """A piece move's end time -> the piece that moved."""
    falls: dict[float, str] = field(default_factory=dict)
    """A removal's time -> the piece taken off."""

    def move_piece(self, t_end: float, piece: str) -> str:
        """The piece that made the move ending at ``t_end`` (``piece`` when not corrected)."""
        return _near(self.moves, t_end, piece)

    def fall_piece(self, t: float, piece: str) -> str:
        """The piece taken off at ``t`` (``piece`` when not corrected)."""
        return _near(self.falls, t, piece)

    def apply_moves(self, moves: Sequence[PieceMove], sides: dict[str, str]) -> list[PieceMove]:
        """``moves`` with their pieces (and sides) as corrected; ``sides``: piece -> side."""
        out = []
        for m in moves:
            piece = self.move_piece(m.t_end, m.piece)
            if piece != m.piece:
                m = replace(m, piece=piece, side=sides.get(piece, m.side), how="corrected")
            out.append(m)
        return out


def _near(table: dict[float, str], t: float, default: str) -> str:
    best = min(table, key=lambda k: abs(k - t), default=None)
    if best is None or abs(best - t) > MATCH_S:
        return default
    return table[best]


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def move_probability(move: dict[str, Any], events: Sequence[dict[str, Any]]) -> float:
    """How sure the replay is of a piece move (a piece_moves entry): the least sure of the
    timeline's events of that move (its own "piece_move" event and the engine's from its start
    to its end); 1 when none says."""
    t0, t1 = move["t_start"], move["t_end"]
    found = [
        float(e["p"])
        for e in events
        if "p" in e
        and t0 - 1e-3 <= e["t"] <= t1 + 1e-3
        and (e.get("source") == "engine" or e.get("piece") == move["piece"])
    ]
    return min(found, default=1.0)


def review_text(doc: dict[str, Any]) -> str:
    """The review file for a timeline.json object: the moves the footage did not plainly
    show and the models the engine took off, the least sure first."""
    entries: list[tuple[float, float, list[str]]] = []
    events = doc.get("events", [])
    for m in doc.get("piece_moves", []):
        if m.get("known") == "seen":
            continue
        p = move_probability(m, events)
        lines = [
            "[[activation]]",
            f"t = {m['t_end']}",
            f"piece = {_q(m['piece'])}",
            f"known = {_q(m['known'])}",
            f"p = {p}",
        ]
        if m.get("how"):
            lines.append(f"how = {_q(m['how'])}")
        entries.append((p, m["t_end"], [*lines, ""]))
    names = {p["name"]: p["name"] for p in (doc.get("roster") or {}).get("pieces", [])}
    for e in events:
        if e["kind"] != "removed" or e.get("source") != "engine":
            continue
        piece = next((n for n in names if e["text"].startswith(n + " ")), None)
        if piece is None:
            continue
        p = float(e.get("p", 1.0))
        lines = [
            "[[fall]]",
            f"t = {e['t']}",
            f"piece = {_q(piece)}",
            f"known = {_q(e.get('known', 'seen'))}",
            f"p = {p}",
            "",
        ]
        entries.append((p, e["t"], lines))
    entries.sort(key=lambda entry: (entry[0], entry[1]))
    return "\n".join([_HEADER] + [line for _, _, lines in entries for line in lines])


def write_review(doc: dict[str, Any], out_dir: Path) -> Path:
    """Write ``review.toml`` in ``out_dir``; returns its path."""
    path = out_dir / REVIEW_NAME
    write_atomic(path, review_text(doc))
    return path


def load_corrections(path: Path, pieces: Sequence[str]) -> Corrections:
    """Read a corrections file (UserError naming the file and the entry when it is wrong)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UserError(f"cannot read corrections {path}: {exc}") from exc
    known = set(pieces)
    tables: dict[str, dict[float, str]] = {"activation": {}, "fall": {}}
    for key, table in tables.items():
        entries = data.get(key, [])
        if not isinstance(entries, list):
            raise UserError(f"corrections {path}: [[{key}]] entries expected")
        for i, entry in enumerate(entries, 1):
            if not isinstance(entry, dict):
                raise UserError(f"corrections {path}: {key} {i} is not a table")
            t, piece = entry.get("t"), entry.get("piece")
            if not isinstance(t, int | float) or not isinstance(piece, str):
                raise UserError(f"corrections {path}: {key} {i} needs a time t and a piece")
            if piece not in known:
                raise UserError(
                    f"corrections {path}: {key} {i} names {piece!r}, not a model of the "
                    f"scenario ({', '.join(sorted(known))})"
                )
            table[float(t)] = piece
    return Corrections(tables["activation"], tables["fall"])

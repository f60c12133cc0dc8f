"""From tag moves to the game: pieces, activations and the logged events of a session.

With a scenario, every tag belongs to a unit (or a terrain piece) with a known mount, so a tag's
move becomes that unit's move, base centre to base centre. When the footage was recorded by
``soloscope play`` its event log lies beside it, and its events (with the real dice) are used
as they are; otherwise each unit's move is one activation. Inches, degrees and seconds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.errors import UserError
from assistant.kit_files import KitInUse
from assistant.recorder import EVENTS_NAME, is_recording, read_event_log
from assistant.replay.poses import MM_PER_IN, piece_centre_in
from assistant.replay.records import SEEN, Move, SettledState, move_fields, weakest
from assistant.replay.runs import SESSION_KINDS, plan_run, run_recordings, run_records
from vision.types import PieceSpec, TagId, TagMount


@dataclass(frozen=True)
class TerrainOutline:
    """A terrain piece drawn in the viewer: a polygon in table inches."""

    name: str
    polygon_in: tuple[tuple[float, float], ...]
    kind: str = "scenery"

    def to_json(self) -> dict[str, Any]:
        """JSON form for timeline.json and the viewer."""
        return {
            "name": self.name,
            "kind": self.kind,
            "polygon": [[round(x, 3), round(y, 3)] for x, y in self.polygon_in],
        }


@dataclass(frozen=True)
class Roster:
    """What a scenario says about the table: its size, the pieces and their tags, terrain."""

    width_in: float
    depth_in: float
    pieces: tuple[PieceSpec, ...]
    sides: Mapping[str, str]
    """Piece name -> side name."""
    terrain: tuple[TerrainOutline, ...] = ()
    title: str = ""

    def piece_of_tag(self, tag_id: int) -> tuple[PieceSpec, TagMount] | None:
        """The piece carrying this tag and the tag's mount on it, or None."""
        for piece in self.pieces:
            for mount in piece.tags:
                if int(mount.tag_id) == tag_id:
                    return piece, mount
        return None

    def tag_ids(self) -> frozenset[int]:
        """Every tag id the scenario uses."""
        return frozenset(int(m.tag_id) for p in self.pieces for m in p.tags)

    def to_json(self) -> dict[str, Any]:
        """JSON form: pieces with their tags, and terrain."""
        return {
            "title": self.title,
            "pieces": [
                {
                    "name": p.name,
                    "side": self.sides.get(p.name, ""),
                    "base_diameter_in": round(p.base_diameter_mm / MM_PER_IN, 3),
                    "tags": [int(m.tag_id) for m in p.tags],
                    "mounts": [
                        {
                            "tag": int(m.tag_id),
                            "forward_mm": m.forward_mm,
                            "right_mm": m.right_mm,
                            "rotation_deg": m.rotation_deg,
                        }
                        for m in p.tags
                    ],
                }
                for p in self.pieces
            ],
            "terrain": [t.to_json() for t in self.terrain],
        }


def roster_from_scenario(
    name_or_path: str,
    kit: KitInUse | None = None,
    warn: Callable[[str], None] | None = None,
) -> Roster:
    """Load a scenario (bundled name or TOML path) and keep what the replay needs; ``kit``
    gives the tags' sizes and places (one the profile names that does not fit is passed over,
    said to ``warn``)."""
    from assistant.kit_files import with_kit
    from assistant.scenarios import load_scenario

    scenario = with_kit(load_scenario(name_or_path), kit, warn)
    pieces = []
    sides = {}
    for unit in scenario.units:
        mounts = tuple(
            TagMount(TagId(t.id), t.forward_mm, t.right_mm, t.size_mm, t.rotation_deg, t.height_mm)
            for t in unit.tags
        )
        pieces.append(PieceSpec(unit.name, mounts, unit.base_diameter_in * MM_PER_IN))
        sides[unit.name] = unit.side
    for ter in scenario.terrain:
        if ter.tags:
            mounts = tuple(
                TagMount(
                    TagId(t.id), t.forward_mm, t.right_mm, t.size_mm, t.rotation_deg, t.height_mm
                )
                for t in ter.tags
            )
            pieces.append(PieceSpec(ter.name, mounts, 0.0))
    terrain = tuple(
        TerrainOutline(t.name, tuple((float(x), float(y)) for x, y in t.polygon), t.kind)
        for t in scenario.terrain
    )
    return Roster(
        scenario.table.width_in,
        scenario.table.depth_in,
        tuple(pieces),
        sides,
        terrain,
        scenario.scenario.title or scenario.scenario.name,
    )


@dataclass(frozen=True)
class PieceMove:
    """A piece's move, base centre to base centre (inches, degrees, seconds)."""

    piece: str
    side: str
    tags: tuple[int, ...]
    from_in: tuple[float, float]
    to_in: tuple[float, float]
    heading_from_deg: float
    heading_to_deg: float
    t_start: float
    t_end: float
    known: str = SEEN
    """How the move was known: "seen", "inferred", "rules" or "unknown" (the least sure of
    its tags' moves; see :mod:`assistant.replay.records`)."""
    how: str = ""
    """For a move not plainly seen: how it was found."""
    facing_known: bool = True
    """False when its facing at the new place could not be seen (``heading_to_deg`` is then
    the facing it had before): the game's reconstruction must not judge it."""

    @property
    def distance_in(self) -> float:
        """Straight-line length in inches."""
        return math.dist(self.from_in, self.to_in)

    def to_json(self) -> dict[str, Any]:
        """JSON form for timeline.json."""
        return {
            "piece": self.piece,
            "side": self.side,
            "tags": list(self.tags),
            **move_fields(self),
        }


def piece_moves(moves: Sequence[Move], roster: Roster) -> list[PieceMove]:
    """Group tag moves into piece moves: tags of one piece moving in overlapping times."""
    groups: dict[tuple[str, int], list[tuple[Move, TagMount]]] = {}
    order: list[tuple[str, int]] = []
    for move in sorted(moves, key=lambda m: m.t_end):
        found = roster.piece_of_tag(move.tag_id)
        if found is None:
            continue
        piece, mount = found
        key = None
        for k in reversed(order):
            if k[0] == piece.name:
                last = groups[k][-1][0]
                if move.t_start <= last.t_end + 1.0:
                    key = k
                break
        if key is None:
            key = (piece.name, len(order))
            order.append(key)
            groups[key] = []
        groups[key].append((move, mount))
    out = []
    for key in order:
        items = groups[key]
        seen = [(m, mt) for m, mt in items if m.known == SEEN] or items
        froms = [piece_centre_in(*m.from_in, m.heading_from_deg, mt) for m, mt in seen]
        tos = [piece_centre_in(*m.to_in, m.heading_to_deg, mt) for m, mt in seen]
        known = weakest(*(m.known for m, _ in seen))
        how = next((m.how for m, _ in seen if m.how), "")
        out.append(
            PieceMove(
                key[0],
                roster.sides.get(key[0], ""),
                tuple(sorted(m.tag_id for m, _ in items)),
                (sum(f[0] for f in froms) / len(froms), sum(f[1] for f in froms) / len(froms)),
                (sum(t[0] for t in tos) / len(tos), sum(t[1] for t in tos) / len(tos)),
                froms[0][2],
                tos[0][2],
                min(m.t_start for m, _ in items),
                max(m.t_end for m, _ in items),
                known,
                how,
                all(m.facing_known for m, _ in seen),
            )
        )
    return out


def piece_positions(state: SettledState, roster: Roster) -> list[dict[str, Any]]:
    """Base centres (inches) and facings of the pieces whose tags lie in a settled state;
    "hidden": true for a piece none of whose tags is seen (taken to stand there)."""
    out = []
    for piece in roster.pieces:
        rests = [(r, m) for m in piece.tags if (r := state.tag(int(m.tag_id))) is not None]
        use = [(r, m) for r, m in rests if r.seen] or rests
        fits = [piece_centre_in(r.x_in, r.y_in, r.heading_deg, m) for r, m in use]
        if fits:
            item: dict[str, Any] = {
                "name": piece.name,
                "x": round(sum(f[0] for f in fits) / len(fits), 3),
                "y": round(sum(f[1] for f in fits) / len(fits), 3),
                "heading": round(fits[0][2], 1),
            }
            if not any(r.seen for r, _ in rests):
                item["hidden"] = True
            out.append(item)
    return out


# -- the session log -----------------------------------------------------------------------------


def find_session_log(footage: Path) -> Path | None:
    """The event log of a ``soloscope play`` session beside its footage, if there is one.

    A recording folder holds ``events.jsonl``; a video ``battle.mp4`` may have
    ``battle.events.jsonl`` (or ``events.jsonl``) beside it.
    """
    if footage.is_dir():
        log = footage / EVENTS_NAME
        return log if is_recording(footage) and log.is_file() else None
    for candidate in (
        footage.with_name(footage.stem + ".events.jsonl"),
        footage.with_name(EVENTS_NAME),
    ):
        if candidate.is_file():
            return candidate
    return None


def _session_text(record: Mapping[str, Any]) -> str:
    source = record.get("source")
    where = f" on {source}" if isinstance(source, str) and source else ""
    if record.get("type") == "session_end":
        frames = record.get("frames")
        count = f" after {frames} frames" if isinstance(frames, int) else ""
        return f"The session's footage ends{count}."
    if record.get("resumed"):
        return f"The game is resumed{where}."
    scenario = record.get("scenario")
    what = f" of {scenario}" if isinstance(scenario, str) and scenario else ""
    return f"The session{what} starts{where}."


def _event_text(record: Mapping[str, Any]) -> str:
    if record.get("type") in SESSION_KINDS:
        return _session_text(record)
    action = record.get("action")
    if isinstance(action, Mapping):
        words = [str(action.get("kind", "step")).replace("_", " ")]
        words += [str(action[k]) for k in ("unit", "target") if action.get(k)]
        return " ".join(words)
    for key in ("text", "summary", "message", "announcement"):
        value = record.get(key)
        if isinstance(value, str) and value:
            return value
    kind = str(record.get("kind") or record.get("type") or "event")
    details = ", ".join(
        f"{k}={v}" for k, v in record.items() if k not in ("t", "kind", "type") and v is not None
    )
    return f"{kind}: {details}" if details else kind


ACTIVATION_KINDS = ("activation", "order", "step")
"""Logged event kinds that mark an activation (one step of the viewer's 'step by activation'),
in order of preference: the first kind the log holds is used."""


def events_from_log(records: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Logged session events in the timeline's form: {"t", "kind", "text", "source": "log",
    "seq"}; "seq" is the record's place in the log, the order in which things happened.

    Records without a time are placed at the time of the record before them.
    """
    out: list[dict[str, Any]] = []
    t_prev = 0.0
    for seq, record in enumerate(records):
        t_raw = record.get("t", record.get("time_s"))
        t = float(t_raw) if isinstance(t_raw, int | float) else t_prev
        t_prev = t
        # The record's type names it; an event's own "kind" field (a check's "opposed") is data.
        kind = str(record.get("type") or record.get("kind") or "event")
        item: dict[str, Any] = {"t": round(t, 3), "kind": kind, "text": _event_text(record)}
        item["source"] = "log"
        item["seq"] = seq
        if "unit" in record:
            item["unit"] = record["unit"]
        out.append(item)
    return out


def tidy_logged(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The logged events worth listing: an announcement that only repeats an event's sentence
    is dropped, and so are the raw 'step' records when the log has the engine's events."""
    texts = {(e["text"], e["t"]) for e in events if e["kind"] not in ("announcement", "step")}
    has_engine_events = any(e["kind"] == "activation" for e in events)
    out = []
    for e in events:
        if e["kind"] == "announcement" and any(
            text == e["text"] and abs(t - e["t"]) <= 1.0 for text, t in texts
        ):
            continue
        if e["kind"] == "step" and has_engine_events:
            continue
        out.append(e)
    return out


def read_session_events(
    footage: Path, problems: list[str] | None = None, log: Path | None = None
) -> list[dict[str, Any]]:
    """The session's logged events for this footage, or from ``log``, or [] when there is none.

    ``log`` (or the footage itself, when it is a recording) may name a run folder, one of its
    recording folders or an ``events.jsonl`` in one: the events of every recording folder of
    the run are read, in order, on one clock (a resumed battle is one battle; see
    :mod:`assistant.replay.runs`). Raises UserError when ``log`` holds no event log at all.
    """
    records = read_session_records(footage, problems, log)
    return tidy_logged(events_from_log(records)) if records else []


def read_session_records(
    footage: Path, problems: list[str] | None = None, log: Path | None = None
) -> list[dict[str, Any]]:
    """The raw records behind :func:`read_session_events` (times on the battle's clock)."""
    recordings = run_recordings(log if log is not None else footage)
    if recordings:
        return run_records(plan_run(recordings, problems))
    if log is None:
        log = find_session_log(footage)
        if log is None:
            return []
    elif log.is_dir():
        raise UserError(
            f"{log} holds no session event log: give a run folder of `soloscope play`, one "
            f"of its recording folders, or an {EVENTS_NAME} file"
        )
    return read_event_log(log, problems)


def activations(
    moves: Sequence[Move], piece_moves_: Sequence[PieceMove], logged: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The steps of 'step by activation': logged activations when the log has them, else one
    per piece move (with a scenario) or per tag move. Each: {"index", "t", "t_start", "label"}."""
    steps: list[dict[str, Any]] = []
    kinds = {str(e.get("kind")) for e in logged}
    kind = next((k for k in ACTIVATION_KINDS if k in kinds), None)
    logged_acts = [e for e in logged if str(e.get("kind")) == kind]
    if logged_acts:
        for e in logged_acts:
            steps.append({"t": e["t"], "t_start": e["t"], "label": e["text"]})
    elif piece_moves_:
        for pm in piece_moves_:
            label = f"{pm.piece} moves {pm.distance_in:.1f} in"
            steps.append({"t": pm.t_end, "t_start": pm.t_start, "label": label, "tags": pm.tags})
    else:
        for m in moves:
            label = f"tag {m.tag_id} moves {m.distance_in:.1f} in"
            steps.append({"t": m.t_end, "t_start": m.t_start, "label": label, "tags": [m.tag_id]})
    steps.sort(key=lambda s: s["t"])
    for i, s in enumerate(steps):
        s["index"] = i
        s["t"] = round(float(s["t"]), 3)
        s["t_start"] = round(float(s["t_start"]), 3)
        if "tags" in s:
            s["tags"] = [int(x) for x in s["tags"]]
    return steps

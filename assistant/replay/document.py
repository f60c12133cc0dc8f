"""timeline.json: the replay's saved form, version 1, and its loader.

Version 1 (table inches, degrees, seconds)::

    {"version": 1, "source": {...}, "table": {"width_in", "depth_in"}, "duration_s",
     "moves": [{"tag", "from", "to", "heading_from", "heading_to", "t_start", "t_end",
                "known", ["how"], ["facing_known": false]}],
     "piece_moves": [{"piece", "side", "tags", "from", "to", ..., "known", ["how"],
                      ["facing_known": false]}],
      (with a scenario)
     "states": [{"t", "t_until", "frame",
                 "tags": [{"id", "x", "y", "heading", "seen", ["pose": "inferred"]}],
                 "pieces": [{"name", "x", "y", "heading", ["hidden": true]}]}],
     "events": [{"t", "seq", "kind", "text", "p", ["known", "how"], ...}],   (in the order
      things happened: by time, then by "seq"; the footage's "removed" and "hidden" events are
      one per piece; "p" is how sure the replay is of the event, a probability: the engine's
      from its likelihood model, the footage's by how it was known,
      assistant.replay.engine_model.footage_probability)
     "summary": {"moves", "removed", "hidden",
                 "known": {"seen", "inferred", "rules", "unknown"}},
      (how each move, removal and hidden piece was known: "seen" from the tags, "inferred" from
      the picture, "rules" from the game's reconstruction, "unknown")
     "activations": [{"index", "t", "t_start", "label", "number", "of", "counts"}],
      (the steps of 'step by activation': "counts" is "activation" when "number" is the
      activation the step belongs to, "of" the activations in all — two steps of one activation,
      a move and the bonus move after a fall, share it — or "move" when the steps are the moves
      seen, with no game to count activations)
     (events with "source": "engine" come from replaying the moves in the scenario's engine
      when there is no session log: "activation", "order", "order_check", "legality",
      "removed", "round_start", "pick_up", "rules_move" (a model set as the rules left it:
      turned to face, pushed back), "declared" (an action that leads into the move seen: a
      charge declared, then run), "note")
     "roster": {...} | null, "keyframes": [{"t", "src"}], "warnings": [...]}
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from assistant.errors import UserError
from assistant.replay.dice_seen import SEEN as SEEN_ROLL
from assistant.replay.dice_seen import SeenRoll
from assistant.replay.engine_checks import sure
from assistant.replay.engine_model import footage_probability
from assistant.replay.engine_replay import EngineReplay, GameReplayer, engine_replay
from assistant.replay.reconstruct import Roster, activations, piece_moves, piece_positions
from assistant.replay.records import KNOWN, RULES
from assistant.replay.review import Corrections
from assistant.replay.timeline import Timeline
from calibration.profile import TableProfile

TIMELINE_VERSION = 1


def timeline_document(
    timeline: Timeline,
    *,
    profile: TableProfile,
    roster: Roster | None,
    logged: list[dict[str, Any]],
    keyframes: list[dict[str, Any]],
    warnings: list[str],
    source: dict[str, Any],
    engine: GameReplayer | None = None,
    corrections: Corrections | None = None,
    seen_rolls: Sequence[SeenRoll] = (),
) -> dict[str, Any]:
    """The version-1 timeline.json object (inches, degrees, seconds).

    With ``engine`` (the scenario's game) and no logged events, the game is reconstructed
    from the moves (and ``seen_rolls``, the rolls seen in the dice tray, in time order):
    events with "source": "engine" and the activation steps. Each seen roll is an event
    {"kind": "roll", "source": "tray", "values", "known": "seen" or "unknown"}."""
    pmoves = piece_moves(timeline.moves, roster) if roster else []
    if corrections is not None and roster is not None:
        pmoves = corrections.apply_moves(pmoves, dict(roster.sides))
    game = (
        engine_replay(timeline, roster, engine, pmoves, corrections, rolls=seen_rolls)
        if engine is not None and roster is not None and not logged
        else None
    )
    events: list[dict[str, Any]] = []
    told: dict[tuple[str, str, float], dict[str, Any]] = {}
    for e in timeline.events:
        item = e.to_json()
        found = roster.piece_of_tag(e.tag_id) if roster and e.tag_id is not None else None
        if found is not None:
            item["piece"] = found[0].name
            item["text"] = item["text"].replace(f"tag {e.tag_id}", found[0].name, 1)
        if e.kind in ("removed", "hidden") and e.tag_id is not None:
            key = (e.kind, item.get("piece", f"tag {e.tag_id}"), round(e.t, 3))
            if key in told:  # one line per piece, naming all its tags
                told[key]["tags"].append(e.tag_id)
                continue
            item["tags"] = [e.tag_id]
            told[key] = item
        events.append(item)
    for m in timeline.moves:
        if roster is not None and roster.piece_of_tag(m.tag_id) is not None:
            continue  # told as its piece's move below
        item = {
            "t": round(m.t_end, 3),
            "kind": "move",
            "tag": m.tag_id,
            "text": f"tag {m.tag_id} moved {m.distance_in:.1f} in "
            f"({m.t_start:.1f}-{m.t_end:.1f} s)",
            "known": m.known,
        }
        if m.how:
            item["how"] = m.how
        events.append(item)
    for pm in pmoves:
        item = {
            "t": round(pm.t_end, 3),
            "kind": "piece_move",
            "piece": pm.piece,
            "text": f"{pm.piece} moved {pm.distance_in:.1f} in",
            "known": pm.known,
        }
        if pm.how:
            item["how"] = pm.how
        events.append(item)
    events.extend(roll_event(r) for r in seen_rolls)
    events.extend(logged)
    if game is not None:
        events.extend(game.events)
    # In the order things happened: by time, and at one time in the order they were told (the
    # footage's, then the session log's in log order, then the engine's, whose verdict on a
    # move comes after the move). "seq" numbers that order for the viewer.
    events.sort(key=lambda e: e["t"])
    position_in = engine.tolerances.position_in if engine is not None else None
    events = [{**e, "seq": i, "p": _p(e, position_in)} for i, e in enumerate(events)]
    states = []
    for s in timeline.states:
        item = s.to_json()
        if roster:
            item["pieces"] = piece_positions(s, roster)
        states.append(item)
    return {
        "version": TIMELINE_VERSION,
        "source": source,
        "table": {"width_in": profile.width_in, "depth_in": profile.depth_in},
        "duration_s": round(timeline.duration_s, 3),
        "moves": [m.to_json() for m in timeline.moves],
        "piece_moves": [pm.to_json() for pm in pmoves],
        "states": states,
        "events": events,
        "activations": numbered_steps(
            list(game.activations)
            if game is not None and game.activations
            else activations(timeline.moves, pmoves, logged),
            game,
            bool(logged),
        ),
        "roster": roster.to_json() if roster else None,
        "keyframes": keyframes,
        "warnings": list(warnings) + (never_seen(timeline, roster) if roster else []),
        "summary": {
            **known_summary(events),
            **game_summary(events, game),
            **({"rolls": rolls_summary(seen_rolls)} if seen_rolls else {}),
        },
    }


def _p(event: dict[str, Any], position_in: float | None) -> float:
    """The event's probability: its own (the engine's), else by how it was known."""
    if "p" in event:
        return float(event["p"])
    known = str(event.get("known", "seen"))
    if position_in is None:
        return sure(footage_probability(known))
    return sure(footage_probability(known, position_in))


def numbered_steps(
    steps: list[dict[str, Any]], game: EngineReplay | None, logged: bool
) -> list[dict[str, Any]]:
    """The viewer's steps, each numbered as the game counts it ("number" of "of", what it
    "counts"): by the engine's activations (as ``game_summary`` counts them: a step joins the
    earliest activation of its unit not yet taken that began by then, else its unit's latest
    one), by the session log's activations (one step each), or, with neither, as moves."""
    if game is not None and game.activations:
        started = [
            e
            for e in sorted(game.events, key=lambda e: e["t"])
            if e["kind"] == "activation" and e.get("unit")
        ]
        taken = [False] * len(started)
        latest: dict[str, int] = {}
        numbered = []
        for step in steps:
            unit = step.get("unit")
            number = next(
                (
                    i + 1
                    for i, e in enumerate(started)
                    if not taken[i] and e["unit"] == unit and e["t"] <= step["t"] + 1e-6
                ),
                None,
            )
            if number is not None:
                taken[number - 1] = True
                latest[str(unit)] = number
            else:
                number = latest.get(str(unit), max(latest.values(), default=1))
            numbered.append({**step, "number": number, "of": len(started), "counts": "activation"})
        return numbered
    counts = "activation" if logged else "move"
    return [
        {**step, "number": i + 1, "of": len(steps), "counts": counts}
        for i, step in enumerate(steps)
    ]


def roll_event(roll: SeenRoll) -> dict[str, Any]:
    """A roll seen in the tray as a timeline event (kind "roll", source "tray")."""
    if roll.known == SEEN_ROLL and roll.values:
        text = "Dice in the tray: " + ", ".join(str(v) for v in roll.values)
    else:
        text = "Dice in the tray that could not be read"
    return {
        "t": round(roll.t_s, 3),
        "kind": "roll",
        "source": "tray",
        "text": text,
        "values": list(roll.values),
        "known": roll.known,
    }


def rolls_summary(rolls: Sequence[SeenRoll]) -> dict[str, int]:
    """How many rolls the tray showed: {"seen": read, "unknown": not read}."""
    seen = sum(1 for r in rolls if r.known == SEEN_ROLL)
    return {"seen": seen, "unknown": len(rolls) - seen}


def game_summary(events: list[dict[str, Any]], game: EngineReplay | None) -> dict[str, Any]:
    """The game the engine read from the moves (no session log): {"game": {"rounds",
    "activations", "fallen", "winner", "known"}} where "activations" counts the units'
    activations as the game log does (a bonus move after a fall is part of its activation,
    not a new one) and "known" counts the engine's events by
    how each was known (an event the engine derived from a seen move is "rules"); empty
    without it."""
    if game is None:
        return {}
    counts = dict.fromkeys(KNOWN, 0)
    rounds = activated = 0
    fallen: list[str] = []
    winner = None
    for e in events:
        if e.get("source") != "engine" or e["kind"] == "note":
            continue
        known = e.setdefault("known", RULES)
        counts[known] = counts.get(known, 0) + 1
        if e["kind"] == "activation":
            activated += 1
        elif e["kind"] == "round_start":
            rounds = max(rounds, int(e.get("round", 0)))
        elif e["kind"] == "removed" and e.get("unit"):
            fallen.append(str(e["unit"]))
        elif e["kind"] == "end":
            winner = str(e["text"]).split(" win", 1)[0] if " win" in e["text"] else None
    return {
        "game": {
            "rounds": rounds,
            "activations": activated,
            "fallen": fallen,
            "winner": winner,
            "known": counts,
        }
    }


def never_seen(timeline: Timeline, roster: Roster) -> list[str]:
    """A sentence for each model of the scenario none of whose tags the footage ever showed
    (once the board has come to rest at least once)."""
    if not timeline.states:
        return []
    shown = {r.tag_id for s in timeline.states for r in s.tags}
    shown |= {m.tag_id for m in timeline.moves} | {e.tag_id for e in timeline.events}
    out = []
    for piece in roster.pieces:
        ids = [int(m.tag_id) for m in piece.tags]
        if piece.base_diameter_mm <= 0 or not ids or shown & set(ids):
            continue
        tags = ", ".join(str(i) for i in ids)
        out.append(
            f"{piece.name} (tag {tags}) was never seen: its figure may hide its tag, or it was "
            "not on the table; the replay does not show it"
        )
    return out


def known_summary(events: list[dict[str, Any]]) -> dict[str, Any]:
    """How many moves, removals and hidden pieces the footage shows, and how each was known
    (the moves and the footage's own "removed" and "hidden" events, one per piece)."""
    counts = dict.fromkeys(KNOWN, 0)
    kinds = {"moves": 0, "removed": 0, "hidden": 0}
    for e in events:
        if "known" not in e or e.get("source") in ("engine", "log", "tray"):
            continue
        kind = "moves" if e["kind"] in ("move", "piece_move") else e["kind"]
        if kind in kinds:
            kinds[kind] += 1
            counts[e["known"]] = counts.get(e["known"], 0) + 1
    return {**kinds, "known": counts}


def _load_v1(doc: dict[str, Any], where: str) -> dict[str, Any]:
    missing = [k for k in ("moves", "states", "events", "table") if k not in doc]
    if missing:
        raise UserError(f"timeline {where} lacks {', '.join(missing)}")
    return doc


LOADERS: dict[int, Callable[[dict[str, Any], str], dict[str, Any]]] = {1: _load_v1}
"""One loader per timeline.json version."""


def load_timeline(path: Path | str) -> dict[str, Any]:
    """Read a timeline.json of any known version (UserError naming the file otherwise)."""
    p = Path(path)
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UserError(f"cannot read timeline {p}: {exc}") from exc
    version = doc.get("version") if isinstance(doc, dict) else None
    loader = LOADERS.get(version) if isinstance(version, int) else None
    if loader is None:
        raise UserError(
            f"timeline {p} has version {version!r}; this soloscope reads {sorted(LOADERS)}"
        )
    return loader(doc, str(p))

"""A replay's moves and removals against the renderer's per-frame ground truth (truth.json).

Used by the tests and by ``benchmarks/replay_bench.py``; the product never reads the truth.
Pieces are matched by their tags, so the truth's unit ids and the roster's names need not agree.
Positions are base centres in table inches, times seconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

SEEN_POS_IN = 0.25
SEEN_TIME_S = 0.4
"""A move whose tags were seen at both places: within this of the truth. The time is four
frames at 10 fps: the truth's start is the lift, and a hand reaching over a piece whose own
figure hides its tag covers the piece a few frames before the lift (the sample's Goblin
Archer: 0.2 s early in one rendering, 0.35 s in the one with the dice tray)."""
INFERRED_POS_IN = 0.5
INFERRED_TIME_S = 0.5
"""A move or removal found from the picture: within this of the truth."""


@dataclass(frozen=True)
class TrueEvent:
    """A lift and set-down somewhere (a move, a turn in place) or a lift for good (removed)."""

    kind: str
    """"move" or "removed"."""
    piece: str
    tags: frozenset[int]
    from_in: tuple[float, float]
    to_in: tuple[float, float] | None
    heading_to_deg: float | None
    t_start: float
    t_end: float
    visible_after: bool = True
    """Whether a tag of the piece is visible (renderer's truth) 1.5-3 s after a move."""


@dataclass
class Score:
    """Found events matched against the truth."""

    matched: list[tuple[TrueEvent, dict[str, Any]]] = field(default_factory=list)
    missed: list[TrueEvent] = field(default_factory=list)
    phantoms: list[dict[str, Any]] = field(default_factory=list)

    @property
    def precision(self) -> float:
        """Share of the found events that are true."""
        found = len(self.matched) + len(self.phantoms)
        return len(self.matched) / found if found else 1.0

    @property
    def recall(self) -> float:
        """Share of the true events that were found."""
        true = len(self.matched) + len(self.missed)
        return len(self.matched) / true if true else 1.0

    def worst(self, known: str) -> tuple[float, float]:
        """Worst position (inches) and time (seconds) error of the matched moves known so."""
        pos = time = 0.0
        for want, got in self.matched:
            if got.get("known", "seen") != known:
                continue
            time = max(time, abs(got["t_start"] - want.t_start), abs(got["t_end"] - want.t_end))
            if want.kind == "move" and want.to_in is not None:
                pos = max(
                    pos, math.dist(got["from"], want.from_in), math.dist(got["to"], want.to_in)
                )
        return pos, time


def true_events(truth: dict[str, Any]) -> list[TrueEvent]:
    """Every lift of a piece from the per-frame truth: set down again (a move, however small,
    a turn in place included) or never (removed), in time order."""
    tags_of = {p["name"]: frozenset(t["id"] for t in p.get("tags", [])) for p in truth["pieces"]}
    state: dict[str, dict[str, Any]] = {}
    out: list[TrueEvent] = []
    for frame in truth["frames"]:
        for p in frame["pieces"]:
            if p.get("kind", "piece") != "piece":
                continue
            pose = (p["x_in"], p["y_in"], p["heading_deg"], p["on_table"])
            s = state.setdefault(p["name"], {"pose": pose})
            if s["pose"][3] and not pose[3]:
                s["lift"], s["from"] = frame["t"], s["pose"]
            elif not s["pose"][3] and pose[3] and "lift" in s:
                out.append(
                    TrueEvent(
                        "move",
                        p["name"],
                        tags_of[p["name"]],
                        s["from"][:2],
                        pose[:2],
                        pose[2],
                        s.pop("lift"),
                        frame["t"],
                    )
                )
            s["pose"] = pose
    for name, s in state.items():
        if "lift" in s:
            out.append(
                TrueEvent(
                    "removed", name, tags_of[name], s["from"][:2], None, None, s["lift"], s["lift"]
                )
            )
    out.sort(key=lambda e: e.t_start)
    visible = [(f["t"], {t["id"] for t in f["tags"] if t["visible"]}) for f in truth["frames"]]
    checked = []
    for e in out:
        if e.kind == "move":
            after = [ids for t, ids in visible if e.t_end + 1.5 <= t <= e.t_end + 3.0]
            e = TrueEvent(**{**e.__dict__, "visible_after": any(ids & e.tags for ids in after)})
        checked.append(e)
    return checked


def found_events(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """A replay's piece moves and the footage's removals (not the engine's), each with "kind",
    "tags", "from", "to", "t_start", "t_end", "known"."""
    out = []
    for m in doc["piece_moves"]:
        out.append({**m, "kind": "move", "tags": frozenset(m["tags"])})
    for e in doc["events"]:
        if e["kind"] == "removed" and "source" not in e:
            out.append(
                {
                    **e,
                    "kind": "removed",
                    "tags": frozenset(e.get("tags", [e.get("tag")])),
                    "t_start": e["t"],
                    "t_end": e["t"],
                }
            )
    return sorted(out, key=lambda e: e["t_start"])


def _fits(want: TrueEvent, got: dict[str, Any]) -> bool:
    if want.kind != got["kind"] or not (want.tags & got["tags"]):
        return False
    seen = got.get("known", "seen") == "seen"
    pos_tol = SEEN_POS_IN if seen else INFERRED_POS_IN
    time_tol = SEEN_TIME_S if seen else INFERRED_TIME_S
    if abs(got["t_start"] - want.t_start) > time_tol or abs(got["t_end"] - want.t_end) > time_tol:
        return False
    if want.kind == "removed" or want.to_in is None:
        return True
    return (
        math.dist(got["from"], want.from_in) <= pos_tol
        and math.dist(got["to"], want.to_in) <= pos_tol
    )


def score(doc: dict[str, Any], truth: dict[str, Any]) -> Score:
    """Match the replay's moves and removals to the truth's, one to one, in time order."""
    result = Score()
    found = found_events(doc)
    used: set[int] = set()
    for want in true_events(truth):
        hit = next((i for i, got in enumerate(found) if i not in used and _fits(want, got)), None)
        if hit is None:
            result.missed.append(want)
        else:
            used.add(hit)
            result.matched.append((want, found[hit]))
    result.phantoms = [got for i, got in enumerate(found) if i not in used]
    return result


def pieces_on_table_at_end(truth: dict[str, Any]) -> set[frozenset[int]]:
    """The tags of each piece that stands on the table in the last frame."""
    tags_of = {p["name"]: frozenset(t["id"] for t in p.get("tags", [])) for p in truth["pieces"]}
    last = truth["frames"][-1]["pieces"]
    return {tags_of[p["name"]] for p in last if p["on_table"] and p.get("kind", "piece") == "piece"}

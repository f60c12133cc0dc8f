"""Rolls seen in the dice tray of recorded footage (issue 10: the camera sees every roll).

Contract between the footage side (this module, `run.py` / `observe.py`) and the engine side
(`engine_*.py`, `GameReplayer.replay(..., seen_rolls=...)`):

- the replay's frame loop finds the kit's dice tray (tags 48/49) and emits one `SeenRoll` each
  time dice come to rest in the tray after it was empty; the list handed to the engine is in time
  order (`t_s` ascending, seconds from the clip's start, the time the dice settled);
- `values` are the faces read by `vision.dice` (one int per die, in the reader's order, which is
  left to right in the tray, not the order the rules name them); `known` is "seen" when every die
  was read, "unknown" when the reader could not read the roll (then `values` is empty);
- a seen roll tells the count and faces of one physical roll, not its purpose: the engine matches
  each seen roll to the next roll its rules ask for, in order;
- footage without a tray gives an empty list, and the replay is the one it was before.
"""

from __future__ import annotations

from dataclasses import dataclass

SEEN = "seen"
UNKNOWN = "unknown"


@dataclass(frozen=True)
class SeenRoll:
    """One roll that came to rest in the tray: when (seconds), the faces read, how known."""

    t_s: float
    values: tuple[int, ...]
    known: str = SEEN

    def as_json(self) -> dict[str, object]:
        """The roll as a JSON object (timeline.json, the viewer)."""
        return {"t": round(self.t_s, 3), "values": list(self.values), "known": self.known}

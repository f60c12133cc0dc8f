"""Bidirectional control characters, taken out of the text a player reads on a page.

Names come from scenario, roster and campaign files. A right-to-left override in a name turns
the letters after it around ("\\u202eevil" shows as "live") and can spill into the words around
it; the other embedding, isolate and mark controls reorder text as well. Right-to-left letters
themselves are kept: only the invisible controls go.
"""

from __future__ import annotations

import re
from typing import Any

BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Arabic letter mark, LRM, RLM, the embeddings and overrides (LRE, RLE, PDF, LRO, RLO) and the
isolates (LRI, RLI, FSI, PDI)."""


def without_bidi_controls(text: str) -> str:
    """``text`` with every bidirectional control character taken out."""
    return BIDI_CONTROLS.sub("", text)


def strings_without_bidi_controls(data: Any) -> Any:
    """A copy of a JSON-like value (dicts, lists, strings, numbers) with the controls taken out
    of every string, keys included."""
    if isinstance(data, str):
        return without_bidi_controls(data)
    if isinstance(data, dict):
        return {
            strings_without_bidi_controls(k): strings_without_bidi_controls(v)
            for k, v in data.items()
        }
    if isinstance(data, list | tuple):
        return [strings_without_bidi_controls(v) for v in data]
    return data

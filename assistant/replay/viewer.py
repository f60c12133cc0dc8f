"""The offline replay viewer: one self-contained HTML file with the timeline inlined.

``index.html`` carries its CSS, its JavaScript and the timeline as JSON; key frames are small
JPEGs in ``frames/`` next to it, referenced relatively, so the folder works opened from disk
(file://) with no network. The page exposes ``window.replay.seek(t_s)``,
``window.replay.gotoActivation(i)`` and draws each tag as an SVG ``g.tag`` element with
``data-tag``, ``data-x``, ``data-y`` (table inches) and ``data-heading`` (degrees).
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from assistant.bidi import strings_without_bidi_controls
from calibration.safe_files import write_atomic

_PLACEHOLDER = "/*__REPLAY_DATA__*/null"


def viewer_template() -> str:
    """The HTML template shipped with the package."""
    return resources.files("assistant.replay").joinpath("viewer.html").read_text(encoding="utf-8")


def render_viewer(document: dict[str, Any]) -> str:
    """The viewer page with ``document`` (a timeline.json object) inlined, without the
    bidirectional controls in its names and texts (see ``assistant.bidi``)."""
    plain = strings_without_bidi_controls(document)
    data = json.dumps(plain, separators=(",", ":"), ensure_ascii=True)
    # Inside <script>, "</" could close the element early; "<!--" could open a comment.
    data = data.replace("</", "<\\/").replace("<!--", "<\\!--")
    template = viewer_template()
    if _PLACEHOLDER not in template:
        raise RuntimeError("viewer.html lost its data placeholder")
    return template.replace(_PLACEHOLDER, data, 1)


def write_viewer(path: Path, document: dict[str, Any]) -> Path:
    """Write the viewer for ``document`` to ``path`` (usually DIR/index.html)."""
    write_atomic(path, render_viewer(document))
    return path

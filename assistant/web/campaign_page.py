"""The campaign page: the roster as cards with their wounds and history, the scenario graph
with the path taken so far, and a link to every battle's record.

The page reads the campaign database named by the app's ``CAMPAIGN_DB`` setting on every
request (``soloscope campaign show --page --db FILE`` serves it). Without one it says so.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections import deque
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, current_app, render_template, send_file
from flask.typing import ResponseReturnValue

from assistant.errors import UserError

bp = Blueprint(
    "campaign",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/campaign/static",
)

_NODE_W, _NODE_H, _GAP_X, _GAP_Y = 170, 44, 60, 26
"""Graph layout, pixels: node box, gaps between columns and rows."""


def _store_data() -> dict[str, Any] | None:
    from assistant.campaign.store import CampaignStore
    from assistant.campaign.view import campaign_json

    path = current_app.config.get("CAMPAIGN_DB")
    if not path:
        return None
    with CampaignStore.open(Path(path)) as store:
        data = campaign_json(store)
        slots = _slots(store)
    for c in data["roster"]:
        c["slots"] = slots.get(c["id"], 0)
    return data


def _slots(store: Any) -> dict[str, int]:
    """Each character's wound slots: from its last battle, else its card's ``wound_slots``."""
    out = {}
    for c in store.campaign().roster:
        value = c.card.get("wound_slots", 0)
        out[c.key] = int(value) if isinstance(value, int) else 0
    for battle in store.battles():
        for entry, _ in store.battle_units(battle.n):
            out[entry.key] = entry.slots
    return out


def graph_layout(data: dict[str, Any]) -> dict[str, Any]:
    """Boxes and arrows for the scenario graph: columns by distance from the first battle,
    the path taken marked."""
    nodes = {n["id"]: n for n in data["graph"]}
    start = data["graph"][0]["id"] if data["graph"] else None
    path = data["path"]
    if path:
        start = path[0]
    depth: dict[str, int] = {}
    queue: deque[str] = deque([start] if start else [])
    if start:
        depth[start] = 0
    while queue:
        node = queue.popleft()
        for target in nodes[node]["next"].values():
            if target in nodes and target not in depth:
                depth[target] = depth[node] + 1
                queue.append(target)
    for n in nodes:
        depth.setdefault(n, max(depth.values(), default=-1) + 1)
    rows: dict[int, int] = {}
    boxes = {}
    for node_id, node in nodes.items():
        col = depth[node_id]
        row = rows.get(col, 0)
        rows[col] = row + 1
        x = 10 + col * (_NODE_W + _GAP_X)
        y = 10 + row * (_NODE_H + _GAP_Y)
        boxes[node_id] = {**node, "x": x, "y": y, "on_path": node_id in path}
    taken = set(itertools.pairwise(path))
    arrows = []
    for node_id, node in nodes.items():
        by_target: dict[str, list[str]] = {}
        for key, target in node["next"].items():
            if target in boxes:
                by_target.setdefault(target, []).append(key)
        for target, keys in by_target.items():
            a, b = boxes[node_id], boxes[target]
            arrows.append(
                {
                    "x1": a["x"] + _NODE_W,
                    "y1": a["y"] + _NODE_H / 2,
                    "x2": b["x"],
                    "y2": b["y"] + _NODE_H / 2,
                    "label": "any" if {"win", "lose", "draw"} <= set(keys) else " / ".join(keys),
                    "taken": (node_id, target) in taken,
                }
            )
    width = 20 + (max(depth.values(), default=0) + 1) * (_NODE_W + _GAP_X)
    height = 20 + max(rows.values(), default=1) * (_NODE_H + _GAP_Y)
    return {
        "boxes": list(boxes.values()),
        "arrows": arrows,
        "width": width,
        "height": height,
        "node_w": _NODE_W,
        "node_h": _NODE_H,
    }


@bp.get("/campaign")
def campaign() -> ResponseReturnValue:
    """The campaign page."""
    try:
        data = _store_data()
    except UserError as exc:
        return render_template("campaign.html", data=None, error=str(exc)), 200
    if data is None:
        return render_template("campaign.html", data=None, error="No campaign is open."), 200
    return render_template("campaign.html", data=data, graph=graph_layout(data), error=None)


@bp.get("/campaign/battle/<int:n>")
def battle(n: int) -> ResponseReturnValue:
    """A battle's record: its replay viewer when one was built, else its log."""
    data = _store_data()
    if data is None:
        abort(404)
    found = [b for b in data["battles"] if b["n"] == n]
    if not found:
        abort(404)
    entry = found[0]
    run = Path(entry["run"] or "")
    viewer = run / "replay" / "index.html"
    if entry["run"] and viewer.is_file():
        return send_file(viewer.resolve())
    lines = []
    for name in ("log.jsonl", "session/events.jsonl"):
        log = run / name
        if entry["run"] and log.is_file():
            for raw in log.read_text(encoding="utf-8").splitlines():
                try:
                    item = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(item, dict) and isinstance(item.get("text"), str):
                    lines.append(item["text"])
            break
    hint = ""
    if entry["run"] and (run / "session").is_dir():
        hint = (
            f"Build this battle's replay from what the camera recorded: soloscope replay "
            f"{run / 'session'} --scenario {run / 'scenario.toml'} --out {run / 'replay'}"
        )
    return render_template("campaign_battle.html", data=data, battle=entry, lines=lines, hint=hint)


def serve_campaign_page(db: Path, port: int, stop: threading.Event | None = None) -> None:
    """Serve the campaign page for ``db`` on this computer until Ctrl-C (or ``stop``)."""
    from assistant.live_hub import LiveHub
    from assistant.web.server import serve

    hub = LiveHub()
    handle = serve(hub, port=port, config={"CAMPAIGN_DB": str(db.resolve())})
    print(f"The campaign page: {handle.url}campaign — press Ctrl-C to stop.", flush=True)
    try:
        (stop or threading.Event()).wait()
    except KeyboardInterrupt:
        pass
    finally:
        handle.stop()
        hub.close()

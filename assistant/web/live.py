"""The live feed: the current view as JSON, server-sent events, and the latest table frame."""

from __future__ import annotations

from collections.abc import Iterator

from flask import Blueprint, Response, current_app, jsonify

from assistant.live_hub import HubEvent, Subscription
from assistant.web.context import hub_of, stopping_event

bp = Blueprint("live", __name__)

NO_CACHE = {"Cache-Control": "no-store"}


@bp.get("/api/view")
def view() -> Response:
    """``{"version": N, "view": {...}}`` of the current view (view null before the first)."""
    version, text = hub_of(current_app).current_view_json()
    body = f'{{"version":{version},"view":{text if text is not None else "null"}}}'
    return Response(body, mimetype="application/json", headers=NO_CACHE)


@bp.get("/frame.jpg")
def frame() -> Response:
    """The latest rectified top-down frame (JPEG); 404 before the first."""
    version, jpeg = hub_of(current_app).latest_frame()
    if jpeg is None:
        return Response("No camera frame yet.\n", status=404, mimetype="text/plain")
    headers = {**NO_CACHE, "X-Frame-Version": str(version)}
    return Response(jpeg, mimetype="image/jpeg", headers=headers)


@bp.get("/api/health")
def health() -> Response:
    """A tiny liveness check: versions of the current view and frame."""
    hub = hub_of(current_app)
    return jsonify(view=hub.current_view_json()[0], frame=hub.latest_frame()[0])


def _sse(event: HubEvent) -> str:
    if event.kind == "view":
        return f"id: {event.version}\nevent: view\ndata: {event.data}\n\n"
    return f"event: frame\ndata: {event.data}\n\n"


@bp.get("/events")
def events() -> Response:
    """Server-sent events: ``view`` (the whole view JSON) and ``frame`` (a version number)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    subscription = hub_of(app).subscribe()
    stopping = stopping_event(app)
    keepalive_s = float(app.config["SSE_KEEPALIVE_S"])
    poll_s = float(app.config["SSE_POLL_S"])

    def stream(subscription: Subscription) -> Iterator[str]:
        try:
            yield "retry: 2000\n\n"
            idle_s = 0.0
            while not stopping.is_set():
                event = subscription.get(timeout=poll_s)
                if event is None:
                    idle_s += poll_s
                    if idle_s >= keepalive_s:
                        idle_s = 0.0
                        yield ": keep-alive\n\n"
                    continue
                if event.kind == "closed":
                    return
                idle_s = 0.0
                yield _sse(event)
        finally:
            subscription.close()

    return Response(
        stream(subscription),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )

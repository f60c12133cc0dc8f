"""What a request may carry: a body of at most ``MAX_CONTENT_LENGTH`` bytes (64 KB by default).

The page's commands are a few hundred bytes of JSON. A request announcing a larger body
(``Content-Length``) is refused with 413 before any of it is read; a body sent without a length
(chunked) is read up to the limit at most, and refused with 413 when it reaches it (werkzeug
stops there silently: ``read_body`` turns that into the refusal). The server closes the
connection after every response, so an unread body is never taken for the next request.
"""

from __future__ import annotations

from flask import Flask, Response, current_app, request
from werkzeug.exceptions import RequestEntityTooLarge

MAX_BODY_BYTES = 64 * 1024
"""The default ``MAX_CONTENT_LENGTH``: far above any command, far below a memory problem."""


def _too_large(limit: int | None) -> Response:
    most = f"{limit // 1024} KB" if limit else "the limit"
    return Response(
        f"Request too large: the table page takes bodies of at most {most}.\n",
        status=413,
        mimetype="text/plain",
    )


def read_body() -> bytes:
    """The request body (cached for ``request.get_json``); 413 when it reaches the limit."""
    data = request.get_data(cache=True)
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if limit is not None and len(data) >= limit:
        raise RequestEntityTooLarge()
    return data


def init_app(app: Flask) -> None:
    """Refuse oversized request bodies in ``app`` (install before any other request check)."""

    @app.before_request
    def refuse_large_bodies() -> Response | None:
        limit = app.config.get("MAX_CONTENT_LENGTH")
        length = request.content_length
        if limit is not None and length is not None and length > limit:
            return _too_large(limit)
        return None

    @app.errorhandler(RequestEntityTooLarge)
    def body_cut_off(_: RequestEntityTooLarge) -> Response:
        return _too_large(app.config.get("MAX_CONTENT_LENGTH"))

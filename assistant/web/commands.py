"""The player's commands from the page: declare, dice, undo, redo, repeat, confirm, pass."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request

from assistant.live_hub import Command, CommandError
from assistant.web import limits
from assistant.web.context import hub_of

bp = Blueprint("commands", __name__)


@bp.post("/api/command")
def command() -> tuple[Response, int]:
    """Queue one command (a JSON object, see ``Command.from_dict``) for the session.

    202 with the command when queued; 400 with a plain ``error`` sentence when refused; 415
    when the body is not JSON (which also keeps other web sites from posting here); 413 when
    the body is larger than ``MAX_CONTENT_LENGTH``.
    """
    if not request.is_json:
        return jsonify(ok=False, error="Send the command as JSON (application/json)."), 415
    limits.read_body()
    payload = request.get_json(silent=True)
    try:
        parsed = Command.from_dict(payload)
        hub_of(current_app).send_command(parsed)
    except CommandError as exc:
        return jsonify(ok=False, error=str(exc)), 400
    return jsonify(ok=True, command=parsed.to_dict()), 202

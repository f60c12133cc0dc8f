"""The player's commands from the page: declare, dice, undo, redo, repeat, confirm, pass."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from assistant.live_commands import Command, CommandError
from assistant.web import limits
from assistant.web.context import hub_of

bp = Blueprint("commands", __name__)

TOO_DEEP = (
    "The command is nested too deeply: send one JSON object of plain values, such as "
    '{"kind": "undo"}.'
)
NOT_JSON = 'The command is not valid JSON: send one JSON object, such as {"kind": "undo"}.'


class _TooDeep(Exception):
    """A JSON body nested deeper than Python's parser or printer can follow."""


def _payload(body: bytes) -> Any:
    """The body's JSON value; ``CommandError`` when it is not JSON, ``_TooDeep`` when it is
    nested too deeply to read."""
    try:
        return json.loads(body)
    except RecursionError:
        raise _TooDeep() from None
    except ValueError:  # not JSON, or not UTF-8
        raise CommandError(NOT_JSON) from None


@bp.post("/api/command")
def command() -> tuple[Response, int]:
    """Queue one command (a JSON object, see ``Command.from_dict``) for the session.

    202 with the command when queued; 400 with a plain ``error`` sentence when refused (a body
    that is not JSON, or is nested too deeply to read, included); 415 when the body is not
    declared as JSON (which also keeps other web sites from posting here); 413 when the body is
    larger than ``MAX_CONTENT_LENGTH``.
    """
    if not request.is_json:
        return jsonify(ok=False, error="Send the command as JSON (application/json)."), 415
    try:
        parsed = Command.from_dict(_payload(limits.read_body()))
        hub_of(current_app).send_command(parsed)
    except CommandError as exc:
        return jsonify(ok=False, error=str(exc)), 400
    except (_TooDeep, RecursionError):  # RecursionError: a nested value quoted in a refusal
        return jsonify(ok=False, error=TOO_DEEP), 400
    return jsonify(ok=True, command=parsed.to_dict()), 202

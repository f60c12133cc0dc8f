"""The table page: a Flask app showing the live board and taking the player's commands.

``create_app(hub, config=None)`` builds the app around a ``LiveHub``; ``serve(hub, ...)`` runs it
in a background thread and returns a handle with ``.url`` and ``.stop()``; ``token_banner`` is the
text (with a terminal QR code) that tells the player where to open the page.
"""

from assistant.web.app import create_app
from assistant.web.auth import token_banner
from assistant.web.server import ServerHandle, serve

__all__ = ["ServerHandle", "create_app", "serve", "token_banner"]

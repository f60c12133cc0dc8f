"""Access control for the table page: a token when it listens beyond this computer.

With a token set, a request must carry it as ``?token=`` (the page then keeps it in a cookie),
as the ``X-Soloscope-Token`` header, or as ``Authorization: Bearer``; anything else gets a plain
403. Without a token the page only answers requests addressed to this computer by name (Host
``localhost``/``127.0.0.1``/``[::1]``), which keeps other web sites from reaching it through DNS
rebinding.
"""

from __future__ import annotations

import hmac
import io
from urllib.parse import urlencode, urlsplit, urlunsplit

import segno
from flask import Flask, Response, g, redirect, request

COOKIE_NAME = "soloscope_token"
HEADER_NAME = "X-Soloscope-Token"
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})

MISSING_TOKEN = (
    "Forbidden: this soloscope page needs its access token. Open the address shown in the "
    "terminal (it ends with ?token=...) or scan its QR code.\n"
)
WRONG_TOKEN = (
    "Forbidden: the access token is wrong. Open the address shown in the terminal where "
    "soloscope is running, or scan its QR code.\n"
)
WRONG_HOST = (
    "Forbidden: this soloscope page only answers on this computer (http://127.0.0.1). To use it "
    "from another device, start soloscope with --listen-all.\n"
)


def _forbidden(message: str) -> Response:
    return Response(message, status=403, mimetype="text/plain")


def _given_token() -> tuple[str | None, bool]:
    """The token the request carries and whether it came in the query string."""
    if "token" in request.args:
        return request.args.get("token", ""), True
    header = request.headers.get(HEADER_NAME)
    if header is not None:
        return header, False
    authorization = request.headers.get("Authorization", "")
    if authorization.lower().startswith("bearer "):
        return authorization[7:].strip(), False
    return request.cookies.get(COOKIE_NAME), False


def _check_request(token: str | None) -> Response | None:
    if token is None:
        host = urlsplit(f"//{request.host}").hostname or ""
        if host.lower() not in LOOPBACK_HOSTS:
            return _forbidden(WRONG_HOST)
        return None
    given, from_query = _given_token()
    if not given:
        return _forbidden(MISSING_TOKEN)
    if not hmac.compare_digest(given.encode(), token.encode()):
        return _forbidden(WRONG_TOKEN)
    if from_query:
        g.soloscope_set_cookie = True
        if request.method == "GET" and request.path == "/":
            # Keep the token out of the address bar (and out of screenshots): cookie + redirect.
            return redirect("/", code=303)  # type: ignore[return-value]
    return None


def init_app(app: Flask) -> None:
    """Install the token (or host) check on every request of ``app``."""

    @app.before_request
    def require_token() -> Response | None:
        return _check_request(app.config.get("TOKEN"))

    @app.after_request
    def remember_token(response: Response) -> Response:
        token = app.config.get("TOKEN")
        if token and g.get("soloscope_set_cookie"):
            response.set_cookie(COOKIE_NAME, token, httponly=True, samesite="Strict")
        return response


def login_url(url: str, token: str | None) -> str:
    """``url`` with ``?token=`` added when there is a token."""
    if not token:
        return url
    parts = urlsplit(url)
    query = "&".join(q for q in (parts.query, urlencode({"token": token})) if q)
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", query, ""))


def token_banner(url: str, token: str | None) -> str:
    """What the terminal shows: where to open the page, and (with a token) a QR code of it."""
    address = login_url(url, token)
    if not token:
        return f"The table page: {address}\n(open it in a browser on this computer)\n"
    qr = io.StringIO()
    segno.make(address, error="m").terminal(out=qr, compact=True)
    return (
        f"The table page: {address}\n"
        "Open it on a phone or tablet on the same network, or scan this code:\n"
        f"{qr.getvalue()}"
        "Anyone with this address can control the game: keep it to yourself.\n"
    )
